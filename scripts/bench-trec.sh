#!/usr/bin/env bash
# bench-trec.sh — wall time and peak memory of `eval752 trec` on the 20M-line
# benchmark run of ../shared/bench (20,000 queries x 1,000 docs, ~687 MB),
# compared with trec_eval v10's documented 13.0 s / 1.57 GiB on the same
# input and with an I/O floor measured in the same session.
#
# usage: scripts/bench-trec.sh [CACHE_DIR]     (default /tmp/eval752-bench)
#   env: RUNS=3            number of timed runs (median reported)
#        SHARED=<repo>/../shared   location of the shared folder
#        EVAL752_BIN=path  use this binary instead of building bin/eval752
#
# Needs GNU time (Debian package `time`: apt-get install time) for peak RSS;
# without it the script polls VmHWM in /proc/<pid>/status instead.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${1:-${BENCH_DIR:-/tmp/eval752-bench}}
SHARED=${SHARED:-$ROOT/../shared}
RUNS=${RUNS:-3}
TREC_EVAL_WALL=13.0         # s, trec_eval v10 default build (../shared/bench/README.md)
TREC_EVAL_RSS_KB=1646264    # 1.57 GiB in KiB
# trec_eval's output on this input (../shared/bench/README.md)
WANT_RR=0.5196 WANT_R10=0.0823 WANT_NDCG10=0.1432

cd "$ROOT"
if [[ -n "${EVAL752_BIN:-}" ]]; then
  BIN=$EVAL752_BIN
else
  echo "building bin/eval752 ..."
  go build -o bin/eval752 ./cmd/eval752
  BIN=bin/eval752
fi

mkdir -p "$CACHE"
if [[ ! -s "$CACHE/run" || ! -s "$CACHE/qrels" ]] || [[ $(wc -l < "$CACHE/run") -ne 20000000 ]]; then
  echo "generating the benchmark input into $CACHE (once) ..."
  (cd "$SHARED/bench" && go run gen_trec_bench.go -out "$CACHE")
fi

now() { date +%s.%N; }

# measure CMD...: runs CMD, sets WALL (s) and RSS (KiB); stdout goes to $OUT.
OUT=$(mktemp)
trap 'rm -f "$OUT" "$OUT.time"' EXIT
measure() {
  if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -v -o "$OUT.time" "$@" > "$OUT"
    WALL=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$OUT.time")
    RSS=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$OUT.time")
  else
    local t0 t1 pid hwm
    t0=$(now)
    "$@" > "$OUT" & pid=$!
    RSS=0
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

echo "I/O floor (same session):"
t0=$(now); cat "$CACHE/run" > /dev/null; t1=$(now)
CAT=$(echo "$t1 - $t0" | bc -l)
t0=$(now); wc -l "$CACHE/run" > /dev/null; t1=$(now)
WC=$(echo "$t1 - $t0" | bc -l)
printf "  cat run > /dev/null  %.3f s\n  wc -l run            %.3f s\n" "$CAT" "$WC"

echo "timing: $BIN trec -m ndcg_cut.10 -m recip_rank -m recall.10 qrels run  (x$RUNS)"
walls=() rsss=()
for i in $(seq "$RUNS"); do
  measure "$BIN" trec -m ndcg_cut.10 -m recip_rank -m recall.10 "$CACHE/qrels" "$CACHE/run"
  walls+=("$WALL") rsss+=("$RSS")
  printf "  run %d: %.2f s wall, %.1f MiB peak RSS\n" "$i" "$WALL" "$(echo "$RSS / 1024" | bc -l)"
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
  "$(echo "$MR / 1024" | bc -l)" "$(echo "$MR / $TREC_EVAL_RSS_KB" | bc -l)" "$(echo "$PEAK / 1024" | bc -l)"
target=$(echo "$MW <= $TREC_EVAL_WALL / 2 && $MR <= $TREC_EVAL_RSS_KB / 2" | bc -l)
if [[ $target -eq 1 ]]; then echo "  target (<= half of trec_eval's time and memory): met"; else echo "  target (<= half of trec_eval's time and memory): NOT met"; fail=1; fi
exit $fail
