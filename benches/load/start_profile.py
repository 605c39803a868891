#!/usr/bin/env python3
"""Per-start tables from the two recordings `start-profile.sh` makes.

    start_profile.py BIN N CPU_SCRIPT N2 FAULTS_SCRIPT

CPU_SCRIPT is `perf script -F comm,pid,tid,ip,sym,dso` of N starts
sampled at 20 kHz with kernel call chains; FAULTS_SCRIPT is `perf script
--show-mmap-events -F comm,pid,tid,addr,ip,sym,dso` of every page fault of
N2 starts. A sample counts for the server when its process is one whose
main thread ran under the binary's name, on that thread while it had that
name or on any other thread of the process (every one is started after
`exec`); what the process did before `exec`, as the shell's child and as
`taskset`, does not.
"""

import collections
import re
import subprocess
import sys

SAMPLE_US = 50.0  # 20 kHz


def server_pids(path, name):
    """The processes whose main thread ran under the binary's name (the
    kernel keeps the first 15 bytes of a command name)."""
    pids = set()
    head = re.compile(r"\s*(\S+)\s+(\d+)/(\d+)\s")
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = head.match(line)
            if m and m.group(1) == name[:15] and m.group(2) == m.group(3):
                pids.add(m.group(2))
    return pids


def counts(comm, pid_tid, name, pids):
    """Whether a sample of `comm` on `pid/tid` is the server's own."""
    pid, _, tid = pid_tid.partition("/")
    return pid in pids and (tid != pid or comm == name[:15])


def cpu_kind(frames):
    """The kind of work of one sample, from its call chain (leaf first)."""
    sym, dso = frames[0]
    if "[kernel.kallsyms]" in dso:
        for s, _ in frames:
            if "exc_page_fault" in s:
                return "kernel: page faults"
            if re.match(r"__(x64|do)_sys_exit|do_exit|exit_mmap", s):
                return "kernel: exit (after the answer)"
            if re.match(r"__(x64|do)_sys_execve", s):
                return "kernel: execve"
        return "kernel: the rest (other system calls, scheduling, interrupts)"
    if "ld-linux" in dso:
        return "the loader (ld.so)"
    if "libgcc" in dso or "std_detect" in sym:
        return "CPU-feature probes (libgcc, std_detect)"
    if "libc.so" in dso:
        return "libc (malloc, free, memmove, ...)"
    return "the binary's own code"


def cpu_table(name, n, path):
    pids = server_pids(path, name)
    kinds = collections.Counter()
    comm, frames = None, []

    def flush():
        if comm is not None and frames:
            kinds[cpu_kind(frames)] += 1

    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.strip():
                flush()
                comm, frames = None, []
            elif not line.startswith((" ", "\t")):
                head = line.split()
                ours = len(head) > 1 and counts(head[0], head[1], name, pids)
                comm, frames = (head[0] if ours else None), []
            else:
                m = re.match(r"\s*\S+\s+(.*) \((.*)\)$", line.rstrip("\n"))
                if m:
                    frames.append((m.group(1).split("+")[0], m.group(2)))
    flush()
    total = sum(kinds.values())
    print(f"\nCPU time per start ({n} starts): {total * SAMPLE_US / n:.0f} us\n")
    print("| kind | us per start |\n|---|---:|")
    for kind, count in kinds.most_common():
        print(f"| {kind} | {count * SAMPLE_US / n:.0f} |")


def sections(binary):
    out = subprocess.run(["readelf", "-S", "-W", binary], capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if m and int(m.group(2), 16):
            start = int(m.group(2), 16)
            found.append((start, start + int(m.group(3), 16), m.group(1)))
    return found


def fault_table(binary, n, path):
    name = binary.rsplit("/", 1)[-1]
    pids = server_pids(path, name)
    secs = sections(binary)
    base = {}
    maps = collections.defaultdict(list)  # pid -> [(start, end, name)], in the order recorded
    regions = collections.Counter()
    mmap = re.compile(r"(\d+)/\d+: \[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (\S+) .*\]: \S+ (.*)$")
    sample = re.compile(r"\s*(\S+)\s+(\d+)/(\d+)\s+([0-9a-f]+) ")
    samples = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if "PERF_RECORD_MMAP" in line:
                m = mmap.search(line)
                if m:
                    pid, start, mapped = m.group(1), int(m.group(2), 16), m.group(5).strip()
                    maps[pid].append((start, start + int(m.group(3), 16), mapped))
                    # The first mapping of the binary at file offset 0 is its base.
                    if mapped == binary and m.group(4) == "0":
                        base.setdefault(pid, start)
                continue
            m = sample.match(line)
            if m and counts(m.group(1), f"{m.group(2)}/{m.group(3)}", name, pids):
                samples.append((m.group(2), int(m.group(4), 16)))
    for pid, addr in samples:
        # The last mapping recorded that holds the address: the heap's
        # record, which grows with it, may come after its first faults.
        mapped = next((what for lo, hi, what in reversed(maps[pid]) if lo <= addr < hi), "")
        if mapped == binary and pid in base:
            offset = addr - base[pid]
            region = next((f"the binary: {sec}" for lo, hi, sec in secs if lo <= offset < hi), "the binary: other")
        elif mapped in ("[heap]", "[stack]"):
            region = f"{mapped} (the main thread's)"
        elif mapped.startswith("/") and not mapped.startswith("//"):
            region = mapped.rsplit("/", 1)[-1]
        else:
            region = "anonymous memory (other threads' stacks and malloc arenas, TLS, large allocations)"
        regions[region] += 1
    total = sum(regions.values())
    print(f"\nPage faults per start ({n} starts): {total / n:.1f}\n")
    print("| where | faults per start |\n|---|---:|")
    for region, count in regions.most_common(12):
        print(f"| {region} | {count / n:.1f} |")


def main():
    binary, n, cpu, n2, faults = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
    name = binary.rsplit("/", 1)[-1]
    cpu_table(name, n, cpu)
    fault_table(binary, n2, faults)


if __name__ == "__main__":
    main()
