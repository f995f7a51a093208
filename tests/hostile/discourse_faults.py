"""The loopback Discourse of tests/forum, made to misbehave on demand: malformed answers to
every GET (`mode`), and a moderated site that holds every new post for approval (`moderated`:
POST /posts.json answers {"action": "enqueued"} with no post id, as Discourse does)."""

from __future__ import annotations

import json
from http.server import ThreadingHTTPServer
from typing import Any

from tests.forum.discourse_server import DiscourseHandler, DiscourseServer, DiscourseState

MODES = ("", "null-stream", "string-ids", "truncated", "bad-status", "not-json", "html-error")


class FaultyState(DiscourseState):
    def __init__(self, api_key: str, users: set[str]) -> None:
        super().__init__(api_key, users)
        self.mode = ""
        self.moderated = False
        self.posted: list[dict[str, Any]] = []     # every POST body, moderated or not


def _string_ids(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: str(v) if k in ("id", "topic_id", "post_number") and isinstance(v, int) else _string_ids(v)
                for k, v in value.items()}
    if isinstance(value, list):
        return [str(v) if isinstance(v, int) else _string_ids(v) for v in value]
    return value


class FaultyHandler(DiscourseHandler):
    server: FaultyServer

    def _send(self, status: int, payload: Any) -> None:
        mode = self.server.state.mode if self.command == "GET" else ""
        if mode == "null-stream":
            payload = {key: None for key in payload} if isinstance(payload, dict) else None
        elif mode == "string-ids":
            payload = _string_ids(payload)
        if mode in ("truncated", "bad-status", "not-json", "html-error"):
            self._broken(mode, json.dumps(payload).encode())
            return
        super()._send(status, payload)

    def _broken(self, mode: str, data: bytes) -> None:
        if mode == "bad-status":
            self.wfile.write(b"HTTP/1.1 2OO Fine\r\nContent-Type: application/json\r\n\r\n" + data)
            self.close_connection = True
            return
        body = {"truncated": data[: len(data) // 2], "not-json": b"{\"post_stream\": {\"posts\": [",
                "html-error": b"<html><body>502 Bad Gateway</body></html>"}[mode]
        self.send_response(502 if mode == "html-error" else 200)
        self.send_header("Content-Type", "text/html" if mode == "html-error" else "application/json")
        self.send_header("Content-Length", str(len(data) if mode == "truncated" else len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True

    def do_POST(self) -> None:
        state = self.server.state
        length = int(self.headers.get("Content-Length", 0))
        data = self.rfile.read(length)
        try:
            state.posted.append(json.loads(data or b"{}"))
        except ValueError:
            state.posted.append({})
        if state.moderated and self.headers.get("Api-Key") == state.api_key:
            payload = json.dumps({"success": True, "action": "enqueued", "pending_post": {"id": 7, "raw": "..."},
                                  "pending_count": 1}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
            return
        self.rfile = _Replay(data)          # type: ignore[assignment]  (the base handler reads the body again)
        self.close_connection = True        # the replay is no socket: nothing more is read from it
        super().do_POST()


class _Replay:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self, size: int = -1) -> bytes:
        chunk, self.data = (self.data, b"") if size < 0 else (self.data[:size], self.data[size:])
        return chunk


class FaultyServer(DiscourseServer):
    state: FaultyState

    def __init__(self, state: FaultyState) -> None:
        ThreadingHTTPServer.__init__(self, ("127.0.0.1", 0), FaultyHandler)
        self.state = state
