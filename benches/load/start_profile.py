#!/usr/bin/env python3
"""Per-start tables from the recordings `start-profile.sh` makes.

    start_profile.py BIN N CPU_SCRIPT N2 FAULTS_SCRIPT [N3 STEPS_SCRIPT]

CPU_SCRIPT is `perf script -F comm,pid,tid,ip,sym,dso` of N starts
sampled at 20 kHz with kernel call chains; FAULTS_SCRIPT is `perf script
--show-mmap-events -F comm,pid,tid,addr,ip,sym,dso` of every page fault of
N2 starts; STEPS_SCRIPT, the same as CPU_SCRIPT for N3 starts sampled with
DWARF call chains, which reach through the binary's own frames: each
sample is put to the step of the start it was taken in (see `STEPS`).

A sample counts for the server when its process is one whose main thread
ran under the binary's name, on that thread while it had that name or on
any other thread of the process (every one is started after `exec`);
what the process did before `exec`, as the shell's child and as
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


def server_samples(path, name):
    """The server's samples in a `perf script` output: (comm, the lines
    of its call chain, leaf first)."""
    pids = server_pids(path, name)
    comm, frames = None, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.strip():
                if comm is not None and frames:
                    yield comm, frames
                comm, frames = None, []
            elif not line.startswith((" ", "\t")):
                head = line.split()
                ours = len(head) > 1 and counts(head[0], head[1], name, pids)
                comm, frames = (head[0] if ours else None), []
            else:
                frames.append(line.strip())
    if comm is not None and frames:
        yield comm, frames


def cpu_table(name, n, path):
    kinds = collections.Counter()
    for _, lines in server_samples(path, name):
        frames = []
        for line in lines:
            m = re.match(r"\S+\s+(.*) \((.*)\)$", line)
            if m:
                frames.append((m.group(1).split("+")[0], m.group(2)))
        if frames:
            kinds[cpu_kind(frames)] += 1
    total = sum(kinds.values())
    print(f"\nCPU time per start ({n} starts): {total * SAMPLE_US / n:.0f} us\n")
    print("| kind | us per start |\n|---|---:|")
    for kind, count in kinds.most_common():
        print(f"| {kind} | {count * SAMPLE_US / n:.0f} |")


# The steps of a start, each a pattern over a sample's whole call chain;
# the first step whose pattern matches takes the sample. Restlight's steps
# by their functions; raw hyper's and axum's fall in the shared ones
# (tokio's runtime, accept, hyper serving the request) or in "the rest".
STEPS = [
    ("kernel: exit (after the answer)", r"do_exit|do_group_exit|exit_mmap|__x64_sys_exit"),
    ("kernel: execve", r"__x64_sys_execve|bprm_execve|load_elf_binary"),
    ("loader: relocations and symbol lookups", r"_dl_relocate_object|do_lookup_x|_dl_lookup_symbol_x"),
    (
        "loader: the rest (libraries mapped, CPU features read)",
        r"_dl_start|dl_main|_dl_sysdep_start|_dl_init|_dl_map|init_cpu_features|handle_amd|"
        r"get_common_indices|get_extended_indices|init_cacheinfo",
    ),
    ("libgcc's CPU probe", r"__cpu_indicator_init"),
    (
        "the Rust runtime's own start (the main thread's stack read from /proc/self/maps)",
        r"std::rt::init|install_main_guard|pthread_getattr_np|isoc99_sscanf|show_map",
    ),
    ("the core count (affinity, cgroup quota)", r"available_parallelism"),
    ("route table built (`Router::of_refs`)", r"restlight_core::router::Router::of_refs"),
    ("routes compiled (`Compiler::compile`)", r"restlight_core::app::compile::Compiler::compile"),
    ("application built: the rest (`AppBuilder::build`)", r"restlight_core::app::builder::AppBuilder::build"),
    ("configuration and environment read", r"resolve_config|FileConfig::from_env|std::env::vars"),
    ("codecs registered (`AppBuilder::new`)", r"restlight_core::app::builder::AppBuilder::new"),
    ("routes registered in `main`", r"AppBuilder::route|RouteBuilder|Restlight::route|restlight_load::decoys"),
    ("the request served", r"hyper::proto|hyper::server|serve_connection|conn::drive|AppService|Routing::"),
    (
        "connection accepted and handed to its thread",
        r"Listener::accept|TcpListener::accept|accept4|Workers::claim|Handle::spawn",
    ),
    ("a runtime waiting (park, epoll)", r"Context::park|park_internal|epoll_wait"),
    (
        "socket bound, signals set up",
        r"Listener::bind|TcpListener::bind|shutdown::unix|signal::|__x64_sys_(bind|listen|socket)\b",
    ),
    (
        "runtimes built and threads started",
        r"runtime::Runtimes::build|tokio::runtime::builder::Builder::build|Workers::thread|"
        r"std::thread::.*spawn|clone3|ret_from_fork|tokio::runtime::blocking::pool::Spawner",
    ),
    ("page faults not unwound further", r"exc_page_fault"),
]


def step_table(name, n, path):
    steps = [(step, re.compile(pattern)) for step, pattern in STEPS]
    found = collections.Counter()
    for comm, lines in server_samples(path, name):
        chain = "\n".join(lines)
        step = next((step for step, pattern in steps if pattern.search(chain)), None)
        if step is None:
            where = "main thread" if comm == name[:15] else "other threads"
            step = f"the rest ({where})"
        found[step] += 1
    total = sum(found.values())
    print(f"\nCPU time per start by step, DWARF call chains ({n} starts): {total * SAMPLE_US / n:.0f} us\n")
    print("| step | us per start |\n|---|---:|")
    order = {step: i for i, (step, _) in enumerate(STEPS)}
    for step, count in sorted(found.items(), key=lambda kv: order.get(kv[0], len(order))):
        print(f"| {step} | {count * SAMPLE_US / n:.0f} |")


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
    if len(sys.argv) > 7 and int(sys.argv[6]) > 0:
        step_table(name, int(sys.argv[6]), sys.argv[7])


if __name__ == "__main__":
    main()
