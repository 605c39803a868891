#!/usr/bin/env bash
# Instructions per request of one route, independent of the machine's load:
# the load-comparison service under callgrind (all threads summed), 2,000
# requests of warm-up, counters zeroed, then N requests (h2load --h1,
# CONNS connections, default 16), counters dumped.
#
#   benches/load/handoff-callgrind.sh BIN PATH [N]
#   CONNS=1 benches/load/handoff-callgrind.sh BIN /biz/hello 5000
set -euo pipefail
bin=$1 path=$2 n=${3:-10000} conns=${CONNS:-16}
port=${PORT:-18091}
dir=$(mktemp -d)
valgrind --tool=callgrind --callgrind-out-file="$dir/cg.%p" "$bin" --port "$port" >/dev/null 2>"$dir/vg.log" &
pid=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/hello" && break; sleep 0.3; done
h2load --h1 -n 2000 -c "$conns" "http://127.0.0.1:$port$path" >/dev/null
callgrind_control -z $pid >/dev/null
h2load --h1 -n "$n" -c "$conns" "http://127.0.0.1:$port$path" | grep -E "^requests:" >&2
callgrind_control -d $pid >/dev/null
kill $pid
wait $pid 2>/dev/null || true
ir=$(for f in "$dir"/cg.*; do grep -E '^summary:|^totals:' "$f" | head -1 | awk '{print $2}'; done | awk '{s+=$1} END{print s}')
echo "$path: $((ir / n)) instructions per request ($ir over $n; $(basename "$bin"))"
rm -rf "$dir"
