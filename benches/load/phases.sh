#!/usr/bin/env bash
# Where one start of a load-comparison server spends its time, by phase:
# the server runs pinned to CPU 0 under `perf record` (its system calls,
# page faults and context switches traced), `curl` polls `GET /hello` from
# CPU 1, and the trace is cut at system calls every server makes:
#
#   1. exec to the first `epoll_create1` (the loader, std's start, and
#      whatever `main` does before it builds a runtime);
#   2. to the first `clone3` (runtimes built, the first worker thread
#      spawned);
#   3. to the first `socket` after it (the application built: for
#      Restlight, its routes compiled and its router built);
#   4. to the first `writev` (bind, accept, the first answer), which also
#      waits for curl's next poll and is not the server's alone.
#
# Each phase's time is wall time with the server pinned and runnable, and
# its page faults. Tracing makes every system call and fault dearer, so the
# times are larger than an untraced start's: compare servers within one
# run. Needs perf, curl and python3; only 127.0.0.1 is targeted.
#
#   benches/load/phases.sh BIN...      # ROUNDS traced starts of each
set -euo pipefail
PORT=${PORT:-18218}
ROUNDS=${ROUNDS:-2}
for tool in perf curl python3; do
    command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 1; }
done
[[ $# -gt 0 ]] || { echo "usage: $0 BIN..." >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

phases() { # bin -> one table row
    local bin=$1
    perf record -q -e raw_syscalls:sys_enter,exceptions:page_fault_user,sched:sched_switch \
        -o "$dir/trace.data" -- taskset -c 0 "$bin" --port "$PORT" >/dev/null 2>&1 &
    local waiter=$!
    for _ in $(seq 4000); do
        taskset -c 1 curl -s -o /dev/null "http://127.0.0.1:$PORT/hello" && break
        sleep 0.0005
    done
    pkill -TERM -f "^$bin --port $PORT\$" || true
    wait "$waiter" 2>/dev/null || true
    perf script -i "$dir/trace.data" -F comm,tid,time,event,trace 2>/dev/null >"$dir/trace.txt"
    python3 - "$dir/trace.txt" "$(basename "$bin")" <<'PY'
import re, sys
rows = []
for line in open(sys.argv[1]):
    m = re.match(r'\s*(.+?)\s+(\d+)\s+([\d.]+):\s+(\S+):\s*(.*)', line)
    if m and m.group(1) != 'taskset':
        rows.append((float(m.group(3)), m.group(4), m.group(5)))
start = rows[0][0]
def first(nr, after):
    for t, event, trace in rows:
        if t >= after and event == 'raw_syscalls:sys_enter' and trace.startswith(f'NR {nr} '):
            return t
    sys.exit(f'{sys.argv[2]}: no system call {nr} in the trace')
cuts = [start]
for nr in (291, 435, 41, 20):  # epoll_create1, clone3, socket, writev
    cuts.append(first(nr, cuts[-1]))
cells = []
for a, b in zip(cuts, cuts[1:]):
    faults = sum(1 for t, event, _ in rows if a <= t < b and event.startswith('exceptions:'))
    cells.append(f'{(b - a) * 1e6:.0f} µs, {faults} faults')
print(f"| {sys.argv[2]} | " + ' | '.join(cells) + ' |')
PY
}

echo '| binary | 1. to the first runtime | 2. to the first thread | 3. to the socket | 4. to the first answer |'
echo '|---|---:|---:|---:|---:|'
for _ in $(seq "$ROUNDS"); do
    for bin in "$@"; do phases "$(realpath "$bin")"; done
done
