"""A forum thread kept as a local directory: the embedded default, used by the demo.

    <path>/000001-pbem.md        the public thread, one Markdown file per post
    <path>/000002-alice.md
    <path>/private/000003-alice.md   private messages to the bot, and its answers

Each file starts with a small TOML header between `+++` lines:

    +++
    id = 2
    author = "alice"
    created = 2026-11-24T18:00:00Z
    in_reply_to = 0
    +++
    RESULT 1 Red massacred

A player (or a gateway from another forum) posts by dropping a `.md` file with at least
`author` in its header into the folder or into `private/`; write it under a name starting
with "." and rename it, so half a file is never read. On the next read pbem files it like
a forum server would: the next free id, renamed to `NNNNNN-author.md` (the rename is the
atomic step, so a crash never files a post twice), the header completed. The file name
carries the id. The folder forum trusts the header's author: whoever may write into the
folder may post as anyone, so keep it to the game master's machine or to a gateway that
has authenticated the writer.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import tomli_w

from pbem.forum.base import ForumError, Post, is_new
from pbem.store import write_atomic

FILED = re.compile(r"^(\d{6,})-[a-z0-9_-]*\.md$")
PRIVATE = "private"


class FolderForum:
    kind = "folder"

    def __init__(self, path: Path, bot: str = "pbem", title: str = "") -> None:
        self.path = Path(path)
        self.bot = bot
        self.title = title
        (self.path / PRIVATE).mkdir(parents=True, exist_ok=True)

    # -- reading ----------------------------------------------------------------------
    def fetch(self, cursor: Mapping[str, int]) -> list[Post]:
        self._file_dropped()
        posts = []
        for channel in ("thread", PRIVATE):
            for number, file in self._filed(channel):
                if number > cursor.get(channel, 0):
                    posts.append(self._read(file, channel, number))
        return sorted((p for p in posts if is_new(cursor, p)), key=lambda p: int(p.id))

    def _filed(self, channel: str) -> Iterator[tuple[int, Path]]:
        folder = self._folder(channel)
        for file in folder.iterdir():
            match = FILED.match(file.name)
            if match and file.is_file():
                yield int(match.group(1)), file

    def _read(self, file: Path, channel: str, number: int) -> Post:
        header, body = split_header(file.read_text(encoding="utf-8", errors="replace"))
        reply = header.get("in_reply_to", 0)
        return Post(id=str(number), author=str(header.get("author", "")), created=_created(header, file),
                    text=body, channel=channel, number=number, title=str(header.get("title", self.title)),
                    in_reply_to=str(reply) if reply else "")

    # -- filing what players dropped ---------------------------------------------------
    def _file_dropped(self) -> None:
        number = 0
        for channel in ("thread", PRIVATE):
            folder = self._folder(channel)
            dropped = [f for f in folder.iterdir() if f.is_file() and f.suffix == ".md"
                       and not f.name.startswith(".") and not FILED.match(f.name)]
            for file in sorted(dropped, key=lambda f: (f.stat().st_mtime_ns, f.name)):
                number = (number or self._next_id() - 1) + 1
                self._file(file, channel, number)

    def _file(self, file: Path, channel: str, number: int) -> None:
        header, body = split_header(file.read_text(encoding="utf-8", errors="replace"))
        header = {"id": number, "author": str(header.get("author", "")), "created": _created(header, file),
                  "in_reply_to": int(header.get("in_reply_to", 0) or 0)}
        target = self._folder(channel) / f"{number:06d}-{_slug(header['author'])}.md"
        os.replace(file, target)
        write_atomic(target, join_header(header, body))

    def _next_id(self) -> int:
        return max((n for c in ("thread", PRIVATE) for n, _ in self._filed(c)), default=0) + 1

    # -- writing ---------------------------------------------------------------------
    def publish(self, key: str, title: str, markdown: str, since: int = 0) -> Post:
        return self._post("thread", key, markdown, {"title": title}, since)

    def reply(self, to: Post, key: str, markdown: str) -> Post:
        return self._post(to.channel, key, markdown, {"in_reply_to": int(to.id), "to": to.author}, int(to.id))

    def _post(self, channel: str, key: str, markdown: str, extra: dict[str, Any], since: int) -> Post:
        found = self._find(channel, key, since)
        if found:
            return found
        self._file_dropped()   # a dropped file keeps the id order it was dropped in
        number = self._next_id()
        header = {"id": number, "author": self.bot, "created": datetime.now(UTC).replace(microsecond=0),
                  "in_reply_to": 0} | extra | {"key": key}
        target = self._folder(channel) / f"{number:06d}-{_slug(self.bot)}.md"
        try:
            write_atomic(target, join_header(header, markdown))
        except OSError as exc:
            raise ForumError(f"cannot write {target}: {exc}") from exc
        return self._read(target, channel, number)

    def _find(self, channel: str, key: str, since: int) -> Post | None:
        """The bot's post with this key after `since`, newest first (a retry looks for what it just wrote)."""
        mine = f"-{_slug(self.bot)}.md"
        for number, file in sorted(self._filed(channel), reverse=True):
            if number > since and file.name.endswith(mine):
                header, _ = split_header(file.read_text(encoding="utf-8", errors="replace"))
                if header.get("key") == key:
                    return self._read(file, channel, number)
        return None

    def _folder(self, channel: str) -> Path:
        return self.path if channel == "thread" else self.path / PRIVATE


def split_header(text: str) -> tuple[dict[str, Any], str]:
    """(header, body) of a post file; a file without a readable header is all body."""
    lines = text.replace("\r\n", "\n").split("\n")
    if not lines or lines[0].strip() != "+++":
        return {}, text
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == "+++"), 0)
    if not end:
        return {}, text
    try:
        header = tomllib.loads("\n".join(lines[1:end]))
    except tomllib.TOMLDecodeError:
        return {}, text
    return header, "\n".join(lines[end + 1:]).lstrip("\n")


def join_header(header: Mapping[str, Any], body: str) -> str:
    return f"+++\n{tomli_w.dumps(dict(header))}+++\n\n{body.rstrip()}\n"


def _created(header: Mapping[str, Any], file: Path) -> datetime:
    value = header.get("created")
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    return datetime.fromtimestamp(file.stat().st_mtime, UTC).replace(microsecond=0)


def _slug(author: str) -> str:
    return re.sub(r"[^a-z0-9_-]+", "-", author.lower()).strip("-")[:32] or "anonymous"
