#!/bin/bash
# Instructions per lookup of benches/router.rs's tables, counted by
# callgrind in criterion's measuring loop: only the lookup function is
# collected (`--toggle-collect`), and its instructions are divided by the
# calls made to it. Restlight's `Router::lookup` and matchit's `Node::at`
# are counted the same way. Instruction counts do not depend on what else
# the machine runs, so two builds compare even on a busy machine.
#   cargo bench --bench router --no-run
#   benches/router_count.sh                   # or BIN=path/to/router-bench
set -eu
BIN=${BIN:-$(ls -t target/release/deps/router-* | grep -v '\.d$' | head -1)}
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() { # benchmark-filter function -> instructions per call
  valgrind --tool=callgrind --callgrind-out-file="$out/cg" --toggle-collect="$2" \
    "$BIN" --bench --profile-time 1 "$1" >/dev/null 2>&1
  python3 - "$out/cg" "$2" <<'PY'
import re, sys
names, calls, callee, total = {}, 0, None, 0
for line in open(sys.argv[1]):
    line = line.strip()
    if line.startswith(("summary:", "totals:")):
        total = int(line.split()[1])
    m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line)
    if m:
        if m.group(3):
            names[m.group(2)] = m.group(3)
        callee = names.get(m.group(2), "") if m.group(1) == "cfn" else None
        continue
    if line.startswith("calls=") and callee is not None and re.search(re.escape(sys.argv[2]) + r"(<.*>)?$", callee):
        calls += int(line.split("=")[1].split()[0])
        callee = None
print(f"{total / calls:,.0f}" if calls else "?")
PY
}
lookup='restlight_core::router::Router::lookup'
printf '| table | Ir/lookup |\n|---|---:|\n'
for t in 'router/github/restlight' 'router/templated/restlight/10$' 'router/templated/restlight/1000$' \
         'router/java_shape/10$' 'router/java_shape/1000$' 'router/static/restlight'; do
  printf '| `%s` | %s |\n' "$t" "$(count "$t" "$lookup")"
done
printf '| `%s` | %s |\n' 'router/github/matchit' "$(count 'router/github/matchit' 'matchit::tree::Node<T>::at')"
