#!/usr/bin/env python3
"""Which of a running server's binary sections are resident, page by page.

Reads the process's `/proc/PID/pagemap` (its owner may; only the present
bit is read, not the frame numbers that need `CAP_SYS_ADMIN`) for every
page of each section the binary's ELF header lists (`readelf -SW`), and
prints each section's size, its pages and how many of them are resident.
`rss-map.sh` sums a process's memory by mapping; this says which part of
the binary's mappings it is: the kernel maps up to 16 pages around a page
fault when they are in the page cache, so a section can be resident whole
though little of it ran.

    BIN --port 18150 & pid=$!; sleep 0.5; curl -s http://127.0.0.1:18150/hello
    benches/load/resident.py "$pid" BIN; kill "$pid"
"""

import os
import re
import struct
import subprocess
import sys

PAGE = 4096


def sections(binary):
    """(name, address, size) of every allocated section of `binary`."""
    out = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if m and int(m.group(2), 16) > 0:
            found.append((m.group(1), int(m.group(2), 16), int(m.group(3), 16)))
    return found


def load_base(pid, binary):
    """Where the binary is mapped: its first mapping's start less its offset."""
    name = os.path.realpath(binary)
    with open(f"/proc/{pid}/maps") as maps:
        for line in maps:
            fields = line.split()
            if len(fields) >= 6 and os.path.realpath(fields[5]) == name:
                return int(fields[0].split("-")[0], 16) - int(fields[2], 16)
    sys.exit(f"{binary} is not mapped by process {pid}")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    pid, binary = int(sys.argv[1]), sys.argv[2]
    base = load_base(pid, binary)
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:

        def present(page):
            pagemap.seek(page * 8)
            return struct.unpack("Q", pagemap.read(8))[0] >> 63 & 1

        print("| section | bytes | pages | resident |")
        print("|---|---:|---:|---:|")
        for name, addr, size in sections(binary):
            if size < PAGE:
                continue
            pages = range((base + addr) // PAGE, (base + addr + size + PAGE - 1) // PAGE)
            print(f"| `{name}` | {size:,} | {len(pages)} | {sum(present(p) for p in pages)} |")


if __name__ == "__main__":
    main()
