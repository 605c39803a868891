#!/usr/bin/env python3
"""What kinds of work a server's requests do, per request, from callgrind
runs made with `--dump-instr=yes` (see `kinds.sh`): atomic read-modify-write
instructions (`lock`-prefixed, or `xchg` with memory, executed in the
server's own binary),
calls to `memcpy`/`memmove` (moves of values too large to copy inline) and
clock reads (`clock_gettime`), each with the functions that do the most.
Two runs of the same server, LOW and HIGH requests, are differenced, so that
startup and shutdown cancel out (as `count.sh` does for instructions).

Instruction counts weigh every instruction alike; these three cost far more
time than their count says (an uncontended atomic operation takes tens of
cycles; in the profile recorded in BENCHMARKS.md a call to `memmove` of a
few hundred bytes took about 5 ns and a clock read about 17 ns), so two
request paths with the same count can differ in time by them.

    kinds.py CALLGRIND_LOW LOW CALLGRIND_HIGH HIGH BINARY [TOP]
"""

import collections
import re
import subprocess
import sys


def parse(path):
    """Self counts by (object, instruction address), the function of each,
    and call counts by (caller, callee). Also read by `footprint.py`."""
    names, objs = {}, {}
    counts = collections.Counter()
    fn_of = {}
    calls = collections.Counter()
    cur_fn = cur_obj = callee = None
    pending_calls = None
    last = 0
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        for key, table in (("ob", objs), ("cob", objs), ("fn", names), ("cfn", names)):
            m = re.match(rf"^{key}=\((\d+)\)(?: (.*))?$", line)
            if m:
                if m.group(2):
                    table[m.group(1)] = m.group(2)
                if key == "ob":
                    cur_obj = objs.get(m.group(1))
                elif key == "fn":
                    cur_fn = names.get(m.group(1))
                elif key == "cfn":
                    callee = names.get(m.group(1))
                break
        else:
            m = re.match(r"^calls=(\d+)", line)
            if m:
                pending_calls = int(m.group(1))
                calls[(cur_fn, callee)] += pending_calls
                continue
            m = re.match(r"^(0x[0-9a-f]+|\+\d+|-\d+|\*)\s", line)
            if not m:
                continue
            pos = m.group(1)
            if pos.startswith("0x"):
                addr = int(pos, 16)
            elif pos.startswith("+"):
                addr = last + int(pos[1:])
            elif pos.startswith("-"):
                addr = last - int(pos[1:])
            else:
                addr = last
            last = addr
            if pending_calls is not None:
                # The inclusive cost line of the call just named, not an
                # instruction of this function.
                pending_calls = None
                continue
            counts[(cur_obj, addr)] += int(line.split()[-1])
            fn_of[(cur_obj, addr)] = cur_fn
    return counts, fn_of, calls


def tally(path, binary, dis):
    """Per function: atomics executed, memmove calls made, clock reads made."""
    counts, fn_of, calls = parse(path)
    name = "/" + binary.rsplit("/", 1)[-1]
    atomics = collections.Counter()
    for (obj, addr), n in counts.items():
        if n and addr in dis and obj and obj.endswith(name):
            atomics[fn_of[(obj, addr)]] += n
    moves = collections.Counter()
    clocks = collections.Counter()
    for (caller, callee), n in calls.items():
        if callee and re.search(r"(memcpy|memmove)", callee):
            moves[caller] += n
        elif callee and callee.endswith("Timespec>::now"):
            clocks[caller] += n
    return atomics, moves, clocks


def main():
    low_path, low, high_path, high, binary = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
    top = int(sys.argv[6]) if len(sys.argv) > 6 else 8
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary], capture_output=True, text=True).stdout
    dis = set()
    for line in listing.splitlines():
        # `xchg` with a memory operand is locked; between registers (as
        # in the two-byte no-op `xchg %ax,%ax`) it is not.
        m = re.match(r"^\s*([0-9a-f]+):\s*(lock |xchg\s+\S*\()", line)
        if m:
            dis.add(int(m.group(1), 16))
    before = tally(low_path, binary, dis)
    after = tally(high_path, binary, dis)
    requests = high - low
    for title, a, b in zip(("atomic read-modify-writes", "memcpy/memmove calls", "clock reads"), before, after):
        diff = collections.Counter({fn: b[fn] - a.get(fn, 0) for fn in b})
        print(f"{title}: {sum(diff.values()) / requests:.2f} a request")
        for fn, n in diff.most_common(top):
            if n / requests >= 0.05:
                print(f"  {n / requests:6.2f}  {(fn or '?')[:140]}")


if __name__ == "__main__":
    main()
