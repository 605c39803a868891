#!/usr/bin/env python3
"""An OTLP/HTTP collector stub for benches/ops_count.sh (OPS=otel): answers
every POST with 200 and an empty protobuf body (an empty
ExportTraceServiceResponse), keeps the connection open, and appends
"<requests> <bytes>" to the file given as its second argument after each.
Usage: otlp_sink.py PORT COUNT_FILE"""
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, COUNT_FILE = int(sys.argv[1]), sys.argv[2]
seen = [0, 0]


class Sink(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        seen[0] += 1
        seen[1] += len(body)
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.send_header("content-length", "0")
        self.end_headers()
        with open(COUNT_FILE, "w") as f:
            f.write(f"{seen[0]} {seen[1]}\n")

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", PORT), Sink).serve_forever()
