#!/usr/bin/env bash
# Where a start's time goes, in time rather than instructions: each server
# is started N times pinned to CPU 0, asked `GET /hello` once by curl on
# CPU 1 and killed (SIGKILL, so that no graceful shutdown is counted), while
# `perf record` samples CPU 0 (cpu-clock, 20 kHz, kernel call chains). A
# second pass records every page fault of N2 such starts with its address.
# `start_profile.py` then prints, per start:
#
#   - the CPU time of the server's threads by kind: the loader, the kernel's
#     page faults, the rest of the kernel (the exit after the answer apart),
#     libc, the CPU-feature probes, and the binary's own code;
#   - the page faults by the mapping they fall in (the binary's sections,
#     heap, stacks, libraries);
#   - with N3 > 0 (a third pass of N3 starts sampled with DWARF call
#     chains, which reach through the binary's frames), the CPU time by the
#     step of the start it was spent in: the loader, the core count, the
#     route table's build, the runtimes and threads, accept, the request
#     served, ... (`STEPS` in `start_profile.py`).
#
#   benches/load/start-profile.sh BIN...     # N=200 N2=20 N3=0 by default
#
# Needs perf with access to CPU-wide sampling (root, or
# kernel.perf_event_paranoid <= 0). Copy the binaries the same way, one
# right after the other, before comparing them (see `faults.sh`: how a file
# sits in the page cache moves its fault count). Only 127.0.0.1 is targeted.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PORT=${PORT:-18126}
N=${N:-200}
N2=${N2:-20}
N3=${N3:-0}
command -v perf >/dev/null || { echo "needs perf" >&2; exit 1; }
[[ $# -gt 0 ]] || { echo "usage: $0 BIN..." >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

starts() { # bin count: start, answer once, kill; count times
    for _ in $(seq "$2"); do
        taskset -c 0 "$1" --port "$PORT" >/dev/null 2>&1 &
        local pid=$!
        for _ in $(seq 3000); do
            taskset -c 1 curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/hello" && break
        done
        kill -KILL "$pid"
        wait "$pid" 2>/dev/null || true
    done
}

record() { # out-file perf-options... : records CPU 0 while the starts run
    local file=$1
    shift
    perf record -q "$@" -C 0 -o "$file" -- sleep 100000 >/dev/null 2>&1 &
    echo $!
}

stop() { # perf-pid: stops a recording and waits until its file is written
    kill -INT "$1"
    # Not this shell's child (started in a command substitution): polled.
    while kill -0 "$1" 2>/dev/null; do
        sleep 0.1
    done
}

for bin in "$@"; do
    bin=$(realpath "$bin")
    name=$(basename "$bin")
    perf_pid=$(record "$out/cpu.data" -g -F 20000 -e cpu-clock)
    sleep 0.5
    starts "$bin" "$N"
    stop "$perf_pid"
    perf_pid=$(record "$out/faults.data" -e page-faults -c 1 -d)
    sleep 0.5
    starts "$bin" "$N2"
    stop "$perf_pid"
    if [[ $N3 -gt 0 ]]; then
        perf_pid=$(record "$out/steps.data" --call-graph dwarf,32768 -F 20000 -e cpu-clock)
        sleep 0.5
        starts "$bin" "$N3"
        stop "$perf_pid"
        perf script -i "$out/steps.data" -F comm,pid,tid,ip,sym,dso 2>/dev/null >"$out/steps.txt"
    fi
    perf script -i "$out/cpu.data" -F comm,pid,tid,ip,sym,dso 2>/dev/null >"$out/cpu.txt"
    perf script -i "$out/faults.data" --show-mmap-events -F comm,pid,tid,addr,ip,sym,dso 2>/dev/null >"$out/faults.txt"
    echo "## $name"
    python3 "$here/start_profile.py" "$bin" "$N" "$out/cpu.txt" "$N2" "$out/faults.txt" "$N3" "$out/steps.txt"
done
