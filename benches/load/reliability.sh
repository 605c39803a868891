#!/usr/bin/env bash
# The reliability suite: builds the reliability driver and the Restlight
# service it drives (release), then runs the scenarios (all, or those
# named: shutdown, panics, overload, slow, h2abuse) and prints a table of figures. Every
# scenario is bounded in time (about 80 s in all); only 127.0.0.1 is used.
#
#   benches/load/reliability.sh [scenario...]
#
# Not part of `cargo test`: it measures a release build under load.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
command -v slowhttptest >/dev/null || { [[ $(id -u) -eq 0 ]] && apt-get install -y slowhttptest >/dev/null; } || echo "slowhttptest missing: the slow scenario will fail (apt-get install slowhttptest)" >&2
python3 -c "import hyperframe, hpack" 2>/dev/null || python3 -m pip install --quiet hyperframe==6.1.0 hpack==4.2.0 \
    || echo "hyperframe/hpack missing: the h2abuse scenario will fail (pip install hyperframe hpack)" >&2
cargo build --release --locked --features restlight --bin reliability --bin reliability-server
exec "$here/target/release/reliability" "$@"
