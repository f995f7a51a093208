"""The IMAP wire under pbem's inbox (pbem/mail/imap.py): the flags it sets, the errors that mean
a dropped connection or an unreadable answer, FETCH and SEARCH with their answers checked, a
connection whose every socket operation a watchdog bounds, and the UIDVALIDITY record."""

from __future__ import annotations

import imaplib
import socket
import ssl
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from imapclient import IMAPClient  # type: ignore[import-untyped]  # imapclient ships no type hints

from pbem.mail.connection import ServerSpec, Watchdog
from pbem.state.store import StoreError, read_toml, write_toml

DONE = b"$PbemDone"
QUARANTINED = b"$PbemQuarantined"
SEEN = b"\\Seen"
DELETED = b"\\Deleted"
PORTS = {"implicit": 993, "starttls": 143, "none": 143}
# What a dropped connection raises: imaplib's abort when the BYE/EOF is read, or a plain
# OSError (reset, refused, timeout) when the socket fails first.
DISCONNECTED = (imaplib.IMAP4.abort, OSError)

# What imapclient raises when it cannot parse an answer (ProtocolError is an IMAPClientError).
UNREADABLE = (ValueError, TypeError, IndexError, KeyError)


def fetch(client: IMAPClient, uids: list[int]) -> Any:
    return client.fetch(uids, [b"BODY.PEEK[]"])


def search(client: IMAPClient) -> list[int]:
    """The UIDs of the messages not yet done; an answer that is not a list of UIDs is refused."""
    found = client.search([b"UNKEYWORD", DONE, b"NOT", b"DELETED"])
    if not isinstance(found, list) or not all(isinstance(uid, int) and uid > 0 for uid in found):
        raise Malformed(f"its SEARCH answer is not a list of message numbers: {found!r:.200}")
    return sorted(found)


def body_of(answer: Any, uid: int) -> bytes | str | None:
    """The message from a FETCH answer; None when the server no longer has it (expunged
    meanwhile), or a sentence saying what is wrong with the answer."""
    if not isinstance(answer, dict):
        return f"the FETCH answer is not a list of messages ({type(answer).__name__})"
    if uid not in answer:
        return None
    entry = answer[uid]
    raw = entry.get(b"BODY[]") if isinstance(entry, dict) else None
    if not isinstance(raw, (bytes, bytearray)):
        return f"the FETCH answer for UID {uid} holds no message body ({raw!r:.60})"
    return bytes(raw)


class ValidityChanged(Exception):
    """The mailbox was replaced while we were connected: the UIDs in hand are void."""


class Malformed(Exception):
    """The server answered something pbem cannot use."""


class Deadline(Exception):
    """The watchdog cut an operation that outlived the timeout."""


class WatchedIMAP4(imaplib.IMAP4):
    """imaplib's connection with its socket shown to a watchdog before the greeting is read,
    so even a trickled greeting or TLS handshake is bounded."""

    def __init__(self, host: str, port: int, context: ssl.SSLContext | None, timeout: float | None,
                 watchdog: Watchdog) -> None:
        self._context, self._watchdog = context, watchdog
        super().__init__(host, port, timeout)

    def _create_socket(self, timeout: float | None = None) -> socket.socket:
        sock = socket.create_connection((self.host, self.port), timeout)
        self._watchdog.watch(sock)
        if self._context is None:
            return sock
        return self._context.wrap_socket(sock, server_hostname=self.host)


class Client(IMAPClient):  # type: ignore[misc]  # its base is untyped (above)
    """IMAPClient built on _WatchedIMAP4. Its _create_IMAP4 hook is the one place where the
    socket can be reached before the greeting is read (the constructor reads it)."""

    def __init__(self, server: ServerSpec, watchdog: Watchdog) -> None:
        self._watchdog = watchdog
        implicit = server.tls == "implicit"
        super().__init__(server.host, port=server.port, ssl=implicit,
                         ssl_context=server.ssl_context() if implicit else None, timeout=server.timeout)

    def _create_IMAP4(self) -> imaplib.IMAP4:
        context = self.ssl_context if self.ssl else None
        return WatchedIMAP4(self.host, self.port, context, self._timeout.connect, self._watchdog)


def stored_validity(state: Path | None, key: str) -> int:
    """The UIDVALIDITY last seen of the folder `key` (0: none recorded, or the record unreadable)."""
    if state is None or not state.exists():
        return 0
    try:
        return int(read_toml(state).get(key, {}).get("uidvalidity", 0))
    except (StoreError, TypeError, ValueError):
        return 0


def store_validity(state: Path | None, key: str, validity: int) -> None:
    if state is None:
        return
    try:
        data = read_toml(state) if state.exists() else {}
    except StoreError:
        data = {}
    data[key] = {"uidvalidity": validity, "since": datetime.now(UTC).replace(microsecond=0)}
    write_toml(state, data, header="# Written by pbem: the UIDVALIDITY of each IMAP folder it reads.")


def folders(spec: Mapping[str, Any]) -> tuple[str, str, str, int]:
    """The folder read, where done and quarantined mail go, and the batch size, from
    `[transport.inbox]`; ValueError naming the key that is wrong."""
    folder = str(spec.get("folder", "INBOX"))
    processed = str(spec.get("processed", "Processed"))
    quarantine = str(spec.get("quarantine", "Quarantine"))
    if processed == folder:
        raise ValueError(f"processed: must differ from folder ({folder!r}), or be \"\" to keep done mail in place")
    if quarantine == folder:
        raise ValueError(f"quarantine: must differ from folder ({folder!r}), or be \"\" to keep such mail "
                         "in place, flagged $PbemQuarantined")
    try:
        batch = int(spec.get("batch", 50))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"batch: expected a number, not {spec.get('batch')!r}") from exc
    return folder, processed, quarantine, batch
