#!/bin/bash
# Instructions per request of examples/ops.rs by mode, counted by callgrind
# in the server process (all its threads, the access log's writer included):
# the difference between serving LOW and HIGH requests, divided by the
# difference, so startup and shutdown cancel out. Instruction counts do not
# depend on what else the machine runs, but the runtime's parking does
# (about +-100 a request here), so compare means of interleaved runs:
#   cargo build --release --features access-log-file --example ops
#   benches/ops_count.sh
#   RUNS=3 MODES="off ids trace" BINS="/tmp/ops-before /tmp/ops-after" benches/ops_count.sh
# RUNS counts each (binary, mode) that many times (default 1), interleaved:
# run 1 of every binary and mode, then run 2, ...; with RUNS > 1 each row
# shows the runs, their mean and the mean's ratio to the same binary's
# `off` mean (when `off` comes first in MODES). BINS (default: BIN, default
# target/release/examples/ops) are the builds compared; copy each aside,
# since builds of one source can differ by a few hundred instructions a
# request from how the compiler inlined hyper's connection code (see
# BENCHMARKS.md, "Request IDs and trace context").
# OPS=otel (build with --features access-log-file,otel) exports to
# benches/otlp_sink.py on 127.0.0.1:14318, started here; the requests and
# bytes it received are printed beside the count. HEADER='name: value'
# adds that header to every request (a `traceparent`, say). PROTO=h2c sends
# the requests over h2c by prior knowledge instead, STREAMS (default 16)
# concurrent streams on each of the 4 connections.
set -u
BIN=${BIN:-target/release/examples/ops}
BINS=${BINS:-$BIN}
LOW=${LOW:-2000}
HIGH=${HIGH:-12000}
RUNS=${RUNS:-1}
MODES=${MODES:-off metrics log both ids trace spans}
PROTO=${PROTO:-h1}
case "$PROTO" in
  h1) proto=(--h1) ;;
  h2c) proto=(-m "${STREAMS:-16}") ;;
  *) echo "PROTO is h1 or h2c, not $PROTO" >&2; exit 2 ;;
esac
out=$(mktemp -d)
count() { # binary mode requests -> total instructions
  rm -rf /tmp/restlight-access
  local sink=
  if [ "$2" = otel ]; then
    python3 "$(dirname "$0")/otlp_sink.py" 14318 "$out/sink.$3" >/dev/null 2>&1 & sink=$!
    export OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:14318
  fi
  OPS=$2 valgrind --tool=callgrind --callgrind-out-file="$out/cg.$2.$3" "$1" >/dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 300); do curl -s -o /dev/null http://127.0.0.1:18089/hello && break; sleep 0.1; done
  h2load "${proto[@]}" -n "$3" -c 4 -t 1 ${HEADER:+-H "$HEADER"} http://127.0.0.1:18089/hello >/dev/null
  kill -TERM "$pid"; wait "$pid" 2>/dev/null
  if [ -n "$sink" ]; then
    echo "otel@$3: the collector received (requests bytes): $(cat "$out/sink.$3" 2>/dev/null)" >&2
    kill "$sink"; wait "$sink" 2>/dev/null; unset OTEL_EXPORTER_OTLP_ENDPOINT
  fi
  awk '/^(summary|totals):/ {print $2; exit}' "$out/cg.$2.$3"
}
if [ "$RUNS" = 1 ] && [ "$BINS" = "$BIN" ]; then
  printf '%-8s %14s %14s %12s\n' mode "Ir@$LOW" "Ir@$HIGH" "Ir/request"
  for mode in $MODES; do
    lo=$(count "$BIN" "$mode" "$LOW"); hi=$(count "$BIN" "$mode" "$HIGH")
    printf '%-8s %14s %14s %12s\n' "$mode" "$lo" "$hi" "$(( (hi - lo) / (HIGH - LOW) ))"
  done
  rm -rf "$out"
  exit 0
fi
declare -A runs
for run in $(seq "$RUNS"); do
  for bin in $BINS; do
    for mode in $MODES; do
      lo=$(count "$bin" "$mode" "$LOW"); hi=$(count "$bin" "$mode" "$HIGH")
      n=$(( (hi - lo) / (HIGH - LOW) ))
      runs[$bin/$mode]="${runs[$bin/$mode]:-}${runs[$bin/$mode]:+ / }$n"
      echo "run $run: $bin $mode $n" >&2
    done
  done
done
printf '%-28s %-8s %-28s %8s %8s\n' binary mode runs mean "vs off"
for bin in $BINS; do
  off=
  for mode in $MODES; do
    mean=$(echo "${runs[$bin/$mode]}" | tr -d ' ' | tr '/' '\n' | awk '{s += $1} END {printf "%.0f", s / NR}')
    [ "$mode" = off ] && off=$mean
    ratio=-
    [ -n "$off" ] && ratio=$(awk -v m="$mean" -v o="$off" 'BEGIN {printf "%.3fx", m / o}')
    printf '%-28s %-8s %-28s %8s %8s\n' "$bin" "$mode" "${runs[$bin/$mode]}" "$mean" "$ratio"
  done
done
rm -rf "$out"
