#!/usr/bin/env python3
"""The code a request runs, by cache line and page, from two callgrind runs.

Two runs of one server under the same load, differing only in how many
requests they served (`callgrind-run.sh`, with `--dump-instr=yes
--dump-line=no`), give each instruction's count per request as the
difference over the difference in requests. An instruction that runs at
least MIN times a request (0.5 by default) is on the request's path; this
prints how many 64-byte cache lines and 4 KiB pages those instructions
fill, by object, and the functions that fill the most lines:

    source benches/load/callgrind-run.sh
    PORT=18811 CONNS=64 H2_STREAMS=1 callgrind_requests BIN /hello 4000 lo.cg --dump-instr=yes --dump-line=no
    PORT=18811 CONNS=64 H2_STREAMS=1 callgrind_requests BIN /hello 14000 hi.cg --dump-instr=yes --dump-line=no
    benches/load/footprint.py lo.cg hi.cg 10000 [MIN] [TOP]
"""

import collections
import sys

# The same reading of a `--dump-instr=yes` file as the kinds of work.
from kinds import parse


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    lo, _, _ = parse(sys.argv[1])
    hi, owner, _ = parse(sys.argv[2])
    requests = float(sys.argv[3])
    least = float(sys.argv[4]) if len(sys.argv) > 4 else 0.5
    top = int(sys.argv[5]) if len(sys.argv) > 5 else 15
    per = {k: (v - lo.get(k, 0)) / requests for k, v in hi.items()}
    hot = {k: v for k, v in per.items() if v >= least}
    lines, pages = set(), set()
    by_fn = collections.defaultdict(set)
    instr = collections.Counter()
    for (obj, pos), v in hot.items():
        name = (obj or "?").rsplit("/", 1)[-1]
        lines.add((name, pos // 64))
        pages.add((name, pos // 4096))
        by_fn[owner[(obj, pos)]].add((name, pos // 64))
        instr[owner[(obj, pos)]] += v
    print(f"instructions a request: {sum(per.values()):.0f}")
    print(f"on the path (run >= {least} a request): {len(lines)} lines of 64 bytes, {len(pages)} pages of 4 KiB")
    for name, n in collections.Counter(o for o, _ in pages).most_common():
        print(f"  {name}: {sum(1 for o, _ in lines if o == name)} lines, {n} pages")
    print("functions by lines: lines, instructions a request, name")
    for fn, ls in sorted(by_fn.items(), key=lambda kv: -len(kv[1]))[:top]:
        print(f"{len(ls):6d} {instr[fn]:8.0f}  {(fn or '?')[:110]}")


if __name__ == "__main__":
    main()
