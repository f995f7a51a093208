"""A tiny IMAP server on 127.0.0.1 that speaks just enough of the protocol for ImapInbox and
answers what a real server would not: malformed SELECT and FETCH answers, a trickled reply,
a session dropped after the login. Only for what Dovecot cannot be made to do."""

from __future__ import annotations

import re
import socket
import socketserver
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

CAPABILITIES = b"IMAP4rev1 MOVE UIDPLUS"


def literal(raw: bytes) -> bytes:
    return b"{%d}\r\n%s" % (len(raw), raw)


@dataclass
class FakeImap:
    """messages: UID -> raw mail. fetch_item(uid, raw) is what follows `UID n` in that
    message's FETCH answer (default: a proper BODY[] literal). select_codes: the response
    codes of SELECT. trickle: seconds between the bytes of the answer to `trickle_on` (a
    command such as b"UID FETCH", or b"GREETING"), for `trickle_for` seconds at most, then
    the server hangs up. drop_after_login: logins whose session ends at SELECT."""

    messages: dict[int, bytes]
    fetch_item: Callable[[int, bytes], bytes] = lambda uid, raw: b"BODY[] " + literal(raw)
    select_codes: list[bytes] = field(default_factory=lambda: [b"[UIDVALIDITY 7]", b"[UIDNEXT 99]"])
    trickle: float = 0.0
    trickle_on: bytes = b"GREETING"
    trickle_for: float = 8.0
    drop_after_login: set[str] = field(default_factory=set)
    commands: list[bytes] = field(default_factory=list)

    def serve(self, conn: socket.socket) -> None:
        greeting = b"* OK [CAPABILITY " + CAPABILITIES + b"] fake ready\r\n"
        if self.trickle_on == b"GREETING" and self.trickle:
            self._trickle(conn, greeting)
            return
        conn.sendall(greeting)
        user = ""
        for line in self._lines(conn):
            self.commands.append(line)
            tag, _, rest = line.partition(b" ")
            verb = rest.split(b" ", 2)
            name = verb[0].upper()
            if name == b"UID":
                name = b"UID " + verb[1].upper()
            if name == b"LOGIN":
                user = verb[1].decode().strip('"')
            if name == b"SELECT" and user in self.drop_after_login:
                return
            reply = self.answer(name, rest) + tag + b" OK done\r\n"
            if name == self.trickle_on and self.trickle:
                self._trickle(conn, reply)
                return
            conn.sendall(reply)
            if name == b"LOGOUT":
                return

    def answer(self, name: bytes, rest: bytes) -> bytes:
        if name == b"CAPABILITY":
            return b"* CAPABILITY " + CAPABILITIES + b"\r\n"
        if name in (b"SELECT", b"EXAMINE"):
            codes = b"".join(b"* OK " + code + b" ok\r\n" for code in self.select_codes)
            return b"* %d EXISTS\r\n* 0 RECENT\r\n" % len(self.messages) + codes
        if name == b"UID SEARCH":
            return b"* SEARCH " + b" ".join(b"%d" % uid for uid in sorted(self.messages)) + b"\r\n"
        if name == b"UID FETCH":
            asked = [int(n) for n in re.findall(rb"\d+", rest.split(b" ")[2])]
            return b"".join(b"* %d FETCH (UID %d %s)\r\n" % (uid, uid, self.fetch_item(uid, self.messages[uid]))
                            for uid in asked if uid in self.messages)
        if name == b"LOGOUT":
            return b"* BYE bye\r\n"
        return b""

    def _trickle(self, conn: socket.socket, data: bytes) -> None:
        """One byte every `trickle` seconds: each read gets something long before a socket
        timeout, yet the answer ends only after `trickle_for` seconds, if at all."""
        until = time.monotonic() + self.trickle_for
        for byte in data:
            if time.monotonic() >= until:
                break
            conn.sendall(bytes([byte]))
            time.sleep(self.trickle)
        conn.close()

    @staticmethod
    def _lines(conn: socket.socket) -> Iterator[bytes]:
        buffer = b""
        while True:
            while b"\r\n" not in buffer:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                buffer += chunk
            line, buffer = buffer.split(b"\r\n", 1)
            yield line


@contextmanager
def fake_imap(server: FakeImap) -> Iterator[int]:
    """Serve on a free loopback port (yielded) until the block ends."""

    class Handler(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            try:
                server.serve(self.request)
            except OSError:
                pass                             # the client cut the connection: expected here

    listener = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
    listener.daemon_threads = True
    thread = threading.Thread(target=listener.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    try:
        yield listener.server_address[1]
    finally:
        listener.shutdown()
        listener.server_close()
