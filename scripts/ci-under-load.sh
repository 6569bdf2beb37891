#!/usr/bin/env bash
# Runs CI (.ci/run) on fresh clones of HEAD, one after the other, while a CPU hog keeps one core busy:
# a suite that passes here does not turn red on a slower or busier machine.
#   scripts/ci-under-load.sh [runs=5]
# Each run's output is kept in test-output/ci-under-load/run-<n>.log; stops at the first failed run.
set -euo pipefail
runs="${1:-5}"
top="$(git rev-parse --show-toplevel)"
logs="$top/test-output/ci-under-load"
mkdir -p "$logs"

node -e 'for (;;) {}' &
hog=$!
trap 'kill "$hog" 2>/dev/null || true' EXIT

for n in $(seq 1 "$runs"); do
  work="$(mktemp -d)"
  git clone -q "$top" "$work/clone"
  # The Node install is kept between runs, as on a CI machine.
  [ -d "$top/.ci/.node" ] && cp -a "$top/.ci/.node" "$work/clone/.ci/.node"
  start=$(date +%s)
  if (cd "$work/clone" && CI=true bash .ci/run) >"$logs/run-$n.log" 2>&1; then
    echo "run $n of $runs passed in $(($(date +%s) - start)) s"
    rm -rf "$work"
  else
    echo "run $n of $runs FAILED after $(($(date +%s) - start)) s: see $logs/run-$n.log (clone kept in $work/clone)"
    exit 1
  fi
done
echo "all $runs runs passed with one core kept busy"
