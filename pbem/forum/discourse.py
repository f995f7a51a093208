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
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pbem.forum.base import ForumError, Post, key_of, with_marker
from pbem.store import StoreError, read_toml

CHUNK = 20          # posts per posts.json request, as Discourse's own client asks for them
PM_PAGES = 10       # pages of the bot's message list read at most in one tick
TIMEOUT = 30.0
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

    def __init__(self, url: str, topic: int, credentials: Credentials, timeout: float = TIMEOUT) -> None:
        if not url.startswith(("https://", "http://")):
            raise ForumError(f"Discourse address {url!r}: expected https://...")
        self.url = url.rstrip("/")
        self.topic = topic
        self.bot = credentials.username
        self._creds = credentials
        self.timeout = timeout

    # -- reading ----------------------------------------------------------------------
    def fetch(self, cursor: Mapping[str, int]) -> list[Post]:
        topic = self._get(f"/t/{self.topic}.json")
        title = str(topic.get("title", ""))
        new_ids = [i for i in topic["post_stream"]["stream"] if i > cursor.get("thread", 0)]
        posts = [self._post(p, "thread", title, number=int(p["id"])) for p in self._posts(self.topic, new_ids)]
        for conversation in self._changed_conversations(cursor):
            channel = f"pm-{conversation['id']}"
            seen = cursor.get(channel, 0)
            view = self._get(f"/t/{conversation['id']}.json")
            raw = self._posts(int(conversation["id"]), list(view["post_stream"]["stream"]))
            posts += [self._post(p, channel, str(conversation.get("title", "")), number=int(p["post_number"]))
                      for p in raw if int(p["post_number"]) > seen]
        return sorted(posts, key=lambda p: int(p.id))

    def _changed_conversations(self, cursor: Mapping[str, int]) -> Iterator[Mapping[str, Any]]:
        """The bot's private conversations with posts past their cursor; the list comes most
        recently active first, so reading stops at the first page where nothing changed."""
        bot = urllib.parse.quote(self.bot)
        for page in range(PM_PAGES):
            listing = self._get(f"/topics/private-messages/{bot}.json?page={page}")
            topics = listing.get("topic_list", {}).get("topics", [])
            changed = [t for t in topics if int(t.get("highest_post_number", 0)) > cursor.get(f"pm-{t['id']}", 0)]
            yield from changed
            if not changed or len(topics) < int(listing.get("topic_list", {}).get("per_page", 30)):
                return

    def _posts(self, topic: int, ids: list[int]) -> list[Mapping[str, Any]]:
        out: list[Mapping[str, Any]] = []
        for start in range(0, len(ids), CHUNK):
            query = urllib.parse.urlencode([("post_ids[]", i) for i in ids[start:start + CHUNK]]
                                           + [("include_raw", "true")])
            out += self._get(f"/t/{topic}/posts.json?{query}")["post_stream"]["posts"]
        return out

    def _post(self, data: Mapping[str, Any], channel: str, title: str, number: int) -> Post:
        reply = data.get("reply_to_post_number")
        return Post(id=str(data["id"]), author=str(data.get("username", "")), created=_time(data.get("created_at")),
                    text=str(data.get("raw", "")), channel=channel, number=number, title=title,
                    in_reply_to=str(reply) if reply else "")

    # -- writing ---------------------------------------------------------------------
    def publish(self, key: str, title: str, markdown: str, since: int = 0) -> Post:
        return self._write(self.topic, "thread", key, markdown, reply_to=0, since=since)

    def reply(self, to: Post, key: str, markdown: str) -> Post:
        topic = self.topic if to.channel == "thread" else int(to.channel.removeprefix("pm-"))
        number = to.number if to.channel != "thread" else 0
        if to.channel == "thread":   # the thread cursor counts post ids; Discourse wants the post number
            number = int(self._get(f"/posts/{to.id}.json").get("post_number", 0))
        return self._write(topic, to.channel, key, markdown, reply_to=number, since=int(to.id))

    def _write(self, topic: int, channel: str, key: str, markdown: str, reply_to: int, since: int) -> Post:
        found = self._find(topic, key, since)
        if found is None:
            body: dict[str, Any] = {"topic_id": topic, "raw": with_marker(key, markdown)}
            if reply_to:
                body["reply_to_post_number"] = reply_to
            found = self._request("POST", "/posts.json", body)
        number = int(found["id"]) if channel == "thread" else int(found.get("post_number", 0))
        return self._post(found, channel, "", number=number)

    def _find(self, topic: int, key: str, since: int) -> Mapping[str, Any] | None:
        """The bot's post in the topic carrying this key, among those after post id `since`
        (post ids only grow), searched newest first."""
        bot = urllib.parse.quote(self.bot)
        stream = self._get(f"/t/{topic}.json?username_filters={bot}")["post_stream"]["stream"]
        mine = [i for i in stream if i > since]
        for end in range(len(mine), 0, -CHUNK):
            for post in reversed(self._posts(topic, mine[max(0, end - CHUNK):end])):
                if post.get("username", "").casefold() == self.bot.casefold() and key_of(str(post.get("raw", ""))) == key:
                    return post
        return None

    # -- HTTP ------------------------------------------------------------------------
    def _get(self, path: str) -> dict[str, Any]:
        return self._request("GET", path)

    def _request(self, method: str, path: str, body: Mapping[str, Any] | None = None) -> dict[str, Any]:
        headers = {"Api-Key": self._creds.api_key, "Api-Username": self._creds.username,
                   "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json; charset=utf-8"
        request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                payload = json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            raise ForumError(f"Discourse {method} {path.split('?')[0]}: {_explain(exc)}") from exc
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise ForumError(f"Discourse {method} {path.split('?')[0]}: {exc}") from exc
        if not isinstance(payload, dict):
            raise ForumError(f"Discourse {method} {path.split('?')[0]}: unexpected answer {str(payload)[:80]!r}")
        return payload


def _explain(exc: urllib.error.HTTPError) -> str:
    """The status and Discourse's own words (`{"errors": [...]}`); 429 says when to retry."""
    try:
        errors = json.loads(exc.read().decode("utf-8")).get("errors", [])
    except (ValueError, AttributeError, OSError):
        errors = []
    text = f"HTTP {exc.code}" + (f": {'; '.join(str(e) for e in errors)}" if errors else f" {exc.reason}")
    if exc.code == 429:
        text += f" (rate limited; retry after {exc.headers.get('Retry-After', '?')} s, next tick)"
    return text


def _time(value: Any) -> datetime:
    try:
        return datetime.fromisoformat(str(value))   # Python 3.11 reads the trailing "Z"
    except ValueError:
        return datetime.now(UTC)
