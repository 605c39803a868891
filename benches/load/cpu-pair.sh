#!/usr/bin/env bash
# Server CPU per request of load-comparison servers, driven by h2load over
# HTTP/1.1 instead of wrk: a cross-check of the load comparison's CPU
# ratios with another client (other request headers, no Lua). Each round
# starts every binary in turn on CPU 0 (the client on CPU 1), warms it up
# with 20,000 requests, then reads the server's user and system time from
# /proc around N more; rounds interleave the binaries.
#
#   benches/load/cpu-pair.sh ROUNDS N PATH BIN...
#   benches/load/cpu-pair.sh 6 300000 POST/echo BINS/hyper BINS/restlight
#
# PATH is a GET path, or POST/x to post ECHO_BYTES bytes (default 1024) to
# /x. Prints one line per round and binary: round, binary, CPU ns per
# request (user+system), user, system; then each binary's median. Only
# 127.0.0.1 is targeted, on PORT (default 18170); `/proc` counts CPU time in
# ticks of 10 ms, so N of 300,000 (a few seconds) gives about 1%
# resolution. Needs a quiet machine.
set -euo pipefail
command -v h2load >/dev/null || { echo "needs h2load (nghttp2-client)" >&2; exit 1; }
[[ $# -ge 4 ]] || { sed -n 2,17p "$0" >&2; exit 2; }
rounds=$1 n=$2 path=$3
shift 3
PORT=${PORT:-18170}
body=$(mktemp)
trap 'rm -f "$body" "$body.out"' EXIT
head -c "${ECHO_BYTES:-1024}" /dev/zero | tr '\0' a > "$body"
post=() target=$path
if [[ $path == POST/* ]]; then
    target="${path#POST}"
    post=(-d "$body" -H "content-type: application/octet-stream")
fi
tck=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15, $14, $15}' "/proc/$1/stat"; }
for r in $(seq "$rounds"); do
    for bin in "$@"; do
        taskset -c 0 "$bin" --port "$PORT" >/dev/null 2>&1 &
        pid=$!
        for _ in $(seq 200); do curl -s -o /dev/null "http://127.0.0.1:$PORT/hello" && break; sleep 0.05; done
        taskset -c 1 h2load --h1 -n 20000 -c 64 -t 1 "${post[@]}" "http://127.0.0.1:$PORT$target" >/dev/null
        read -r t0 u0 s0 < <(cpu "$pid")
        taskset -c 1 h2load --h1 -n "$n" -c 64 -t 1 "${post[@]}" "http://127.0.0.1:$PORT$target" >/dev/null
        read -r t1 u1 s1 < <(cpu "$pid")
        kill "$pid"
        wait "$pid" 2>/dev/null || true
        ns() { echo $(( ($1) * 1000000000 / tck / n )); }
        echo "$r $(basename "$bin") $(ns "t1 - t0") $(ns "u1 - u0") $(ns "s1 - s0")"
    done
done | tee "$body.out"
for bin in "$@"; do
    name=$(basename "$bin")
    awk -v b="$name" '$2 == b {print $3}' "$body.out" | sort -n |
        awk -v b="$name" '{v[NR] = $1} END {printf "median %s %d ns\n", b, v[int((NR + 1) / 2)]}'
done
rm -f "$body.out"
