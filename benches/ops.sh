#!/bin/bash
# Bounded: each wrk run SECS (default 5) s, ROUNDS (default 2) rounds, against 127.0.0.1 only; server killed by its pid.
BIN=${BIN:-target/release/examples/ops}
ROUNDS=${ROUNDS:-2}
SECS=${SECS:-5}
for round in $(seq "$ROUNDS"); do
for mode in off metrics log both; do
  rm -rf /tmp/restlight-access
  OPS=$mode taskset -c 0 $BIN >/dev/null 2>&1 &
  pid=$!
  for i in $(seq 50); do curl -s -o /dev/null http://127.0.0.1:18089/hello && break; sleep 0.1; done
  taskset -c 1 timeout 25 wrk -t1 -c64 -d1s http://127.0.0.1:18089/hello >/dev/null
  t0=$(awk '{print $14+$15}' /proc/$pid/stat)
  r=$(taskset -c 1 timeout 25 wrk -t1 -c64 -d"${SECS}s" --latency http://127.0.0.1:18089/hello)
  t1=$(awk '{print $14+$15}' /proc/$pid/stat)
  rps=$(echo "$r" | awk '/Requests\/sec/ {print $2}')
  reqs=$(echo "$r" | awk '/requests in/ {print $1}')
  # Server CPU time (user + system, all threads) per request, in microseconds.
  cpu=$(awk -v t="$((t1 - t0))" -v n="$reqs" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.2f", t / hz * 1e6 / n}')
  p50=$(echo "$r" | awk '$1=="50%" {print $2}')
  p99=$(echo "$r" | awk '$1=="99%" {print $2}')
  lines=$(cat /tmp/restlight-access/* 2>/dev/null | wc -l)
  echo "round=$round mode=$mode rps=$rps cpu_us_per_req=$cpu p50=$p50 p99=$p99 logged_lines=$lines"
  kill $pid; wait $pid 2>/dev/null
done
done
