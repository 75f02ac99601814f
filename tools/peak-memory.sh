#!/usr/bin/env bash
# Peak memory of generated checking: `check --no-fixed --generated N` against the engine and
# against the async gate, for N = 10 000, 100 000 and 1 000 000 (or the counts given as
# arguments), each under `/usr/bin/time -f %M`. Builds the release command first. Prints one line
# a run with the load average at its start.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q --bin autoreview
counts=("${@:-10000 100000 1000000}")
for n in ${counts[*]}; do
  for implementation in engine async-gate; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    out=$(/usr/bin/time -f '%M %e' ./target/release/autoreview check --implementation "$implementation" \
      --profile resilient --no-fixed --generated "$n" --seed 20260828 2>&1 >/dev/null | tail -n 1 || true)
    read -r kb secs <<<"$out"
    printf '%-10s %8s cases: %6s KB peak, %6s s (load %s)\n' "$implementation" "$n" "$kb" "$secs" "$load"
  done
done
