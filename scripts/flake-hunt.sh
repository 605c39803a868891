#!/usr/bin/env bash
# Runs the workspace's test binaries over and over on a busy machine, to
# find the tests that fail only now and then: a timing bound a slow machine
# breaks, a port or a process another test can interfere with. Not part of
# the test suite (it runs for as long as it is told to).
#
#   scripts/flake-hunt.sh                 # 20 minutes
#   DURATION=3600 HOGS=2 scripts/flake-hunt.sh
#
# Each pass runs every test binary once, one after the other, as
# `cargo test` does, from its package's directory, while HOGS processes
# (default: one per core) spin on the CPU beside it. A binary that fails
# has its output kept in OUT (default: target/flake-hunt), named after
# the binary's file (two packages may have test targets of one name) and
# the pass. EXCLUDE lists test targets left out (default:
# `ui cli import`, whose time is spent in the compiler they run).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-1200}
HOGS=${HOGS:-$(nproc)}
OUT=${OUT:-target/flake-hunt}
EXCLUDE=${EXCLUDE:-ui cli import}

# Built as `.ci/run` builds them: without debug info.
export CARGO_PROFILE_DEV_DEBUG=0 CARGO_PROFILE_TEST_DEBUG=0

list=$(mktemp)
hogs=()
cleanup() {
    for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -f "$list"
}
trap cleanup EXIT

# The test binaries and the directories their packages are in.
cargo test --workspace --locked --no-run --message-format=json | python3 -c '
import json, os, sys
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(os.path.dirname(m["manifest_path"]), m["executable"], m["target"]["name"])
' > "$list"
[[ -s $list ]] || { echo "no test binaries were built" >&2; exit 1; }

# A proc-macro crate's test binary links the toolchain's `libstd`, which
# `cargo test` puts on the library path.
export LD_LIBRARY_PATH="$(rustc --print target-libdir)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT"/*.log
for _ in $(seq "$HOGS"); do
    (while :; do :; done) &
    hogs+=($!)
done

end=$((SECONDS + DURATION))
passes=0
failures=0
while ((SECONDS < end)); do
    passes=$((passes + 1))
    while read -r dir exe name; do
        [[ " $EXCLUDE " == *" $name "* ]] && continue
        ((SECONDS < end)) || break
        log="$OUT/$(basename "$exe")_$passes.log"
        if (cd "$dir" && timeout 600 "$exe" -q >"$log" 2>&1); then
            rm -f "$log"
        else
            failures=$((failures + 1))
            echo "pass $passes: $name in ${dir#"$PWD"/} failed (see $log)"
        fi
    done <"$list"
done
echo "$passes passes, $failures failed runs; the failures' output is in $OUT"
((failures == 0))
