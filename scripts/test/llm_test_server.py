#!/usr/bin/env python3
"""A small real HTTP server for the LLM client's tests, speaking the chat-completions protocol.

    llm_test_server.py --port P --status 401|429|500        every request gets that status
    llm_test_server.py --port P --answer FILE               200 with FILE's text as the message content
    llm_test_server.py --port P --malformed                 200 with a body that is not JSON
    llm_test_server.py --port P --no-schema --answer FILE   400 for response_format json_schema, else as --answer
    llm_test_server.py --port P --refusal                   200 with the model's refusal (content null, `refusal` set)
    llm_test_server.py --port P --delay S --answer FILE     waits S seconds before answering (a time-out)
    llm_test_server.py --port P --target URL                forwards to a real server (llama.cpp)

Every request body is appended, one JSON line, to --log FILE (so a test can check what was sent),
with the request's path and Authorization header.
"""
import argparse
import json
import sys
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--status", type=int)
    parser.add_argument("--answer")
    parser.add_argument("--malformed", action="store_true")
    parser.add_argument("--no-schema", action="store_true")
    parser.add_argument("--refusal", action="store_true")
    parser.add_argument("--delay", type=float, default=0)
    parser.add_argument("--target")
    parser.add_argument("--log")
    args = parser.parse_args()
    answer = open(args.answer, encoding="utf-8").read() if args.answer else None

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def reply(self, status, body, content_type="application/json"):
            data = body.encode() if isinstance(body, str) else body
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            if status == 429:
                self.send_header("Retry-After", "1")
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self.reply(200, '{"status":"ok"}')

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            if args.log:
                with open(args.log, "a", encoding="utf-8") as log:
                    log.write(json.dumps({"path": self.path, "authorization": self.headers.get("Authorization"),
                                          "body": body.decode("utf-8", "replace")}) + "\n")
            if args.delay:
                time.sleep(args.delay)
            if args.status:
                self.reply(args.status, json.dumps({"error": {"message": f"status {args.status}"}}))
                return
            if args.malformed:
                self.reply(200, "<html>not json</html>", "text/html")
                return
            if args.refusal:
                self.reply(200, json.dumps({"model": "test-model", "choices": [
                    {"index": 0, "message": {"role": "assistant", "content": None,
                                             "refusal": "I'm sorry, I cannot help with that."}, "finish_reason": "stop"}]}))
                return
            request = json.loads(body or b"{}")
            if args.no_schema and request.get("response_format", {}).get("type") == "json_schema":
                self.reply(400, json.dumps({"error": {"message": "response_format json_schema is not supported"}}))
                return
            if args.target:
                forward = urllib.request.Request(args.target.rstrip("/") + self.path, data=body,
                                                 headers={"Content-Type": "application/json"})
                try:
                    with urllib.request.urlopen(forward, timeout=900) as response:
                        self.reply(response.status, response.read())
                except urllib.error.HTTPError as error:
                    self.reply(error.code, error.read())
                return
            self.reply(200, json.dumps({"model": "test-model", "choices": [
                {"index": 0, "message": {"role": "assistant", "content": answer or "{}"}, "finish_reason": "stop"}]}))

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"listening on {args.port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
