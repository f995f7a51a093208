"""One HTTP exchange with a forum's API, within one deadline for the whole of it.

Socket timeouts count per read, so a server sending one byte a second would never trip them: a
watchdog cuts the connection when the request's time is up, and the caller gets a ForumError
naming the request, as for any other failure of the network or the server's answer.
"""

from __future__ import annotations

import http.client
import socket
import threading
import urllib.parse
from collections.abc import Mapping

from pbem.forum.base import ForumError

MAX_ANSWER = 16 * 1024 * 1024

Answer = tuple[int, str, Mapping[str, str], bytes]
"""Status, reason, headers and body of one response."""


def exchange(site: urllib.parse.SplitResult, method: str, path: str, headers: Mapping[str, str],
             data: bytes | None, timeout: float, where: str) -> Answer:
    """One request to `site` (its path prefixed to `path`), all of it within `timeout` seconds."""
    kind = http.client.HTTPSConnection if site.scheme == "https" else http.client.HTTPConnection
    conn = kind(site.hostname or "", site.port, timeout=timeout)
    watchdog = Watchdog(conn, timeout)
    try:
        conn.request(method, site.path.rstrip("/") + path, body=data, headers=dict(headers))
        response = conn.getresponse()
        raw = response.read(MAX_ANSWER + 1)
        if len(raw) > MAX_ANSWER:
            raise ForumError(f"{where}: the answer is larger than {MAX_ANSWER // 2**20} MB")
        return response.status, response.reason, dict(response.headers), raw
    except (http.client.HTTPException, OSError, ValueError) as exc:
        if watchdog.fired:
            raise ForumError(f"{where}: no complete answer within {timeout:g} s "
                             "(the limit is timeout in [transport.forum])") from None
        detail = " ".join(str(exc).split())[:160] or "connection closed"
        raise ForumError(f"{where}: {type(exc).__name__}: {detail}") from None
    finally:
        watchdog.cancel()
        conn.close()


class Watchdog:
    """Cuts a connection when the whole request's time is up."""

    def __init__(self, conn: http.client.HTTPConnection, seconds: float) -> None:
        self.fired = False
        self._conn = conn
        self._timer = threading.Timer(seconds, self._cut)
        self._timer.daemon = True
        self._timer.start()

    def _cut(self) -> None:
        self.fired = True
        sock = self._conn.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cancel(self) -> None:
        self._timer.cancel()


def form_data(boundary: str, fields: Mapping[str, tuple[str, str]], files: Mapping[str, tuple[str, bytes]]) -> bytes:
    """A multipart/form-data body: text fields (name -> (content type, value)), then files
    (name -> (filename, data); a PNG unless the name ends in .svg)."""
    out = b""
    for name, (kind, value) in fields.items():
        out += (f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n'
                f"Content-Type: {kind}\r\n\r\n{value}\r\n").encode()
    for name, (filename, data) in files.items():
        kind = "image/svg+xml" if filename.endswith(".svg") else "image/png"
        out += (f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                f"Content-Type: {kind}\r\n\r\n").encode() + data + b"\r\n"
    return out + f"--{boundary}--\r\n".encode()
