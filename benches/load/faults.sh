#!/usr/bin/env bash
# Page faults of one start of a load-comparison server: exec, the first
# answer to `GET /hello`, then SIGTERM and exit (the kernel's count of minor
# faults, as `/usr/bin/time` reports it). Each fault maps a page the process
# touches for the first time: heap and stacks as they grow, and the binary's
# own pages (code, and the relocated data the loader writes). Fault counts
# hardly depend on what else the machine runs, but they do depend on how the
# binary's file sits in the page cache: two copies of one binary made at
# different times can differ by 25 faults a start or more. Compare builds
# through copies made the same way, one right after the other, and see the
# spread by listing one binary twice under two names.
#
#   benches/load/faults.sh BIN...      # ROUNDS starts of each, interleaved
#
# Prints one row per round, one column per binary. The servers are pinned to
# CPU 0 (as the load comparison pins them); only 127.0.0.1 is targeted.
set -euo pipefail
PORT=${PORT:-18125}
ROUNDS=${ROUNDS:-5}
[[ -x /usr/bin/time ]] || { echo "needs /usr/bin/time (Debian: apt-get install time)" >&2; exit 1; }
[[ $# -gt 0 ]] || { echo "usage: $0 BIN..." >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT

faults() { # bin -> minor faults of one start
    taskset -c 0 /usr/bin/time -f "%R" -o "$out" "$1" --port "$PORT" >/dev/null 2>&1 &
    local waiter=$!
    for _ in $(seq 2000); do
        curl -s -o /dev/null "http://127.0.0.1:$PORT/hello" && break
        sleep 0.005
    done
    # SIGTERM to the server itself (the child of `time`), so `time` reports.
    pkill -TERM -P "$waiter"
    wait "$waiter" || true
    tail -1 "$out"
}

printf '| round |'
for bin in "$@"; do printf ' %s |' "$(basename "$bin")"; done
printf '\n|---|'
for _ in "$@"; do printf -- '---:|'; done
printf '\n'
for round in $(seq "$ROUNDS"); do
    printf '| %s |' "$round"
    for bin in "$@"; do printf ' %s |' "$(faults "$bin")"; done
    printf '\n'
done
