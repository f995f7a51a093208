"""Delivering outgoing mail: into a Maildir, or by SMTP (pbem/mail/smtp.py). A retry after a
crash must not flood players, so every transport delivers each Message-ID at most once."""

from __future__ import annotations

import hashlib
import mailbox
import os
from collections.abc import Callable, Mapping
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Protocol

from pbem.plugins import TRANSPORTS


class Transport(Protocol):
    def send(self, msg: EmailMessage) -> None:
        """Deliver msg, unless its Message-ID was delivered before."""
        ...


class MaildirTransport:
    """Delivers into a local Maildir (created if missing), the embedded default outbox.

    The file name is derived from the Message-ID and created with link(), which never
    overwrites, so a resend after a crash finds the first copy. `.delivered` in the Maildir
    lists every delivered id (append-only, fsync'd): a mail someone already took out of
    the Maildir is not delivered again either.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)   # Maildir() makes only the last level
        mailbox.Maildir(self.path, create=True)
        self._index = self.path / ".delivered"
        self._known: set[str] | None = None

    def send(self, msg: EmailMessage) -> None:
        message_id = str(msg.get("Message-ID", "")).strip()
        if not message_id:
            raise ValueError("outgoing mail needs a Message-ID (compose sets one)")
        if message_id in self._delivered():
            return
        name = hashlib.sha256(message_id.encode()).hexdigest()[:32]
        if not self._stored(name):
            self._write(name, msg.as_bytes())
        self._record(message_id)

    def _delivered(self) -> set[str]:
        """Read once per transport (a batch), then kept up to date by _record."""
        if self._known is None:
            exists = self._index.exists()
            self._known = set(self._index.read_text(encoding="utf-8").splitlines()) if exists else set()
        return self._known

    def _stored(self, name: str) -> bool:
        """Still in new/, or moved to cur/ (with flags) by a mail client."""
        return (self.path / "new" / name).exists() or any(
            (self.path / "cur").glob(f"{name}{mailbox.Maildir.colon}*")
        )

    def _write(self, name: str, data: bytes) -> None:
        """The Maildir way: write to tmp/, fsync, then link into new/."""
        temporary = self.path / "tmp" / name
        with open(temporary, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temporary, self.path / "new" / name)
        except FileExistsError:
            pass
        finally:
            temporary.unlink(missing_ok=True)
        _fsync_directory(self.path / "new")

    def _record(self, message_id: str) -> None:
        with open(self._index, "a", encoding="utf-8") as file:
            file.write(message_id + "\n")
            file.flush()
            os.fsync(file.fileno())
        self._delivered().add(message_id)


def open_transport(spec: Mapping[str, Any], base: Path, *, log: Callable[[str], None] | None = None) -> Transport:
    """The transport a campaign's settings describe, e.g. {"type": "maildir", "path":
    "outbox"} or {"type": "smtp", "host": ...}: the `pbem.transports` entry point of that type
    (pbem/plugins.py). A relative path is taken from spec["base"] when the table comes from a
    shared pbem.toml, else from base (the campaign folder). The SMTP send journal always lives
    in base. Bad settings raise ValueError."""
    kind = str(spec.get("type", ""))
    if kind not in TRANSPORTS.entries():
        raise ValueError(f"unknown transport type {kind!r}; expected one of: {', '.join(TRANSPORTS.names())}")
    opener: TransportOpener = TRANSPORTS.load(kind)
    return opener(spec, Path(spec.get("base") or base), journal_dir=Path(base), log=log)


class TransportOpener(Protocol):
    """What a `pbem.transports` entry point names: the transport of one `[transport.outbox]`
    table; `journal_dir` is where a transport keeps what it has sent (the campaign folder)."""

    def __call__(self, spec: Mapping[str, Any], base: Path, *, journal_dir: Path,
                 log: Callable[[str], None] | None) -> Transport: ...


def open_maildir(spec: Mapping[str, Any], base: Path, *, journal_dir: Path,
                 log: Callable[[str], None] | None = None) -> Transport:
    if not spec.get("path"):
        raise ValueError("the maildir transport needs a path")
    return MaildirTransport(base / spec["path"])


def _fsync_directory(path: Path) -> None:
    """Make a new directory entry durable before the delivery is recorded."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
