"""Where submissions come from: a Maildir, a folder of .eml files, or an IMAP folder
(pbem/mail/imap.py).

A message is marked done only after its effect is stored, so a crash in between makes it
come back on the next tick; the message journal then recognises it.
"""

from __future__ import annotations

import contextlib
import mailbox
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pbem.plugins import INBOXES

QUARANTINE_MAILDIR = ".Quarantine"
"""The Maildir++ subfolder that holds quarantined messages of a Maildir inbox."""


@dataclass(frozen=True)
class InboxItem:
    key: str
    """Stable within its source: the Maildir key or the .eml file name."""
    raw: bytes


class Inbox(Protocol):
    def items(self) -> Iterator[InboxItem]:
        """Messages not yet marked done, oldest first (file mtime, then name)."""
        ...

    def mark_done(self, key: str) -> None:
        """Never show this message again; a second call or a vanished key is no error.
        An inbox may hold marks back until close()."""
        ...

    def quarantine(self, key: str) -> None:
        """Take a message whose handling keeps failing out of the way of reading, keeping it
        where the mailbox's owner can find it (a quarantine folder); like mark_done, it is
        never shown again, and a second call or a vanished key is no error."""
        ...

    def close(self) -> None:
        """Send the marks still held back and let go of the source."""
        ...


class MaildirInbox:
    """A Maildir (created if missing). Done means moved to cur/ with the Seen flag, as a
    mail client does, so a message someone reads in a client counts as done too.

    Flags are read from file names rather than through mailbox.Maildir.get_message:
    Python 3.11 has no get_flags(key), and parsing every stored message on each tick just
    to learn its flags grows with the campaign's whole history.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)   # Maildir() makes only the last level
        mailbox.Maildir(self.path, create=True)

    def items(self) -> Iterator[InboxItem]:
        pending = [file for file in self._files() if "S" not in _flags(file.name)]
        for file in _oldest_first(pending):
            if (raw := _read(file)) is not None:
                yield InboxItem(_key(file.name), raw)

    def mark_done(self, key: str) -> None:
        for file in self._files():
            if _key(file.name) == key:
                flags = "".join(sorted(set(_flags(file.name)) | {"S"}))
                _move(file, self.path / "cur" / f"{key}{mailbox.Maildir.colon}2,{flags}")

    def quarantine(self, key: str) -> None:
        """Move it to the Maildir++ subfolder `.Quarantine`, which mail clients show as a folder."""
        target = self.path / QUARANTINE_MAILDIR
        for folder in ("new", "cur", "tmp"):
            (target / folder).mkdir(parents=True, exist_ok=True)
        for file in self._files():
            if _key(file.name) == key:
                _move(file, target / "cur" / file.name if file.parent.name == "cur" else target / "new" / file.name)

    def close(self) -> None:
        """Nothing held back: marks are renames, done at once."""

    def _files(self) -> Iterator[Path]:
        for folder in ("new", "cur"):
            yield from (f for f in (self.path / folder).iterdir() if not f.name.startswith("."))


class EmlFolderInbox:
    """A folder of *.eml files (created if missing); done files move to processed/.
    Whoever drops files here should write them under another name and rename them."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)

    def items(self) -> Iterator[InboxItem]:
        for file in _oldest_first(self._files()):
            if (raw := _read(file)) is not None:
                yield InboxItem(file.name, raw)

    def mark_done(self, key: str) -> None:
        if Path(key).name != key or key in ("", ".", ".."):
            raise ValueError(f"not an .eml file name: {key!r}")
        (self.path / "processed").mkdir(exist_ok=True)
        _move(self.path / key, self.path / "processed" / key)

    def quarantine(self, key: str) -> None:
        """Move it to quarantine/ (from processed/ too, should it have been marked first)."""
        if Path(key).name != key or key in ("", ".", ".."):
            raise ValueError(f"not an .eml file name: {key!r}")
        (self.path / "quarantine").mkdir(exist_ok=True)
        for source in (self.path / key, self.path / "processed" / key):
            _move(source, self.path / "quarantine" / key)

    def close(self) -> None:
        """Nothing held back: marks are renames, done at once."""

    def _files(self) -> Iterator[Path]:
        for file in self.path.iterdir():
            if file.suffix.lower() == ".eml" and not file.name.startswith(".") and file.is_file():
                yield file


def open_inbox(spec: Mapping[str, Any], base: Path, *, state_dir: Path | None = None,
               log: Callable[[str], None] | None = None) -> Inbox:
    """The inbox a campaign's settings describe, e.g. {"type": "maildir", "path": "inbox"} or
    {"type": "imap", "host": ...}: the `pbem.inboxes` entry point of that type (pbem/plugins.py).
    Relative paths are taken from spec["base"] when the table comes from a shared pbem.toml,
    else from base (the campaign folder). IMAP keeps its UIDVALIDITY file in state_dir
    (default: base). Bad settings raise ValueError."""
    base = Path(spec.get("base") or base)
    kind = str(spec.get("type", ""))
    if kind not in INBOXES.entries():
        raise ValueError(f"unknown inbox type {kind!r}; expected one of: {', '.join(INBOXES.names())}")
    opener: InboxOpener = INBOXES.load(kind)
    return opener(spec, base, state_dir=state_dir, log=log)


class InboxOpener(Protocol):
    """What a `pbem.inboxes` entry point names: the inbox of one `[transport.inbox]` table."""

    def __call__(self, spec: Mapping[str, Any], base: Path, *, state_dir: Path | None,
                 log: Callable[[str], None] | None) -> Inbox: ...


def open_maildir(spec: Mapping[str, Any], base: Path, *, state_dir: Path | None = None,
                 log: Callable[[str], None] | None = None) -> Inbox:
    return MaildirInbox(base / _path(spec, "maildir"))


def open_eml(spec: Mapping[str, Any], base: Path, *, state_dir: Path | None = None,
             log: Callable[[str], None] | None = None) -> Inbox:
    return EmlFolderInbox(base / _path(spec, "eml"))


def _path(spec: Mapping[str, Any], kind: str) -> str:
    if not spec.get("path"):
        raise ValueError(f"the {kind} inbox needs a path")
    return str(spec["path"])


def _key(name: str) -> str:
    return name.partition(mailbox.Maildir.colon)[0]


def _flags(name: str) -> str:
    info = name.partition(mailbox.Maildir.colon)[2]
    return info[2:] if info.startswith("2,") else ""


def _oldest_first(files: Iterable[Path]) -> list[Path]:
    """Sorted by modification time, then name; files that vanish meanwhile are left out."""
    stamped: list[tuple[int, str, Path]] = []
    for file in files:
        try:
            stamped.append((file.stat().st_mtime_ns, file.name, file))
        except FileNotFoundError:
            continue
    return [file for _, _, file in sorted(stamped)]


def _read(file: Path) -> bytes | None:
    try:
        return file.read_bytes()
    except FileNotFoundError:
        return None


def _move(source: Path, target: Path) -> None:
    """Rename; a source already gone (done by an earlier call) is fine."""
    if source == target:
        return
    with contextlib.suppress(FileNotFoundError):
        os.replace(source, target)
