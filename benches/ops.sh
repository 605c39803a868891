#!/bin/bash
# Bounded: each wrk run 5 s against 127.0.0.1 only; server killed by its pid.
BIN=${BIN:-target/release/examples/ops}
for round in 1 2; do
for mode in off metrics log both; do
  rm -rf /tmp/restlight-access
  OPS=$mode taskset -c 0 $BIN >/dev/null 2>&1 &
  pid=$!
  for i in $(seq 50); do curl -s -o /dev/null http://127.0.0.1:18089/hello && break; sleep 0.1; done
  taskset -c 1 timeout 25 wrk -t1 -c64 -d1s http://127.0.0.1:18089/hello >/dev/null
  r=$(taskset -c 1 timeout 25 wrk -t1 -c64 -d5s --latency http://127.0.0.1:18089/hello)
  rps=$(echo "$r" | awk '/Requests\/sec/ {print $2}')
  p50=$(echo "$r" | awk '$1=="50%" {print $2}')
  p99=$(echo "$r" | awk '$1=="99%" {print $2}')
  lines=$(cat /tmp/restlight-access/* 2>/dev/null | wc -l)
  echo "round=$round mode=$mode rps=$rps p50=$p50 p99=$p99 logged_lines=$lines"
  kill $pid; wait $pid 2>/dev/null
done
done
