"""The hostile corpus as forum posts beside a healthy campaign: the same texts posted in a folder
thread (with broken post files beside them) and on the loopback Discourse (with malformed
answers and a moderated site). No tick raises, the healthy orders sent by mail are applied,
each report is posted once, and no secret reaches the thread or a mail."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from pbem.forum.base import key_of
from pbem.state.store import read_toml, write_toml
from tests.forum.discourse_server import serving
from tests.hostile.discourse_faults import FaultyServer, FaultyState
from tests.hostile.harness import (
    ALL_SECRETS,
    Mail,
    Run,
    after_deadline,
    before_deadline,
    check_on_file,
    check_resolved,
    check_ticks,
    corpus_mails,
    delivery,
    head_of,
    local_outgoing,
    make_site,
    outgoing_problems,
    report,
)
from tests.hostile.test_hostile_maildir import drop

API_KEY = "k" * 64
BOT = "pbem_bot"
ACCOUNTS = {"red": "alice", "blue": "bob", "grey": "mallory", "green": "carol"}


def author_of(mail: Mail) -> str:
    """Mallory's mails become her posts; everyone else's come from an account no player has."""
    return "mallory" if b"mallory@players.test" in mail.raw[:400] else "eve"


def subject_of(mail: Mail) -> str:
    return str(head_of(mail.raw).get("Subject", "")).replace("\r", " ").replace("\n", " ")


def body_of(mail: Mail) -> bytes:
    return mail.raw.split(b"\r\n\r\n", 1)[-1]


def with_forum(root: Path, forum: dict[str, Any]) -> None:
    """rift, vale and conq from Maildirs; rift also reads and posts to `forum`."""
    transport = {"inbox": {"type": "maildir", "path": "inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    make_site(root, lambda name: transport | ({"forum": forum} if name == "rift" else {}))
    settings = read_toml(root / "rift" / "campaign.toml")
    for player in settings["players"]:
        player["forum"] = ACCOUNTS[player["id"]]
    settings["gm"]["forum"] = "gm_dave"
    write_toml(root / "rift" / "campaign.toml", settings)


def healthy_by_mail(root: Path) -> None:
    drop(root, [m for m in delivery() if m.kind == "healthy"])


def play(run: Run, between: Iterator[None] | None = None) -> list[str]:
    """Ticks before the deadline (each after a step of `between`), the orders on file, then
    three ticks after the deadline; returns the problems with the orders on file."""
    steps = between or iter(())
    for hour in range(1, 6):
        next(steps, None)
        run.tick(before_deadline(hour))
    on_file = check_on_file(run)
    next(steps, None)
    deadline = after_deadline(run.root)
    for minutes in (0, 5, 10):
        run.tick(deadline + timedelta(minutes=minutes))
    return on_file


# -- the folder thread ----------------------------------------------------------------------


def folder_post(folder: Path, name: str, header: bytes, body: bytes) -> None:
    """Drop a post file as a gateway would: written under a dot name, then renamed."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f".{name}").write_bytes(b"+++\n" + header + b"+++\n" + body)
    os.replace(folder / f".{name}", folder / name)


def toml_string(text: str) -> bytes:
    escaped = "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}" for c in text)
    return f'"{escaped}"'.encode()


def drop_corpus_posts(thread: Path) -> None:
    """Each corpus mail as a post: odd ones in the public thread (naming the bot), even ones
    as private messages to it."""
    for number, mail in enumerate(corpus_mails()):
        private = number % 2 == 0
        header = b"author = " + toml_string(author_of(mail)) + b"\ntitle = " + toml_string(subject_of(mail)) + b"\n"
        mention = b"" if private else f"@{BOT} ".encode()
        folder_post(thread / "private" if private else thread, f"{mail.name}.md", header,
                    mention + subject_of(mail).encode("utf-8", "replace") + b"\n" + body_of(mail))


def drop_broken_posts(thread: Path) -> None:
    """Post files no forum would write: a bad in_reply_to, a broken header, no author, a
    pre-numbered file below the cursor, two files with one number, bytes that are no UTF-8."""
    folder_post(thread, "reply-x.md", b'author = "mallory"\nin_reply_to = "x"\n', b"@pbem_bot G-1 H\n")
    folder_post(thread, "broken-header.md", b'author = "mallory\nin_reply_to = [1, {\n', b"@pbem_bot G-1 H\n")
    folder_post(thread, "no-author.md", b"", b"@pbem_bot G-1 H\n")
    folder_post(thread, "000001-mallory.md", b'id = 1\nauthor = "mallory"\n', b"@pbem_bot STATUS\n")
    folder_post(thread / "private", "000001-eve.md", b'id = 1\nauthor = "eve"\n', b"STATUS\n")
    folder_post(thread, "latin1.md", b'author = "mall\xf6ry"\n', b"@pbem_bot \xff\xfe G-1 H\n")
    folder_post(thread, "000002-mallory.md", b'id = "2"\nauthor = ["mallory"]\ncreated = "yesterday"\n', b"@pbem_bot\n")


def bot_texts(root: Path) -> list[str]:
    """Everything the bot wrote to the folder thread."""
    thread = root.parent / "forum" / "rift"
    return [p.read_text(errors="replace") for p in sorted(thread.rglob("*.md")) if f"-{BOT}" in p.name]


def leaks(texts: list[str]) -> list[str]:
    return [f"a secret in a forum post: {text[:120]!r}" for text in texts for s in ALL_SECRETS if s in text]


LATE = 2
"""Alice's private messages dropped after strangers mailed under the ids they will get."""


def filed_numbers(thread: Path) -> list[int]:
    return [int(p.name[:6]) for p in thread.rglob("*.md") if p.name[:6].isdigit()]


def forged_then_real(root: Path, thread: Path) -> Iterator[None]:
    """Before tick 2: Eve mails under the Message-IDs the next posts will have; before tick 3:
    Alice's real private messages, which must still be answered."""
    yield
    late = max(filed_numbers(thread), default=0) + 1
    drop(root, [Mail(f"forged-late-{n}", "rift", (
        f"From: Eve <eve@outside.test>\r\nTo: rift@pbem.test\r\nSubject: [rift] hi\r\n"
        f"Message-ID: <forum-post-folder-{n}@rift>\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\n\r\nhello\r\n").encode())
        for n in range(late, late + LATE + 5)])
    yield
    for n in range(LATE):
        folder_post(thread / "private", f"late-{n}.md", b'author = "alice"\n', f"STATUS late-{n}\n".encode())


def late_posts_answered(thread: Path) -> list[str]:
    """Each of Alice's late private messages has the bot's answer in reply to it."""
    posts = {p.read_text(): int(p.name[:6]) for p in (thread / "private").glob("*-alice.md")}
    late = {n: number for text, number in posts.items() for n in range(LATE) if f"STATUS late-{n}" in text}
    answers = [p.read_text() for p in (thread / "private").glob(f"*-{BOT}.md")]
    return [f"late post {n} (id {late.get(n)}) was not answered" for n in range(LATE)
            if n not in late or not any(f"in_reply_to = {late[n]}\n" in text for text in answers)]


@pytest.fixture(scope="module")
def folder_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Run, list[str]]:
    root = tmp_path_factory.mktemp("hostile-folder") / "campaigns"
    root.mkdir()
    with_forum(root, {"kind": "folder", "path": "../../forum/rift", "bot": BOT})
    healthy_by_mail(root)
    thread = root.parent / "forum" / "rift"
    drop_corpus_posts(thread)
    drop_broken_posts(thread)
    run = Run(root)
    return run, play(run, forged_then_real(root, thread))


def test_folder_thread_no_tick_raises_and_the_healthy_orders_are_applied(folder_run: tuple[Run, list[str]]) -> None:
    run, on_file = folder_run
    problems = check_ticks(run) + on_file + check_resolved(run)
    assert not problems, report(problems)


def test_folder_thread_posts_are_never_taken_for_mail_under_their_ids(folder_run: tuple[Run, list[str]]) -> None:
    run, _ = folder_run
    problems = late_posts_answered(run.root.parent / "forum" / "rift")
    assert not problems, report(problems)


def test_folder_thread_no_secret_or_unsafe_header_goes_out(folder_run: tuple[Run, list[str]]) -> None:
    run, _ = folder_run
    problems = leaks(bot_texts(run.root)) + outgoing_problems(local_outgoing(run.root, run.root.parent / "outbox"))
    assert not problems, report(problems)


# -- the loopback Discourse -----------------------------------------------------------------


@pytest.fixture(scope="module")
def discourse() -> Iterator[FaultyServer]:
    state = FaultyState(API_KEY, {BOT, *ACCOUNTS.values(), "eve", "gm_dave", "system"})
    with serving(FaultyServer(state)) as server:
        yield server


def post_corpus(state: FaultyState, topic: Any) -> None:
    for number, mail in enumerate(corpus_mails()):
        text = subject_of(mail) + "\n" + body_of(mail).decode("utf-8", "replace")
        if number % 2:
            state.add_post(topic, author_of(mail), f"@{BOT} {text}")
        else:
            state.private_message(author_of(mail), BOT, subject_of(mail) or "orders", text)


def faults(state: FaultyState) -> Iterator[None]:
    """One malformed kind of answer per tick before the deadline, then a moderated site."""
    for mode in ("null-stream", "string-ids", "truncated", "bad-status", "not-json"):
        state.mode = mode
        yield
    state.mode, state.moderated = "", True
    yield


@pytest.fixture(scope="module")
def discourse_run(tmp_path_factory: pytest.TempPathFactory, discourse: FaultyServer) -> tuple[Run, list[str]]:
    root = tmp_path_factory.mktemp("hostile-discourse") / "campaigns"
    root.mkdir()
    secrets = root.parent / "secrets" / "discourse.toml"
    write_toml(secrets, {"api_key": API_KEY, "username": BOT})
    topic = discourse.state.new_topic("Rift campaign")
    discourse.state.add_post(topic, "gm_dave", "The campaign thread: reports and results here.")
    with_forum(root, {"kind": "discourse", "url": discourse.url, "topic": topic.id, "bot": BOT,
                      "credentials": str(secrets), "path": "unused"})
    healthy_by_mail(root)
    post_corpus(discourse.state, topic)
    run = Run(root)
    return run, play(run, faults(discourse.state))


def test_discourse_no_tick_raises_and_the_healthy_orders_are_applied(discourse_run: tuple[Run, list[str]]) -> None:
    run, on_file = discourse_run
    problems = check_ticks(run) + on_file + check_resolved(run)
    assert not problems, report(problems)


def test_discourse_a_moderated_report_is_posted_once(discourse_run: tuple[Run, list[str]],
                                                     discourse: FaultyServer) -> None:
    keys = [key_of(str(body.get("raw", ""))) for body in discourse.state.posted]
    reports = [key for key in keys if key.startswith("turn-")]
    assert reports, "no report was posted"
    assert sorted(k for k in set(reports) if reports.count(k) > 1) == []


def test_discourse_no_secret_or_unsafe_header_goes_out(discourse_run: tuple[Run, list[str]],
                                                       discourse: FaultyServer) -> None:
    run, _ = discourse_run
    posted = [str(body.get("raw", "")) for body in discourse.state.posted]
    problems = leaks(posted) + outgoing_problems(local_outgoing(run.root, run.root.parent / "outbox"))
    assert not problems, report(problems)
