"""ImapInbox against a loopback fake server for what Dovecot never answers: a SELECT without
UIDVALIDITY, FETCH answers without a usable body or that cannot be parsed, a server that
trickles one byte at a time, a session dropped right after one login."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.connection import MailUnavailable
from pbem.mail.imap import ImapInbox
from tests.mail.conftest import IMAP_ENV, ORDERS_BOX, order_mail
from tests.mail.fakeimap import FakeImap, fake_imap, literal

pytestmark = pytest.mark.usefixtures("passwords")
MAILS = {uid: order_mail("alice@pbem.test", f"line {uid}", message_id=f"<fake-{uid}@x>") for uid in (1, 2, 3, 4)}


def inbox(port: int, notes: list[str], **extra: Any) -> ImapInbox:
    """An inbox on the fake server that keeps no UIDVALIDITY file."""
    spec = {"host": "127.0.0.1", "port": port, "tls": "none", "user": ORDERS_BOX, "password_env": IMAP_ENV,
            "processed": "", "batch": 10, "retries": 2, "backoff": 0.01, "timeout": 5} | extra
    box = ImapInbox.from_spec(spec, Path("."), log=notes.append)
    box.state = None
    return box


def lines(box: ImapInbox) -> list[int]:
    """The numbers of the order lines the inbox yields."""
    found = [int(item.raw.rsplit(b"line ", 1)[1].split()[0]) for item in box.items()]
    box.close()
    return found


def test_a_select_answer_without_uidvalidity_is_a_clear_mail_unavailable() -> None:
    with fake_imap(FakeImap(MAILS, select_codes=[b"[UIDNEXT 5]"])) as port:
        with pytest.raises(MailUnavailable, match="opening INBOX gave no valid UIDVALIDITY"):
            list(inbox(port, []).items())


@pytest.mark.parametrize("item", [b"BODY[] NIL", b"FLAGS ()", b"BODY[] 42", b"BODY[] (1 2)"])
def test_a_fetch_answer_without_a_usable_body_skips_that_message_with_a_log_line(item: bytes) -> None:
    notes: list[str] = []
    server = FakeImap(MAILS, fetch_item=lambda uid, raw: item if uid == 2 else b"BODY[] " + literal(raw))
    with fake_imap(server) as port:
        assert lines(inbox(port, notes)) == [1, 3, 4]
    assert [n for n in notes if "UID 2 holds no message body" in n and "skipped" in n] != []


def test_a_fetch_answer_that_cannot_be_parsed_costs_only_its_own_message() -> None:
    notes: list[str] = []
    server = FakeImap(MAILS, fetch_item=lambda uid, raw: b'BODY[] "unterminated' if uid == 3
                      else b"BODY[] " + literal(raw))
    with fake_imap(server) as port:
        assert lines(inbox(port, notes)) == [1, 2, 4]
    assert any("FETCH answer for UID 3 cannot be read" in n for n in notes)


def test_a_server_trickling_its_greeting_is_given_up_within_the_timeout() -> None:
    server = FakeImap(MAILS, trickle=0.1, trickle_for=8)
    with fake_imap(server) as port:
        started = time.perf_counter()
        with pytest.raises(MailUnavailable, match="no complete answer within 1 s"):
            list(inbox(port, [], timeout=1).items())
        assert time.perf_counter() - started < 2.5
        started = time.perf_counter()                  # the same server in the same run: at once
        with pytest.raises(MailUnavailable, match="earlier in this run"):
            list(inbox(port, [], timeout=1, folder="Other").items())
        assert time.perf_counter() - started < 0.5


def test_a_trickled_fetch_answer_is_cut_at_the_timeout() -> None:
    big = {1: order_mail("alice@pbem.test", "line 1 " + "x" * 5000)}
    server = FakeImap(big, trickle=0.01, trickle_for=20, trickle_on=b"UID FETCH")
    with fake_imap(server) as port:
        started = time.perf_counter()
        with pytest.raises(MailUnavailable, match="no complete answer within 1 s"):
            list(inbox(port, [], timeout=1).items())
        assert time.perf_counter() - started < 2.5


def test_a_session_dropped_after_one_login_blocks_only_that_mailbox(monkeypatch: pytest.MonkeyPatch) -> None:
    with fake_imap(FakeImap(MAILS, drop_after_login={"broken@pbem.test"})) as port:
        with pytest.raises(MailUnavailable, match="after 3 attempts"):
            list(inbox(port, [], user="broken@pbem.test").items())
        with pytest.raises(MailUnavailable, match="earlier in this run"):   # that mailbox: at once
            list(inbox(port, [], user="broken@pbem.test").items())
        assert lines(inbox(port, [])) == [1, 2, 3, 4]                      # the others: as usual


FRAGMENTS = [b"BODY[] NIL", b"BODY[] 42", b'BODY[] "quoted"', b"BODY[] (1 (2) NIL)", b"FLAGS ()", b"",
             b'BODY[] "unterminated', b"BODY[] ((", b"BODY[] )", b"BODY[] {0}\r\n", b"RFC822 NIL", b"BODY[] \\Seen"]


@settings(derandomize=True, max_examples=30, deadline=None)
@given(st.lists(st.one_of(st.none(), st.sampled_from(FRAGMENTS)), min_size=4, max_size=4),
       st.integers(min_value=1, max_value=4))
def test_any_fetch_answer_yields_the_good_messages_and_never_raises(fragments: list[bytes | None], batch: int) -> None:
    """None stands for a proper BODY[] literal; every other fragment is what the server says instead."""
    answers = dict(zip(sorted(MAILS), fragments, strict=True))
    server = FakeImap(MAILS, fetch_item=lambda uid, raw: answers[uid] if answers[uid] is not None
                      else b"BODY[] " + literal(raw))
    with fake_imap(server) as port:
        started = time.perf_counter()
        box = inbox(port, [], batch=batch)
        yielded = {int(item.key.split(":")[1]): item.raw for item in box.items()}
        box.close()
        assert time.perf_counter() - started < 3
    assert all(isinstance(raw, bytes) for raw in yielded.values())
    assert {uid for uid, fragment in answers.items() if fragment is None} <= set(yielded)
    assert all(yielded[uid] == MAILS[uid] for uid, fragment in answers.items() if fragment is None)
