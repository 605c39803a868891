#!/usr/bin/env bash
# Checks `cargo restlight import` end to end, the round trip: each contract
# below is imported into a temporary directory, and the generated project
# must pass its own `cargo fmt --check`, `cargo clippy --all-targets -D
# warnings` and `cargo test` (a test per operation: the route exists and
# answers 501). Then the document it serves (`cargo run -- --openapi`) is
# compared with the contract by `cargo restlight import SPEC --compare
# SERVED` (operations, parameters with their location, requiredness and default,
# success statuses, media types): the differences must be exactly those
# listed in cargo-restlight/tests/import/NAME.differences, the ones the
# import warned it cannot keep; none when there is no such file.
#
# With IMPORT_CI_SCHEMATHESIS naming a schemathesis binary (4.x, as
# scripts/openapi-check.sh installs it: target/openapi-venv/bin/schemathesis;
# .ci/run sets it, after that script),
# each generated service is then run and Schemathesis sends it requests
# that follow the contract (`--mode positive`, coverage and fuzzing
# phases): every response must be the skeleton's 501 naming the
# contract's operation (cargo-restlight/import_checks.py), so a route,
# parameter or media type that is not where the contract says fails; a
# 415 or 400 is accepted only where the import warned about that part of
# the operation.
#
# `import-ci.sh NAME..` checks only the contracts named (`fleet-jaxrs`).
#
# The projects share this workspace's target directory (or
# CARGO_TARGET_DIR) and start from its Cargo.lock.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
export CARGO_TERM_COLOR=never NO_COLOR=1
start=$SECONDS
work="$(mktemp -d)"
server=
trap '[ -z "$server" ] || kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
port="${IMPORT_CI_PORT:-18280}"
say() { echo "-- $*  (${SECONDS}s)"; }

cargo build -p cargo-restlight --locked --manifest-path "$root/Cargo.toml"
tool="$CARGO_TARGET_DIR/debug/cargo-restlight"
contracts="$root/cargo-restlight/tests/import"

# contract, style
cases=(
    "$contracts/petstore-3.0.yaml jaxrs"
    "$contracts/library-3.1.json jaxrs"
    "$contracts/library-3.1.json spring"
    "$contracts/petstore-3.1.yaml jaxrs"
    "$contracts/fleet-jaxrs.yaml jaxrs"
    "$contracts/orders-spring.json spring"
    "$root/examples/openapi/users.json jaxrs"
)
for case in "${cases[@]}"; do
    read -r spec style <<<"$case"
    base="$(basename "$spec")"
    name="${base%.*}"
    name="${name//./-}-$style"
    if [ $# -gt 0 ] && [[ " $* " != *" ${base%.*} "* ]]; then
        continue
    fi
    say "cargo restlight import $base --style $style"
    "$tool" restlight import "$spec" --style "$style" --out "$work/$name" --name "$name" 2>"$work/$name.warnings"
    cat "$work/$name.warnings"
    cp "$root/Cargo.lock" "$work/$name/Cargo.lock"
    (
        cd "$work/$name"
        cargo fmt --check
        cargo clippy --all-targets --quiet -- -D warnings
        cargo test --quiet
        cargo run --quiet -- --openapi >"$work/$name.served.json"
    )
    expected="$contracts/${base%.*}.differences"
    [ -f "$expected" ] || expected=/dev/null
    "$tool" restlight import "$spec" --compare "$work/$name.served.json" >"$work/$name.differences" 2>/dev/null || true
    if ! diff -u "$expected" "$work/$name.differences"; then
        echo "the document $name serves differs from $base other than expected (above: - expected, + found)"
        exit 1
    fi
    if [ -n "${IMPORT_CI_SCHEMATHESIS:-}" ]; then
        say "schemathesis: $name answers every request of the contract with its operation's 501"
        port=$((port + 1))
        RESTLIGHT_SERVER_PORT=$port "$CARGO_TARGET_DIR/debug/$name" >"$work/$name.server.log" 2>&1 &
        server=$!
        for _ in $(seq 1 100); do
            curl -fsS "http://127.0.0.1:$port/openapi.json" >/dev/null 2>&1 && break
            sleep 0.1
        done
        IMPORT_WARNINGS="$work/$name.warnings" SCHEMATHESIS_HOOKS=import_checks PYTHONPATH="$root/cargo-restlight" \
            "$IMPORT_CI_SCHEMATHESIS" run "$spec" \
            --url "http://127.0.0.1:$port" \
            --mode positive \
            --phases coverage,fuzzing \
            --checks answered_by_its_handler \
            --max-examples "${IMPORT_CI_MAX_EXAMPLES:-10}" \
            --seed 1 \
            --no-color
        kill "$server" 2>/dev/null || true
        server=
    fi
done
say "cargo restlight import: the contracts round-trip (took $((SECONDS - start))s)"
