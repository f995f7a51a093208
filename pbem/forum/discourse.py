"""The campaign thread on a Discourse forum, through its REST API (urllib, no extra package).

Reading: `GET /t/{topic}.json` lists every post id of the thread (`post_stream.stream`);
post ids only grow, so the cursor is the last id read, and the new posts' text comes from
`GET /t/{topic}/posts.json?post_ids[]=...&include_raw=true`. Private messages to the bot
are listed by `GET /topics/private-messages/{bot}.json` (most recently active first); a
conversation whose `highest_post_number` passed its cursor is read again the same way.

Writing: `POST /posts.json` with `topic_id` and `raw` Markdown (plus `reply_to_post_number`
for an answer). Every post pbem writes ends with the hidden marker of its key; before
writing, the bot's own posts in the topic (`username_filters`) are searched for that marker,
newest first, so a retry after a crash finds the post instead of writing it twice.

Credentials: `api_key` and `username` (the bot account) from the environment variables
PBEM_DISCOURSE_API_KEY and PBEM_DISCOURSE_USERNAME, else from the TOML file named by
`credentials` in `[transport.forum]`; never from campaign.toml. An API key scoped to the
bot user is enough (it must read the thread and the bot's private messages and post).

Every answer is checked before use: a body that is not complete JSON, a missing or null
table, an id that is not a number, a broken status line, all become one ForumError naming
the request, and the tick goes on. A request has one deadline for the whole exchange
(`timeout` seconds, default 30): a watchdog cuts the connection when it passes, so a server
that trickles its answer cannot hold the tick longer. A post the site holds for moderation
(`{"action": "enqueued"}`, no id) comes back as a Post with `pending` set.
"""

from __future__ import annotations

import hashlib
import json
import os
import urllib.parse
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pbem.forum.base import ForumError, Post, key_of, with_marker
from pbem.forum.web import exchange
from pbem.state.store import StoreError, read_toml

if TYPE_CHECKING:
    from pbem.state.campaign import Settings
    from pbem.state.forumconfig import ForumSettings

CHUNK = 20          # posts per posts.json request, as Discourse's own client asks for them
PM_PAGES = 10       # pages of the bot's message list read at most in one tick
TIMEOUT = 30.0
"""Seconds one whole request may take, connection to last byte ([transport.forum] timeout)."""
ENV_KEY, ENV_USER = "PBEM_DISCOURSE_API_KEY", "PBEM_DISCOURSE_USERNAME"


@dataclass(frozen=True)
class Credentials:
    api_key: str
    username: str


def load_credentials(path: str, base: Path) -> Credentials:
    """Environment first, then the secrets file (relative paths from the campaign folder)."""
    data: dict[str, Any] = {}
    if path:
        file = (base / Path(path).expanduser()).resolve()
        try:
            data = read_toml(file)
        except StoreError as exc:
            raise ForumError(f"Discourse credentials: {exc}") from exc
    key = os.environ.get(ENV_KEY) or str(data.get("api_key", ""))
    user = os.environ.get(ENV_USER) or str(data.get("username", ""))
    if not key or not user:
        raise ForumError(f"Discourse credentials: set {ENV_KEY} and {ENV_USER}, or api_key and username "
                         "in the file named by [transport.forum] credentials")
    return Credentials(key, user)


class DiscourseForum:
    kind = "discourse"

    def __init__(self, url: str, topic: int, credentials: Credentials, timeout: float = TIMEOUT,
                 now: datetime | None = None) -> None:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("https", "http") or not parts.hostname:
            raise ForumError(f"Discourse address {url!r}: expected https://...")
        self.url = url.rstrip("/")
        self._site = parts
        self.topic = topic
        self.bot = credentials.username
        self._creds = credentials
        self.timeout = timeout
        self.now = now
        """The time pbem gives a post of its own that Discourse has not dated (one held for
        moderation): the tick's clock (`--now`), as in the mail it sends."""

    # -- reading ----------------------------------------------------------------------
    def fetch(self, cursor: Mapping[str, int]) -> list[Post]:
        path = f"/t/{self.topic}.json"
        topic = self._get(path)
        title = str(topic.get("title", ""))
        new_ids = [i for i in _stream(topic, path) if i > cursor.get("thread", 0)]
        posts = [self._post(p, "thread", title, number=_number(p, "id", "posts.json"))
                 for p in self._posts(self.topic, new_ids)]
        for conversation in self._changed_conversations(cursor):
            posts += self._conversation(conversation, cursor)
        return sorted(posts, key=lambda p: int(p.id))

    def _conversation(self, conversation: Mapping[str, Any], cursor: Mapping[str, int]) -> list[Post]:
        topic = _number(conversation, "id", "the private message list")
        channel, path = f"pm-{topic}", f"/t/{topic}.json"
        raw = self._posts(topic, _stream(self._get(path), path))
        title = str(conversation.get("title", ""))
        numbered = [(p, _number(p, "post_number", "posts.json")) for p in raw]
        return [self._post(p, channel, title, number=n) for p, n in numbered if n > cursor.get(channel, 0)]

    def _changed_conversations(self, cursor: Mapping[str, int]) -> Iterator[Mapping[str, Any]]:
        """The bot's private conversations with posts past their cursor; the list comes most
        recently active first, so reading stops at the first page where nothing changed."""
        bot = urllib.parse.quote(self.bot)
        for page in range(PM_PAGES):
            where = f"/topics/private-messages/{bot}.json"
            listing = _table(self._get(f"{where}?page={page}").get("topic_list"), f"{where}: topic_list")
            topics = _rows(listing.get("topics", []), f"{where}: topic_list.topics")
            changed = [t for t in topics if _number(t, "highest_post_number", where)
                       > cursor.get(f"pm-{_number(t, 'id', where)}", 0)]
            yield from changed
            per_page = listing.get("per_page", 30)
            if not changed or len(topics) < (per_page if isinstance(per_page, int) else 30):
                return

    def _posts(self, topic: int, ids: list[int]) -> list[Mapping[str, Any]]:
        out: list[Mapping[str, Any]] = []
        for start in range(0, len(ids), CHUNK):
            query = urllib.parse.urlencode([("post_ids[]", i) for i in ids[start:start + CHUNK]]
                                           + [("include_raw", "true")])
            where = f"/t/{topic}/posts.json"
            stream = _table(self._get(f"{where}?{query}").get("post_stream"), f"{where}: post_stream")
            out += _rows(stream.get("posts"), f"{where}: post_stream.posts")
        return out

    def _post(self, data: Mapping[str, Any], channel: str, title: str, number: int) -> Post:
        reply = data.get("reply_to_post_number")
        return Post(id=str(_number(data, "id", "a post")), author=str(data.get("username") or ""),
                    created=_time(data.get("created_at")), text=str(data.get("raw") or ""), channel=channel,
                    number=number, title=title, in_reply_to=str(reply) if isinstance(reply, int) and reply else "")

    # -- writing ---------------------------------------------------------------------
    def publish(self, key: str, title: str, markdown: str, since: int = 0) -> Post:
        return self._write(self.topic, "thread", key, markdown, reply_to=0, since=since)

    def reply(self, to: Post, key: str, markdown: str) -> Post:
        topic = self.topic if to.channel == "thread" else int(to.channel.removeprefix("pm-"))
        number = to.number if to.channel != "thread" else 0
        if to.channel == "thread":   # the thread cursor counts post ids; Discourse wants the post number
            number = _number(self._get(f"/posts/{to.id}.json"), "post_number", f"/posts/{to.id}.json")
        return self._write(topic, to.channel, key, markdown, reply_to=number, since=int(to.id))

    def _write(self, topic: int, channel: str, key: str, markdown: str, reply_to: int, since: int) -> Post:
        found = self._find(topic, key, since)
        if found is None:
            body: dict[str, Any] = {"topic_id": topic, "raw": with_marker(key, markdown)}
            if reply_to:
                body["reply_to_post_number"] = reply_to
            found = self._request("POST", "/posts.json", body)
            if found.get("action") == "enqueued" and "id" not in found:
                return Post(id="", author=self.bot, created=self.now or datetime.now(UTC), text=markdown,
                            channel=channel, pending=True)
        number = _number(found, "id" if channel == "thread" else "post_number", "/posts.json")
        return self._post(found, channel, "", number=number)

    def _find(self, topic: int, key: str, since: int) -> Mapping[str, Any] | None:
        """The bot's post in the topic carrying this key, among those after post id `since`
        (post ids only grow), searched newest first."""
        bot = urllib.parse.quote(self.bot)
        mine = [i for i in _stream(self._get(f"/t/{topic}.json?username_filters={bot}"), f"/t/{topic}.json")
                if i > since]
        for end in range(len(mine), 0, -CHUNK):
            for post in reversed(self._posts(topic, mine[max(0, end - CHUNK):end])):
                author = post.get("username")
                if isinstance(author, str) and author.casefold() == self.bot.casefold() \
                        and key_of(str(post.get("raw", ""))) == key:
                    return cast("Mapping[str, Any]", post)
        return None

    def picture(self, name: str, data: bytes, alt: str) -> str:
        """Upload a picture through Discourse's uploads API; the Markdown that shows it in a post."""
        boundary = "pbem-" + hashlib.sha256(data).hexdigest()[:32]
        form = _form(boundary, {"type": "composer", "synchronous": "true"}, name, data)
        found = self._request("POST", "/uploads.json", form=(form, f"multipart/form-data; boundary={boundary}"))
        ref = found.get("short_url") or found.get("url")
        if not isinstance(ref, str) or not ref:
            raise ForumError("Discourse POST /uploads.json: the answer names no upload (short_url)")
        return f"![{alt}]({ref})"

    # -- HTTP ------------------------------------------------------------------------
    def _get(self, path: str) -> dict[str, Any]:
        return self._request("GET", path)

    def _request(self, method: str, path: str, body: Mapping[str, Any] | None = None,
                 form: tuple[bytes, str] | None = None) -> dict[str, Any]:
        where = f"Discourse {method} {path.split('?')[0]}"
        status, reason, headers, raw = self._exchange(method, path, body, where, form)
        if status >= 400:
            raise ForumError(f"{where}: {_explain(status, reason, headers, raw)}")
        if status >= 300:
            raise ForumError(f"{where}: HTTP {status} {reason} (a redirect: check url in [transport.forum])")
        try:
            payload = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise ForumError(f"{where}: the answer is not complete JSON ({len(raw)} bytes: "
                             f"{raw[:60].decode('utf-8', 'replace')!r})") from None
        return _table(payload, f"{where}: the answer")

    def _exchange(self, method: str, path: str, body: Mapping[str, Any] | None,
                  where: str, form: tuple[bytes, str] | None = None) -> tuple[int, str, Mapping[str, str], bytes]:
        """(status, reason, headers, body) of one request, all of it within the deadline; `form` is
        an already encoded body and its content type (an upload)."""
        headers = {"Api-Key": self._creds.api_key, "Api-Username": self._creds.username,
                   "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json; charset=utf-8"
        elif form is not None:
            data, headers["Content-Type"] = form
        return exchange(self._site, method, path, headers, data, self.timeout, where)


class DiscourseKind:
    """The `discourse` entry point of `pbem.forums`: a topic of a Discourse site, read and
    written through its API as the bot account."""

    def problems(self, raw: Mapping[str, object], where: str) -> list[str]:
        problems = []
        if not str(raw.get("url", "")).startswith(("https://", "http://")):
            problems.append(f"{where}.url: the Discourse site's address, https://...")
        topic = raw.get("topic", 0)
        if not isinstance(topic, int) or topic <= 0:
            problems.append(f"{where}.topic: the campaign thread's topic id (a positive number)")
        if not raw.get("bot"):
            problems.append(f"{where}.bot: the bot's forum account (the API username), named in help texts")
        return problems

    def place(self, forum: ForumSettings, folder: Path) -> str:
        return forum.url.casefold()

    def open(self, forum: ForumSettings, settings: Settings, folder: Path,
             now: datetime | None = None) -> DiscourseForum:
        credentials = load_credentials(forum.credentials, folder)
        if credentials.username.casefold() != forum.bot.casefold():
            raise ForumError(f"the Discourse API username {credentials.username!r} is not the bot account "
                             f"{forum.bot!r} of [transport.forum]")
        return DiscourseForum(forum.url, forum.topic, credentials, timeout=forum.timeout, now=now)


KIND = DiscourseKind()


def _form(boundary: str, fields: Mapping[str, str], filename: str, data: bytes) -> bytes:
    """A multipart/form-data body: the text fields, then the file."""
    out = b""
    for name, value in fields.items():
        out += (f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n').encode()
    kind = "image/svg+xml" if filename.endswith(".svg") else "image/png"
    out += (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
            f"Content-Type: {kind}\r\n\r\n").encode()
    return out + data + f"\r\n--{boundary}--\r\n".encode()


def _table(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ForumError(f"{what}: expected a JSON object, got {_brief(value)}")
    return value


def _rows(value: Any, what: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(row, dict) for row in value):
        raise ForumError(f"{what}: expected a list of objects, got {_brief(value)}")
    return value


def _number(data: Mapping[str, Any], key: str, what: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ForumError(f"Discourse answer ({what}): {key} should be a whole number, got {_brief(value)}")
    return value


def _stream(topic: Mapping[str, Any], where: str) -> list[int]:
    """The topic's post ids (post_stream.stream), checked to be numbers."""
    stream = _table(topic.get("post_stream"), f"Discourse {where}: post_stream").get("stream")
    if not isinstance(stream, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in stream):
        raise ForumError(f"Discourse {where}: post_stream.stream should list post ids, got {_brief(stream)}")
    return stream


def _brief(value: Any) -> str:
    text = json.dumps(value, default=str) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _explain(status: int, reason: str, headers: Mapping[str, str], raw: bytes) -> str:
    """The status and Discourse's own words (`{"errors": [...]}`); 429 says when to retry."""
    try:
        answer = json.loads(raw.decode("utf-8"))
        errors = answer.get("errors", []) if isinstance(answer, dict) else []
        errors = errors if isinstance(errors, list) else []
    except (ValueError, UnicodeDecodeError):
        errors = []
    text = f"HTTP {status}" + (f": {'; '.join(str(e) for e in errors)}" if errors else f" {reason}")
    if status == 429:
        retry = next((v for k, v in headers.items() if k.lower() == "retry-after"), "?")
        text += f" (rate limited; retry after {retry} s, next tick)"
    return text


def _time(value: Any) -> datetime:
    try:
        moment = datetime.fromisoformat(str(value))   # Python 3.11 reads the trailing "Z"
    except ValueError:
        return datetime.now(UTC)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
