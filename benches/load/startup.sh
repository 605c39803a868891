#!/usr/bin/env bash
# Instructions from exec to the first response (plus shutdown) of a
# load-comparison server, counted by callgrind: the whole process's total and
# the inclusive count of the startup functions named in FUNCS. Instruction
# counts do not depend on what else the machine runs, so two builds (before
# and after a change) compare even on a busy machine.
#
#   benches/load/startup.sh [BIN...]   # default: target/release/restlight
#
# Each binary is started under callgrind, asked `GET /hello` once (polling
# until it answers; a refused connection costs the server nothing) and sent
# SIGTERM. Only 127.0.0.1 is targeted.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PORT=${PORT:-18124}
FUNCS=${FUNCS:-"AppBuilder::build Router::new Router::of_refs template::parse"}
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 1; }
bins=("$@")
[[ ${#bins[@]} -gt 0 ]] || bins=("$here/target/release/restlight")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

printf '| binary | total Ir |'
for f in $FUNCS; do printf ' `%s` |' "$f"; done
printf '\n|---|---:|'
for _ in $FUNCS; do printf -- '---:|'; done
printf '\n'
for bin in "${bins[@]}"; do
    file="$out/cg.$RANDOM"
    valgrind --tool=callgrind --callgrind-out-file="$file" "$bin" --port "$PORT" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 600); do
        curl -s -o /dev/null "http://127.0.0.1:$PORT/hello" && break
        sleep 0.1
    done
    kill -TERM "$pid"
    wait "$pid" 2>/dev/null || true
    total=$(awk '/^(summary|totals):/ {print $2; exit}' "$file")
    printf '| %s | %s |' "$(basename "$bin")" "$total"
    annotated=$(callgrind_annotate --inclusive=yes --threshold=100 "$file" 2>/dev/null)
    for f in $FUNCS; do
        # The first (largest) inclusive line naming the function itself.
        ir=$(grep -E "[ :>]${f//::/::}(<[^ ]*>)?( |$)" <<<"$annotated" | grep -vE "\{\{closure\}\}|${f}::" | head -1 | awk '{gsub(",", "", $1); print $1}' || true)
        printf ' %s |' "${ir:-?}"
    done
    printf '\n'
done
