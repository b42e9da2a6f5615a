# SPDX-License-Identifier: LGPL-2.1-or-later
"""The page's side of the browser group: a tiny HTTP server on 127.0.0.1
that serves page.html and page.js and hands the page its commands.

http://127.0.0.1 is a secure context, so getUserMedia is offered there as
on https.  The page long-polls GET /next for a command (JSON with an "op"
and an "id") and posts what came of it to POST /result; call() puts one
command in and waits for its result.  No browser protocol (DevTools,
Marionette, WebDriver) is needed: any browser that loads the URL is driven
the same way.
"""

import http.server
import json
import os
import queue
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = {"/page.html": "text/html", "/page.js": "text/javascript"}
POLL_S = 10  # how long a GET /next waits before telling the page to ask again


class PageTimeout(Exception):
    """The page did not answer a command in time."""


class PageServer:
    def __init__(self):
        self._commands = queue.Queue()
        self._results = queue.Queue()
        self._polled = threading.Event()
        self._next_id = 0
        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()

    @property
    def url(self):
        return "http://127.0.0.1:%d/page.html" % self._httpd.server_address[1]

    def wait_page(self, timeout):
        """Whether the page asked for its first command within timeout s."""
        return self._polled.wait(timeout)

    def call(self, op, timeout, **args):
        """Runs op on the page; its result (a dict, "error" set if the page's
        call threw), or PageTimeout."""
        self._next_id += 1
        cmd = dict(args, op=op, id=self._next_id)
        self._commands.put(cmd)
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise PageTimeout("%s: no answer from the page within %d s" % (op, timeout))
            try:
                res = self._results.get(timeout=left)
            except queue.Empty:
                continue
            if res.get("id") == cmd["id"]:
                return res

    def close(self):
        self._httpd.shutdown()
        self._httpd.server_close()

    def _handler(self):
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, body, ctype):
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                if self.path in FILES:
                    with open(os.path.join(HERE, self.path[1:]), "rb") as f:
                        self._send(f.read(), FILES[self.path])
                elif self.path == "/next":
                    server._polled.set()
                    try:
                        cmd = server._commands.get(timeout=POLL_S)
                    except queue.Empty:
                        cmd = {"op": "none"}
                    self._send(json.dumps(cmd).encode(), "application/json")
                else:
                    self.send_error(404)

            def do_POST(self):
                n = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(n)
                if self.path != "/result":
                    self.send_error(404)
                    return
                server._results.put(json.loads(body))
                self._send(b"{}", "application/json")

        return Handler
