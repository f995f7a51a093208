"""Delivering outgoing mail: into a Maildir, or by SMTP (pbem/mail/smtp.py). A retry after a
crash must not flood players, so every transport delivers each Message-ID at most once."""

from __future__ import annotations

import hashlib
import mailbox
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.utils import getaddresses, parseaddr
from pathlib import Path
from typing import Any, Protocol

from pbem.plugins import TRANSPORTS


class Transport(Protocol):
    def send(self, msg: EmailMessage) -> None:
        """Deliver msg, unless its Message-ID was delivered before."""
        ...


@dataclass(frozen=True)
class Queued:
    """A mail as pbem wrote it to its outgoing queue: the bytes, handed over as they are, and
    what a transport needs to know, read from the header block alone (the body, pictures
    included, is never parsed again). A transport with `send_raw(Queued)` is given these; one
    with only `send` gets the message parsed from the bytes."""

    data: bytes
    message_id: str
    sender: str
    """The From address (the SMTP envelope's default)."""
    recipients: tuple[str, ...]
    """To and Cc addresses."""

    @classmethod
    def of(cls, data: bytes) -> Queued | None:
        """The queued mail, or None when its header block is not the kind pbem writes (a Bcc,
        which must be taken out before sending, or no header block end): then it is parsed whole."""
        end = data.find(b"\r\n\r\n")
        if end < 0:
            return None
        head = BytesHeaderParser().parsebytes(data[:end + 4])
        if head.get_all("Bcc"):
            return None
        recipients = tuple(address for _, address in getaddresses(head.get_all("To", []) + head.get_all("Cc", []))
                           if address)
        return cls(data, str(head.get("Message-ID", "")).strip(), parseaddr(str(head.get("From", "")))[1],
                   recipients)


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
        self._unrecorded: list[str] = []

    def send(self, msg: EmailMessage) -> None:
        message_id = str(msg.get("Message-ID", "")).strip()
        if self._fresh(message_id):
            self._deliver(message_id, msg.as_bytes)
            _fsync_directory(self.path / "new")
            self._record([message_id])

    def send_raw(self, mail: Queued) -> None:
        """Deliver a queued mail's bytes as they are. Its id is recorded, after one fsync of
        new/ for all of them, when the batch closes (`close`): a crash before that leaves the
        queue as it was, and the next batch finds the file already in the Maildir."""
        if self._fresh(mail.message_id) and mail.message_id not in self._unrecorded:
            self._deliver(mail.message_id, lambda: mail.data.replace(b"\r\n", b"\n"))   # a Maildir's lines end in LF
            self._unrecorded.append(mail.message_id)

    def close(self) -> None:
        """Make the batch's deliveries durable, then record them."""
        if self._unrecorded:
            _fsync_directory(self.path / "new")
            self._record(self._unrecorded)
            self._unrecorded = []

    def _fresh(self, message_id: str) -> bool:
        if not message_id:
            raise ValueError("outgoing mail needs a Message-ID (compose sets one)")
        return message_id not in self._delivered()

    def _deliver(self, message_id: str, data: Callable[[], bytes]) -> None:
        name = hashlib.sha256(message_id.encode()).hexdigest()[:32]
        if not self._stored(name):
            self._write(name, data())

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

    def _record(self, message_ids: list[str]) -> None:
        """Note the ids in `.delivered` (once the files are durable in new/)."""
        with open(self._index, "a", encoding="utf-8") as file:
            file.write("".join(f"{message_id}\n" for message_id in message_ids))
            file.flush()
            os.fsync(file.fileno())
        self._delivered().update(message_ids)


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
