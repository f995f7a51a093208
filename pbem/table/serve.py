"""The projector's page (`pbem table CAMPAIGN --serve`): the current map and the round's log on
127.0.0.1, updated after every step.

`/` is the page; `/state.json?after=N&wait=S` answers as soon as the board's version is not N
(or after S seconds, at most 60), so the page shows each step the moment it is stored without
polling fast; `/map.svg` is the current map alone. A thread of the standard library's server;
nothing is read from the network but these three addresses.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from pbem.table.board import Board
from pbem.table.page import PAGE

LONGEST_WAIT = 60.0
HOST = "127.0.0.1"


def handler(board: Board) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            url = urlsplit(self.path)
            if url.path == "/":
                self.answer(PAGE.encode(), "text/html; charset=utf-8")
            elif url.path == "/state.json":
                self.answer(json.dumps(self.state(parse_qs(url.query))).encode(), "application/json")
            elif url.path == "/map.svg":
                self.answer(board.snapshot()["svg"].encode(), "image/svg+xml")
            else:
                self.send_error(404, "the table's page is at /")

        def state(self, query: dict[str, list[str]]) -> dict[str, Any]:
            try:
                after, wait = int(query.get("after", ["-1"])[0]), float(query.get("wait", ["0"])[0])
            except ValueError:
                return board.snapshot()
            return board.wait(after, min(max(wait, 0.0), LONGEST_WAIT)) if after >= 0 else board.snapshot()

        def answer(self, body: bytes, kind: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:  # the table's screen stays quiet
            return

    return Handler


class Server:
    """The page server on 127.0.0.1, in a daemon thread: it ends with the sitting."""

    def __init__(self, board: Board, port: int = 0) -> None:
        self.httpd = ThreadingHTTPServer((HOST, port), handler(board))
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="pbem-table-page", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.httpd.server_address[1]}/"

    def __enter__(self) -> Server:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
