"""What every forum backend offers pbem: a campaign's thread and the bot's private messages.

A backend reads the posts written since a cursor, publishes a post under a key
(at most once, however often it is asked), and replies to a post. Publishing is
idempotent through a hidden marker, `<!-- pbem:key ... -->`, that the backend
writes into the post and looks for before posting again; so a post published
just before a crash, but not yet recorded, is found instead of duplicated.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from pbem.state.campaign import Settings
    from pbem.state.forumconfig import ForumSettings

Cursor = dict[str, int]
"""Per channel ("thread", or a private conversation) the last position read."""


class ForumError(RuntimeError):
    """The forum could not be read or written; the tick goes on and retries next time."""


@dataclass(frozen=True)
class Post:
    """One post as pbem sees it, whatever the backend."""

    id: str
    """Unique within the forum and never reused: it names the post in the message journal."""
    author: str
    """The forum account that wrote it; the forum authenticated it."""
    created: datetime
    text: str
    """The raw Markdown the author wrote."""
    channel: str = "thread"
    """"thread" for the campaign's public thread, else a private conversation with the bot."""
    number: int = 0
    """Position in its channel for the cursor: later posts have larger numbers."""
    title: str = ""
    """The thread's or conversation's title (a private message carries the campaign tag there)."""
    in_reply_to: str = ""
    problem: str = ""
    """Why the post cannot be read (e.g. a broken header); such a post is skipped with a log line."""
    pending: bool = False
    """A post pbem wrote that the forum holds for moderation: recorded as posted, never sent again."""

    @property
    def private(self) -> bool:
        return self.channel != "thread"


class Forum(Protocol):
    bot: str
    """The account pbem posts as; its own posts are never read as submissions."""
    kind: str

    def fetch(self, cursor: Mapping[str, int]) -> list[Post]:
        """Posts after the cursor, public thread and private messages to the bot, oldest first."""
        ...

    def publish(self, key: str, title: str, markdown: str, since: int = 0) -> Post:
        """Post to the public thread unless a post with this key is there already; either way
        return the post carrying the key. Only posts numbered after `since` (the caller's last
        recorded publication) can hold it: the search stays short however long the thread."""
        ...

    def reply(self, to: Post, key: str, markdown: str) -> Post:
        """Answer a post in its own channel (privately for a private message), at most once per key."""
        ...


class ForumKind(Protocol):
    """What a `pbem.forums` entry point names (pbem/plugins.py): one kind of forum, the
    `kind` of `[transport.forum]`."""

    def problems(self, raw: Mapping[str, object], where: str) -> list[str]:
        """What this kind needs of the `[transport.forum]` table beyond the common keys."""
        ...

    def place(self, forum: ForumSettings, folder: Path) -> str:
        """Where the bot's private messages live: campaigns with the same kind, place and bot
        share one inbox of private messages (pbem/forum/shared.py)."""
        ...

    def open(self, forum: ForumSettings, settings: Settings, folder: Path, now: datetime | None = None) -> Forum:
        """The forum, ready to read and post; relative paths start at the campaign folder."""
        ...


def advance(cursor: Mapping[str, int], post: Post) -> Cursor:
    """The cursor once `post` has been dealt with."""
    moved = dict(cursor)
    moved[post.channel] = max(moved.get(post.channel, 0), post.number)
    return moved


def is_new(cursor: Mapping[str, int], post: Post) -> bool:
    return post.number > cursor.get(post.channel, 0)


_MARKER = re.compile(r"<!-- pbem:key (\S+) -->")


def marker(key: str) -> str:
    """The hidden line that identifies a post pbem published (an HTML comment: invisible when rendered)."""
    if not key or any(c.isspace() for c in key) or "--" in key:
        raise ValueError(f"a post key must be one word without '--': {key!r}")
    return f"<!-- pbem:key {key} -->"


def with_marker(key: str, markdown: str) -> str:
    return f"{markdown.rstrip()}\n\n{marker(key)}\n"


def key_of(raw: str) -> str:
    """The key a post was published under, or ""."""
    found = _MARKER.search(raw)
    return found.group(1) if found else ""


_CODE = re.compile(r"(?<!\\)(`{3,})[\s\S]*?\1|(?<!\\)`[^`\n]+`")
_MENTION = re.compile(r"@(?=[\w.-])")


def inert(markdown: str) -> str:
    """An answer made safe to post: outside code spans, raw HTML is escaped and `@name` cannot
    mention anyone (a zero-width space follows the @), so text a player wrote and pbem quotes
    back renders as the words he typed. Code spans and fences already show text literally."""
    out, start = [], 0
    for code in _CODE.finditer(markdown):
        out += [_inert_text(markdown[start:code.start()]), code.group(0)]
        start = code.end()
    out.append(_inert_text(markdown[start:]))
    return "".join(out)


def _inert_text(text: str) -> str:
    return _MENTION.sub("@\u200b", text.replace("<", "&lt;"))
