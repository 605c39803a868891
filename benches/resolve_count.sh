#!/bin/bash
# Instructions per request of benches/resolve.rs's routes, counted by
# callgrind: the bench binary sends RESOLVE_N requests to one path through
# the mock client and exits; the difference between LOW and HIGH requests,
# divided by the difference, cancels startup. Instruction counts do not
# depend on what else the machine runs.
#   cargo bench --bench resolve --no-run
#   benches/resolve_count.sh
set -eu
BIN=${BIN:-$(ls -t target/release/deps/resolve-* | grep -v '\.d$' | head -1)}
LOW=${LOW:-2000}
HIGH=${HIGH:-12000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() { # path requests -> total instructions
  RESOLVE_COUNT=$1 RESOLVE_N=$2 valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$BIN" >/dev/null 2>&1
  awk '/^(summary|totals):/ {print $2; exit}' "$out/cg"
}
printf '| path | Ir/request |\n|---|---:|\n'
for path in /b/inline /b/resolv /b/attr-in /b/attr-rs; do
  lo=$(count "$path" "$LOW"); hi=$(count "$path" "$HIGH")
  printf '| `GET %s` | %s |\n' "$path" "$(( (hi - lo) / (HIGH - LOW) ))"
done
