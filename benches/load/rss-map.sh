#!/usr/bin/env bash
# Where an idle server's resident memory is: each server is started pinned
# to CPU 0, asked `GET /hello` once (polling until it answers), left idle
# for IDLE seconds (0.5 by default), and its `/proc/PID/smaps` summed by
# mapping: the binary's code, its read-only data, each library, `[heap]`,
# `[stack]` and anonymous memory, in kB, with `VmRSS` and the thread count.
# The servers run one after the other on PORT (18740 by default); only
# 127.0.0.1 is targeted.
#
#   benches/load/rss-map.sh BIN...
set -eu
port=${PORT:-18740}
idle=${IDLE:-0.5}
for bin in "$@"; do
    taskset -c 0 "$bin" --port "$port" >/dev/null 2>&1 &
    pid=$!
    answered=
    for _ in $(seq 300); do
        if curl -s -o /dev/null "http://127.0.0.1:$port/hello"; then
            answered=1
            break
        fi
        sleep 0.01
    done
    if [[ -z $answered ]]; then
        echo "$bin: no answer on port $port" >&2
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        exit 1
    fi
    sleep "$idle"
    echo "== $(basename "$bin"): $(grep VmRSS "/proc/$pid/status" | tr -s ' \t' ' '), $(ls "/proc/$pid/task" | wc -l) threads"
    # A mapping line starts with its address range; its Rss line follows.
    awk '/^[0-9a-f]+-[0-9a-f]+ / { name = ($6 == "" ? "[anonymous]" : $6); perm = $2 }
         /^Rss:/ { rss[name " " perm] += $2 }
         END { for (k in rss) if (rss[k] > 0) printf "%8d kB  %s\n", rss[k], k }' "/proc/$pid/smaps" | sort -rn
    kill "$pid"
    wait "$pid" 2>/dev/null || true
done
