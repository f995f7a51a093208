"""Poison mail: a message whose handling keeps failing is set aside so the mail behind it flows.

Each failed attempt is counted (by the message's journal key) in
`<folder>/quarantine/failures.toml`, written at once: an attempt that really failed is worth
remembering even when nothing else of its batch is stored, and counting one that a crash
then repeats only brings the quarantine one tick closer. After QUARANTINE_AFTER failures the
raw message is kept as `<id>.eml` beside `<id>.toml` (journal key, sender, subject, reason,
failures, times) and the inbox moves its copy to the mailbox's quarantine folder.

The game master acts with `pbem quarantine list|release|drop`: release moves the copy to
`quarantine/released/`, which the next tick reads like an inbox (failure count reset, journal
entry removed by the command); drop deletes it and leaves it journalled, so it never returns.
`<folder>` is a campaign folder, or `<root>/postmaster` for shared-mailbox mail that failed
before a campaign was known.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Container
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem.mail.inbox import EmlFolderInbox
from pbem.mail.message import Submission
from pbem.state.schedule import iso
from pbem.state.store import read_toml, write_atomic, write_toml

DONE, HELD, RETRY, SKIP = "done", "held", "retry", "skip"
"""What became of one message: handled (mark it done), quarantined (move it out of the way),
failed (leave it for the next tick), or not this reader's (leave it)."""

QUARANTINE_AFTER = 3
"""Failed attempts (one per tick) before a message is set aside: one more than a passing
fault (a crash, a full disk fixed meanwhile) is likely to cost, few enough that a poison
mail costs its sender only minutes."""


@dataclass(frozen=True)
class Held:
    """One quarantined message, as `pbem quarantine list` shows it."""

    id: str
    key: str
    sender: str
    subject: str
    reason: str
    failures: int
    first: str
    at: str


def ident(key: str) -> str:
    """The short id a GM types for the message with this journal key."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def unreadable(raw: bytes) -> Submission:
    """A stand-in for a message that could not even be parsed, keyed by its bytes."""
    digest = hashlib.sha256(raw).hexdigest()
    return Submission(message_id=f"<sha256-{digest}@pbem.invalid>", sender="", sender_name="", subject="",
                      date=None, text="", references=(), auto="", size=len(raw), too_large=False,
                      problems=("the message could not be read",))


class Quarantine:
    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / "quarantine"
        self._failures: dict[str, Any] | None = None

    # -- counting failures ---------------------------------------------------
    @property
    def failures(self) -> dict[str, Any]:
        if self._failures is None:
            file = self.path / "failures.toml"
            self._failures = read_toml(file) if file.exists() else {}
        return self._failures

    def failed(self, key: str, reason: str, now: datetime) -> int:
        """Count one failed attempt (stored at once); returns the attempts so far."""
        record = self.failures.setdefault(key, {"count": 0, "first": iso(now)})
        record.update(count=int(record.get("count", 0)) + 1, reason=reason, last=iso(now))
        self._save_failures()
        return int(record["count"])

    def succeeded(self, key: str) -> None:
        """A message that failed before went through: forget its failures."""
        if key in self.failures:
            del self.failures[key]
            self._save_failures()

    def _save_failures(self) -> None:
        write_toml(self.path / "failures.toml", self.failures,
                   header="# Written by pbem: messages whose handling failed (journal key -> attempts).")

    # -- holding -------------------------------------------------------------
    def holds(self, key: str) -> bool:
        return (self.path / f"{ident(key)}.toml").exists()

    def hold(self, key: str, raw: bytes, sub: Submission, reason: str, now: datetime) -> Held:
        """Keep the message and why; the copy is written before the record that lists it."""
        record = self.failures.get(key, {})
        held = Held(ident(key), key, _printable(sub.sender), _printable(sub.subject), _printable(reason),
                    int(record.get("count", 1)), str(record.get("first", iso(now))), iso(now))
        write_atomic(self.path / f"{held.id}.eml", raw)
        write_toml(self.path / f"{held.id}.toml", asdict(held),
                   header="# Written by pbem: a message set aside; see `pbem quarantine`.")
        self.succeeded(key)     # its count starts again if the GM releases it
        return held

    def entries(self) -> list[Held]:
        if not self.path.exists():
            return []
        found = [self._entry(file) for file in self.path.glob("*.toml") if file.name != "failures.toml"]
        return sorted((h for h in found if h is not None), key=lambda h: (h.at, h.id))

    def get(self, held_id: str) -> Held | None:
        file = self.path / f"{held_id}.toml"
        return self._entry(file) if _is_id(held_id) and file.exists() else None

    def release(self, held: Held) -> None:
        """Back to be handled at the next tick, from the local copy."""
        (self.path / "released").mkdir(parents=True, exist_ok=True)
        (self.path / f"{held.id}.eml").replace(self.path / "released" / f"{held.id}.eml")
        (self.path / f"{held.id}.toml").unlink()

    def drop(self, held: Held) -> None:
        (self.path / f"{held.id}.eml").unlink(missing_ok=True)
        (self.path / f"{held.id}.toml").unlink()

    def released(self) -> EmlFolderInbox | None:
        """The released messages as an inbox, or None when there are none."""
        folder = self.path / "released"
        return EmlFolderInbox(folder) if folder.exists() and any(folder.glob("*.eml")) else None

    def _entry(self, file: Path) -> Held | None:
        try:
            raw = read_toml(file)
            values = {name: str(raw[name]) for name in Held.__dataclass_fields__}
            return Held(**(values | {"failures": int(raw["failures"])}))  # type: ignore[arg-type]  # strings for every field but the count, checked by the caller's except
        except (KeyError, TypeError, ValueError, OSError, RuntimeError):
            return None


_ADDRESS = re.compile(r"[^@\s<>\"(),;:\[\]\\]+@[A-Za-z0-9.-]+")


def usable_sender(sub: Submission, own: Container[str]) -> bool:
    """An address a reply can go to: a person's (not a machine's), well formed, not ours."""
    return bool(sub.sender) and not sub.auto and sub.sender not in own and bool(_ADDRESS.fullmatch(sub.sender)) \
        and sub.sender.isascii() and sub.sender.isprintable()


def _is_id(text: str) -> bool:
    return len(text) == 12 and all(c in "0123456789abcdef" for c in text)


def _printable(text: str) -> str:
    """Text fit to list and quote in a mail: control and line-break characters become spaces,
    code points no encoder takes (lone surrogates) become U+FFFD."""
    text = text.encode("utf-8", "replace").decode("utf-8", "replace")
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())[:300]
