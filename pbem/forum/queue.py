"""Public reports wait in `<campaign>/posts/queue/` until they are posted to the forum.

Like the mail queue: a report is queued under its key when the stage resolves (queueing
the same key again keeps the file already there), and publishing hands each queued post to the
forum and then moves its file to `posts/sent/`, which is the journal. The forum finds a post
by its key before posting it again, so a crash between the two steps cannot post twice;
`posts/sent/last-post.toml` keeps the number of the last post recorded, and only later posts
are searched (a stale number only widens the search).

A post the forum holds for moderation has no number yet, and pbem's search cannot see it:
it is recorded in `posts/sent/` as sent with `moderation = "pending"` and never posted
again; the moderators' approval makes it appear.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from pbem.forum.base import Forum, ForumError
from pbem.state.store import read_toml, write_atomic, write_toml

LAST = "last-post.toml"
MAX_POST_CHARS = 30_000
PART_LINE = 30
"""Room for the `*(part i of n)*` line a part after the first starts with."""
"""Discourse refuses posts over its `max_post_length` (32,000 characters by default); a longer
report goes out in parts, each under its own key (`<key>/part-2-of-3`)."""


def _file_name(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:32] + ".toml"


def enqueue_post(folder: Path, key: str, title: str, markdown: str,
                 picture: tuple[str, bytes] | None = None) -> Path:
    """Queue a post; `picture` (file name, PNG) is kept beside it and shown at the top of the post."""
    target = folder / "posts" / "queue" / _file_name(key)
    if not target.exists() and not (folder / "posts" / "sent" / target.name).exists():
        item: dict[str, Any] = {"key": key, "title": title, "markdown": markdown, "queued": time.time_ns()}
        if picture is not None:
            write_atomic(target.with_suffix(".png"), picture[1])
            item["picture"] = picture[0]
        write_toml(target, item)
    return target


def pending_posts(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    """Queued posts in the order they were queued (a turn's reports in the order the rules give them)."""
    queue = folder / "posts" / "queue"
    items = [(path, read_toml(path)) for path in queue.glob("*.toml")] if queue.exists() else []
    return sorted(items, key=lambda item: (int(item[1].get("queued", 0)), item[0].name))


class Published(NamedTuple):
    done: list[str]
    """Keys posted (held ones included: they are sent, and wait for the moderators)."""
    problems: list[str]
    held: list[str]
    """Keys the forum holds for moderation."""


def publish_pending(folder: Path, forum: Forum, published: Callable[[str], None]) -> Published:
    """Post everything queued, oldest first. `published` is called between posting and
    journalling (a test seam for crashes). A failure stops the run, so the thread keeps the
    reports in order; what is left stays queued."""
    done: list[str] = []
    problems: list[str] = []
    held: list[str] = []
    sent = folder / "posts" / "sent"
    sent.mkdir(parents=True, exist_ok=True)
    record = sent / LAST
    last = int(read_toml(record).get("post", 0)) if record.exists() else 0
    for path, item in pending_posts(folder):
        try:
            parts = split_post(_with_picture(path, item, forum), getattr(forum, "max_chars", MAX_POST_CHARS))
            posts = [forum.publish(item["key"] if len(parts) == 1 else f"{item['key']}/part-{i}-of-{len(parts)}",
                                   item["title"], text, since=last)
                     for i, text in enumerate(parts, start=1)]
        except (ForumError, OSError) as exc:
            problems.append(f"{item['key']}: {exc}")
            break
        published(item["key"])
        if any(post.pending for post in posts):
            write_toml(path, item | {"moderation": "pending"})
            held.append(item["key"])
        os.replace(path, sent / path.name)
        if path.with_suffix(".png").exists():
            os.replace(path.with_suffix(".png"), sent / path.with_suffix(".png").name)
        last = max([last, *(post.number for post in posts if not post.pending)])
        write_toml(record, {"post": last},
                   header="# The thread's last post pbem published: later ones are searched for a key.")
        done.append(item["key"])
    return Published(done, problems, held)


def _with_picture(path: Path, item: Mapping[str, Any], forum: Forum) -> str:
    """The post's Markdown with its picture on top, where the forum can show pictures."""
    show = getattr(forum, "picture", None)
    stored = path.with_suffix(".png")
    if not item.get("picture") or show is None or not stored.exists():
        return str(item["markdown"])
    try:
        ref = show(str(item["picture"]), stored.read_bytes(), f"Map: {item['title']}")
    except ForumError:          # a picture never holds back a report: the post goes out without it
        return str(item["markdown"])
    return f"{ref}\n\n{item['markdown']}"


def split_post(markdown: str, limit: int = MAX_POST_CHARS) -> list[str]:
    """The report in parts of at most `limit` characters, cut between sections where it can (a
    part holds whole sections), else between paragraphs, lines, or anywhere; parts after the first
    say which part they are."""
    if len(markdown) <= limit:
        return [markdown]
    room = limit - PART_LINE          # each part after the first starts with "(part i of n)"
    pieces: list[str] = []
    for section in re.split(r"\n\n(?=#{1,6} )", markdown):       # whole sections where they fit
        blocks = [section] if len(section) <= room else section.split("\n\n")
        pieces += [piece for block in blocks for piece in ([block] if len(block) <= room else _cut(block, limit))]
    parts: list[str] = []
    for piece in pieces:
        if parts and len(parts[-1]) + 2 + len(piece) <= room:
            parts[-1] += "\n\n" + piece
        else:
            parts.append(piece)
    total = len(parts)
    return [text if i == 1 else f"*(part {i} of {total})*\n\n{text}" for i, text in enumerate(parts, start=1)]


def _cut(block: str, limit: int) -> list[str]:
    room = limit - 40          # the "(part i of n)" line added later
    lines: list[str] = []
    for line in block.split("\n"):
        lines += [line[i:i + room] for i in range(0, len(line), room)] or [""]
    out: list[str] = []
    for line in lines:
        if out and len(out[-1]) + 1 + len(line) <= room:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out
