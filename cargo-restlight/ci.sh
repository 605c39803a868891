#!/usr/bin/env bash
# Checks `cargo restlight new` end to end: each variant (default and
# minimal, each in the JAX-RS and the Spring style) is generated into a
# temporary directory with a path dependency on this checkout and must pass
# its own `cargo fmt --check`, `cargo clippy --all-targets -D warnings` and
# `cargo test`; then the JAX-RS default variant is served and must answer its
# users, the health paths its Kubernetes probes name, and its metrics, and
# stop gracefully on SIGTERM.
#
# The variants share one target directory, this workspace's (or
# CARGO_TARGET_DIR), and start from this workspace's Cargo.lock, so the
# dependencies they have in common with it are not built again: a variant
# after the first compiles its own crate only. The Spring-style default
# variant differs from the JAX-RS one in `src/users.rs` only, which its tests
# cover, so it is not served again.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
export CARGO_TERM_COLOR=never NO_COLOR=1
start=$SECONDS

work="$(mktemp -d)"
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

say() { echo "-- $*  (${SECONDS}s)"; }

say "building cargo-restlight"
cargo build -p cargo-restlight --locked --manifest-path "$root/Cargo.toml"
tool="$CARGO_TARGET_DIR/debug/cargo-restlight"

for variant in default minimal spring-default spring-minimal; do
    name="svc-$variant"
    flags=()
    case "$variant" in spring-*) flags+=(--style spring) ;; esac
    case "$variant" in *minimal) flags+=(--minimal) ;; esac
    say "cargo restlight new $name ${flags[*]-}"
    (cd "$work" && "$tool" restlight new "$name" ${flags[@]+"${flags[@]}"} </dev/null)
    cp "$root/Cargo.lock" "$work/$name/Cargo.lock"
    (
        cd "$work/$name"
        say "$name: cargo fmt --check"
        cargo fmt --check
        say "$name: cargo clippy --all-targets -- -D warnings"
        cargo clippy --all-targets -- -D warnings
        say "$name: cargo test"
        cargo test
    )
done

say "serving svc-default"
cd "$work/svc-default"
cargo build
bin="$CARGO_TARGET_DIR/debug/svc-default"
probes=$(sed -n 's/^ *path: \(\/.*\)$/\1/p' k8s/deployment.yaml)
[ "$(echo "$probes" | wc -l)" -eq 2 ] || { echo "expected two probe paths in k8s/deployment.yaml, found: $probes"; exit 1; }

# `cargo restlight routes` runs the service with RESTLIGHT_PRINT_ROUTES=1: it prints its route table instead of serving.
routes=$("$tool" restlight routes)
for path in $probes /users /actuator/metrics; do
    grep -q "^GET  *$path " <<<"$routes" || { echo "--routes does not list GET $path:"; echo "$routes"; exit 1; }
done

RESTLIGHT_SERVER_PORT=0 RESTLIGHT_SERVER_BIND=127.0.0.1 "$bin" 2>"$work/server.log" &
server=$!
addr=""
for _ in $(seq 100); do
    addr=$(grep -o 'listening on http://[0-9.:]*' "$work/server.log" | head -1 | sed 's|listening on http://||') || true
    [ -n "$addr" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/server.log"; exit 1; }
    sleep 0.1
done
[ -n "$addr" ] || { echo "the service did not report its address:"; cat "$work/server.log"; exit 1; }
# The status of `GET $2` from the server at host:port $1 (bash's /dev/tcp, no curl needed).
status_of() {
    exec 3<>"/dev/tcp/${1%:*}/${1##*:}"
    printf 'GET %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n' "$2" >&3
    head -n 1 <&3 | cut -d ' ' -f 2
    exec 3<&-
}
for path in /users $probes /actuator/metrics; do
    status=$(status_of "$addr" "$path")
    echo "GET $path -> $status"
    [ "$status" = 200 ] || { cat "$work/server.log"; exit 1; }
done

kill -TERM "$server"
wait "$server" || { echo "the service exited with $? on SIGTERM:"; cat "$work/server.log"; exit 1; }
server=""
grep -q "shutting down gracefully" "$work/server.log" || { echo "no graceful shutdown:"; cat "$work/server.log"; exit 1; }
say "cargo restlight new: the four variants pass, the default one serves (took $((SECONDS - start))s)"
