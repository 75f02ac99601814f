#!/usr/bin/env bash
# The contributor's edit–test loop, timed: the build is warm, one edit is made to the crate (a
# comment appended to src/engine/review.rs, removed again afterwards), then `cargo test --no-run`
# (compile) and `cargo test` (run) are timed separately. Prints one line; the machine's load
# average is printed too, since a shared machine makes every figure noisy.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --no-run -q >/dev/null 2>&1
file=src/engine/review.rs
cp "$file" "$file.orig"
trap 'mv "$file.orig" "$file"' EXIT
echo "// edit $(date +%s%N)" >> "$file"
t0=$(date +%s.%N)
cargo test --no-run -q >/dev/null 2>&1
t1=$(date +%s.%N)
status=0
cargo test -q >/dev/null 2>&1 || status=$?
t2=$(date +%s.%N)
printf 'compile after an edit %.1f s, run %.1f s, total %.1f s (cargo test exit %s, load %s)\n' \
  "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" "$(echo "$t2 - $t0" | bc)" "$status" \
  "$(cut -d' ' -f1 /proc/loadavg)"
