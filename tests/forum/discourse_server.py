"""A loopback HTTP server speaking the part of the Discourse REST API pbem uses.

The JSON follows Discourse's documented shapes (docs.discourse.org; TopicsController#show
and #posts, PostsController#create, ListController#private_messages):

    GET  /t/{id}.json[?username_filters=u]   topic view: post_stream.posts (first 20) and .stream (all ids)
    GET  /t/{id}/posts.json?post_ids[]=..&include_raw=true   {"post_stream": {"posts": [...]}, "id": ...}
    GET  /posts/{id}.json                     one post, with raw
    GET  /topics/private-messages/{u}.json?page=N   {"topic_list": {"per_page": 30, "topics": [...]}}
    POST /posts.json                          topic_id + raw [+ reply_to_post_number], or a new private
                                              message: title + raw + target_recipients + archetype
    Api-Key / Api-Username headers            403 {"errors": [...], "error_type": "invalid_access"}

Misbehaviour on demand, as real sites and proxies show it: `malformed` names a broken answer
every GET gets (see MALFORMED), `trickle` sends every answer one byte per that many seconds,
and `moderate` holds every new post for approval (`{"action": "enqueued"}`, no id) until
`approve()` publishes the held posts.

`raw` is only sent when asked for (include_raw), as Discourse does; cooked is the raw text
in a <p>, enough for a client that must not rely on it.
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import json
import threading
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CHUNK_SIZE = 20
PER_PAGE = 30
MALFORMED: dict[str, bytes] = {
    "null-stream": b'{"post_stream": null, "id": 1, "title": "t", "topic_list": null}',
    "string-ids": b'{"post_stream": {"stream": ["101", "102"], "posts": [{"id": "101", "post_number": "1"}]},'
                  b' "topic_list": {"topics": [{"id": "7", "highest_post_number": "x"}]}}',
    "missing-keys": b'{"title": "no stream here"}',
    "list": b'[1, 2, 3]',
    "truncated": b'{"post_stream": {"stream": [101, 10',
    "not-json": b'<html><body>502 Bad Gateway</body></html>',
    "bad-utf8": b'{"title": "\xff\xfe"}',
}
"""Answers a proxy, a half-upgraded site or a cut connection give instead of Discourse's JSON."""
BAD_STATUS = b"HTTP/1.1 twohundred OK\r\n\r\n{}"


@dataclass
class Topic:
    id: int
    title: str
    archetype: str = "regular"
    allowed: set[str] = field(default_factory=set)     # private message participants
    posts: list[dict[str, Any]] = field(default_factory=list)
    bumped: int = 0


class DiscourseState:
    def __init__(self, api_key: str, users: set[str]) -> None:
        self.api_key = api_key
        self.users = users
        self.topics: dict[int, Topic] = {}
        self.posts: dict[int, dict[str, Any]] = {}
        self.next_post = 100        # post ids are global across topics
        self.next_topic = 10
        self.clock = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
        self.requests: list[str] = []
        self.read_only = False      # True: every POST is refused, as on a site in read-only mode
        self.malformed = ""         # a key of MALFORMED, or "bad-status": every GET answers so
        self.trickle = 0.0          # seconds between the bytes of every answer
        self.moderate = False       # new posts wait for approve(), answered {"action": "enqueued"}
        self.held: list[tuple[Topic, str, str, int | None]] = []
        self.uploads: list[tuple[str, bytes]] = []     # (file name, content) of POST /uploads.json
        self.lock = threading.Lock()

    def new_topic(self, title: str, archetype: str = "regular", allowed: set[str] | None = None) -> Topic:
        self.next_topic += 1
        topic = Topic(self.next_topic, title, archetype, allowed or set())
        self.topics[topic.id] = topic
        return topic

    def add_post(self, topic: Topic, username: str, raw: str, reply_to: int | None = None) -> dict[str, Any]:
        self.next_post += 1
        self.clock += timedelta(minutes=1)
        number = len(topic.posts) + 1
        post = {"id": self.next_post, "name": username.title(), "username": username, "avatar_template": "",
                "created_at": self.clock.isoformat().replace("+00:00", "Z"), "cooked": f"<p>{raw}</p>",
                "raw": raw, "post_number": number, "post_type": 1, "updated_at": self.clock.isoformat(),
                "reply_count": 0, "reply_to_post_number": reply_to, "quote_count": 0, "reads": 0,
                "score": 0, "yours": False, "topic_id": topic.id, "topic_slug": f"topic-{topic.id}",
                "display_username": username.title(), "version": 1, "can_edit": False, "user_id": 1,
                "hidden": False, "deleted_at": None, "user_deleted": False, "wiki": False}
        topic.posts.append(post)
        topic.bumped = self.next_post
        self.posts[post["id"]] = post
        return post

    def approve(self) -> None:
        """The moderators approve every held post: it appears in its topic."""
        for topic, user, raw, reply_to in self.held:
            self.add_post(topic, user, raw, reply_to)
        self.held.clear()

    def private_message(self, sender: str, recipient: str, title: str, raw: str) -> Topic:
        topic = self.new_topic(title, "private_message", {sender, recipient})
        self.add_post(topic, sender, raw)
        return topic


class DiscourseHandler(BaseHTTPRequestHandler):
    server: DiscourseServer

    def log_message(self, format: str, *args: Any) -> None:   # keep test output quiet
        pass

    # -- plumbing ---------------------------------------------------------------------
    def _send(self, status: int, payload: Any, data: bytes | None = None) -> None:
        data = json.dumps(payload).encode() if data is None else data
        head = (f"HTTP/1.1 {status} OK\r\nContent-Type: application/json; charset=utf-8\r\n"
                f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n").encode()
        self._write(head + data)

    def _write(self, answer: bytes) -> None:
        delay = self.server.state.trickle
        if not delay:
            self.wfile.write(answer)
            return
        for i in range(len(answer)):      # one byte at a time, each read well within a socket timeout
            try:
                self.wfile.write(answer[i:i + 1])
                self.wfile.flush()
            except OSError:
                return
            time.sleep(delay)

    def _misbehave(self) -> bool:
        kind = self.server.state.malformed
        if kind == "bad-status":
            self._write(BAD_STATUS)
        elif kind:
            self._send(200, None, MALFORMED[kind])
        return bool(kind)

    def _error(self, status: int, message: str, kind: str) -> None:
        self._send(status, {"errors": [message], "error_type": kind})

    def _user(self) -> str | None:
        state = self.server.state
        user = self.headers.get("Api-Username", "")
        if self.headers.get("Api-Key") != state.api_key or user not in state.users:
            self._error(403, "You are not permitted to view the requested resource. "
                             "The API username or key is invalid.", "invalid_access")
            return None
        return user

    def _visible(self, topic: Topic | None, user: str) -> bool:
        if topic is None or (topic.archetype == "private_message" and user not in topic.allowed):
            self._error(404, "The requested URL or resource could not be found.", "not_found")
            return False
        return True

    @staticmethod
    def _shown(post: dict[str, Any], include_raw: bool) -> dict[str, Any]:
        return post if include_raw else {k: v for k, v in post.items() if k != "raw"}

    # -- GET --------------------------------------------------------------------------
    def do_GET(self) -> None:
        state = self.server.state
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        parts = url.path.strip("/").split("/")
        with state.lock:
            state.requests.append(f"GET {url.path}")
            user = self._user()
            if user is None or self._misbehave():
                return
            include_raw = query.get("include_raw", [""])[0] in ("true", "1")
            if len(parts) == 2 and parts[0] == "t" and parts[1].endswith(".json"):
                self._topic(state.topics.get(_int(parts[1][:-5])), user, query, include_raw)
            elif len(parts) == 3 and parts[0] == "t" and parts[2] == "posts.json":
                self._topic_posts(state.topics.get(_int(parts[1])), user, query, include_raw)
            elif len(parts) == 2 and parts[0] == "posts" and parts[1].endswith(".json"):
                post = state.posts.get(_int(parts[1][:-5]))
                if post is not None and self._visible(state.topics[post["topic_id"]], user):
                    self._send(200, post)
                elif post is None:
                    self._error(404, "The requested URL or resource could not be found.", "not_found")
            elif len(parts) == 3 and parts[:2] == ["topics", "private-messages"]:
                self._private_messages(parts[2].removesuffix(".json"), user, int(query.get("page", ["0"])[0]))
            else:
                self._error(404, "The requested URL or resource could not be found.", "not_found")

    def _topic(self, topic: Topic | None, user: str, query: dict[str, list[str]], include_raw: bool) -> None:
        if not self._visible(topic, user):
            return
        assert topic is not None
        posts = topic.posts
        if "username_filters" in query:
            names = {n.casefold() for n in query["username_filters"][0].split(",")}
            posts = [p for p in posts if p["username"].casefold() in names]
        self._send(200, {
            "post_stream": {"posts": [self._shown(p, include_raw) for p in posts[:CHUNK_SIZE]],
                            "stream": [p["id"] for p in posts]},
            "id": topic.id, "title": topic.title, "fancy_title": topic.title, "posts_count": len(topic.posts),
            "highest_post_number": len(topic.posts), "archetype": topic.archetype, "slug": f"topic-{topic.id}",
            "chunk_size": CHUNK_SIZE, "closed": False, "archived": False, "visible": True,
        })

    def _topic_posts(self, topic: Topic | None, user: str, query: dict[str, list[str]], include_raw: bool) -> None:
        if not self._visible(topic, user):
            return
        assert topic is not None
        wanted = {_int(i) for i in query.get("post_ids[]", [])}
        if not wanted:
            self._error(400, "param is missing or the value is empty: post_ids", "invalid_parameters")
            return
        posts = [self._shown(p, include_raw) for p in topic.posts if p["id"] in wanted]
        self._send(200, {"post_stream": {"posts": posts}, "id": topic.id})

    def _private_messages(self, username: str, user: str, page: int) -> None:
        if username.casefold() != user.casefold():
            self._error(403, "You are not permitted to view the requested resource.", "invalid_access")
            return
        state = self.server.state
        mine = sorted((t for t in state.topics.values() if t.archetype == "private_message" and user in t.allowed),
                      key=lambda t: t.bumped, reverse=True)
        rows = [{"id": t.id, "title": t.title, "fancy_title": t.title, "slug": f"topic-{t.id}",
                 "posts_count": len(t.posts), "highest_post_number": len(t.posts), "archetype": t.archetype,
                 "last_posted_at": t.posts[-1]["created_at"], "bumped_at": t.posts[-1]["created_at"],
                 "last_poster_username": t.posts[-1]["username"]} for t in mine[page * PER_PAGE:(page + 1) * PER_PAGE]]
        self._send(200, {"topic_list": {"can_create_topic": True, "per_page": PER_PAGE, "topics": rows}})

    # -- POST -------------------------------------------------------------------------
    def do_POST(self) -> None:
        state = self.server.state
        length = int(self.headers.get("Content-Length", 0))
        with state.lock:
            state.requests.append(f"POST {self.path}")
            user = self._user()
            if user is None:
                return
            if state.read_only:
                self._error(503, "The site is in read only mode. Interactions are disabled.", "read_only")
                return
            if self.path == "/uploads.json":
                self._upload(self.rfile.read(length))
                return
            if self.path != "/posts.json":
                self._error(404, "The requested URL or resource could not be found.", "not_found")
                return
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self._error(400, "invalid JSON", "invalid_parameters")
                return
            raw = str(body.get("raw", ""))
            if not raw.strip():
                self._error(400, "param is missing or the value is empty: raw", "invalid_parameters")
                return
            if body.get("archetype") == "private_message":
                recipients = set(str(body.get("target_recipients", "")).split(",")) - {""}
                topic = state.new_topic(str(body.get("title", "")), "private_message", recipients | {user})
                self._send(200, state.add_post(topic, user, raw))
                return
            topic = state.topics.get(_int(body.get("topic_id", 0)))
            if not self._visible(topic, user):
                return
            assert topic is not None
            if state.moderate:
                state.held.append((topic, user, raw, body.get("reply_to_post_number")))
                self._send(200, {"success": True, "action": "enqueued", "pending_count": len(state.held),
                                 "pending_post": {"id": len(state.held), "raw": raw}})
                return
            self._send(200, state.add_post(topic, user, raw, body.get("reply_to_post_number")))


    def _upload(self, body: bytes) -> None:
        """POST /uploads.json (multipart/form-data with type, synchronous and file), answered as
        Discourse does, with the upload's url and its short_url for Markdown."""
        form = email.message_from_bytes(b"Content-Type: " + self.headers.get("Content-Type", "").encode()
                                        + b"\r\n\r\n" + body, policy=email.policy.default)
        files = [p for p in form.iter_parts() if p.get_param("name", header="content-disposition") == "file"]
        if not form.is_multipart() or not files:
            self._error(422, "You supplied invalid parameters to the request: file", "invalid_parameters")
            return
        state = self.server.state
        data, name = files[0].get_content(), str(files[0].get_filename() or "upload")
        state.uploads.append((name, data))
        key = f"u{len(state.uploads)}{name[name.rfind('.'):] if '.' in name else ''}"
        self._send(200, {"id": len(state.uploads), "url": f"/uploads/default/original/1X/{key}",
                         "original_filename": name, "filesize": len(data), "extension": name.rsplit(".", 1)[-1],
                         "short_url": f"upload://{key}", "short_path": f"/uploads/short-url/{key}"})


class DiscourseServer(ThreadingHTTPServer):
    def __init__(self, state: DiscourseState) -> None:
        super().__init__(("127.0.0.1", 0), DiscourseHandler)
        self.state = state

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


def _int(text: Any) -> int:
    try:
        return int(text)
    except (TypeError, ValueError):
        return 0


@contextlib.contextmanager
def serving(server: DiscourseServer) -> Iterator[DiscourseServer]:
    """Run `server` on a thread for the duration of the block, then shut it down."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
