"""A loopback HTTP proxy that forwards to an upstream server and injects the faults queued on it."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

_NULL_CONTENT = {
    "object": "chat.completion",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": None}, "finish_reason": "length"}],
}


class FaultProxy:
    """Faults, taken one per request in order: "500", "429" (Retry-After: 1), "timeout" (hang `hang_s`),
    "garbage" (200 with a non-JSON body), "null" (200, a chat completion whose content is null); with the queue empty,
    requests are forwarded."""

    def __init__(self, upstream_port: int, hang_s: float = 6.0):
        self.upstream_port = upstream_port
        self.hang_s = hang_s
        self.faults: deque[str] = deque()
        self.forwarded_ok = 0  # upstream 200s delivered to the client: judged for real
        self.injected = 0
        self.on_forward = None  # optional callback(count) after each forwarded request
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._in_flight = 0
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                with proxy._lock:
                    proxy._in_flight += 1
                try:
                    self._answer()
                except OSError:  # the client gave up waiting (its timeout): it never got this answer
                    pass
                finally:
                    with proxy._lock:
                        proxy._in_flight -= 1
                        proxy._idle.notify_all()

            def _answer(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with proxy._lock:
                    fault = proxy.faults.popleft() if proxy.faults else None
                    proxy.injected += fault is not None
                if fault == "timeout":
                    time.sleep(proxy.hang_s)
                    fault = "500"
                if fault in ("500", "429"):
                    self.send_response(int(fault))
                    if fault == "429":
                        self.send_header("Retry-After", "1")
                    self.send_header("Content-Length", "2")
                    self.end_headers()
                    self.wfile.write(b"{}")
                    return
                if fault in ("garbage", "null"):
                    payload = b"<html>definitely not json" if fault == "garbage" else json.dumps(_NULL_CONTENT).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", proxy.upstream_port, timeout=120)
                    conn.request("POST", self.path, body, {"Content-Type": "application/json"})
                    resp = conn.getresponse()
                    data, status = resp.read(), resp.status
                except OSError:
                    data, status = b'{"error": "upstream unreachable"}', 502
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                with proxy._lock:
                    proxy.forwarded_ok += status == 200
                    count = proxy.forwarded_ok
                if proxy.on_forward:
                    proxy.on_forward(count)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def wait_idle(self, timeout: float = 60.0) -> None:
        """Until no request is being answered: a client may go on before the handler that answered it has counted
        the answer (the count follows the write)."""
        with self._idle:
            self._idle.wait_for(lambda: self._in_flight == 0, timeout)

    def __enter__(self) -> FaultProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
