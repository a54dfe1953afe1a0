#!/usr/bin/env bash
# bench-trec.sh — wall time and peak memory of `eval752 trec` on the 20M-line
# benchmark run of scripts/gen-trec-bench.go (20,000 queries x 1,000 docs, ~687 MB),
# compared with trec_eval v10's documented 13.0 s / 1.57 GiB on the same
# input and with an I/O floor measured in the same session.
#
# usage: scripts/bench-trec.sh [CACHE_DIR]     (default /tmp/eval752-bench)
#   env: RUNS=3            number of timed runs (median reported)
#        EVAL752_BIN=path  use this binary instead of building bin/eval752
#
# Needs GNU time (Debian package `time`: apt-get install time) for peak RSS;
# without it the script polls VmHWM in /proc/<pid>/status instead.
set -euo pipefail

source "$(dirname "$0")/lib-bench.sh" "$@"
# trec_eval's output on this input (measured on this kind of machine, see scripts/lib-bench.sh)
WANT_RR=0.5196 WANT_R10=0.0823 WANT_NDCG10=0.1432
bench_prepare

OUT=$(mktemp)
trap 'rm -f "$OUT" "$BENCH_TIMEF"' EXIT

echo "I/O floor (same session):"
t0=$(now); cat "$CACHE/run" > /dev/null; t1=$(now)
CAT=$(echo "$t1 - $t0" | bc -l)
t0=$(now); wc -l "$CACHE/run" > /dev/null; t1=$(now)
WC=$(echo "$t1 - $t0" | bc -l)
printf "  cat run > /dev/null  %.3f s\n  wc -l run            %.3f s\n" "$CAT" "$WC"

echo "timing: $BIN trec -m ndcg_cut.10 -m recip_rank -m recall.10 qrels run  (x$RUNS)"
walls=() rsss=()
for i in $(seq "$RUNS"); do
  measure "$OUT" "$BIN" trec -m ndcg_cut.10 -m recip_rank -m recall.10 "$CACHE/qrels" "$CACHE/run"
  walls+=("$WALL") rsss+=("$RSS")
  printf "  run %d: %.2f s wall, %.1f MiB peak RSS\n" "$i" "$WALL" "$(mib "$RSS")"
done

fail=0
check() { # name want
  local got
  got=$(awk -v m="$1" '$1==m && $2=="all" {print $3}' "$OUT")
  if [[ "$got" == "$2" ]]; then echo "  $1 = $got (trec_eval: $2) ok"; else echo "  $1 = ${got:-missing} but trec_eval gives $2  MISMATCH"; fail=1; fi
}
echo "output check:"
check recip_rank "$WANT_RR"
check recall_10 "$WANT_R10"
check ndcg_cut_10 "$WANT_NDCG10"

MW=$(printf "%s\n" "${walls[@]}" | median)
MR=$(printf "%s\n" "${rsss[@]}" | median)
PEAK=$(printf "%s\n" "${rsss[@]}" | sort -g | tail -1)
echo "result:"
printf "  median wall      %.2f s   (%.2fx trec_eval's %.1f s; %.1fx the cat floor, %.1fx wc -l)\n" \
  "$MW" "$(echo "$MW / $TREC_EVAL_WALL" | bc -l)" "$TREC_EVAL_WALL" "$(echo "$MW / $CAT" | bc -l)" "$(echo "$MW / $WC" | bc -l)"
printf "  median peak RSS  %.1f MiB (%.3fx trec_eval's 1.57 GiB); max over runs %.1f MiB\n" \
  "$(mib "$MR")" "$(echo "$MR / $TREC_EVAL_RSS_KB" | bc -l)" "$(mib "$PEAK")"
bench_target "$MW" "$MR" || fail=1
exit $fail
