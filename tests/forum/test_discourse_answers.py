"""Discourse answers are checked before use, every request has one deadline, and a report held
for moderation is recorded once (a real loopback server that misbehaves on demand)."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

import pytest

from pbem.forum.base import ForumError
from pbem.forum.discourse import Credentials, DiscourseForum
from pbem.forum.queue import enqueue_post, publish_pending
from pbem.state.campaign import Campaign
from pbem.state.forumconfig import forum_problems, forum_settings
from pbem.state.store import read_toml
from pbem.tick.engine import tick
from tests.forum.conftest import API_KEY, BOT
from tests.forum.discourse_server import MALFORMED, DiscourseServer
from tests.forum.test_forum_discourse_engine import on_discourse  # noqa: F401  (fixture)
from tests.support.engine_helpers import T0


def make(server: DiscourseServer, timeout: float = 30) -> DiscourseForum:
    topic = server.state.new_topic("Rift campaign")
    server.state.add_post(topic, "alice", "STATUS")
    return DiscourseForum(server.url, topic.id, Credentials(API_KEY, BOT), timeout=timeout)


@pytest.mark.parametrize("kind", [*MALFORMED, "bad-status"])
def test_a_malformed_answer_is_one_clear_forum_error(discourse: DiscourseServer, kind: str) -> None:
    forum = make(discourse)
    discourse.state.malformed = kind
    with pytest.raises(ForumError, match=r"^Discourse") as caught:
        forum.fetch({})
    assert "Traceback" not in str(caught.value) and "\n" not in str(caught.value)


def test_a_malformed_private_message_list_is_a_forum_error(discourse: DiscourseServer) -> None:
    forum = make(discourse)
    discourse.state.private_message("alice", BOT, "[rift] x", "R-1 H")
    cursor = {"thread": 10**6}
    original = forum._get

    def listing_broken(path: str) -> dict:  # type: ignore[type-arg]
        answer = original(path)
        if path.startswith("/topics/private-messages/"):
            answer["topic_list"]["topics"][0]["id"] = "7"    # a string id where a number belongs
        return answer

    forum._get = listing_broken   # type: ignore[method-assign]
    with pytest.raises(ForumError, match="id should be a whole number"):
        forum.fetch(cursor)


def test_a_trickling_server_cannot_hold_a_request_past_its_deadline(discourse: DiscourseServer) -> None:
    forum = make(discourse, timeout=1.5)
    discourse.state.trickle = 0.3          # each byte well within any per-read timeout
    start = time.perf_counter()
    with pytest.raises(ForumError, match=r"no complete answer within 1.5 s \(the limit is timeout"):
        forum.fetch({})
    assert time.perf_counter() - start < 3.0


def test_the_timeout_is_set_in_transport_forum(tmp_path: Path) -> None:
    raw = {"kind": "discourse", "url": "https://f.example", "topic": 3, "bot": BOT, "timeout": 5}
    settings = forum_settings(raw)
    assert settings is not None and settings.timeout == 5
    assert not forum_problems(raw, [])
    for bad in ("soon", 0, -1, True, 10_000):
        [problem] = forum_problems(raw | {"timeout": bad}, [])
        assert problem.startswith("transport.forum.timeout:")


def test_a_report_held_for_moderation_is_recorded_and_never_posted_again(discourse: DiscourseServer,
                                                                          tmp_path: Path) -> None:
    forum = make(discourse)
    discourse.state.moderate = True
    enqueue_post(tmp_path, "turn-1/orders/turn", "[rift] Turn 1", "# Turn 1")
    result = publish_pending(tmp_path, forum, lambda key: None)
    assert result == (["turn-1/orders/turn"], [], ["turn-1/orders/turn"])
    [sent] = [p for p in (tmp_path / "posts" / "sent").glob("*.toml") if p.name != "last-post.toml"]
    assert read_toml(sent)["moderation"] == "pending"
    for _ in range(3):                     # later ticks: nothing queued, nothing posted
        assert publish_pending(tmp_path, forum, lambda key: None) == ([], [], [])
    discourse.state.approve()
    posts = [p for p in discourse.state.topics[forum.topic].posts if p["username"] == BOT]
    assert len(posts) == 1 and len(discourse.state.held) == 0
    assert sum(1 for r in discourse.state.requests if r == "POST /posts.json") == 1


@pytest.mark.parametrize("kind", ["null-stream", "string-ids", "truncated", "bad-status"])
def test_a_malformed_answer_never_stops_the_tick(on_discourse: Campaign,  # noqa: F811
                                                 discourse: DiscourseServer, kind: str) -> None:
    discourse.state.malformed = kind
    log = tick(on_discourse.folder.parent, T0 + timedelta(days=30))
    assert any("forum not read, retried next tick: Discourse" in line for line in log.lines)
    assert not any("NOT PROCESSED" in line for line in log.lines)
    assert Campaign(on_discourse.folder).state["stage"]["turn"] == 1     # nothing resolves unread
    discourse.state.malformed = ""
    log = tick(on_discourse.folder.parent, T0 + timedelta(days=30, hours=1))
    assert not any("forum not read" in line for line in log.lines)
