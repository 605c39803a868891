#!/usr/bin/env bash
# Flame graphs of the load-comparison servers under load, and where a
# request's server CPU goes hop by hop. A window: the server starts on
# CPU 0, h2load drives one endpoint from CPU 1 (warmed up 1 s, then SECS
# seconds), and `perf record` samples the server's threads (cpu-clock, FREQ
# Hz, call chains unwound from DWARF with 32 KiB of stack, the kernel's
# included) for the middle SECS-1.5 seconds. ROUNDS rounds (default 3) of
# one window per endpoint and binary, the binaries' order reversed every
# other round; the rounds' stacks are summed. Writes into OUT, per endpoint
# and binary:
#
#   NAME-ENDPOINT.folded   the stacks (inferno-collapse-perf), weights in
#                          ns, generic arguments cut to `<_>`
#   NAME-ENDPOINT.svg      the flame graph (inferno-flamegraph), static: a
#                          frame's name, time and share show on hover
#   NAME-ENDPOINT.meta     requests, server CPU ns a request over the
#                          windows, the server's mean share of its core
#
# and prints each window's CPU a request, then `flame_hops.py`'s table of
# each endpoint: every hop's share of the samples times the server CPU a
# request. NAME is the binary's file name: copy builds to distinct names
# (`restlight-before`) to compare them.
#
#   benches/load/flame.sh OUT BIN...
#   PATHS="/hello /users/7/orders/42" benches/load/flame.sh /tmp/fl BINS/hyper BINS/restlight
#
# PATHS lists the endpoints (default `/hello /users/7/orders/42 POST/echo
# h2c:/hello`): `POST/echo` posts ECHO_BYTES (default 1024) bytes, an
# `h2c:` prefix sends over h2c by prior knowledge with H2_STREAMS (16)
# streams on each of the CONNS (16) connections. Frames are named from the
# binaries' symbols and, where they have it, their debug information (build
# with `CARGO_PROFILE_RELEASE_DEBUG=line-tables-only` for inlined frames;
# the code is the same). Needs perf (root, or kernel.perf_event_paranoid
# <= 1), h2load (nghttp2-client), curl, python3, inferno (`cargo install
# inferno`) and a quiet machine: the shares are the server's only while it
# is the busy side (the share of its core is printed). Only 127.0.0.1 is
# targeted.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
for tool in perf h2load curl python3 inferno-collapse-perf inferno-flamegraph; do
    command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 1; }
done
[[ $# -ge 2 ]] || { sed -n 2,37p "$0" >&2; exit 2; }
out=$1
shift
mkdir -p "$out"
PATHS=${PATHS:-/hello /users/7/orders/42 POST/echo h2c:/hello}
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-6}
FREQ=${FREQ:-499}
CONNS=${CONNS:-16}
H2_STREAMS=${H2_STREAMS:-16}
ECHO_BYTES=${ECHO_BYTES:-1024}
port=${PORT:-18520}
tck=$(getconf CLK_TCK)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -c "$ECHO_BYTES" /dev/zero | tr '\0' a > "$tmp/body"

static_svg() { # svg: inferno's viewer script and the controls it drives taken out; each
    # frame keeps its <title>, which a browser shows on hover, and its label.
    python3 - "$1" <<'PY'
import re, sys
path = sys.argv[1]
with open(path, encoding="utf-8") as f:
    svg = f.read()
svg = re.sub(r"<script[\s\S]*?</script>", "", svg)
svg = re.sub(r' onload="[^"]*"', "", svg)
svg = re.sub(r'<text id="(details|unzoom|search|matched)"[^>]*>[^<]*</text>', "", svg)
with open(path, "w", encoding="utf-8") as f:
    f.write(svg)
PY
}

slug() { # endpoint -> file-name part
    local s=${1#h2c:}
    s=${s#POST}
    s=${s#/}
    s=${s%%/*}
    [[ $1 == h2c:* ]] && s="h2c-$s"
    echo "$s"
}

one() { # bin endpoint: one window, its stacks added to the binary's
    local bin=$1 path=$2 name args=(--h1) pid t0 t1 w0 w1 n recording wall
    name="$(basename "$bin")-$(slug "$path")"
    if [[ $path == h2c:* ]]; then
        path=${path#h2c:}
        args=(-m "$H2_STREAMS")
    fi
    if [[ $path == POST/* ]]; then
        path=${path#POST}
        args+=(-d "$tmp/body" -H "content-type: application/octet-stream")
    fi
    port=$((port + 1))
    taskset -c 0 "$bin" --port "$port" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 200); do curl -s -o /dev/null "http://127.0.0.1:$port/hello" && break; sleep 0.05; done
    kill -0 "$pid" 2>/dev/null || { echo "$name: the server exited at start" >&2; exit 1; }
    local url="http://127.0.0.1:$port$path"
    taskset -c 1 h2load "${args[@]}" -c "$CONNS" -t 1 -D 1 "$url" >/dev/null
    t0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    w0=$(date +%s.%N)
    taskset -c 1 h2load "${args[@]}" -c "$CONNS" -t 1 -D "$SECS" "$url" > "$tmp/load" &
    local load=$!
    sleep 0.5
    recording=$(awk -v s="$SECS" 'BEGIN { print s - 1.5 }')
    if ! taskset -c 1 perf record -q -F "$FREQ" -e cpu-clock --call-graph dwarf,32768 -p "$pid" \
        -o "$tmp/perf.data" -- sleep "$recording" 2>"$tmp/perf.err"; then
        cat "$tmp/perf.err" >&2
        kill "$pid" "$load" 2>/dev/null || true
        echo "perf record failed on $name (see above; perf_event_paranoid?)" >&2
        exit 1
    fi
    wait "$load"
    t1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    w1=$(date +%s.%N)
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    n=$(awk '/^requests:/ { print $4 }' "$tmp/load")
    if [[ -z $n || $n -eq 0 ]]; then
        echo "$name answered no request (is the port free, does the binary take --port?)" >&2
        exit 1
    fi
    # Generic arguments cut to `<_>` (innermost first), so that a frame
    # reads as the function it is and one function's instances merge.
    perf script -i "$tmp/perf.data" 2>/dev/null | inferno-collapse-perf |
        sed -E ':a; s/([A-Za-z0-9_}])<[^<>]*>/\1⟨⟩/g; ta; s/⟨⟩/<_>/g' >> "$tmp/$name.folded"
    wall=$(awk -v a="$w0" -v b="$w1" 'BEGIN { print b - a }')
    echo "$n $((t1 - t0)) $wall" >> "$tmp/$name.windows"
    awk -v n="$n" -v t="$((t1 - t0))" -v tck="$tck" -v wall="$wall" -v w="$name" \
        'BEGIN { printf "%s: %.2f us of server CPU a request, %.0f%% of its core\n", w, t / tck * 1e6 / n, t / tck / wall * 100 }'
}

for r in $(seq "$ROUNDS"); do
    order=("$@")
    if (( r % 2 == 0 )); then
        order=()
        for ((i = $# ; i >= 1; i--)); do order+=("${!i}"); done
    fi
    for path in $PATHS; do
        for bin in "${order[@]}"; do
            echo -n "round $r: "
            one "$bin" "$path"
        done
    done
done
for path in $PATHS; do
    files=()
    for bin in "$@"; do
        name="$(basename "$bin")-$(slug "$path")"
        # The rounds' stacks summed, and their requests and CPU time.
        awk '{ i = match($0, / [0-9]+$/); s[substr($0, 1, i - 1)] += substr($0, i + 1) }
            END { for (k in s) print k, s[k] }' \
            "$tmp/$name.folded" | sort > "$out/$name.folded"
        awk -v tck="$tck" '{ n += $1; t += $2; wall += $3 }
            END { printf "requests %d\ncpu_ns_per_request %.0f\nbusy %.2f\n", n, t / tck * 1e9 / n, t / tck / wall }' \
            "$tmp/$name.windows" > "$out/$name.meta"
        title=$(awk -v p="$path" -v b="$(basename "$bin")" -v r="$ROUNDS" '/cpu_ns/ { ns = $2 } /busy/ { busy = $2 }
            END { printf "%s %s: %.2f us of server CPU a request (%d windows), %.0f%% of its core", b, p, ns / 1000, r, busy * 100 }' \
            "$out/$name.meta")
        inferno-flamegraph --title "$title" --countname ns --minwidth 0.5 < "$out/$name.folded" > "$out/$name.svg"
        static_svg "$out/$name.svg"
        files+=("$out/$name.folded")
    done
    echo
    echo "$path"
    python3 "$here/flame_hops.py" "${files[@]}"
done
