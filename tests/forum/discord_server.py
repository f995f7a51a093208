"""A loopback HTTP server speaking the part of Discord's webhook API pbem uses.

It follows Discord's documented shapes (discord.com/developers/docs/resources/webhook and
/topics/rate-limits):

    POST  /api/webhooks/{id}/{token}?wait=true[&thread_id=T]       Execute Webhook: JSON body
          {content, username, allowed_mentions}; with wait=true the created message object
    PATCH /api/webhooks/{id}/{token}/messages/{message_id}[?thread_id=T]   Edit Webhook Message:
          multipart/form-data, `payload_json` plus `files[n]`; the edited message object
    429   {"message": "You are being rate limited.", "retry_after": s, "global": false} with
          Retry-After and X-RateLimit-* headers, for the next `limited` requests
    400   {"code": 50035, "message": "Invalid Form Body"} for content over 2,000 characters
    401   {"code": 50027, "message": "Invalid Webhook Token"} for another token

`drop_after_create` makes the next Execute Webhook create its message and then close the
connection without answering: the client cannot learn the id, as after a crash between
Discord's answer and pbem's record.
"""

from __future__ import annotations

import email
import email.policy
import json
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

WEBHOOK_ID, TOKEN = "1200000000000000001", "secret-token"


@dataclass
class DiscordState:
    messages: dict[str, dict[str, Any]] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)
    limited: int = 0
    retry_after: float = 0.05
    drop_after_create: bool = False
    next_id: int = 1300000000000000000

    def create(self, content: str, thread: str) -> dict[str, Any]:
        self.next_id += 1
        message = {"id": str(self.next_id), "content": content, "channel_id": thread or "1100",
                   "webhook_id": WEBHOOK_ID, "attachments": [], "edits": 0}
        self.messages[message["id"]] = message
        return message


class DiscordHandler(BaseHTTPRequestHandler):
    state: DiscordState

    def log_message(self, format: str, *args: Any) -> None:   # keep test output quiet
        pass

    def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def _route(self) -> tuple[list[str], dict[str, list[str]]] | None:
        url = urllib.parse.urlsplit(self.path)
        parts = url.path.strip("/").split("/")
        self.state.requests.append((self.command, url.path))
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self._body = body
        if parts[:2] != ["api", "webhooks"] or len(parts) < 4 or parts[2] != WEBHOOK_ID:
            self._send(404, {"code": 10015, "message": "Unknown Webhook"})
            return None
        if parts[3] != TOKEN:
            self._send(401, {"code": 50027, "message": "Invalid Webhook Token"})
            return None
        if self.state.limited:
            self.state.limited -= 1
            after = self.state.retry_after
            self._send(429, {"message": "You are being rate limited.", "retry_after": after, "global": False},
                       {"Retry-After": str(after), "X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": str(after)})
            return None
        return parts[4:], urllib.parse.parse_qs(url.query)

    def do_POST(self) -> None:
        routed = self._route()
        if routed is None:
            return
        _, query = routed
        payload = json.loads(self._body)
        if len(payload.get("content", "")) > 2000:
            self._send(400, {"code": 50035, "message": "Invalid Form Body"})
            return
        message = self.state.create(payload.get("content", ""), query.get("thread_id", [""])[0])
        if self.state.drop_after_create:
            self.state.drop_after_create = False
            self.close_connection = True
            return                          # created, but the client never hears of it
        self._send(200 if query.get("wait") == ["true"] else 204, message)

    def do_PATCH(self) -> None:
        routed = self._route()
        if routed is None:
            return
        rest, _ = routed
        if len(rest) != 2 or rest[0] != "messages" or rest[1] not in self.state.messages:
            self._send(404, {"code": 10008, "message": "Unknown Message"})
            return
        raw = f"Content-Type: {self.headers['Content-Type']}\r\n\r\n".encode() + self._body
        form = email.message_from_bytes(raw, policy=email.policy.HTTP)
        parts = {part.get_param("name", header="content-disposition"): part for part in form.iter_parts()}
        payload = json.loads(parts["payload_json"].get_content())
        if len(payload.get("content", "")) > 2000:
            self._send(400, {"code": 50035, "message": "Invalid Form Body"})
            return
        message = self.state.messages[rest[1]]
        message["content"] = payload["content"]
        message["edits"] += 1
        message["attachments"] = [{"filename": part.get_filename(), "size": len(part.get_payload(decode=True))}
                                  for name, part in parts.items() if str(name).startswith("files[")]
        self._send(200, message)


@contextmanager
def discord_server() -> Iterator[tuple[DiscordState, str]]:
    """The server on 127.0.0.1 (a port the system picks) and its webhook address."""
    state = DiscordState()
    handler = type("Handler", (DiscordHandler,), {"state": state})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state, f"http://127.0.0.1:{server.server_address[1]}/api/webhooks/{WEBHOOK_ID}/{TOKEN}"
    finally:
        server.shutdown()
        server.server_close()
