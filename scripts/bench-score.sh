#!/usr/bin/env bash
# bench-score.sh — wall time and peak memory of `eval752 score --json` on the
# 20M-line benchmark run of ../shared/bench (20,000 queries x 1,000 docs,
# ~687 MB), compared with trec_eval v10's documented 13.0 s / 1.57 GiB on
# the same input. score does much more than trec_eval here: 35 per-query
# metrics, 1000-resample bootstrap CIs per metric and stratum, and a JSON
# report with every query's top-50 ranking (~165 MB).
#
# usage: scripts/bench-score.sh [CACHE_DIR]     (default /tmp/eval752-bench)
#   env: RUNS=3            number of timed runs (median reported)
#        SHARED=<repo>/../shared   location of the shared folder
#        EVAL752_BIN=path  use this binary instead of building bin/eval752
#
# Needs GNU time (Debian package `time`: apt-get install time) for peak RSS.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${1:-${BENCH_DIR:-/tmp/eval752-bench}}
SHARED=${SHARED:-$ROOT/../shared}
RUNS=${RUNS:-3}
TREC_EVAL_WALL=13.0         # s, trec_eval v10 default build (../shared/bench/README.md)
TREC_EVAL_RSS_KB=1646264    # 1.57 GiB in KiB

if [[ ! -x /usr/bin/time ]]; then
  echo "GNU time is needed for peak RSS: apt-get install -y time" >&2
  exit 2
fi

cd "$ROOT"
if [[ -n "${EVAL752_BIN:-}" ]]; then
  BIN=$EVAL752_BIN
else
  echo "building bin/eval752 ..."
  go build -o bin/eval752 ./cmd/eval752
  BIN=bin/eval752
fi

# The same cache as scripts/bench-trec.sh: generated once.
mkdir -p "$CACHE"
if [[ ! -s "$CACHE/run" || ! -s "$CACHE/qrels" ]] || [[ $(wc -l < "$CACHE/run") -ne 20000000 ]]; then
  echo "generating the benchmark input into $CACHE (once) ..."
  (cd "$SHARED/bench" && go run gen_trec_bench.go -out "$CACHE")
fi

TIMEF=$(mktemp)
trap 'rm -f "$TIMEF"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "timing: $BIN score --json qrels run > /dev/null  (x$RUNS; load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
walls=() rsss=() cpus=()
for i in $(seq "$RUNS"); do
  /usr/bin/time -v -o "$TIMEF" "$BIN" score --json "$CACHE/qrels" "$CACHE/run" > /dev/null
  WALL=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$TIMEF")
  RSS=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TIMEF")
  CPU=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$TIMEF")
  walls+=("$WALL") rsss+=("$RSS") cpus+=("$CPU")
  printf "  run %d: %.2f s wall, %.2f s CPU (user+sys), %.1f MiB peak RSS\n" "$i" "$WALL" "$CPU" "$(echo "$RSS / 1024" | bc -l)"
done

MW=$(printf "%s\n" "${walls[@]}" | median)
MR=$(printf "%s\n" "${rsss[@]}" | median)
MC=$(printf "%s\n" "${cpus[@]}" | median)
echo "result:"
printf "  median wall      %.2f s   (%.2fx trec_eval's %.1f s); median CPU %.2f s\n" \
  "$MW" "$(echo "$MW / $TREC_EVAL_WALL" | bc -l)" "$TREC_EVAL_WALL" "$MC"
printf "  median peak RSS  %.1f MiB (%.3fx trec_eval's 1.57 GiB)\n" \
  "$(echo "$MR / 1024" | bc -l)" "$(echo "$MR / $TREC_EVAL_RSS_KB" | bc -l)"
target=$(echo "$MW <= $TREC_EVAL_WALL / 2 && $MR <= $TREC_EVAL_RSS_KB / 2" | bc -l)
if [[ $target -eq 1 ]]; then
  echo "  target (<= half of trec_eval's time and memory): met"
else
  echo "  target (<= half of trec_eval's time and memory): NOT met"
  exit 1
fi
