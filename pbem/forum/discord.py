"""Public reports posted to a Discord channel, or a thread of one, through a webhook.

Discord carries the campaign's public reports (text and map picture); orders still come by mail,
since a webhook cannot read a channel. Whoever knows the webhook's address can post with it, so
it is a secret: read from PBEM_DISCORD_WEBHOOK, else from the TOML file named by `credentials` in
`[transport.forum]` (`webhook = "https://discord.com/api/webhooks/<id>/<token>"`), never from
campaign.toml. `topic` in `[transport.forum]`, when set, is the id of the thread to post in (a
thread of a text channel, or a post of a forum channel); `bot` is the name the messages show.

Each report is posted once, even when the tick stops half-way. A webhook cannot look a message
up by its text, so pbem first posts a one-line placeholder and records the id Discord gives it
in `posts/discord.toml`, then edits that message into the report (with its picture) and records
it as done. A retry edits the recorded message again instead of posting a second report; a stop
between the placeholder and its record leaves at most that one line behind.

Discord's limits: a message holds 2,000 characters (the queue cuts longer reports at section
boundaries, pbem/forum/queue.py), Markdown tables are not drawn (they go as aligned code
blocks), and a 429 answer says how many seconds to wait (`retry_after`): waits up to MAX_WAIT are
waited out, a longer one leaves the report queued for the next tick. No mention in a report pings
anyone (`allowed_mentions`).
"""

from __future__ import annotations

import json
import os
import re
import time
import urllib.parse
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.forum.base import ForumError, Post
from pbem.forum.web import exchange, form_data
from pbem.kit.texts import aligned_columns
from pbem.state.store import StoreError, read_toml, write_toml

if TYPE_CHECKING:
    from pbem.state.campaign import Settings
    from pbem.state.forumconfig import ForumSettings

ENV_WEBHOOK = "PBEM_DISCORD_WEBHOOK"
MAX_CHARS = 2000
MAX_WAIT = 30.0
"""Seconds of a rate limit waited out within a tick; a longer wait is left to the next tick."""
TRIES = 4
RECORD = Path("posts") / "discord.toml"
NO_PINGS: dict[str, list[str]] = {"parse": []}


class DiscordForum:
    kind = "discord"
    max_chars = MAX_CHARS
    """What publish_pending cuts a report to (pbem/forum/queue.py)."""

    def __init__(self, webhook: str, folder: Path, bot: str = "pbem", thread: int = 0, timeout: float = 30.0,
                 now: datetime | None = None, sleep: Callable[[float], None] = time.sleep) -> None:
        site = urllib.parse.urlsplit(webhook)
        if site.scheme not in ("https", "http") or not site.hostname or "/webhooks/" not in site.path:
            raise ForumError("Discord webhook: expected https://discord.com/api/webhooks/<id>/<token>")
        self._site, self._record = site, folder / RECORD
        self.bot, self.thread, self.timeout, self.now, self.sleep = bot, thread, timeout, now, sleep
        self._picture: tuple[str, bytes] | None = None

    def fetch(self, cursor: Mapping[str, int]) -> list[Post]:
        return []                    # a webhook cannot read the channel: orders come by mail

    def reply(self, to: Post, key: str, markdown: str) -> Post:
        raise ForumError("Discord carries public reports only; answers go by mail")

    def picture(self, name: str, data: bytes, alt: str) -> str:
        """Attach the picture to the next message published (the report's first part)."""
        self._picture = (name, data)
        return ""

    def publish(self, key: str, title: str, markdown: str, since: int = 0) -> Post:
        records = self._records()
        entry = records.get(key) or {}
        content = discord_markdown(markdown)
        if not entry.get("done"):
            ident = str(entry.get("id") or self._placeholder(title))
            records[key] = {"id": ident, "done": False}
            self._save(records)
            self._edit(ident, content)
            records[key] = {"id": ident, "done": True}
            self._save(records)
        return Post(str(records[key]["id"]), self.bot, self.now or datetime.now(UTC), content)

    # -- the webhook ---------------------------------------------------------------------
    def _placeholder(self, title: str) -> str:
        body = {"content": f"*{title}: posting…*", "username": self.bot, "allowed_mentions": NO_PINGS}
        answer = self._json("POST", "?wait=true", json.dumps(body).encode(), "application/json")
        ident = answer.get("id")
        if not isinstance(ident, str) or not ident.isdigit():
            raise ForumError(f"Discord POST webhook: the answer names no message id ({str(answer)[:60]})")
        return ident

    def _edit(self, ident: str, content: str) -> None:
        payload: dict[str, Any] = {"content": content, "allowed_mentions": NO_PINGS, "attachments": []}
        files: dict[str, tuple[str, bytes]] = {}
        if self._picture is not None:
            name, data = self._picture
            payload["attachments"] = [{"id": 0, "filename": name}]
            files["files[0]"] = (name, data)
            self._picture = None
        boundary = "pbem-discord-" + ident
        body = form_data(boundary, {"payload_json": ("application/json", json.dumps(payload))}, files)
        self._json("PATCH", f"/messages/{ident}", body, f"multipart/form-data; boundary={boundary}")

    def _json(self, method: str, path: str, data: bytes, kind: str) -> dict[str, Any]:
        where = f"Discord {method} webhook{path.split('?')[0]}"
        query = f"thread_id={self.thread}" if self.thread else ""
        full = path if not query else f"{path}{'&' if '?' in path else '?'}{query}"
        for _ in range(TRIES):
            status, reason, headers, raw = exchange(self._site, method, full, {"Content-Type": kind,
                                                    "Accept": "application/json"}, data, self.timeout, where)
            if status != 429:
                return _answer(status, reason, raw, where)
            self._wait(raw, headers, where)
        raise ForumError(f"{where}: still rate limited after {TRIES} tries; kept for the next tick")

    def _wait(self, raw: bytes, headers: Mapping[str, str], where: str) -> None:
        """Wait out a 429's `retry_after` (the body's, else the Retry-After header's)."""
        try:
            seconds = float(json.loads(raw.decode("utf-8")).get("retry_after"))
        except (ValueError, TypeError, AttributeError, UnicodeDecodeError):
            seconds = float(next((v for k, v in headers.items() if k.lower() == "retry-after"), MAX_WAIT + 1))
        if seconds > MAX_WAIT:
            raise ForumError(f"{where}: rate limited for {seconds:g} s; kept for the next tick")
        self.sleep(max(seconds, 0.0))

    # -- the record ----------------------------------------------------------------------
    def _records(self) -> dict[str, dict[str, Any]]:
        try:
            data = read_toml(self._record) if self._record.exists() else {}
        except StoreError as exc:
            raise ForumError(f"Discord record: {exc}") from exc
        return {str(k): dict(v) for k, v in data.get("messages", {}).items() if isinstance(v, dict)}

    def _save(self, records: Mapping[str, Mapping[str, Any]]) -> None:
        write_toml(self._record, {"messages": dict(records)},
                   header="# Written by pbem: the Discord message of each public report (edited, never posted twice).")


def _answer(status: int, reason: str, raw: bytes, where: str) -> dict[str, Any]:
    if status >= 300:
        try:
            message = str(json.loads(raw.decode("utf-8")).get("message", reason))
        except (ValueError, AttributeError, UnicodeDecodeError):
            message = reason
        hint = " (the webhook was deleted or its address is wrong: check credentials)" if status in (401, 404) else ""
        raise ForumError(f"{where}: HTTP {status}: {message}{hint}")
    try:
        answer = json.loads(raw.decode("utf-8")) if raw.strip() else {}
    except (ValueError, UnicodeDecodeError):
        raise ForumError(f"{where}: the answer is not JSON") from None
    if not isinstance(answer, dict):
        raise ForumError(f"{where}: the answer is not a JSON object")
    return answer


_TABLE = re.compile(r"(?:^\|.*\|[ \t]*\n?)+", re.MULTILINE)


def discord_markdown(markdown: str) -> str:
    """The report as Discord draws it: tables as aligned code blocks, no leading blank lines."""
    return _TABLE.sub(lambda found: _aligned(found.group()), markdown).strip("\n")


def _aligned(table: str) -> str:
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in table.strip("\n").splitlines()]
    rows = [row for row in rows if not set("".join(row)) <= set("-: ")]
    return "```\n" + "\n".join(aligned_columns(rows)) + "\n```\n"


def load_webhook(path: str, base: Path) -> str:
    """The webhook's address: the environment first, then the secrets file (relative to the campaign)."""
    if os.environ.get(ENV_WEBHOOK):
        return os.environ[ENV_WEBHOOK]
    try:
        data = read_toml((base / Path(path).expanduser()).resolve()) if path else {}
    except StoreError as exc:
        raise ForumError(f"Discord credentials: {exc}") from exc
    if not data.get("webhook"):
        raise ForumError(f"Discord credentials: set {ENV_WEBHOOK}, or webhook = \"https://discord.com/api/webhooks/"
                         "...\" in the file named by [transport.forum] credentials")
    return str(data["webhook"])


class DiscordKind:
    """The `discord` entry point of `pbem.forums`: a channel's webhook that public reports go to."""

    def problems(self, raw: Mapping[str, object], where: str) -> list[str]:
        problems = []
        if not raw.get("credentials") and not os.environ.get(ENV_WEBHOOK):
            problems.append(f"{where}.credentials: the TOML file holding the webhook's address "
                            f"(webhook = \"https://discord.com/api/webhooks/...\"), or set {ENV_WEBHOOK}")
        topic = raw.get("topic", 0)
        if isinstance(topic, bool) or not isinstance(topic, int) or topic < 0:
            problems.append(f"{where}.topic: the id of the thread to post in (leave it out for the channel itself)")
        return problems

    def place(self, forum: ForumSettings, folder: Path) -> str:
        return f"discord:{(folder / forum.credentials).resolve()}"

    def open(self, forum: ForumSettings, settings: Settings, folder: Path,
             now: datetime | None = None) -> DiscordForum:
        return DiscordForum(load_webhook(forum.credentials, folder), folder, bot=forum.bot, thread=forum.topic,
                            timeout=forum.timeout, now=now)


KIND = DiscordKind()
