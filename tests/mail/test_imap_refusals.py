"""ImapInbox against a real Dovecot that refuses: a mailbox it opens READ-ONLY (ACL), marks it
answers with NO, a quarantine folder it will not take mail into; and quarantine itself."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.intake.journal import message_ids
from pbem.mail.imap import ImapInbox
from pbem.mail.inbox import open_inbox
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick
from tests.mail.conftest import (
    IMAP_ENV,
    ORDERS_BOX,
    USERS,
    Relay,
    append,
    flags,
    imap_spec,
    later,
    login,
    mailbox,
    make_campaign,
    order_mail,
    red,
    smtp_spec,
)
from tests.mail.mailservers import Dovecot

pytestmark = [pytest.mark.usefixtures("passwords"), pytest.mark.mailserver]
GM_BOX = "gm@pbem.test"


@pytest.fixture
def acl_dovecot(request: pytest.FixtureRequest) -> Iterator[Dovecot]:
    """A Dovecot whose global ACL file holds the line given as the fixture's parameter."""
    server = Dovecot(users=USERS, acl=request.param)
    try:
        server.start()
        yield server
    finally:
        server.cleanup()


def opened(server: Dovecot, tmp_path: Path, notes: list[str], **extra: Any) -> ImapInbox:
    box = open_inbox(imap_spec(server, **extra), tmp_path, log=notes.append)
    assert isinstance(box, ImapInbox)
    return box


def mails(count: int, user: str = ORDERS_BOX) -> list[bytes]:
    return [order_mail("alice@pbem.test", f"line {i}", message_id=f"<{user}-{i}@x>") for i in range(count)]


def read_all(box: ImapInbox) -> list[bytes]:
    """Everything the inbox yields, each marked done as the engine does, then closed."""
    seen = []
    for item in box.items():
        seen.append(item.raw)
        box.mark_done(item.key)
    box.close()
    return seen


@pytest.mark.parametrize("acl_dovecot", [f"INBOX user={ORDERS_BOX} lrp\n"], indirect=True)
def test_a_read_only_mailbox_is_read_fully_and_other_mailboxes_on_the_server_stay_reachable(
        acl_dovecot: Dovecot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for raw in mails(5):                        # LMTP may post (p) where the owner may only read
        acl_dovecot.deliver_lmtp("alice@pbem.test", ORDERS_BOX, raw)
    append(acl_dovecot, *mails(2, GM_BOX), user=GM_BOX)
    append(acl_dovecot, *mails(1), folder="Processed")
    notes: list[str] = []
    assert len(read_all(opened(acl_dovecot, tmp_path, notes))) == 5       # batch = 3: two batches
    assert len(mailbox(acl_dovecot, ORDERS_BOX)) == 5                       # nothing could be marked
    assert [n for n in notes if "read-only" in n] == [
        f"IMAP {ORDERS_BOX}@127.0.0.1:{acl_dovecot.imaps_port}: mailbox INBOX is read-only: mail is read but "
        "cannot be marked done; pbem's journal keeps it from being handled twice"]
    # the same run: another folder of the same login, and another login, on the same server
    assert len(read_all(opened(acl_dovecot, tmp_path / "own", notes, folder="Processed", processed=""))) == 1
    monkeypatch.setenv(IMAP_ENV, USERS[GM_BOX])
    assert len(read_all(opened(acl_dovecot, tmp_path / "gm", notes, user=GM_BOX))) == 2
    assert mailbox(acl_dovecot, GM_BOX) == [] and len(mailbox(acl_dovecot, GM_BOX, "Processed")) == 2


@pytest.mark.parametrize("acl_dovecot", [f"INBOX user={ORDERS_BOX} lrp\n"], indirect=True)
def test_a_tick_reads_a_read_only_campaign_inbox_once_and_the_other_campaign_on_the_server_too(
        acl_dovecot: Dovecot, tmp_path: Path) -> None:
    relay = Relay(acl_dovecot, tls=True, auth_users={ORDERS_BOX: USERS[ORDERS_BOX]})
    try:
        root = tmp_path / "campaigns"
        for name, folder in (("rift", "INBOX"), ("vale", "Vale")):
            make_campaign(root, name, transport={"inbox": imap_spec(acl_dovecot, folder=folder),
                                                 "outbox": smtp_spec(acl_dovecot, relay)})
        acl_dovecot.deliver_lmtp("alice@pbem.test", ORDERS_BOX, red("R-1 M T25\n", message_id="<rift-1@x>"))
        client = login(acl_dovecot, ORDERS_BOX)
        client.create_folder("Vale")
        client.logout()
        append(acl_dovecot, red("R-1 M T25\n", subject="[vale] orders", message_id="<vale-1@x>"), folder="Vale")
        for hours in (1, 2):                      # the second tick meets the unmarked mail again
            log = tick(root, later(hours))
            assert not any("unavailable" in line or "could not be read" in line for line in log.lines), log.lines
        assert message_ids(Campaign(root / "rift").state["journal"]) == ["<rift-1@x>"]
        assert message_ids(Campaign(root / "vale").state["journal"]) == ["<vale-1@x>"]
        acks = [m for m in mailbox(acl_dovecot, "alice@pbem.test") if m["In-Reply-To"] == "<rift-1@x>"]
        assert len(acks) == 1                      # answered once although it stays unmarked
    finally:
        relay.stop()


def test_a_refused_done_mark_is_logged_once_and_reading_goes_on_past_the_first_batch(tmp_path: Path) -> None:
    """Dovecot answers the STORE of $PbemDone with NO [CANNOT] when keywords may have at most 4 letters."""
    server = Dovecot(users=USERS, extra_conf="mail_max_keyword_length = 4\n")
    try:
        server.start()
        append(server, *mails(7))
        notes: list[str] = []
        assert len(read_all(opened(server, tmp_path, notes, processed="", batch=2))) == 7
        [refusal] = notes
        assert "the server refuses to mark done messages" in refusal and "Keyword length too long" in refusal
        assert "reading goes on" in refusal
        assert len(read_all(opened(server, tmp_path, notes, processed=""))) == 7   # the journal's turn
    finally:
        server.cleanup()


@pytest.mark.parametrize("acl_dovecot", [f"INBOX user={ORDERS_BOX} lrwsi\n"], indirect=True)
def test_a_refused_move_to_processed_leaves_done_mail_flagged_and_reading_goes_on(
        acl_dovecot: Dovecot, tmp_path: Path) -> None:
    """Without the expunge right (e) Dovecot answers MOVE with NO [NOPERM]."""
    append(acl_dovecot, *mails(5))
    notes: list[str] = []
    assert len(read_all(opened(acl_dovecot, tmp_path, notes, batch=2))) == 5
    assert all(b"$PbemDone" in f for f in flags(acl_dovecot)) and len(flags(acl_dovecot)) == 5
    assert len([n for n in notes if "cannot move done mail" in n]) == 1
    assert list(opened(acl_dovecot, tmp_path, notes).items()) == []


@pytest.mark.parametrize("acl_dovecot", [f"INBOX user={ORDERS_BOX} lrs\n"], indirect=True)
def test_a_mailbox_that_keeps_no_keywords_is_read_and_said_once(acl_dovecot: Dovecot, tmp_path: Path) -> None:
    """Dovecot opens it READ-WRITE but PERMANENTFLAGS (\\Seen): $PbemDone would be dropped silently."""
    for raw in mails(4):
        acl_dovecot.deliver_lmtp("alice@pbem.test", ORDERS_BOX, raw)
    notes: list[str] = []
    assert len(read_all(opened(acl_dovecot, tmp_path, notes, batch=2))) == 4
    assert [n for n in notes if "does not keep the $PbemDone keyword" in n and "(\\Seen)" in n] != []
    assert len(read_all(opened(acl_dovecot, tmp_path, notes))) == 4      # the journal's turn


def test_quarantine_moves_the_message_to_the_quarantine_folder_and_it_is_not_read_again(
        dovecot: Dovecot, tmp_path: Path) -> None:
    append(dovecot, *mails(4))
    notes: list[str] = []
    box = opened(dovecot, tmp_path, notes, quarantine="Poison")
    for item in box.items():
        if b"line 1" in item.raw:
            box.quarantine(item.key)
            box.quarantine(item.key)              # a second call is no error
        else:
            box.mark_done(item.key)
    box.quarantine("1:999")                       # a key of another UIDVALIDITY: no error
    box.close()
    [poison] = mailbox(dovecot, ORDERS_BOX, "Poison")
    assert "line 1" in poison.get_content()
    assert mailbox(dovecot, ORDERS_BOX) == [] and len(mailbox(dovecot, ORDERS_BOX, "Processed")) == 3
    assert list(opened(dovecot, tmp_path, notes).items()) == []
    assert any("moved from INBOX to 'Poison'" in n for n in notes)


def test_quarantine_after_close_still_moves_the_message(dovecot: Dovecot, tmp_path: Path) -> None:
    append(dovecot, *mails(2))
    box = opened(dovecot, tmp_path, [])
    keys = [item.key for item in box.items()]
    box.close()
    box.quarantine(keys[1])
    assert [m.get_content().strip() for m in mailbox(dovecot, ORDERS_BOX, "Quarantine")] == ["line 1"]


def test_quarantine_without_move_copies_and_expunges_only_that_message(tmp_path: Path) -> None:
    server = Dovecot(users=USERS, extra_conf="imap_capability = IMAP4rev1 LITERAL+ SASL-IR ID ENABLE IDLE UIDPLUS\n")
    try:
        server.start()
        append(server, *mails(3))
        box = opened(server, tmp_path, [])
        keys = [item.key for item in box.items()]
        box.quarantine(keys[1])
        box.close()
        assert [m.get_content().strip() for m in mailbox(server, ORDERS_BOX, "Quarantine")] == ["line 1"]
        assert [m.get_content().strip() for m in mailbox(server, ORDERS_BOX)] == ["line 0", "line 2"]
    finally:
        server.cleanup()


@pytest.mark.parametrize("acl_dovecot", [f"Quarantine user={ORDERS_BOX} lr\n"], indirect=True)
def test_a_quarantine_folder_that_refuses_mail_leaves_the_message_flagged_and_hidden(
        acl_dovecot: Dovecot, tmp_path: Path) -> None:
    append(acl_dovecot, *mails(2))
    notes: list[str] = []
    box = opened(acl_dovecot, tmp_path, notes)
    keys = [item.key for item in box.items()]
    box.quarantine(keys[0])
    box.close()
    assert [b"$PbemQuarantined" in f and b"$PbemDone" in f for f in flags(acl_dovecot)] == [True, False]
    assert len(list(opened(acl_dovecot, tmp_path, notes).items())) == 1
    assert any("refuses to quarantine to 'Quarantine'" in n for n in notes)


@pytest.mark.parametrize("acl_dovecot", [f"INBOX user={ORDERS_BOX} lrp\n"], indirect=True)
def test_quarantine_in_a_read_only_mailbox_logs_and_never_raises(acl_dovecot: Dovecot, tmp_path: Path) -> None:
    acl_dovecot.deliver_lmtp("alice@pbem.test", ORDERS_BOX, mails(1)[0])
    notes: list[str] = []
    box = opened(acl_dovecot, tmp_path, notes)
    for item in box.items():
        box.quarantine(item.key)
    box.close()
    assert len(mailbox(acl_dovecot, ORDERS_BOX)) == 1
    assert any("cannot be quarantined there" in n for n in notes)


def test_quarantine_folder_must_differ_from_the_folder_read(dovecot: Dovecot, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="quarantine: must differ"):
        open_inbox(imap_spec(dovecot, quarantine="INBOX"), tmp_path)
