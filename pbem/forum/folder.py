"""A forum thread kept as a local directory: the embedded default, used by the demo.

    <path>/000001-pbem.md        the public thread, one Markdown file per post
    <path>/000002-alice.md
    <path>/private/000003-alice.md   private messages to the bot, and its answers
    <path>/.pbem-ids.toml        the next free id and the names of the files pbem filed

Each file starts with a small TOML header between `+++` lines:

    +++
    id = 2
    author = "alice"
    created = 2026-11-24T18:00:00Z
    in_reply_to = 0
    title = "[rift] orders"          # optional; a private message may name its campaign here
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

Ids are never reused: `.pbem-ids.toml` keeps the next id, which only grows, so deleting the
newest post cannot hand its number to the next one. A file counts as filed only when its
name is in that list, not because its name looks numbered: a file dropped under a numbered
name (even one at or below what was read, or one sharing a number) is filed under a fresh
id like any other. Id and name are recorded before the rename, so a crash in between only
leaves an id unused. A post whose header cannot be read is filed all the same, with
`unreadable` saying why, and read as a Post whose `problem` says so; it never stops a tick.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomli_w

from pbem.forum.base import ForumError, Post, is_new
from pbem.state.store import write_atomic

if TYPE_CHECKING:
    from pbem.state.campaign import Settings
    from pbem.state.forumconfig import ForumSettings

FILED = re.compile(r"^(\d{6,})-[a-z0-9_-]*\.md$")
PRIVATE = "private"
IDS = ".pbem-ids.toml"


class FolderForum:
    kind = "folder"

    def __init__(self, path: Path, bot: str = "pbem", title: str = "", now: datetime | None = None) -> None:
        self.path = Path(path)
        self.bot = bot
        self.title = title
        self.now = now
        """The time the bot's posts carry: the tick's clock (`--now`), as in the mail it sends."""
        self.skipped: list[str] = []
        """Files this read could not file or read (each named with why); the others are read."""
        try:
            (self.path / PRIVATE).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ForumError(f"cannot create the forum folder {self.path}: {exc}") from exc
        self._ids()      # the id record starts when pbem first opens the folder

    # -- reading ----------------------------------------------------------------------
    def fetch(self, cursor: Mapping[str, int]) -> list[Post]:
        self._file_dropped()
        posts = []
        for channel in ("thread", PRIVATE):
            for number, file in self._filed(channel):
                if number > cursor.get(channel, 0):
                    posts += self._read_or_skip(file, channel, number)
        return sorted((p for p in posts if is_new(cursor, p)), key=lambda p: int(p.id))

    def _filed(self, channel: str) -> Iterator[tuple[int, Path]]:
        """The posts pbem filed in a channel: by the names it recorded, never by the look of a name."""
        names = set(self._ids()["filed"])
        folder = self._folder(channel)
        for file in folder.iterdir():
            match = FILED.match(file.name)
            if match and self._name(channel, file.name) in names and file.is_file():
                yield int(match.group(1)), file

    def _read(self, file: Path, channel: str, number: int) -> Post:
        header, body, problem = parse_post(_text(file))
        reply = header.get("in_reply_to", 0)
        problem = problem or str(header.get("unreadable", ""))
        return Post(id=str(number), author=str(header.get("author", "")), created=_created(header, file),
                    text=body, channel=channel, number=number, title=str(header.get("title", self.title)),
                    in_reply_to=str(reply) if reply else "", problem=problem)

    def _read_or_skip(self, file: Path, channel: str, number: int) -> list[Post]:
        try:
            return [self._read(file, channel, number)]
        except ForumError as exc:
            self.skipped.append(str(exc))
            return []

    # -- filing what players dropped ---------------------------------------------------
    def _file_dropped(self) -> None:
        for channel in ("thread", PRIVATE):
            filed = set(self._ids()["filed"])
            folder = self._folder(channel)
            dropped = [f for f in folder.iterdir() if f.suffix == ".md" and not f.name.startswith(".")
                       and self._name(channel, f.name) not in filed and f.is_file()]
            for file in sorted(dropped, key=_age):
                try:
                    self._file(file, channel)
                except ForumError as exc:    # e.g. unreadable: the other posts are filed all the same
                    self.skipped.append(str(exc))

    def _file(self, file: Path, channel: str) -> None:
        header, body, problem = parse_post(_text(file))
        author = header.get("author")
        if not problem and (not isinstance(author, str) or not author.strip()):
            problem = "no author in the header"
        number, target = self._reserve(channel, str(author) if not problem else "unreadable")
        filed: dict[str, Any] = {"id": number, "author": "" if problem else str(author),
                                 "created": _created(header, file), "in_reply_to": _int(header.get("in_reply_to"))}
        if isinstance(header.get("title"), str):
            filed["title"] = header["title"]     # a private message names its campaign there
        if problem:
            filed["unreadable"] = problem
        try:
            os.replace(file, target)
            write_atomic(target, join_header(filed, body))
        except OSError as exc:
            raise ForumError(f"cannot file {file}: {exc}") from exc

    # -- ids ------------------------------------------------------------------------
    def _ids(self) -> dict[str, Any]:
        """The id record; made from the numbered files on first use (threads from before it)."""
        path = self.path / IDS
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            if isinstance(data.get("next"), int) and isinstance(data.get("filed"), list):
                return data
        except FileNotFoundError:
            pass
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            pass   # rebuilt from the files below: every numbered file counts as filed
        names = [self._name(c, f.name) for c in ("thread", PRIVATE) for f in self._folder(c).iterdir()
                 if FILED.match(f.name)]
        numbers = [int(n.rpartition("/")[2].split("-")[0]) for n in names]
        data = {"next": max(numbers, default=0) + 1, "filed": sorted(names)}
        self._save_ids(data)
        return data

    def _reserve(self, channel: str, author: str) -> tuple[int, Path]:
        """The next id and the file it names, recorded before anything is written under it."""
        ids = self._ids()
        number = int(ids["next"])
        target = self._folder(channel) / f"{number:06d}-{_slug(author)}.md"
        self._save_ids({"next": number + 1, "filed": [*ids["filed"], self._name(channel, target.name)]})
        return number, target

    def _save_ids(self, data: Mapping[str, Any]) -> None:
        try:
            write_atomic(self.path / IDS, "# Written by pbem: the next post id (only grows) and the files filed.\n"
                         + tomli_w.dumps(dict(data)))
        except OSError as exc:
            raise ForumError(f"cannot write {self.path / IDS}: {exc}") from exc

    @staticmethod
    def _name(channel: str, name: str) -> str:
        return name if channel == "thread" else f"{PRIVATE}/{name}"

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
        number, target = self._reserve(channel, self.bot)
        header = {"id": number, "author": self.bot, "created": (self.now or datetime.now(UTC)).replace(microsecond=0),
                  "in_reply_to": 0} | extra | {"key": key}
        try:
            write_atomic(target, join_header(header, markdown))
        except OSError as exc:
            raise ForumError(f"cannot write {target}: {exc}") from exc
        return self._read(target, channel, number)

    def picture(self, name: str, data: bytes, alt: str) -> str:
        """Write a picture beside the thread's posts; the Markdown that shows it in a post."""
        safe = re.sub(r"[^A-Za-z0-9._-]", "-", name).lstrip(".") or "picture.png"
        try:
            write_atomic(self.path / safe, data)
        except OSError as exc:
            raise ForumError(f"cannot write {self.path / safe}: {exc}") from exc
        return f"![{alt}]({safe})"

    def _find(self, channel: str, key: str, since: int) -> Post | None:
        """The bot's post with this key after `since`, newest first (a retry looks for what it just wrote)."""
        mine = f"-{_slug(self.bot)}.md"
        for number, file in sorted(self._filed(channel), reverse=True):
            if number > since and file.name.endswith(mine):
                header, _, _ = parse_post(_text(file))
                if header.get("key") == key:
                    return self._read(file, channel, number)
        return None

    def _folder(self, channel: str) -> Path:
        return self.path if channel == "thread" else self.path / PRIVATE


class FolderKind:
    """The `folder` entry point of `pbem.forums`: a thread kept as files in a folder."""

    def problems(self, raw: Mapping[str, object], where: str) -> list[str]:
        return []       # the common keys (path, bot) are all it reads

    def place(self, forum: ForumSettings, folder: Path) -> str:
        return str((folder / forum.path).resolve())

    def open(self, forum: ForumSettings, settings: Settings, folder: Path,
             now: datetime | None = None) -> FolderForum:
        return FolderForum(folder / forum.path, bot=forum.bot, title=settings.title, now=now)


KIND = FolderKind()


def split_header(text: str) -> tuple[dict[str, Any], str]:
    """(header, body) of a post file; a file without a readable header is all body."""
    header, body, _ = parse_post(text)
    return header, body


def parse_post(text: str) -> tuple[dict[str, Any], str, str]:
    """(header, body, problem): problem says why a header that is there cannot be read."""
    lines = text.replace("\r\n", "\n").split("\n")
    if not lines or lines[0].strip() != "+++":
        return {}, text, "no +++ header"
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == "+++"), 0)
    if not end:
        return {}, text, "the +++ header is not closed"
    try:
        header = tomllib.loads("\n".join(lines[1:end]))
    except tomllib.TOMLDecodeError as exc:
        return {}, text, f"broken TOML in the header: {exc}"
    return header, "\n".join(lines[end + 1:]).lstrip("\n"), ""


def join_header(header: Mapping[str, Any], body: str) -> str:
    return f"+++\n{tomli_w.dumps(dict(header))}+++\n\n{body.rstrip()}\n"


def _text(file: Path) -> str:
    """A post's text; bytes that are not UTF-8 become U+FFFD rather than stop the read."""
    try:
        return file.read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        raise ForumError(f"cannot read {file}: {exc}") from exc


def _age(file: Path) -> tuple[int, str]:
    try:
        return file.stat().st_mtime_ns, file.name
    except OSError:
        return 0, file.name


def _int(value: Any) -> int:
    """A header number as written by a person: anything but a whole number counts as none."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _created(header: Mapping[str, Any], file: Path) -> datetime:
    value = header.get("created")
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    try:
        return datetime.fromtimestamp(file.stat().st_mtime, UTC).replace(microsecond=0)
    except OSError:
        return datetime.now(UTC).replace(microsecond=0)


def _slug(author: str) -> str:
    return re.sub(r"[^a-z0-9_-]+", "-", author.lower()).strip("-")[:32] or "anonymous"
