#!/usr/bin/env bash
# Atomic operations, large moves and clock reads per request of a
# load-comparison server (see kinds.py for why they are counted apart from
# instructions): two callgrind runs with `--dump-instr=yes`, each warmed up
# with one `GET /hello`, then LOW and HIGH requests of PATH (a `POST/`
# prefix posts ECHO_BYTES bytes; an `h2c:` prefix sends over h2c, as in
# count.sh) from h2load on CONNS connections; their difference divided by
# HIGH - LOW. The counts include the park and wake-up work of those
# requests, so compare servers at the same CONNS.
#
#   benches/load/kinds.sh BIN PATH        # e.g. target/release/restlight /users/7/orders/42
#
# Needs valgrind, h2load (nghttp2-client), objdump and python3. Only
# 127.0.0.1 is targeted; the run is bounded by its request count.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin=$1 path=$2
PORT=${PORT:-18125}
LOW=${LOW:-2000}
HIGH=${HIGH:-12000}
CONNS=${CONNS:-64}
ECHO_BYTES=${ECHO_BYTES:-1024}
for tool in valgrind h2load objdump python3; do
    command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 1; }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
BODY="$out/body"
H2_STREAMS=${H2_STREAMS:-16}
head -c "$ECHO_BYTES" /dev/zero | tr '\0' a > "$BODY"
# shellcheck source=callgrind-run.sh
. "$here/callgrind-run.sh"
for n in "$LOW" "$HIGH"; do
    callgrind_requests "$bin" "$path" "$n" "$out/cg.$n" --dump-instr=yes
done
python3 "$here/kinds.py" "$out/cg.$LOW" "$LOW" "$out/cg.$HIGH" "$HIGH" "$bin"
