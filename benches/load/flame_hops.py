#!/usr/bin/env python3
"""Where a request's server CPU goes, hop by hop, from `flame.sh`'s stacks.

    flame_hops.py NAME-ENDPOINT.folded...

Frames are named as `flame.sh` leaves them, generic arguments cut to
`<_>`, so that a function is filed under the crate that defines it (or,
for `<T as Trait>::f`, under the trait's), never under a type it is
instantiated with. Each sample's stack (root first) counts for the deepest
of its frames that names a hop below; C library frames (malloc, free,
memcpy) name none, so they count for the hop that called them, and code
inlined into a function counts for that function. A system call counts for
the kernel under its own name, whatever the kernel did below it, except
where what it did tells more: a socket write's delivery over loopback (the
client's TCP receive and wake-up, which the kernel runs on the sending
CPU), and a write or a futex call that wakes another thread. A hop's time
a request is its share of the samples times the server CPU a request that
`flame.sh` wrote beside the stacks (NAME-ENDPOINT.meta). One column a
file, in the order given; a hop no file has is left out.
"""

import os
import re
import sys

READ = "kernel: read (recvfrom)"
SEND = "kernel: write (writev, sendto), the server's own send"
LOOPBACK = "kernel: write, its delivery on loopback (the client's TCP receive and wake-up)"
WAKE = "kernel: waking another thread (eventfd write, futex wake)"
PARK = "kernel: parking (epoll_wait, futex wait)"
OTHER = "other (thread start, std, libc without a caller hop)"

# (label, pattern): a frame names the first hop whose pattern it matches.
HOPS = [
    (READ, r"^(__x64_sys_(recvfrom|read)|__sys_recvfrom|ksys_read)\b"),
    (SEND, r"^(__x64_sys_(writev|sendto|write)|do_writev|__sys_sendto|ksys_write)\b"),
    (PARK, r"^(__x64_sys_(epoll_wait|epoll_pwait|futex)|do_epoll_wait|do_futex)\b"),
    ("kernel: other system calls, entry and exit", r"^(__x64_sys_|entry_SYSCALL|do_syscall_64|syscall_exit)"),
    ("kernel: interrupts, page faults", r"^(asm_|irq_exit|__irq_exit)"),
    ("hyper: parse the request head", r"^<hyper::proto::h1::role::Server as [^>]*>::parse|^httparse::"),
    ("hyper: encode the response head", r"Http1Transaction>::encode|^hyper::proto::h1::conn::Conn<_>::write_head"),
    ("h2: frames, HPACK, streams and flow control", r"(^<?| as )h2::"),
    ("hyper: the connection's state machine, read and write buffers", r"(^<?| as )(hyper|hyper_util)::"),
    ("Restlight: strict request checks", r"(^<?| as )restlight_server::strict::"),
    ("Restlight: router lookup", r"(^<?| as )restlight_core::router::"),
    ("Restlight: parameter extraction", r"(^<?| as )restlight_core::param::"),
    ("Restlight: codecs", r"(^<?| as )restlight_core::codec::"),
    ("Restlight: dispatch, context, response", r"(^<?| as )(restlight_core|restlight_server)::"),
    ("axum: routing and extraction (axum, matchit, tower)", r"(^<?| as )(axum|axum_core|matchit|tower|tower_http)::"),
    ("tokio: scheduler, timers, IO readiness", r"(^<?| as )(tokio|mio)::"),
]
COMPILED = [(label, re.compile(p)) for label, p in HOPS]
# The kit's handlers, named after the binary and so after the framework:
# looked at before the patterns above.
HANDLER = "the service's handler"
HANDLERS = re.compile(r"^(restlight::_::__rl_factory|hyper::handle|hyper::templated|axum::(hello|json|order|echo))")
# A system call's own function or an interrupt's entry: what lies below it
# is the call's, but for the refinements that follow.
FINAL = re.compile(r"^(__x64_sys_|asm_|__sys_recvfrom|__sys_sendto|ksys_read|ksys_write|do_writev|do_epoll_wait|do_futex)")
REFINE = {
    SEND: [(re.compile(r"^(handle_softirqs|do_softirq)"), LOOPBACK), (re.compile(r"^eventfd_write"), WAKE)],
    PARK: [(re.compile(r"^futex_wake"), WAKE)],
}
# The table's rows: the hops in order, a send's refinements right after it.
LABELS = [label for label, _ in HOPS] + [HANDLER, OTHER]
LABELS[LABELS.index(SEND) + 1:LABELS.index(SEND) + 1] = [LOOPBACK, WAKE]


def hop(frame):
    if HANDLERS.match(frame):
        return HANDLER
    for label, pattern in COMPILED:
        if pattern.search(frame):
            return label
    return None


def label_of(frames):
    label = OTHER
    for i, frame in enumerate(frames):
        named = hop(frame)
        if not named:
            continue
        label = named
        if FINAL.match(frame):
            for below in frames[i + 1:]:
                for pattern, refined in REFINE.get(label, []):
                    if pattern.match(below):
                        return refined
            return label
    return label


def shares(path):
    total = 0
    by_hop = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            stack, _, weight = line.rstrip("\n").rpartition(" ")
            weight = int(weight)
            total += weight
            label = label_of(stack.split(";"))
            by_hop[label] = by_hop.get(label, 0) + weight
    return {k: v / total for k, v in by_hop.items()}


def meta(path):
    values = {}
    with open(re.sub(r"\.folded$", ".meta", path), encoding="utf-8") as f:
        for line in f:
            key, value = line.split()
            values[key] = float(value)
    return values


def main():
    files = sys.argv[1:]
    if not files:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    cols = [(os.path.basename(p).rsplit(".", 1)[0], shares(p), meta(p)) for p in files]
    print("| hop, µs a request (share) | " + " | ".join(name for name, _, _ in cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for label in LABELS:
        if not any(label in s for _, s, _ in cols):
            continue
        cells = []
        for _, s, m in cols:
            share = s.get(label, 0.0)
            cells.append(f"{share * m['cpu_ns_per_request'] / 1000:.2f} ({share * 100:.0f}%)")
        print(f"| {label} | " + " | ".join(cells) + " |")
    print("| **all** (share of its core) | " + " | ".join(
        f"**{m['cpu_ns_per_request'] / 1000:.2f}** ({m['busy'] * 100:.0f}%)" for _, _, m in cols) + " |")


if __name__ == "__main__":
    main()
