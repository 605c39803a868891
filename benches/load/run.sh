#!/usr/bin/env bash
# Load comparison of Restlight against raw hyper, axum and actix-web.
#
#   benches/load/run.sh [quick|full] [loadbench options...]
#
# quick (default): about 3 minutes of measuring once built; full: about 20.
# Installs wrk and h2load if missing (Debian packages), builds the servers in
# release mode into benches/load/target, then runs the driver, which pins the
# servers to CPU 0 and the load generator to CPU 1, warms up, interleaves the
# servers in rounds and prints markdown tables (also written to
# benches/load/target/loadbench/results.md, raw samples in samples.tsv).
# Only 127.0.0.1 is ever targeted; every load run is bounded in time.
# `benches/load/run.sh quick --help` lists the driver's options.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mode="quick"
if [[ $# -gt 0 && ( "$1" == "quick" || "$1" == "full" ) ]]; then
    mode="$1"
    shift
fi

as_root() {
    if [[ $(id -u) -eq 0 ]]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        echo "need root to run: $*" >&2; return 1; fi
}

need=()
command -v wrk >/dev/null || need+=(wrk)
command -v h2load >/dev/null || need+=(nghttp2-client)
command -v taskset >/dev/null || need+=(util-linux)
command -v strip >/dev/null || need+=(binutils)
if [[ ${#need[@]} -gt 0 ]]; then
    echo "installing ${need[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    if ! as_root apt-get install -y "${need[@]}" >&2; then
        as_root apt-get update >&2
        as_root apt-get install -y "${need[@]}" >&2
    fi
fi

# The bench crate is its own workspace with its own target dir: it never takes
# the root workspace's build lock. build.sh builds each server on its own, so
# no peer's dependency features reach another peer's binary.
export CARGO_TARGET_DIR="$here/target"
echo "building the servers (release, thin LTO, 1 codegen unit)..." >&2
if ! "$here/build.sh" restlight >&2; then
    echo "WARNING: Restlight does not build; measuring the peers only" >&2
    "$here/build.sh" >&2
    rm -f "$CARGO_TARGET_DIR/release/restlight"
fi

exec "$CARGO_TARGET_DIR/release/loadbench" --mode "$mode" \
    --bin-dir "$CARGO_TARGET_DIR/release" --out-dir "$CARGO_TARGET_DIR/loadbench" "$@"
