"""Outgoing mail waits in `<campaign>/outbox/queue/` until a transport takes it.

Queueing is idempotent: the file name is derived from the deterministic
Message-ID, so a tick repeated after a crash rewrites the same file instead of
adding a second copy. Delivery hands each queued file to the transport and then
moves it to `outbox/sent/`; the transports themselves refuse a Message-ID they
have already delivered, so a crash between the two steps cannot send twice. When the
server is unavailable the batch stops at once and everything waits for the next tick.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

from pbem.mail.connection import MailUnavailable
from pbem.mail.outbox import Transport
from pbem.store import write_atomic


def _file_name(message_id: str) -> str:
    return hashlib.sha256(message_id.encode()).hexdigest()[:32] + ".eml"


def enqueue(folder: Path, msg: EmailMessage) -> Path:
    target = folder / "outbox" / "queue" / _file_name(str(msg["Message-ID"]))
    if not (folder / "outbox" / "sent" / target.name).exists():
        write_atomic(target, msg.as_bytes(policy=policy.SMTP))
    return target


def pending(folder: Path) -> list[Path]:
    queue = folder / "outbox" / "queue"
    return sorted(queue.glob("*.eml"), key=lambda p: (p.stat().st_mtime_ns, p.name)) if queue.exists() else []


def deliver(folder: Path, transport: Transport, after_send: Callable[[str], None] | None = None) -> tuple[int, list[str]]:
    """Send everything queued; returns (sent count, problems). Failed mail stays queued.
    after_send(file name) runs between the hand-over and the move to sent/ (a test seam)."""
    sent, problems = 0, list[str]()
    sent_dir = folder / "outbox" / "sent"
    sent_dir.mkdir(parents=True, exist_ok=True)
    try:
        for path in (queued := pending(folder)):
            # compat32 without a line length keeps the stored header lines as they are (with
            # one, it folds again, before a long In-Reply-To id): the transport needs the
            # message as written, and re-reading every header costs more than sending it.
            msg = BytesParser(policy=policy.compat32.clone(max_line_length=None)).parsebytes(path.read_bytes())
            try:
                transport.send(msg)  # type: ignore[arg-type]
            except MailUnavailable as exc:
                waiting = len(queued) - sent - len(problems)
                problems.append(f"{exc}; {waiting} mail(s) wait for the next tick")
                break
            except (OSError, RuntimeError, ValueError) as exc:
                problems.append(f"{path.name}: {exc}")
                continue
            if after_send:
                after_send(path.name)
            os.replace(path, sent_dir / path.name)
            sent += 1
    finally:
        close = getattr(transport, "close", None)
        if close is not None:
            close()
    return sent, problems
