#!/usr/bin/env bash
# Builds the load-comparison servers and drivers in release mode, each server
# in a cargo invocation of its own so that cargo's feature unification never
# carries one peer's dependency features into another peer's binary.
#
#   benches/load/build.sh [restlight] [openapi] [extra cargo args...]
#
# Writes into $CARGO_TARGET_DIR (default: benches/load/target)/release:
# hyper, axum, actix, loadbench and reliability always; restlight and
# reliability-server when `restlight` is given (`openapi`: the restlight binary
# with OpenAPI generation compiled in). Any further arguments go to every cargo
# invocation (e.g. `--locked`).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/target}"
manifest="$here/Cargo.toml"
restlight=""
while [[ $# -gt 0 && ( "$1" == "restlight" || "$1" == "openapi" ) ]]; do
    restlight="$1"
    shift
done

build() { cargo build --release --manifest-path "$manifest" "$@"; }

build --features mt --bin hyper --bin loadbench --bin reliability "$@"
build --features axum --bin axum "$@"
build --features actix --bin actix "$@"
if [[ -n "$restlight" ]]; then
    build --features "$restlight" --bin restlight --bin reliability-server "$@"
fi
