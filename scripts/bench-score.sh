#!/usr/bin/env bash
# bench-score.sh — wall time and peak memory of `eval752 score --json` on the
# 20M-line benchmark run of scripts/gen-trec-bench.go (20,000 queries x 1,000 docs,
# ~687 MB), compared with trec_eval v10's documented 13.0 s / 1.57 GiB on
# the same input. score does much more than trec_eval here: 35 per-query
# metrics, 1000-resample bootstrap CIs per metric and stratum, and a JSON
# report with every query's top-50 ranking (~165 MB).
#
# usage: scripts/bench-score.sh [CACHE_DIR]     (default /tmp/eval752-bench)
#   env: RUNS=3            number of timed runs (median reported)
#        EVAL752_BIN=path  use this binary instead of building bin/eval752
#
# Needs GNU time (Debian package `time`: apt-get install time) for peak RSS.
set -euo pipefail

source "$(dirname "$0")/lib-bench.sh" "$@"

if [[ ! -x /usr/bin/time ]]; then
  echo "GNU time is needed for peak RSS: apt-get install -y time" >&2
  exit 2
fi
bench_prepare

echo "timing: $BIN score --json qrels run > /dev/null  (x$RUNS; load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
walls=() rsss=() cpus=()
for i in $(seq "$RUNS"); do
  measure /dev/null "$BIN" score --json "$CACHE/qrels" "$CACHE/run"
  walls+=("$WALL") rsss+=("$RSS") cpus+=("$CPU")
  printf "  run %d: %.2f s wall, %.2f s CPU (user+sys), %.1f MiB peak RSS\n" "$i" "$WALL" "$CPU" "$(mib "$RSS")"
done

MW=$(printf "%s\n" "${walls[@]}" | median)
MR=$(printf "%s\n" "${rsss[@]}" | median)
MC=$(printf "%s\n" "${cpus[@]}" | median)
echo "result:"
printf "  median wall      %.2f s   (%.2fx trec_eval's %.1f s); median CPU %.2f s\n" \
  "$MW" "$(echo "$MW / $TREC_EVAL_WALL" | bc -l)" "$TREC_EVAL_WALL" "$MC"
printf "  median peak RSS  %.1f MiB (%.3fx trec_eval's 1.57 GiB)\n" \
  "$(mib "$MR")" "$(echo "$MR / $TREC_EVAL_RSS_KB" | bc -l)"
bench_target "$MW" "$MR" || exit 1
