#!/usr/bin/env python3
"""A small fault-injecting HTTP proxy for the upload tests: it forwards real WebDAV traffic
(PROPFIND, MKCOL, PUT, GET, …) to a real server and breaks it on purpose.

    webdav_faults.py --port PORT --target http://127.0.0.1:PORT2 [--refuse-for SECONDS]
                     [--fail-500 N] [--insufficient-storage] [--log FILE]

--refuse-for S          nothing listens on PORT for the first S seconds (connections are refused:
                        the server is down), then the proxy starts.
--fail-500 N            the first N requests are answered 500 without being forwarded.
--insufficient-storage  every PUT and MKCOL is answered 507 (the server is full); other methods pass.
--log FILE              one line per request: METHOD PATH STATUS.

Prints "listening PORT" on standard output once it accepts connections. Standard library only.
"""

import argparse
import http.client
import http.server
import signal
import socketserver
import sys
import threading
import time
import urllib.parse

HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
              "transfer-encoding", "upgrade", "content-length", "host"}


def main():
    # A parent may start us with signals blocked (Swift's Dispatch threads block them): unblock them,
    # so that SIGTERM stops the proxy.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--refuse-for", type=float, default=0)
    parser.add_argument("--fail-500", type=int, default=0)
    parser.add_argument("--insufficient-storage", action="store_true")
    parser.add_argument("--log")
    options = parser.parse_args()

    target = urllib.parse.urlsplit(options.target)
    state = {"failures_left": options.fail_500}
    lock = threading.Lock()
    log = open(options.log, "a", buffering=1) if options.log else None

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def read_body(self):
            if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                body = b""
                while True:
                    size = int(self.rfile.readline().strip().split(b";")[0], 16)
                    if size == 0:
                        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                            pass
                        return body
                    body += self.rfile.read(size)
                    self.rfile.readline()
            length = int(self.headers.get("Content-Length") or 0)
            return self.rfile.read(length) if length else b""

        def answer(self, status, body=b"", headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            if log:
                log.write(f"{self.command} {self.path} {status}\n")

        def forward(self):
            body = self.read_body()
            with lock:
                fail = state["failures_left"] > 0
                if fail:
                    state["failures_left"] -= 1
            if fail:
                return self.answer(500, b"injected failure\n", [("Content-Type", "text/plain")])
            if options.insufficient_storage and self.command in ("PUT", "MKCOL"):
                return self.answer(507, b"insufficient storage\n", [("Content-Type", "text/plain")])
            connection = http.client.HTTPConnection(target.hostname, target.port or 80, timeout=30)
            headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP}
            headers["Host"] = target.netloc
            if body or self.command in ("PUT", "POST", "PROPFIND", "PROPPATCH"):
                headers["Content-Length"] = str(len(body))
            try:
                connection.request(self.command, self.path, body=body, headers=headers)
                response = connection.getresponse()
                payload = response.read()
            except OSError as error:
                return self.answer(502, f"proxy: {error}\n".encode())
            finally:
                connection.close()
            passed = [(name, value) for name, value in response.getheaders() if name.lower() not in HOP_BY_HOP]
            self.answer(response.status, payload, passed)

        do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = do_OPTIONS = forward
        do_PROPFIND = do_PROPPATCH = do_MKCOL = do_COPY = do_MOVE = do_LOCK = do_UNLOCK = forward

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    if options.refuse_for > 0:
        time.sleep(options.refuse_for)
    server = Server(("127.0.0.1", options.port), Handler)
    print(f"listening {options.port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
