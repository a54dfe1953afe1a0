#!/usr/bin/env bash
# bench-ajv.sh — `eval752 validate` on a b-2 set beside ajv 8 on the same
# files and the same schemas (issue 10: validate must take <= 3x ajv's wall
# time and <= 1 GiB peak RSS on 1M b-2 lines).
#
# usage: scripts/bench-ajv.sh [SET_DIR]
#   SET_DIR holds b2.jsonl and atoms.jsonl (scripts/gen-sets.go -kind b2);
#   default: generate N lines into $BENCH_DIR/b2-N once.
#   env: N=100000            lines to generate when SET_DIR is not given
#        RUNS=1              timed runs of each tool, alternating (median reported)
#        EVAL752_BIN=path    use this binary instead of building bin/eval752
#        AJV_DIR=dir         where ajv is installed (default: a temporary
#                            folder, removed at exit; never the repository)
#        BENCH_DIR=/tmp/eval752-bench
#
# The reference: ajv 8 (draft 2020-12 build, ajv-formats, allErrors) checks
# every line of b2.jsonl against static/schemas/b2.annotation.schema.json
# and of atoms.jsonl against static/schemas/eval752.atom.schema.json — the
# product's own schemas, read from this repository — one JSON.parse and one
# validate call per line, single-threaded (scripts/ajv-validate.mjs). It
# checks the schema only; eval752 validate also checks duplicate keys, UTF-8,
# number ranges, the b-2 rules of seed 000, ids, duplicates, contradictions
# and split isolation (near-copied questions across splits).
#
# Both run under GNU time (Debian package `time`): wall, user+sys CPU, peak RSS.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
RUNS=${RUNS:-1}
N=${N:-100000}
BENCH_DIR=${BENCH_DIR:-/tmp/eval752-bench}

if [[ ! -x /usr/bin/time ]]; then
  echo "needs GNU time (/usr/bin/time; apt-get install time)" >&2
  exit 2
fi

SET=${1:-}
if [[ -z "$SET" ]]; then
  SET=$BENCH_DIR/b2-$N
  if [[ ! -s "$SET/b2.jsonl" ]]; then
    echo "generating $N b-2 lines into $SET (once) ..."
    go run scripts/gen-sets.go -kind b2 -n "$N" -out "$SET"
  fi
fi
for f in b2.jsonl atoms.jsonl; do
  [[ -s "$SET/$f" ]] || { echo "$SET/$f is missing" >&2; exit 2; }
done

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [[ -z "${AJV_DIR:-}" ]]; then
  AJV_DIR=$TMP/ajv
  mkdir -p "$AJV_DIR"
  echo "installing ajv 8 and ajv-formats 3 into $AJV_DIR ..."
  (cd "$AJV_DIR" && npm init -y > /dev/null && npm install --no-audit --no-fund --silent ajv@8 ajv-formats@3)
fi
export AJV_DIR
for m in ajv ajv-formats; do
  [[ -f "$AJV_DIR/node_modules/$m/package.json" ]] || {
    echo "error: $m is not installed in AJV_DIR=$AJV_DIR (npm install ajv@8 ajv-formats@3 there, or leave AJV_DIR unset)" >&2
    exit 2
  }
done

if [[ -n "${EVAL752_BIN:-}" ]]; then
  BIN=$EVAL752_BIN
else
  echo "building $TMP/eval752 ..."
  go build -trimpath -o "$TMP/eval752" ./cmd/eval752
  BIN=$TMP/eval752
fi

echo "set: $SET ($(du -bc "$SET/b2.jsonl" "$SET/atoms.jsonl" | tail -1 | cut -f1) bytes, $(wc -l < "$SET/b2.jsonl") b-2 lines)"
echo "node $(node --version), ajv $(node -p "require('$AJV_DIR/node_modules/ajv/package.json').version"), $("$BIN" version 2>/dev/null | head -1 || echo eval752)"

# timed MAXRC CMD...: one run, writes "wall user+sys rss_kib" to $TMP/res;
# output to $TMP/out. An exit status above MAXRC stops the script: ajv
# exits 0 when it ran, validate 1 when it finds errors (the set's planted
# leaks). Not run in a subshell, so that its exit stops the script (no
# ratio is printed from a run that failed).
timed() {
  local maxrc=$1 rc=0
  shift
  /usr/bin/time -f '%e %U %S %M' -o "$TMP/time" "$@" > "$TMP/out" 2> "$TMP/err" || rc=$?
  if [[ $rc -gt $maxrc ]]; then
    cat "$TMP/err" >&2
    echo "error: $* failed (exit status $rc); no ratio" >&2
    exit 2
  fi
  tail -1 "$TMP/time" | awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' > "$TMP/res"
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

ajv_w=() ajv_m=() ev_w=() ev_m=()
for i in $(seq "$RUNS"); do
  timed 0 node scripts/ajv-validate.mjs \
    static/schemas/b2.annotation.schema.json "$SET/b2.jsonl" \
    static/schemas/eval752.atom.schema.json "$SET/atoms.jsonl"
  read -r w c m < "$TMP/res"
  printf "  ajv     run %d: %6.2f s wall, %6.2f s CPU, %7.1f MiB   (%s)\n" "$i" "$w" "$c" "$(echo "$m / 1024" | bc -l)" "$(tail -1 "$TMP/out")"
  ajv_w+=("$w") ajv_m+=("$m")
  timed 1 "$BIN" validate "$SET"
  read -r w c m < "$TMP/res"
  printf "  eval752 run %d: %6.2f s wall, %6.2f s CPU, %7.1f MiB   (%s)\n" "$i" "$w" "$c" "$(echo "$m / 1024" | bc -l)" "$(grep -m1 'error(s)' "$TMP/out")"
  ev_w+=("$w") ev_m+=("$m")
done

AW=$(printf '%s\n' "${ajv_w[@]}" | median)
EW=$(printf '%s\n' "${ev_w[@]}" | median)
EM=$(printf '%s\n' "${ev_m[@]}" | median)
printf "median wall: ajv %.2f s, eval752 %.2f s: %.2fx ajv\n" "$AW" "$EW" "$(echo "$EW / $AW" | bc -l)"
printf "eval752 peak RSS: %.1f MiB\n" "$(echo "$EM / 1024" | bc -l)"
ok=1
[[ $(echo "$EW <= 3 * $AW" | bc -l) -eq 1 ]] || ok=0
[[ $(echo "$EM <= 1048576" | bc -l) -eq 1 ]] || ok=0
if [[ $ok -eq 1 ]]; then
  echo "target (<= 3x ajv's wall time, <= 1 GiB): met"
else
  echo "target (<= 3x ajv's wall time, <= 1 GiB): NOT met"
fi
