#!/usr/bin/env bash
# Runs every fuzz target (or the ones named) for a fixed time each, starting
# from the seeds checked in under seeds/ and the corpus kept from earlier
# runs under corpus/. Needs the nightly toolchain and cargo-fuzz:
#
#   cargo install cargo-fuzz
#   fuzz/run.sh                 # 30 s per target
#   SECONDS_PER_TARGET=600 fuzz/run.sh request router
#
# Prints one line per target: executions, corpus size, and whether it
# found a crash (saved under artifacts/<target>/, reproduced with
# `cargo +nightly fuzz run <target> artifacts/<target>/<file>`).
set -euo pipefail
cd "$(dirname "$0")"
per_target=${SECONDS_PER_TARGET:-30}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(template media router request http1)
fi
cargo +nightly fuzz build -O
status=0
printf '%-10s %12s %8s %s\n' target executions corpus result
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target"
    log=$(mktemp)
    if cargo +nightly fuzz run -O "$target" "corpus/$target" "seeds/$target" -- \
        -max_total_time="$per_target" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
        result=ok
    else
        result="CRASH (see $log)"
        status=1
    fi
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    corpus=$(find "corpus/$target" -type f | wc -l)
    printf '%-10s %12s %8s %s\n' "$target" "$execs" "$corpus" "$result"
    [ "$result" = ok ] && rm -f "$log"
done
exit $status
