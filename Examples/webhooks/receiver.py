#!/usr/bin/env python3
"""A receiver of jqc-server's webhooks that checks every signature.

    JQC_WEBHOOK_SECRET_FILE=secret.txt python3 receiver.py 8000

Each event is printed as one JSON line on standard output. A request whose
signature is missing, wrong or older than five minutes is answered 401 and
printed nowhere; an event seen before (by its id) is answered 200 again and
not printed twice.
"""
import hashlib
import hmac
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOLERANCE = 300  # seconds a signature stays acceptable
SECRET = open(os.environ["JQC_WEBHOOK_SECRET_FILE"], "rb").read()
SECRET = SECRET[:-2] if SECRET.endswith(b"\r\n") else SECRET[:-1] if SECRET.endswith(b"\n") else SECRET
seen = set()


def verified(header, body):
    """True when X-JQC-Signature (t=...,v1=...) signs this body with the secret, recently."""
    parts = dict(item.split("=", 1) for item in header.split(",") if "=" in item)
    try:
        stamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs(time.time() - stamp) > TOLERANCE:
        return False
    expected = hmac.new(SECRET, str(stamp).encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts.get("v1", ""))


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if not verified(self.headers.get("X-JQC-Signature", ""), body):
            self.send_response(401)
            self.end_headers()
            return
        event = json.loads(body)
        if event["id"] not in seen:  # at least once: drop a repeat by its id
            seen.add(event["id"])
            print(json.dumps(event, sort_keys=True), flush=True)
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Receiver).serve_forever()
