"""ImapInbox against a real Dovecot: TLS, login, batches, marks, reconnects, UIDVALIDITY."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.mail.connection import MailUnavailable
from pbem.mail.imap import ImapInbox
from pbem.mail.inbox import open_inbox
from tests.mail.conftest import (
    IMAP_ENV,
    ORDERS_BOX,
    USERS,
    append,
    flags,
    imap_spec,
    mailbox,
    order_mail,
)
from tests.mail.mailservers import Dovecot

pytestmark = [pytest.mark.usefixtures("passwords"), pytest.mark.mailserver]


def inbox(server: Dovecot, tmp_path: Path, **extra: object) -> ImapInbox:
    opened = open_inbox(imap_spec(server, **extra), tmp_path)
    assert isinstance(opened, ImapInbox)
    return opened


def logins(server: Dovecot) -> int:
    return (server.root / "dovecot.log").read_text().count(f"Login: user=<{ORDERS_BOX}>")


def mails(count: int) -> list[bytes]:
    return [order_mail("alice@pbem.test", f"line {i}", message_id=f"<m{i}@x>") for i in range(count)]


@pytest.mark.parametrize("tls", ["implicit", "starttls", "none"])
def test_each_tls_mode_reads_the_new_mail(dovecot: Dovecot, tmp_path: Path, tls: str) -> None:
    append(dovecot, *mails(2))
    port = dovecot.imaps_port if tls == "implicit" else dovecot.imap_port
    items = list(inbox(dovecot, tmp_path, tls=tls, port=port).items())
    assert [b"line 0" in i.raw for i in items] == [True, False] and b"line 1" in items[1].raw


def test_password_from_a_file_outside_the_settings(dovecot: Dovecot, tmp_path: Path) -> None:
    (tmp_path / "imap.secret").write_text(USERS[ORDERS_BOX] + "\n")
    append(dovecot, *mails(1))
    spec = imap_spec(dovecot, password_file="imap.secret")
    del spec["password_env"]
    assert len(list(open_inbox(spec, tmp_path).items())) == 1


def test_unset_password_variable_and_wrong_password_say_so(dovecot: Dovecot, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(IMAP_ENV)
    with pytest.raises(MailUnavailable, match=f"{IMAP_ENV} is not set"):
        list(inbox(dovecot, tmp_path).items())
    monkeypatch.setenv(IMAP_ENV, "wrong")
    with pytest.raises(MailUnavailable, match=r"AUTHENTICATIONFAILED|Authentication failed"):
        list(inbox(dovecot, tmp_path).items())


def test_untrusted_certificate_is_refused(dovecot: Dovecot, tmp_path: Path) -> None:
    spec = imap_spec(dovecot)
    del spec["cafile"]
    with pytest.raises(MailUnavailable, match="certificate is not trusted"):
        list(open_inbox(spec, tmp_path).items())


def test_done_mail_moves_to_processed_in_batches_and_undone_mail_stays(dovecot: Dovecot, tmp_path: Path) -> None:
    append(dovecot, *mails(7))
    box = inbox(dovecot, tmp_path, batch=3)
    for item in box.items():
        if b"line 4" not in item.raw:
            box.mark_done(item.key)
    box.close()
    [left] = mailbox(dovecot, ORDERS_BOX)
    assert "line 4" in left.get_content() and flags(dovecot) == [()]      # fetched with PEEK: still unseen
    processed = mailbox(dovecot, ORDERS_BOX, "Processed")
    assert len(processed) == 6
    assert all(b"$PbemDone" in f and b"\\Seen" in f for f in flags(dovecot, folder="Processed"))
    assert [i.raw for i in inbox(dovecot, tmp_path).items()] != []          # the unmarked one comes back


def test_without_a_processed_folder_done_mail_stays_flagged(dovecot: Dovecot, tmp_path: Path) -> None:
    append(dovecot, *mails(3))
    box = inbox(dovecot, tmp_path, processed="")
    for item in box.items():
        box.mark_done(item.key)
    box.close()
    assert all(b"$PbemDone" in f for f in flags(dovecot)) and len(flags(dovecot)) == 3
    assert list(inbox(dovecot, tmp_path, processed="").items()) == []


def test_a_dropped_connection_is_reopened_and_reading_resumes(dovecot: Dovecot, tmp_path: Path) -> None:
    append(dovecot, *mails(6))
    box = inbox(dovecot, tmp_path, batch=2)
    logins_before = logins(dovecot)
    seen = []
    for item in box.items():
        seen.append(item.raw)
        box.mark_done(item.key)
        if len(seen) == 3:
            assert dovecot.doveadm("kick", ORDERS_BOX).returncode == 0
    box.close()
    assert len(seen) == 6 and len(set(seen)) == 6
    assert logins(dovecot) == logins_before + 2          # the first login and one reconnect
    assert mailbox(dovecot, ORDERS_BOX) == [] and len(mailbox(dovecot, ORDERS_BOX, "Processed")) == 6


def test_a_server_that_stays_down_raises_mail_unavailable(dovecot: Dovecot, tmp_path: Path) -> None:
    dovecot.stop()
    with pytest.raises(MailUnavailable, match="after 3 attempts"):
        list(inbox(dovecot, tmp_path).items())


def test_uidvalidity_is_remembered_and_a_change_is_reported(dovecot: Dovecot, tmp_path: Path) -> None:
    append(dovecot, *mails(1))
    notes: list[str] = []
    list(open_inbox(imap_spec(dovecot), tmp_path, log=notes.append).items())
    assert "uidvalidity" in (tmp_path / "imap-state.toml").read_text() and notes == []
    result = dovecot.doveadm("mailbox", "update", "-u", ORDERS_BOX, "--uid-validity", "12345", "INBOX")
    assert result.returncode == 0, result.stderr
    list(open_inbox(imap_spec(dovecot), tmp_path, log=notes.append).items())
    assert len(notes) == 1 and "-> 12345" in notes[0] and "checked against the journal" in notes[0]


def test_without_move_done_mail_is_flagged_where_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that cannot MOVE: the keyword alone marks the mail done."""
    server = Dovecot(users=USERS, extra_conf="imap_capability = IMAP4rev1 LITERAL+ SASL-IR ID ENABLE IDLE UIDPLUS\n")
    try:
        server.start()
        append(server, *mails(2))
        box = inbox(server, tmp_path)                         # processed = "Processed", as by default
        for item in box.items():
            box.mark_done(item.key)
        box.close()
        assert len(flags(server)) == 2 and all(b"$PbemDone" in f for f in flags(server))
        assert list(inbox(server, tmp_path).items()) == []
    finally:
        server.cleanup()


def test_a_processed_folder_that_cannot_be_made_leaves_done_mail_flagged(dovecot: Dovecot, tmp_path: Path) -> None:
    append(dovecot, *mails(2))
    notes: list[str] = []
    box = open_inbox(imap_spec(dovecot, processed="~Done"), tmp_path, log=notes.append)
    for item in box.items():
        box.mark_done(item.key)
    box.close()
    assert len(flags(dovecot)) == 2 and all(b"$PbemDone" in f for f in flags(dovecot))
    assert any("cannot move done mail to '~Done'" in note for note in notes)


def test_a_missing_folder_is_unavailable_not_a_crash(dovecot: Dovecot, tmp_path: Path) -> None:
    with pytest.raises(MailUnavailable, match="Orders"):
        list(inbox(dovecot, tmp_path, folder="Orders").items())
