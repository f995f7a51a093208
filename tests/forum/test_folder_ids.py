"""The folder thread: ids never reused, files read by the names pbem filed (not by the look of
a numbered name), and a post with a broken header never stops a tick."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from pbem.forum.base import Post, advance
from pbem.forum.folder import FolderForum, split_header
from pbem.state.campaign import Campaign
from tests.forum.test_forum_engine import campaign, post, thread
from tests.support.engine_helpers import T0, outbox, run


def drop(folder: Path, name: str, text: str) -> None:
    (folder / name).write_bytes(text.encode("utf-8") if isinstance(text, str) else text)


def read_all(forum: FolderForum, cursor: dict[str, int]) -> tuple[list[Post], dict[str, int]]:
    posts = forum.fetch(cursor)
    for p in posts:
        cursor = advance(cursor, p)
    return posts, cursor


def test_deleting_the_newest_post_does_not_give_its_id_to_the_next(tmp_path: Path) -> None:
    forum = FolderForum(tmp_path / "thread")
    drop(forum.path, "a.md", '+++\nauthor = "alice"\n+++\nRESULT 1 Red\n')
    [first], cursor = read_all(forum, {})
    (forum.path / f"{int(first.id):06d}-alice.md").unlink()       # the GM removes the newest post
    again = FolderForum(tmp_path / "thread")                       # a later tick
    drop(again.path, "b.md", '+++\nauthor = "bob"\n+++\nRESULT 1 Blue\n')
    [second], _ = read_all(again, cursor)
    assert int(second.id) > int(first.id) and second.author == "bob"


def test_a_pre_numbered_file_at_or_below_the_cursor_is_read(tmp_path: Path) -> None:
    forum = FolderForum(tmp_path / "thread")
    for name in ("a.md", "b.md", "c.md"):
        drop(forum.path, name, f'+++\nauthor = "alice"\n+++\nSTATUS {name}\n')
    _, cursor = read_all(forum, {})
    assert cursor["thread"] == 3
    drop(forum.path, "000002-gateway.md", '+++\nauthor = "bob"\nid = 2\n+++\nRESULT 1 Blue\n')
    [late], _ = read_all(forum, cursor)
    assert (late.author, late.text.strip(), late.id) == ("bob", "RESULT 1 Blue", "4")


def test_two_files_with_one_number_are_both_read(tmp_path: Path) -> None:
    forum = FolderForum(tmp_path / "thread")
    drop(forum.path, "000005-alice.md", '+++\nauthor = "alice"\n+++\nRESULT 1 Red\n')
    drop(forum.path, "000005-bob.md", '+++\nauthor = "bob"\n+++\nRESULT 1 Blue\n')
    posts, _ = read_all(forum, {})
    assert sorted(p.author for p in posts) == ["alice", "bob"] and len({p.id for p in posts}) == 2


def test_a_thread_from_before_the_id_record_keeps_its_numbers_and_cursor(tmp_path: Path) -> None:
    folder = tmp_path / "thread"
    (folder / "private").mkdir(parents=True)
    for n, who in ((1, "pbem"), (2, "alice")):
        drop(folder, f"{n:06d}-{who}.md", f'+++\nid = {n}\nauthor = "{who}"\n+++\nSTATUS\n')
    forum = FolderForum(folder)
    assert forum.fetch({"thread": 2}) == []                         # nothing read twice after the upgrade
    drop(folder, "new.md", '+++\nauthor = "bob"\n+++\nSTATUS\n')
    [new] = forum.fetch({"thread": 2})
    assert new.id == "3"


def test_broken_headers_are_filed_as_unreadable_and_never_raise(tmp_path: Path) -> None:
    forum = FolderForum(tmp_path / "thread")
    drop(forum.path, "a.md", '+++\nauthor = "alice"\nin_reply_to = "x"\n+++\nRESULT 1 Red\n')
    drop(forum.path, "b.md", '+++\nauthor = "alice\n+++\nRESULT 1 Red\n')             # broken TOML
    drop(forum.path, "c.md", b'+++\nauthor = "al\xffce"\n+++\nRESULT \xfe1\n')          # not UTF-8
    drop(forum.path, "d.md", "no header at all\n")
    posts, cursor = read_all(forum, {})
    assert [(p.author, p.in_reply_to, p.problem) for p in posts[:1]] == [("alice", "", "")]
    assert posts[1].author == "" and posts[1].problem.startswith("broken TOML in the header")
    assert (posts[2].author, posts[2].text.strip(), posts[2].problem) == ("al\ufffdce", "RESULT \ufffd1", "")
    assert (posts[3].author, posts[3].problem) == ("", "no +++ header")
    assert read_all(forum, cursor)[0] == []


def test_a_broken_post_is_skipped_with_a_log_line_and_the_others_are_read(tmp_path: Path) -> None:
    camp = campaign(tmp_path, {"R-1": "T24", "B-1": "T27"})
    folder = thread(camp)
    folder.mkdir(parents=True, exist_ok=True)
    drop(folder, "a.md", '+++\nauthor = "alice"\nin_reply_to = "x"\n+++\nSTATUS\n')
    drop(folder, "b.md", '+++\nauthor = [broken\n+++\nSTATUS\n')
    post(camp, "c", "Bob", "STATUS")
    from pbem.tick.engine import tick
    log = tick(camp.folder.parent, T0 + timedelta(hours=1))
    assert any("skipped, unreadable: broken TOML" in line for line in log.lines)
    camp = Campaign(camp.folder)
    assert len(outbox(camp, "alice")) == 1 and len(outbox(camp, "bob")) == 1
    assert camp.state["forum"]["cursor"]["thread"] == 3
    run(camp, T0 + timedelta(hours=2))
    assert len(outbox(camp, "alice")) == 1


def test_a_bot_post_keeps_its_key_when_the_newest_post_was_deleted(tmp_path: Path) -> None:
    forum = FolderForum(tmp_path / "thread", bot="pbem")
    first = forum.publish("turn-1/a", "t", "one")
    (forum.path / f"{int(first.id):06d}-pbem.md").unlink()
    second = forum.publish("turn-1/b", "t", "two")
    assert int(second.id) > int(first.id)
    header, _ = split_header((forum.path / f"{int(second.id):06d}-pbem.md").read_text())
    assert header["key"] == "turn-1/b"
