#!/usr/bin/env bash
# What the business executor's handoff costs: server CPU per request of each
# measured route inline on IO and under /biz (the business executor), same
# process, same minute.
#
#   benches/load/handoff.sh SECS ROUNDS BIN [BIN...]
#
# BIN is a build of the load-comparison service (`cargo build --release
# --features restlight --bin restlight` here); several are interleaved, one
# server at a time. Each server is pinned to CPU 0 with all its threads, wrk
# (1 thread, 64 connections) to CPU 1. A window reports the requests wrk
# made, the server's utime+stime over them (/proc/PID/stat), its context
# switches (perf stat, when perf is installed) and voluntary ones (the
# threads' /proc status), how busy the server was and the load average.
# Only 127.0.0.1 is targeted; every run is bounded in time.
set -euo pipefail
secs=$1 rounds=$2
shift 2
port=${PORT:-18090}
tck=$(getconf CLK_TCK)
lua=$(mktemp --suffix=.lua)
trap 'rm -f "$lua" /tmp/handoff-perf.$$' EXIT
printf 'wrk.method = "POST"\nwrk.body = string.rep("a", 1024)\nwrk.headers["Content-Type"] = "application/octet-stream"\n' >"$lua"
paths=(/hello /biz/hello /json /biz/json /users/7/orders/42 /biz/users/7/orders/42 /echo /biz/echo)
have_perf=$(command -v perf >/dev/null && echo 1 || echo 0)
printf "round\tbin\tpath\trequests\tcpu_us_per_req\tcs_per_req\tvoluntary_cs_per_req\tbusy\tload\n"
for r in $(seq "$rounds"); do
    for bin in "$@"; do
        taskset -c 0 "$bin" --port "$port" >/dev/null 2>&1 &
        pid=$!
        sleep 0.5
        cpu() { awk '{print $14+$15}' /proc/$pid/stat; }
        vol() { cat /proc/$pid/task/*/status | awk '/^voluntary_ctxt/{s+=$2} END{print s}'; }
        for p in "${paths[@]}"; do
            script=(); [[ $p == */echo ]] && script=(-s "$lua")
            taskset -c 1 wrk -t1 -c64 -d1s "${script[@]}" "http://127.0.0.1:$port$p" >/dev/null
            c0=$(cpu) v0=$(vol)
            if [[ $have_perf == 1 ]]; then
                perf stat -e context-switches -p $pid -o /tmp/handoff-perf.$$ -- sleep "$secs" >/dev/null 2>&1 &
                pp=$!
            fi
            out=$(taskset -c 1 wrk -t1 -c64 -d"${secs}s" "${script[@]}" "http://127.0.0.1:$port$p")
            c1=$(cpu) v1=$(vol)
            cs=-
            if [[ $have_perf == 1 ]]; then
                wait $pp || true
                cs=$(awk '/context-switches/{gsub(",","",$1); print $1}' /tmp/handoff-perf.$$)
            fi
            n=$(awk '/requests in/{print $1}' <<<"$out")
            awk -v r="$r" -v b="$(basename "$(dirname "$bin")")/$(basename "$bin")" -v p="$p" -v n="$n" \
                -v c="$((c1 - c0))" -v t="$tck" -v cs="$cs" -v v="$((v1 - v0))" -v s="$secs" \
                -v l="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
                printf "%s\t%s\t%s\t%d\t%.2f\t%s\t%.2f\t%.2f\t%s\n", r, b, p, n, c * 1e6 / t / n,
                    (cs == "-" ? "-" : sprintf("%.2f", cs / n)), v / n, c / t / s, l }'
        done
        kill $pid
        wait $pid 2>/dev/null || true
    done
done
