#!/bin/bash
# Server CPU time per request (user + system, all threads, from
# /proc/PID/stat) of examples/ops.rs by mode: the process's CPU over N
# HTTP/1.1 keep-alive requests of `GET /hello` (h2load, 4 connections),
# less its CPU before them, divided by N. Unlike ops_count.sh this counts
# the kernel's share (the socket reads and writes), so it is the request's
# whole cost to the server; but it moves with what else the machine runs
# (caches, clock), so modes are run interleaved, RUNS times each, and the
# median is shown beside each run. The server is pinned to CPU 0 and
# h2load to CPU 1, as in the load comparison. The clock tick is 10 ms: with the
# default N (400,000) a run's figure is good to about 0.5 %.
#   cargo build --release --features access-log-file --example ops
#   RUNS=5 MODES="off ids trace" benches/ops_cpu.sh
set -u
BIN=${BIN:-target/release/examples/ops}
N=${N:-400000}
RUNS=${RUNS:-5}
MODES=${MODES:-off ids trace}
tick=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
declare -A runs
for run in $(seq "$RUNS"); do
  for mode in $MODES; do
    OPS=$mode taskset -c 0 "$BIN" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 300); do curl -s -o /dev/null http://127.0.0.1:18089/hello && break; sleep 0.05; done
    # Warm the connections' buffers and the thread pools first.
    taskset -c 1 h2load --h1 -n 20000 -c 4 -t 1 http://127.0.0.1:18089/hello >/dev/null
    before=$(cpu "$pid")
    taskset -c 1 h2load --h1 -n "$N" -c 4 -t 1 http://127.0.0.1:18089/hello >/dev/null
    after=$(cpu "$pid")
    kill -TERM "$pid"; wait "$pid" 2>/dev/null
    ns=$(( (after - before) * 1000000000 / tick / N ))
    runs[$mode]="${runs[$mode]:-}${runs[$mode]:+ }$ns"
    echo "run $run: $mode $ns ns" >&2
  done
done
printf '%-8s %-40s %8s %8s\n' mode "runs (ns of CPU per request)" median "vs off"
off=
for mode in $MODES; do
  median=$(echo "${runs[$mode]}" | tr ' ' '\n' | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')
  [ "$mode" = off ] && off=$median
  ratio=-
  [ -n "$off" ] && ratio=$(awk -v m="$median" -v o="$off" 'BEGIN {printf "%.3fx", m / o}')
  printf '%-8s %-40s %8s %8s\n' "$mode" "${runs[$mode]}" "$median" "$ratio"
done
