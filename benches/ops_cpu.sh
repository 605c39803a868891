#!/bin/bash
# Server CPU time per request (user + system, all threads, from
# /proc/PID/stat) of examples/ops.rs by mode: the process's CPU over N
# HTTP/1.1 keep-alive requests of `GET /hello` (h2load, CONNS connections,
# default 64: enough to keep the server's one core busy, so the figure is
# the cost of serving, not of waking up for each request), less its CPU
# before them, divided by N. Unlike ops_count.sh this counts
# the kernel's share (the socket reads and writes), so it is the request's
# whole cost to the server; but it moves with what else the machine runs
# (caches, clock), so modes are run interleaved, RUNS times each (each
# round in a rotated order), and two figures are shown: the median of each
# mode's runs, and the median over rounds of the mode's run divided by the
# `off` run of the same round (the paired ratio, which cancels what drifts
# between rounds). Each run's line (on stderr) also gives its user-space
# share and how busy the server was over the window; the table adds the
# median user-space ns per request. The server is pinned to CPU 0 and
# h2load to CPU 1, as in the load comparison. The clock tick is 10 ms: with the
# default N (400,000) a run's figure is good to about 0.5 %.
# PROTO=h2c sends the requests over h2c by prior knowledge instead, STREAMS
# (default 16) concurrent streams on each of CONNS (then default 16)
# connections.
#   cargo build --release --features access-log-file --example ops
#   RUNS=5 MODES="off ids trace" benches/ops_cpu.sh
set -u
BIN=${BIN:-target/release/examples/ops}
N=${N:-400000}
RUNS=${RUNS:-5}
MODES=${MODES:-off ids trace}
PROTO=${PROTO:-h1}
case "$PROTO" in
  h1) proto=(--h1); CONNS=${CONNS:-64} ;;
  h2c) proto=(-m "${STREAMS:-16}"); CONNS=${CONNS:-16} ;;
  *) echo "PROTO is h1 or h2c, not $PROTO" >&2; exit 2 ;;
esac
tick=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
ucpu() { awk '{print $14}' "/proc/$1/stat"; }
median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
declare -A runs ratios users
read -r -a modes <<<"$MODES"
for run in $(seq "$RUNS"); do
  declare -A this=()
  # Rotate the order each round, so no mode always runs first or last.
  order=("${modes[@]:$(( (run - 1) % ${#modes[@]} ))}" "${modes[@]:0:$(( (run - 1) % ${#modes[@]} ))}")
  for mode in "${order[@]}"; do
    OPS=$mode taskset -c 0 "$BIN" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 300); do curl -s -o /dev/null http://127.0.0.1:18089/hello && break; sleep 0.05; done
    # Warm the connections' buffers and the thread pools first.
    taskset -c 1 h2load "${proto[@]}" -n 20000 -c 4 -t 1 http://127.0.0.1:18089/hello >/dev/null
    before=$(cpu "$pid") ubefore=$(ucpu "$pid") start=$(date +%s%N)
    taskset -c 1 h2load "${proto[@]}" -n "$N" -c "$CONNS" -t 1 http://127.0.0.1:18089/hello >/dev/null
    after=$(cpu "$pid") uafter=$(ucpu "$pid") end=$(date +%s%N)
    kill -TERM "$pid"; wait "$pid" 2>/dev/null
    ns=$(( (after - before) * 1000000000 / tick / N ))
    user=$(( (uafter - ubefore) * 1000000000 / tick / N ))
    # The server's share of one core over the window: below about 95 % the
    # client, not the server, set the pace, and the figure is suspect.
    busy=$(( (after - before) * 1000000000 / tick * 100 / (end - start) ))
    runs[$mode]="${runs[$mode]:-}${runs[$mode]:+ }$ns"
    users[$mode]="${users[$mode]:-} $user"
    this[$mode]=$ns
    echo "run $run: $mode $ns ns ($user ns user), server busy $busy %" >&2
  done
  if [ -n "${this[off]:-}" ]; then
    for mode in $MODES; do
      ratios[$mode]="${ratios[$mode]:-} $(awk -v m="${this[$mode]}" -v o="${this[off]}" 'BEGIN {printf "%.4f", m / o}')"
    done
  fi
done
printf '%-8s %-48s %8s %8s %8s %8s\n' mode "runs (ns of CPU per request)" median "vs off" "paired" "user"
off=
for mode in $MODES; do
  med=$(echo "${runs[$mode]}" | median)
  [ "$mode" = off ] && off=$med
  ratio=-
  [ -n "$off" ] && ratio=$(awk -v m="$med" -v o="$off" 'BEGIN {printf "%.3fx", m / o}')
  paired=-
  [ -n "${ratios[$mode]:-}" ] && paired=$(awk -v r="$(echo "${ratios[$mode]}" | median)" 'BEGIN {printf "%.3fx", r}')
  printf '%-8s %-48s %8s %8s %8s %8s\n' "$mode" "${runs[$mode]}" "$med" "$ratio" "$paired" "$(echo "${users[$mode]}" | median)"
done
