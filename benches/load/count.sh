#!/usr/bin/env bash
# Instructions per request of the load-comparison servers, counted by
# callgrind over the whole server process: the difference between serving
# LOW and HIGH requests of one endpoint, divided by the difference, so
# startup and shutdown cancel out. Instruction counts do not depend on what
# else the machine runs, so two builds (before and after a change) compare
# even on a busy machine.
#
#   benches/load/run.sh quick            # builds the servers first
#   benches/load/count.sh [BIN...]       # default: target/release/{hyper,axum,restlight}
#
# CONNS is the number of connections (default 4). The runtime parks
# whenever no connection has a request ready, and how many requests one
# park serves depends on timing, so two builds whose request paths cost
# the same can differ by a few hundred instructions a request at CONNS > 1;
# CONNS=1 parks once per request in every build, which compares request
# paths alone.
#
# PATHS lists the endpoints (`POST/echo` posts ECHO_BYTES bytes to /echo;
# an `h2c:` prefix, as in `h2c:/hello` or `h2c:POST/echo`, sends them over
# h2c by prior knowledge, H2_STREAMS concurrent streams on each of the CONNS
# connections, instead of HTTP/1.1); LOW and HIGH the two request counts.
#
# BIN may be any copy of a server binary (say, `restlight-before` built from
# an older commit). Only 127.0.0.1 is targeted; each run is bounded by its
# request count.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LOW=${LOW:-2000}
HIGH=${HIGH:-12000}
PORT=${PORT:-18123}
PATHS=${PATHS:-/hello /json /users/7/orders/42 POST/echo}
ECHO_BYTES=${ECHO_BYTES:-16384}
H2_STREAMS=${H2_STREAMS:-16}
CONNS=${CONNS:-4}
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 1; }
command -v h2load >/dev/null || { echo "needs h2load (nghttp2-client)" >&2; exit 1; }
bins=("$@")
if [[ ${#bins[@]} -eq 0 ]]; then
    bins=("$here/target/release/hyper" "$here/target/release/axum" "$here/target/release/restlight")
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

head -c "$ECHO_BYTES" /dev/zero | tr '\0' a > "$out/body"

BODY="$out/body"
# shellcheck source=callgrind-run.sh
. "$here/callgrind-run.sh"

count() { # bin path requests -> total instructions
    local file="$out/cg.$RANDOM"
    callgrind_requests "$1" "$2" "$3" "$file"
    awk '/^(summary|totals):/ {print $2; exit}' "$file"
}

printf '| server | endpoint | Ir/request |\n|---|---|---:|\n'
for path in $PATHS; do
    for bin in "${bins[@]}"; do
        lo=$(count "$bin" "$path" "$LOW")
        hi=$(count "$bin" "$path" "$HIGH")
        plain="${path#h2c:}" label="GET ${path#h2c:}"
        [[ $plain == POST/* ]] && label="POST ${plain#POST} ($ECHO_BYTES bytes)"
        [[ $path == h2c:* ]] && label="h2c $label"
        printf '| %s | `%s` | %s |\n' "$(basename "$bin")" "$label" "$(((hi - lo) / (HIGH - LOW)))"
    done
done
