#!/usr/bin/env bash
# Server CPU per request when every request comes on a connection of its
# own (`Connection: close`): what accepting, handing over, serving and
# closing a connection costs, which the load comparison's keep-alive
# connections never measure. Each round starts every binary in turn on
# CPU 0 (wrk on CPU 1, 16 connections), warms it up for 1 s, then reads
# the server's CPU time from /proc and its threads' context switches
# around a window of SECS seconds; the binaries' order is reversed every
# other round, so that neither sits in the same place each time.
#
#   benches/load/churn.sh ROUNDS BIN...
#   SECS=4 benches/load/churn.sh 6 BINS/hyper BINS/restlight
#
# Prints one line per round and binary: round, binary, requests, CPU ns per
# request (user+system), context switches per request, and the server's
# share of its core over the window. A window where the server used less
# than 90% of its core measured the client (connecting and closing costs
# the client about as much as the server) and is marked `client-bound`;
# then each binary's median over its server-bound windows (the lower
# middle one of an even count; over all of them, marked, when it has
# none). Only 127.0.0.1 is targeted, on PORT (default 18300 and up).
# Needs wrk and a quiet machine.
set -euo pipefail
command -v wrk >/dev/null || { echo "needs wrk" >&2; exit 1; }
[[ $# -ge 2 ]] || { sed -n 2,22p "$0" >&2; exit 2; }
rounds=$1
shift
bins=("$@")
SECS=${SECS:-4}
port=${PORT:-18300}
tck=$(getconf CLK_TCK)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
switches() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/ctxt_switches/ { s += $2 } END { print s }'; }
one() {
    local bin=$1 pid t0 t1 c0 c1 n
    port=$((port + 1))
    taskset -c 0 "$bin" --port "$port" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 200); do curl -s -o /dev/null "http://127.0.0.1:$port/hello" && break; sleep 0.05; done
    taskset -c 1 wrk -t1 -c16 -d1s -H "Connection: close" "http://127.0.0.1:$port/hello" >/dev/null 2>&1
    t0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    c0=$(switches "$pid")
    n=$(taskset -c 1 wrk -t1 -c16 -d"${SECS}s" -H "Connection: close" "http://127.0.0.1:$port/hello" 2>&1 |
        awk '/requests in/ { print $1 }')
    t1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    c1=$(switches "$pid")
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    awk -v b="$(basename "$bin")" -v n="$n" -v t="$((t1 - t0))" -v c="$((c1 - c0))" -v tck="$tck" -v secs="$SECS" \
        'BEGIN { busy = t / tck / secs; printf "%s %d %.0f %.2f %.2f %s\n", b, n, t / tck * 1e9 / n, c / n, busy, (busy < 0.9 ? "client-bound" : "") }'
}
for r in $(seq "$rounds"); do
    order=("${bins[@]}")
    if (( r % 2 == 0 )); then
        order=()
        for ((i = ${#bins[@]} - 1; i >= 0; i--)); do order+=("${bins[i]}"); done
    fi
    for bin in "${order[@]}"; do
        line=$(one "$bin")
        echo "$r $line" | tee -a "$out"
    done
done
echo "median CPU ns per request (server-bound windows), and that window's context switches per request:"
for bin in "${bins[@]}"; do
    b=$(basename "$bin")
    awk -v b="$b" '$2 == b' "$out" | sort -k4,4n | awk -v b="$b" '
        { all[NR] = $0; if ($7 == "") { bound[++m] = $4; sw[m] = $5 } ; allns[NR] = $4; allsw[NR] = $5 }
        END {
            if (m > 0) { printf "%s %s %s\n", b, bound[int((m + 1) / 2)], sw[int((m + 1) / 2)] }
            else { printf "%s %s %s (client-bound windows only)\n", b, allns[int((NR + 1) / 2)], allsw[int((NR + 1) / 2)] }
        }'
done
