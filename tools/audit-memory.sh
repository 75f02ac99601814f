#!/usr/bin/env bash
# Peak memory and rate of `autoreview audit` on logs of 100 000 and 1 000 000 records (or the
# counts given as arguments): the field-report fixture repeated, its 20 sessions the same in every
# copy (`same`: memory is flat in the number of records), or each copy's sessions renamed
# (`s-1021-a` becomes `s-1021-a~7`, `renamed`: a log of N records holds about N/5 sessions, and
# memory grows with them, for the failures-per-session table); and a log of records that carry the
# reviewer's reply, each re-decided under two profiles (`replies`: the reference's own log from
# `check --profile resilient --audit-log`, repeated; `replies+freeze`: the same with `--freeze`,
# which keeps up to 1 000 distinct calls per profile). Each run under
# `/usr/bin/time -f %M`, the release build, with the load average at its start. The logs are
# written under target/audit-memory/ and kept.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q --bin autoreview
dir=target/audit-memory
mkdir -p "$dir"
counts=("${@:-100000 1000000}")
fixture=spec/fixtures/audit/field-report.jsonl
per=$(wc -l <"$fixture")
replies=$dir/replies.jsonl
if [ ! -s "$replies" ]; then
  ./target/release/autoreview check --profile resilient --implementation engine \
    --audit-log "$replies" >/dev/null
fi
frozen=$dir/frozen
mkdir -p "$frozen"
for n in ${counts[*]}; do
  copies=$(( (n + per - 1) / per ))
  for sessions in same renamed; do
    log="$dir/log-$n-$sessions.jsonl"
    if [ ! -s "$log" ]; then
      for ((k = 0; k < copies; k++)); do
        if [ "$sessions" = same ]; then
          cat "$fixture"
        else
          sed "s/\"session\": \"\\([^\"]*\\)\"/\"session\": \"\\1~$k\"/" "$fixture"
        fi
      done >"$log"
    fi
    load=$(cut -d' ' -f1 /proc/loadavg)
    out=$( { /usr/bin/time -f '%M %e' ./target/release/autoreview audit "$log" --json >/dev/null; } 2>&1 | tail -n 1)
    read -r kb secs <<<"$out"
    records=$((copies * per))
    rate=$(awk -v n="$records" -v s="$secs" 'BEGIN { printf "%d", (s > 0 ? n / s : 0) }')
    printf '%8s records, sessions %-7s %7s KB peak, %6s s, %8s records/s (load %s)\n' \
      "$records" "$sessions:" "$kb" "$secs" "$rate" "$load"
  done
  rper=$(wc -l <"$replies")
  rcopies=$(( (n + rper - 1) / rper ))
  log="$dir/log-$n-replies.jsonl"
  if [ ! -s "$log" ]; then
    for ((k = 0; k < rcopies; k++)); do cat "$replies"; done >"$log"
  fi
  for mode in replies replies+freeze; do
    extra=()
    [ "$mode" = replies+freeze ] && extra=(--freeze "$frozen")
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -o "$dir/time" -f '%M %e' ./target/release/autoreview audit --profile baseline \
      "$log" --json "${extra[@]}" >/dev/null 2>&1
    read -r kb secs <"$dir/time"
    records=$((rcopies * rper))
    rate=$(awk -v n="$records" -v s="$secs" 'BEGIN { printf "%d", (s > 0 ? n / s : 0) }')
    printf '%8s records, %-15s %7s KB peak, %6s s, %8s records/s (load %s)\n' \
      "$records" "$mode:" "$kb" "$secs" "$rate" "$load"
  done
done
