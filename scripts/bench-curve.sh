#!/usr/bin/env bash
# bench-curve.sh — the cost curve of every command in n (issue 10: "every
# command and the page's pipeline linear (or n log n) in n — print the
# 10k / 100k / 1M / 5M curve, audit included").
#
# For each kind of input and each n, the input is generated with
# scripts/gen-sets.go into a temporary folder (or taken from a folder given
# with -d), each command runs once on it under
# `/usr/bin/time -f '%e %U %S %M'` (and `ulimit -v`), and the folder is
# deleted before the next n. The table gives CPU time (user + sys: the
# figure that compares on a shared machine), peak RSS and wall time, each
# with its ratio to the previous n and the exponent log(ratio)/log(n ratio)
# (1: linear; n log n from 100k to 1M is ≈ 1.1).
#
# usage: scripts/bench-curve.sh [-k KINDS] [-n SIZES] [-c COMMANDS] [-d KIND:N=DIR]...
#   -k  kinds, comma-separated (default items,items-small,b2,seed003):
#         items        items.jsonl + results.jsonl (one run)
#         items-small  short freeform items only (validate)
#         b2           b2.jsonl + atoms.jsonl
#         seed003      questions.jsonl + documents.jsonl + chunks.jsonl
#   -n  record counts, comma-separated (default 10000,100000,1000000,5000000)
#   -c  commands, comma-separated (default validate,score,audit,results); a
#       command runs on the kinds it applies to: score on items (the only kind
#       with results), audit on b2 and seed003, validate and results on all
#       (results: the page's pipeline, `eval752 results - DIR`)
#   -d  KIND:N=DIR  use the pre-generated folder DIR for KIND at N (it must
#       hold what `go run scripts/gen-sets.go -kind KIND -n N` writes); never
#       deleted. Repeatable.
#   env EVAL752_BIN   binary to time (default: build bin/eval752)
#       CURVE_TMP     parent of the temporary folders (default ${TMPDIR:-/tmp})
#       VMEM_KB       ulimit -v of each command (default 8388608 = 8 GiB)
#       MAX_INPUT_MB  largest input to generate (default 2500: the disk rule)
#
# A size is skipped, and the reason printed, when its input would exceed
# MAX_INPUT_MB (estimated from the previous size's bytes per record) or a
# command's peak RSS, extrapolated linearly from the previous size, would
# exceed VMEM_KB (that command only). Exit status 0 when every run that was
# not skipped exited 0 or 1 (findings), 1 otherwise.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

KINDS=items,items-small,b2,seed003
SIZES=10000,100000,1000000,5000000
CMDS=validate,score,audit,results
declare -A PRE=()
while getopts "k:n:c:d:h" o; do
  case $o in
    k) KINDS=$OPTARG ;;
    n) SIZES=$OPTARG ;;
    c) CMDS=$OPTARG ;;
    d) spec=$OPTARG; PRE[${spec%%=*}]=${spec#*=} ;;
    *) sed -n '2,40p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
VMEM_KB=${VMEM_KB:-8388608}
MAX_INPUT_MB=${MAX_INPUT_MB:-2500}

if [[ ! -x /usr/bin/time ]]; then
  echo "GNU time is needed: apt-get install -y time" >&2
  exit 2
fi
if [[ -n "${EVAL752_BIN:-}" ]]; then
  BIN=$EVAL752_BIN
else
  echo "building bin/eval752 ..." >&2
  go build -trimpath -o bin/eval752 ./cmd/eval752
  BIN=bin/eval752
fi

WORK=$(mktemp -d "${CURVE_TMP:-${TMPDIR:-/tmp}}/eval752-curve.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
GEN=$WORK/gen-sets
go build -o "$GEN" scripts/gen-sets.go

applies() { # applies CMD KIND
  case $1 in
    score) [[ $2 == items ]] ;;
    audit) [[ $2 == b2 || $2 == seed003 ]] ;;
    results) [[ $2 != items-small ]] ;;
    *) true ;;
  esac
}

ratio() { # ratio NEW OLD: NEW/OLD, or "" when OLD is empty or 0
  [[ -n "$2" ]] && awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b }'
}
slope() { # slope NEW OLD NNEW NOLD: log(NEW/OLD) / log(NNEW/NOLD)
  [[ -n "$2" ]] && awk -v a="$1" -v b="$2" -v n="$3" -v m="$4" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", log(a / b) / log(n / m) }'
}

ROWS=$WORK/rows
printf "%-11s %-8s %9s %9s %9s %6s %5s %10s %6s %5s %8s %3s\n" kind command n "input MB" "CPU s" "×prev" exp "RSS MiB" "×prev" exp "wall s" rc > "$ROWS"
SKIPS=()
status=0
IFS=, read -r -a kinds <<< "$KINDS"
IFS=, read -r -a sizes <<< "$SIZES"
IFS=, read -r -a cmds <<< "$CMDS"
echo "bench-curve: $BIN on kinds ${KINDS}, n ${SIZES}, commands ${CMDS}; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for kind in "${kinds[@]}"; do
  declare -A lastCPU=() lastRSS=()
  lastN= bytesPerRec=
  for n in "${sizes[@]}"; do
    if [[ -n "$bytesPerRec" ]]; then
      est=$(awk -v b="$bytesPerRec" -v n="$n" 'BEGIN { printf "%d", b * n / 1e6 }')
      if (( est > MAX_INPUT_MB )) && [[ -z "${PRE[$kind:$n]:-}" ]]; then
        SKIPS+=("$kind n=$n: the input would be ≈ $est MB > MAX_INPUT_MB=$MAX_INPUT_MB")
        continue
      fi
    fi
    dir=${PRE[$kind:$n]:-}
    if [[ -z "$dir" ]]; then
      dir=$WORK/$kind-$n
      echo "generating $kind n=$n ..." >&2
      "$GEN" -kind "$kind" -n "$n" -out "$dir"
    fi
    bytes=$(cat "$dir"/*.jsonl | wc -c)
    bytesPerRec=$(awk -v b="$bytes" -v n="$n" 'BEGIN { print b / n }')
    mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
    for cmd in "${cmds[@]}"; do
      applies "$cmd" "$kind" || continue
      if [[ -n "${lastRSS[$cmd]:-}" ]]; then
        pred=$(awk -v r="${lastRSS[$cmd]}" -v n="$n" -v m="$lastN" 'BEGIN { printf "%d", r * n / m }')
        if (( pred > VMEM_KB )); then
          SKIPS+=("$kind $cmd n=$n: peak RSS extrapolated from n=$lastN ≈ $((pred / 1024)) MiB > ulimit -v $((VMEM_KB / 1024)) MiB")
          continue
        fi
      fi
      case $cmd in
        results) argv=("$BIN" results - "$dir") ;;
        *) argv=("$BIN" "$cmd" "$dir") ;;
      esac
      echo "  $kind n=$n: ${argv[*]}" >&2
      rc=0
      ( ulimit -v "$VMEM_KB"; exec /usr/bin/time -f '%e %U %S %M' -o "$WORK/time" "${argv[@]}" ) > /dev/null 2> "$WORK/stderr" || rc=$?
      if (( rc > 1 )); then
        status=1
        echo "  exit $rc: $(tail -3 "$WORK/stderr")" >&2
      fi
      read -r wall user sys rss < <(tail -1 "$WORK/time")
      cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
      rmib=$(awk -v k="$rss" 'BEGIN { printf "%.0f", k / 1024 }')
      printf "%-11s %-8s %9d %9s %9s %6s %5s %10s %6s %5s %8s %3s\n" "$kind" "$cmd" "$n" "$mb" "$cpu" \
        "$(ratio "$cpu" "${lastCPU[$cmd]:-}")" "$(slope "$cpu" "${lastCPU[$cmd]:-}" "$n" "$lastN")" \
        "$rmib" "$(ratio "$rss" "${lastRSS[$cmd]:-}")" "$(slope "$rss" "${lastRSS[$cmd]:-}" "$n" "$lastN")" "$wall" "$rc" >> "$ROWS"
      tail -1 "$ROWS" >&2
      lastCPU[$cmd]=$cpu lastRSS[$cmd]=$rss
    done
    lastN=$n
    [[ -z "${PRE[$kind:$n]:-}" ]] && rm -rf "$dir"
  done
  unset lastCPU lastRSS
done

echo
echo "CPU = user + sys s, RSS = peak resident set; ×prev = ratio to the previous n, exp = log(×prev) / log(n ratio) (1 = linear)."
cat "$ROWS"
for s in "${SKIPS[@]}"; do
  echo "skipped: $s"
done
exit $status
