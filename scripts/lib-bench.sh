# lib-bench.sh — what scripts/bench-score.sh and scripts/bench-trec.sh share;
# sourced by them (after `set -euo pipefail`), not run:
#   source "$(dirname "$0")/lib-bench.sh" "$@"
#
# Sets ROOT (the repository; the working directory becomes it), CACHE (the
# input cache: $1, else $BENCH_DIR, else /tmp/eval752-bench), RUNS
# (default 3) and trec_eval v10's documented numbers on the benchmark input
# (TREC_EVAL_WALL, TREC_EVAL_RSS_KB), and defines:
#   bench_prepare        sets BIN (EVAL752_BIN, else a fresh bin/eval752) and
#                        generates the 20M-line input into $CACHE once
#   measure OUT CMD...   runs CMD with stdout to OUT; sets WALL (s), RSS (peak
#                        KiB) and CPU (user+sys s; empty without GNU time,
#                        when RSS is polled from VmHWM in /proc/<pid>/status)
#   median               median of the numbers on stdin, one a line
#   mib KIB              KiB as MiB (bc)
#   bench_target MW MR   prints whether median wall MW (s) and median peak
#                        RSS MR (KiB) are at most half of trec_eval's; fails
#                        when not

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${1:-${BENCH_DIR:-/tmp/eval752-bench}}
RUNS=${RUNS:-3}
TREC_EVAL_WALL=13.0         # s, trec_eval v10 default build on this input, measured on a 2-core machine (project bench notes)
TREC_EVAL_RSS_KB=1646264    # 1.57 GiB in KiB
cd "$ROOT"

bench_prepare() {
  if [[ -n "${EVAL752_BIN:-}" ]]; then
    BIN=$EVAL752_BIN
  else
    echo "building bin/eval752 ..."
    go build -o bin/eval752 ./cmd/eval752
    BIN=bin/eval752
  fi
  # One cache for both benchmarks: generated once.
  mkdir -p "$CACHE"
  if [[ ! -s "$CACHE/run" || ! -s "$CACHE/qrels" ]] || [[ $(wc -l < "$CACHE/run") -ne 20000000 ]]; then
    echo "generating the benchmark input into $CACHE (once) ..."
    go run scripts/gen-trec-bench.go -out "$CACHE"
  fi
}

now() { date +%s.%N; }

BENCH_TIMEF=$(mktemp)
trap 'rm -f "$BENCH_TIMEF"' EXIT

measure() {
  local out=$1
  shift
  if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -v -o "$BENCH_TIMEF" "$@" > "$out"
    WALL=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$BENCH_TIMEF")
    RSS=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$BENCH_TIMEF")
    CPU=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$BENCH_TIMEF")
  else
    local t0 t1 pid hwm
    t0=$(now)
    "$@" > "$out" & pid=$!
    RSS=0 CPU=
    while kill -0 "$pid" 2>/dev/null; do
      hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
      [[ -n "$hwm" && "$hwm" -gt "$RSS" ]] && RSS=$hwm
      sleep 0.05
    done
    wait "$pid"
    t1=$(now)
    WALL=$(echo "$t1 - $t0" | bc -l)
  fi
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

mib() { echo "$1 / 1024" | bc -l; }

bench_target() {
  if [[ $(echo "$1 <= $TREC_EVAL_WALL / 2 && $2 <= $TREC_EVAL_RSS_KB / 2" | bc -l) -eq 1 ]]; then
    echo "  target (<= half of trec_eval's time and memory): met"
  else
    echo "  target (<= half of trec_eval's time and memory): NOT met"
    return 1
  fi
}
