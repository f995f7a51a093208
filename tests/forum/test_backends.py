"""Both forum backends behind one interface: read since a cursor, publish once per key, reply."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.forum.base import ForumError, advance, key_of, marker
from pbem.forum.discourse import (
    ENV_KEY,
    ENV_USER,
    Credentials,
    DiscourseForum,
    load_credentials,
)
from pbem.forum.folder import FolderForum, split_header
from pbem.forum.queue import enqueue_post, publish_pending, split_post
from tests.forum.conftest import API_KEY, BOT
from tests.forum.discourse_server import DiscourseServer


def drop(folder: Path, name: str, author: str, body: str) -> Path:
    path = folder / name
    path.write_text(f'+++\nauthor = "{author}"\n+++\n{body}\n')
    return path


# -- folder ---------------------------------------------------------------------------


def test_folder_files_dropped_posts_with_ids_and_reads_them_once(tmp_path: Path) -> None:
    forum = FolderForum(tmp_path / "thread", bot="pbem", title="Rift")
    drop(forum.path, "hello.md", "alice", "RESULT 1 Red")
    [post] = forum.fetch({})
    assert (post.id, post.author, post.text.strip(), post.channel, post.title) == ("1", "alice", "RESULT 1 Red",
                                                                                   "thread", "Rift")
    assert (forum.path / "000001-alice.md").exists() and not (forum.path / "hello.md").exists()
    header, _ = split_header((forum.path / "000001-alice.md").read_text())
    assert header["id"] == 1 and header["author"] == "alice" and "created" in header
    cursor = advance({}, post)
    assert forum.fetch(cursor) == []
    drop(forum.path, "again.md", "bob", "STATUS")
    assert [p.author for p in forum.fetch(cursor)] == ["bob"]


def test_folder_ignores_hidden_files_still_being_written(tmp_path: Path) -> None:
    forum = FolderForum(tmp_path / "thread")
    drop(forum.path, ".half-written.md", "alice", "RESULT 1")
    assert forum.fetch({}) == []


def test_folder_publish_is_idempotent_by_key(tmp_path: Path) -> None:
    forum = FolderForum(tmp_path / "thread", bot="pbem")
    first = forum.publish("turn-1/orders/turn", "[rift] Turn 1", "# Turn 1\n")
    again = forum.publish("turn-1/orders/turn", "[rift] Turn 1", "# Turn 1\n")
    assert first.id == again.id
    assert len(list(forum.path.glob("*.md"))) == 1
    header, body = split_header(next(forum.path.glob("*-pbem.md")).read_text())
    assert header["key"] == "turn-1/orders/turn" and header["title"] == "[rift] Turn 1" and body.startswith("# Turn 1")


def test_folder_private_messages_and_private_replies(tmp_path: Path) -> None:
    forum = FolderForum(tmp_path / "thread", bot="pbem")
    drop(forum.path / "private", "orders.md", "alice", "R-1 M T25")
    [post] = forum.fetch({})
    assert post.private and post.channel == "private"
    answer = forum.reply(post, "reply/x/ack", "Understood.")
    assert forum.reply(post, "reply/x/ack", "Understood.").id == answer.id
    header, _ = split_header(next((forum.path / "private").glob("*-pbem.md")).read_text())
    assert header["in_reply_to"] == int(post.id) and header["to"] == "alice"
    assert list(forum.path.glob("*.md")) == []     # nothing private reaches the public thread


# -- discourse ------------------------------------------------------------------------


def make(server: DiscourseServer) -> tuple[DiscourseForum, int]:
    topic = server.state.new_topic("Rift campaign")
    server.state.add_post(topic, "system", "Welcome to the campaign thread.")
    return DiscourseForum(server.url, topic.id, Credentials(API_KEY, BOT)), topic.id


def test_discourse_reads_new_posts_since_the_cursor(discourse: DiscourseServer) -> None:
    forum, topic_id = make(discourse)
    topic = discourse.state.topics[topic_id]
    posts = forum.fetch({})
    assert [p.author for p in posts] == ["system"]
    cursor = advance({}, posts[0])
    for i in range(25):                                  # more than one posts.json chunk
        discourse.state.add_post(topic, "alice", f"line {i}")
    new = forum.fetch(cursor)
    assert [p.text for p in new] == [f"line {i}" for i in range(25)]
    assert all(p.channel == "thread" and p.title == "Rift campaign" for p in new)
    for post in new:
        cursor = advance(cursor, post)
    assert forum.fetch(cursor) == []


def test_discourse_publish_posts_raw_markdown_once_per_key(discourse: DiscourseServer) -> None:
    forum, topic_id = make(discourse)
    first = forum.publish("turn-1/orders/turn", "ignored", "# Turn 1\n\n- Red moves")
    again = forum.publish("turn-1/orders/turn", "ignored", "# Turn 1\n\n- Red moves")
    posts = discourse.state.topics[topic_id].posts
    assert first.id == again.id and len(posts) == 2
    assert posts[1]["username"] == BOT and posts[1]["raw"].startswith("# Turn 1")
    assert key_of(posts[1]["raw"]) == "turn-1/orders/turn" and marker("turn-1/orders/turn") in posts[1]["raw"]


def test_discourse_reads_private_messages_to_the_bot_and_answers_privately(discourse: DiscourseServer) -> None:
    forum, topic_id = make(discourse)
    cursor = advance({}, forum.fetch({})[0])
    pm = discourse.state.private_message("alice", BOT, "[rift] orders", "R-1 M T25")
    discourse.state.private_message("bob", "alice", "not for the bot", "hello")
    [post] = forum.fetch(cursor)
    assert post.private and post.channel == f"pm-{pm.id}" and post.title == "[rift] orders"
    assert (post.author, post.text, post.number) == ("alice", "R-1 M T25", 1)
    answer = forum.reply(post, "reply/<forum-post-discourse-1@rift>/ack", "Understood: R-1 M T25")
    assert forum.reply(post, "reply/<forum-post-discourse-1@rift>/ack", "again").id == answer.id
    assert [p["username"] for p in pm.posts] == ["alice", BOT] and pm.posts[1]["reply_to_post_number"] == 1
    assert discourse.state.topics[topic_id].posts[-1]["username"] == "system"   # nothing in public
    cursor = advance(cursor, post)
    [own] = forum.fetch(cursor)            # the bot's answer comes back once; the engine skips it
    assert own.author == BOT


def test_discourse_bad_key_is_a_clear_forum_error(discourse: DiscourseServer) -> None:
    _, topic_id = make(discourse)
    forum = DiscourseForum(discourse.url, topic_id, Credentials("wrong", BOT))
    with pytest.raises(ForumError, match="HTTP 403: You are not permitted"):
        forum.fetch({})


def test_discourse_unreachable_server_is_a_forum_error() -> None:
    forum = DiscourseForum("http://127.0.0.1:9", 1, Credentials(API_KEY, BOT), timeout=2)
    with pytest.raises(ForumError, match=r"Discourse GET /t/1\.json"):
        forum.fetch({})


def test_discourse_credentials_from_file_or_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_KEY, raising=False)
    monkeypatch.delenv(ENV_USER, raising=False)
    with pytest.raises(ForumError, match=ENV_KEY):
        load_credentials("", tmp_path)
    (tmp_path / "discourse.toml").write_text('api_key = "abc"\nusername = "bot"\n')
    assert load_credentials("discourse.toml", tmp_path) == Credentials("abc", "bot")
    monkeypatch.setenv(ENV_KEY, "from-env")
    assert load_credentials("discourse.toml", tmp_path).api_key == "from-env"


def test_discourse_reply_in_the_thread_names_the_post_number(discourse: DiscourseServer) -> None:
    forum, topic_id = make(discourse)
    discourse.state.add_post(discourse.state.topics[topic_id], "alice", "STATUS")
    post = forum.fetch({})[-1]
    forum.reply(post, "reply/thread-test", "Answered by mail.")
    forum.reply(post, "reply/thread-test", "Answered by mail.")
    posts = discourse.state.topics[topic_id].posts
    assert [p["username"] for p in posts] == ["system", "alice", BOT]
    assert posts[2]["reply_to_post_number"] == 2


def test_a_report_longer_than_a_post_goes_out_in_parts_each_once(tmp_path: Path) -> None:
    report = "\n\n".join(f"## Battle {i}\n\n" + "x" * 900 for i in range(70))      # about 64,000 characters
    parts = split_post(report)
    assert len(parts) == 3 and all(len(p) <= 30_000 for p in parts)
    assert "".join(p.split("*\n\n", 1)[-1] for p in parts).replace("\n", "") == report.replace("\n", "")
    campaign = tmp_path / "camp"
    forum = FolderForum(tmp_path / "thread", bot="pbem")
    enqueue_post(campaign, "turn-1/battles/battles", "[rift] Turn 1: battles", report)
    assert publish_pending(campaign, forum, lambda key: None) == (["turn-1/battles/battles"], [], [])
    keys = [split_header(p.read_text())[0]["key"] for p in sorted(forum.path.glob("*.md"))]
    assert keys == [f"turn-1/battles/battles/part-{i}-of-3" for i in (1, 2, 3)]
