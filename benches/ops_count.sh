#!/bin/bash
# Instructions per request of examples/ops.rs by mode, counted by callgrind
# in the server process (all its threads, the access log's writer included):
# the difference between serving LOW and HIGH requests, divided by the
# difference, so startup and shutdown cancel out. Instruction counts do not
# depend on what else the machine runs.
#   cargo build --release --features access-log-file --example ops
#   benches/ops_count.sh
# OPS=otel (build with --features access-log-file,otel) exports to
# benches/otlp_sink.py on 127.0.0.1:14318, started here; the requests and
# bytes it received are printed beside the count. HEADER='name: value'
# adds that header to every request (a `traceparent`, say).
set -u
BIN=${BIN:-target/release/examples/ops}
LOW=${LOW:-2000}
HIGH=${HIGH:-12000}
out=$(mktemp -d)
count() { # mode requests -> total instructions
  rm -rf /tmp/restlight-access
  local sink=
  if [ "$1" = otel ]; then
    python3 "$(dirname "$0")/otlp_sink.py" 14318 "$out/sink.$2" >/dev/null 2>&1 & sink=$!
    export OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:14318
  fi
  OPS=$1 valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1.$2" "$BIN" >/dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 300); do curl -s -o /dev/null http://127.0.0.1:18089/hello && break; sleep 0.1; done
  h2load --h1 -n "$2" -c 4 -t 1 ${HEADER:+-H "$HEADER"} http://127.0.0.1:18089/hello >/dev/null
  kill -TERM "$pid"; wait "$pid" 2>/dev/null
  if [ -n "$sink" ]; then
    echo "otel@$2: the collector received (requests bytes): $(cat "$out/sink.$2" 2>/dev/null)" >&2
    kill "$sink"; wait "$sink" 2>/dev/null; unset OTEL_EXPORTER_OTLP_ENDPOINT
  fi
  awk '/^(summary|totals):/ {print $2; exit}' "$out/cg.$1.$2"
}
printf '%-8s %14s %14s %12s\n' mode "Ir@$LOW" "Ir@$HIGH" "Ir/request"
for mode in ${MODES:-off metrics log both ids trace spans}; do
  lo=$(count "$mode" "$LOW"); hi=$(count "$mode" "$HIGH")
  printf '%-8s %14s %14s %12s\n' "$mode" "$lo" "$hi" "$(( (hi - lo) / (HIGH - LOW) ))"
done
rm -rf "$out"
