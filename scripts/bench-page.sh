#!/usr/bin/env bash
# bench-page.sh — the scripted browser benchmark (make bench-page; not part
# of make test). Headless Chromium (chromedp) against a loopback
# `eval752 serve` of the built page, every load in a fresh browser profile;
# BenchmarkPage in app/ui/e2e/scale_test.go prints, as medians of several
# runs:
#   navigation → UI running, demo button → ready, the longest UI-thread long
#   task (PerformanceObserver) during the demo load, the worker's time;
#   for each items set (N eval752 items + one run's results, from
#   scripts/gen-sets.go -kind items): upload → ready, worker time, the tab's
#   renderer peak RSS (VmHWM of Chromium's renderer process in
#   /proc/<pid>/status: page, both WASM memories and the core's worker),
#   its growth per item, the longest long task, and whether the page's
#   error / warning counts equal `eval752 validate --json`'s.
#
# usage: scripts/bench-page.sh [SIZES]      (default "10k 100k")
#   SIZES: any of 10k 100k 1m (or a number of items)
#   env: SETS=/tmp/eval752-page-sets  where generated sets are kept
#        SET_1M=/work/sets/items-1m   an existing 1M-item set to use instead of generating one
#        RUNS=3                       runs of the demo and of sets under 200k items
#        BIG_RUNS=1                   runs of sets of 200k items or more
#        LIMIT=0                      the page's memory limit in bytes (0: its own)
# Needs chromium (apt-get install -y chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${*:-10k 100k}
SETS=${SETS:-/tmp/eval752-page-sets}
RUNS=${RUNS:-3}
BIG_RUNS=${BIG_RUNS:-1}
LIMIT=${LIMIT:-0}
dirs=()
for s in $SIZES; do
  case $s in
    *k) n=$(( ${s%k} * 1000 )) ;;
    *m) n=$(( ${s%m} * 1000000 )) ;;
    *) n=$s ;;
  esac
  d="$SETS/items-$s"
  if [[ $n -eq 1000000 && -n "${SET_1M:-}" && -f "${SET_1M}/items.jsonl" ]]; then
    d=$SET_1M
  elif [[ ! -f "$d/results.jsonl" ]]; then
    echo "generating $n items + results in $d" >&2
    go run scripts/gen-sets.go -kind items -n "$n" -out "$d" >&2
  fi
  dirs+=("$d")
done
list=$(IFS=,; echo "${dirs[*]}")
echo "bench-page: sets $list; load average now: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
exec go test -run '^$' -bench '^BenchmarkPage$' -benchtime 1x -timeout 0 ./app/ui/e2e \
  -args -page-sets="$list" -page-runs="$RUNS" -page-big-runs="$BIG_RUNS" -page-limit="$LIMIT"
