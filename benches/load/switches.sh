#!/usr/bin/env bash
# Context switches a request of one route: the server started on CPU 0 (the
# client on CPU 1), warmed up with 20,000 requests, then the voluntary and
# involuntary switches of all its threads (from /proc) around N more
# requests (h2load --h1, CONNS connections, default 64), divided by N. A
# thread handing work to another and sleeping until it answers shows here
# (each wake-up of a sleeping thread is a switch on a busy core).
#
#   benches/load/switches.sh BIN PATH [N]
#   RESTLIGHT_SERVER_BIZ_THREADS=1 benches/load/switches.sh target/release/restlight /biz/hello
#
# Only 127.0.0.1 is targeted, on PORT (default 18177).
set -euo pipefail
command -v h2load >/dev/null || { echo "needs h2load (nghttp2-client)" >&2; exit 1; }
[[ $# -ge 2 ]] || { sed -n 2,11p "$0" >&2; exit 2; }
bin=$1 path=$2 n=${3:-100000} conns=${CONNS:-64}
port=${PORT:-18177}
taskset -c 0 "$bin" --port "$port" >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/hello" && break; sleep 0.1; done
taskset -c 1 h2load --h1 -n 20000 -c "$conns" -t 1 "http://127.0.0.1:$port$path" >/dev/null
switches() { cat /proc/$pid/task/*/status | awk '/^voluntary_ctxt_switches/ {v += $2} /^nonvoluntary_ctxt_switches/ {i += $2} END {print v, i}'; }
read -r v0 i0 < <(switches)
taskset -c 1 h2load --h1 -n "$n" -c "$conns" -t 1 "http://127.0.0.1:$port$path" >/dev/null
read -r v1 i1 < <(switches)
awk -v v=$((v1 - v0)) -v i=$((i1 - i0)) -v n="$n" -v p="$path" -v b="$(basename "$bin")" \
    'BEGIN {printf "%s %s: %.3f voluntary and %.3f involuntary switches a request (%d and %d over %d)\n", b, p, v / n, i / n, v, i, n}'
