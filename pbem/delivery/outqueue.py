"""Outgoing mail waits in `<campaign>/outbox/queue/` until a transport takes it.

Queueing is idempotent: the file name is derived from the deterministic
Message-ID, so a tick repeated after a crash rewrites the same file instead of
adding a second copy. Delivery hands each queued file to the transport, then notes its
name in `outbox/sent.txt` (one line "<day> <file name>", append-only, fsync'd) and removes
it from the queue: the mail itself is kept once, by the transport (the Maildir holds it; an
SMTP server has it). The transports themselves refuse a Message-ID they have already
delivered (the Maildir's `.delivered`, the SMTP send journal, both kept for good), so a crash
between the hand-over and the note cannot send twice: the next tick hands the mail over
again, the transport drops it, and the note is written. The index only spares re-queueing
mail already sent; its lines older than KEEP_DAYS are dropped (pbem/intake/journal.py).
Campaigns of earlier versions keep whole copies in `outbox/sent/`; those still count as sent.
When the server is unavailable the batch stops at once and everything waits for the next tick.
A queued file is handed over as it was written (bytes-level: nothing pbem wrote is parsed again
but its header block, `Queued`); sent.txt is fsync'd once per batch, after the transport made
the batch durable, and the batch's files leave the queue after that.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

from pbem.mail.connection import MailUnavailable
from pbem.mail.outbox import Queued, Transport
from pbem.state.campaign import KEEP_DAYS
from pbem.state.store import write_atomic

WIRE = policy.SMTP.clone(max_line_length=998)
"""How queued mail is written: RFC 5322's hard limit of 998 characters a line rather than the
78 it recommends, because the email package folds a header that fits on one continuation line
but not after its name by leaving the first line empty ("Subject:" then the whole subject on the
next line), which some mail clients show as no subject at all."""


def _file_name(message_id: str) -> str:
    return hashlib.sha256(message_id.encode()).hexdigest()[:32] + ".eml"


def enqueue(folder: Path, msg: EmailMessage) -> Path:
    target = folder / "outbox" / "queue" / _file_name(str(msg["Message-ID"]))
    if not was_sent(folder, target.name):
        write_atomic(target, msg.as_bytes(policy=WIRE))
    return target


def pending(folder: Path) -> list[Path]:
    queue = folder / "outbox" / "queue"
    return sorted(queue.glob("*.eml"), key=lambda p: (p.stat().st_mtime_ns, p.name)) if queue.exists() else []


def deliver(folder: Path, transport: Transport, after_send: Callable[[str], None] | None = None,
            on_unavailable: Callable[[str], None] | None = None) -> tuple[int, list[str]]:
    """Send everything queued; returns (sent count, problems). Failed mail stays queued.
    after_send(file name) runs between the hand-over and the note in sent.txt (a test seam);
    on_unavailable(what) when the server could not be used at all (the batch stops there).
    Each mail goes out as the bytes queued; the batch's notes are fsync'd together, after the
    transport has made its deliveries durable, and only then leave the queue."""
    sent, problems = 0, list[str]()
    index = SentIndex(folder)
    handed: list[Path] = []
    try:
        for path in (queued := pending(folder)):
            if index.holds(path.name):     # noted, then a crash before it left the queue
                handed.append(path)
                continue
            try:
                _hand_over(transport, path.read_bytes())
            except MailUnavailable as exc:
                waiting = len(queued) - sent - len(problems)
                problems.append(f"{exc}; {waiting} mail(s) wait for the next tick")
                if on_unavailable is not None:
                    on_unavailable(str(exc))
                break
            except (OSError, RuntimeError, ValueError) as exc:
                problems.append(f"{path.name}: {exc}")
                continue
            if after_send:
                after_send(path.name)
            index.note(path.name)
            handed.append(path)
            sent += 1
    finally:
        close = getattr(transport, "close", None)
        if close is not None:
            close()
        index.sync()
    for path in handed:
        path.unlink(missing_ok=True)
    return sent, problems


def _hand_over(transport: Transport, data: bytes) -> None:
    """The queued bytes as they are, to a transport that takes them (`send_raw`); else parsed.
    compat32 without a line length keeps the stored header lines as they are (with one, it
    folds again, before a long In-Reply-To id): the transport needs the message as written."""
    send_raw = getattr(transport, "send_raw", None)
    mail = Queued.of(data) if send_raw is not None else None
    if send_raw is not None and mail is not None:
        send_raw(mail)
        return
    msg = BytesParser(policy=policy.compat32.clone(max_line_length=None)).parsebytes(data)
    transport.send(msg)  # type: ignore[arg-type]  # a compat32 Message: sent as stored, see above


def was_sent(folder: Path, name: str) -> bool:
    """Was the queued file `name` handed over (noted in the index, or filed whole in
    outbox/sent/ by an earlier version)?"""
    return SentIndex(folder).holds(name)


def sent_names(folder: Path) -> set[str]:
    """The file names of every mail handed over that the outbox still remembers."""
    return SentIndex(folder).names()


class SentIndex:
    """`outbox/sent.txt`: the day and queue file name of each mail handed over."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "outbox" / "sent.txt"
        self.old = folder / "outbox" / "sent"
        self._days: dict[str, str] | None = None
        self._pruned = False
        self._unsynced = False

    def holds(self, name: str) -> bool:
        return name in self._read() or (self.old / name).exists()

    def names(self) -> set[str]:
        old = {p.name for p in self.old.glob("*.eml")} if self.old.is_dir() else set()
        return set(self._read()) | old

    def note(self, name: str) -> None:
        """Append the line; `sync` makes the batch's lines durable with one fsync."""
        day = datetime.now(UTC).date().isoformat()
        self._forget_old(day)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as file:
            file.write(f"{day} {name}\n")
        self._read()[name] = day
        self._unsynced = True

    def sync(self) -> None:
        if self._unsynced:
            with open(self.path, "rb") as file:
                os.fsync(file.fileno())
            self._unsynced = False

    def _read(self) -> dict[str, str]:
        if self._days is None:
            self._days = {}
            if self.path.exists():
                for line in self.path.read_text(encoding="utf-8").splitlines():
                    day, _, name = line.partition(" ")
                    if name:
                        self._days[name] = day
        return self._days

    def _forget_old(self, today: str) -> None:
        """Rewrite the index without lines older than KEEP_DAYS when some are, once per
        batch (the transports still refuse those Message-IDs)."""
        if self._pruned:
            return
        self._pruned = True
        oldest = (datetime.fromisoformat(today) - timedelta(days=KEEP_DAYS)).date().isoformat()
        days = self._read()
        if days and min(days.values()) < oldest:
            kept = {name: day for name, day in days.items() if day >= oldest}
            write_atomic(self.path, "".join(f"{day} {name}\n" for name, day in kept.items()))
            self._days = kept
