"""SmtpTransport against aiosmtpd relaying into Dovecot: TLS, AUTH, the send journal, refusals."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.delivery.outqueue import deliver, enqueue, pending
from pbem.mail.connection import MailUnavailable, forget_unreachable
from pbem.mail.outbox import open_transport
from pbem.mail.smtp import MailRefused, SmtpTransport, shared_sessions
from tests.mail.conftest import (
    ORDERS_BOX,
    USERS,
    Relay,
    login,
    mailbox,
    message_ids,
    smtp_spec,
)
from tests.mail.mailservers import Dovecot

pytestmark = [pytest.mark.usefixtures("passwords"), pytest.mark.mailserver]


def note(number: int, to: str = "alice@pbem.test") -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "Rift <rift@pbem.test>", to, f"note {number}"
    msg["Message-ID"] = f"<note-{number}@pbem.test>"
    msg.set_content(f"note {number}")
    return msg


def transport(server: Dovecot, relay: Relay, base: Path, **extra: object) -> SmtpTransport:
    opened = open_transport(smtp_spec(server, relay, **extra), base)
    assert isinstance(opened, SmtpTransport)
    return opened


def test_starttls_and_auth_deliver_into_the_players_mailbox(dovecot: Dovecot, relay: Relay, tmp_path: Path) -> None:
    smtp = transport(dovecot, relay, tmp_path)
    smtp.send(note(1))
    smtp.send(note(2, to="bob@pbem.test"))
    smtp.close()
    assert message_ids(mailbox(dovecot, "alice@pbem.test")) == ["<note-1@pbem.test>"]
    assert message_ids(mailbox(dovecot, "bob@pbem.test")) == ["<note-2@pbem.test>"]
    journal = (tmp_path / "outbox" / "smtp-journal.txt").read_text()
    assert " sent <note-1@pbem.test> alice@pbem.test" in journal and "<note-2@pbem.test>" in journal


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")   # aiosmtpd: TLS is implicit here
def test_implicit_tls(dovecot: Dovecot, tmp_path: Path) -> None:
    relay = Relay(dovecot, implicit_tls=True, auth_users={ORDERS_BOX: USERS[ORDERS_BOX]})
    try:
        transport(dovecot, relay, tmp_path, tls="implicit").send(note(1))
    finally:
        relay.stop()
    assert message_ids(mailbox(dovecot, "alice@pbem.test")) == ["<note-1@pbem.test>"]


def test_the_journal_never_hands_a_message_id_over_twice(dovecot: Dovecot, relay: Relay, tmp_path: Path) -> None:
    transport(dovecot, relay, tmp_path).send(note(1))
    again = transport(dovecot, relay, tmp_path)       # a new tick: reads the journal from disk
    again.send(note(1))
    again.close()
    assert relay.handler.accepted == 1 and len(mailbox(dovecot, "alice@pbem.test")) == 1


def test_wrong_smtp_password_is_unavailable_not_lost(dovecot: Dovecot, relay: Relay, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_TEST_SMTP_PASSWORD", "wrong")
    enqueue(tmp_path, note(1))
    sent, problems = deliver(tmp_path, transport(dovecot, relay, tmp_path))
    assert sent == 0 and "535" in problems[0] and len(pending(tmp_path)) == 1


def test_server_down_stops_the_batch_and_keeps_everything(dovecot: Dovecot, relay: Relay, tmp_path: Path) -> None:
    for number in range(3):
        enqueue(tmp_path, note(number))
    relay.stop()
    sent, problems = deliver(tmp_path, transport(dovecot, relay, tmp_path))
    assert sent == 0 and len(problems) == 1 and "3 mail(s) wait for the next tick" in problems[0]
    assert len(pending(tmp_path)) == 3
    enqueue(tmp_path, note(3))
    assert deliver(tmp_path, transport(dovecot, relay, tmp_path))[1][0].endswith(   # no second wait in one run
        "(earlier in this run); 4 mail(s) wait for the next tick")
    relay.start()
    forget_unreachable()                                 # the next tick
    assert deliver(tmp_path, transport(dovecot, relay, tmp_path)) == (4, [])
    assert pending(tmp_path) == [] and len(mailbox(dovecot, "alice@pbem.test")) == 4


def test_a_temporary_refusal_is_retried_then_the_batch_waits(dovecot: Dovecot, relay: Relay, tmp_path: Path) -> None:
    relay.handler.refuse = "451 4.3.0 Try again later"
    for number in range(3):
        enqueue(tmp_path, note(number))
    sent, problems = deliver(tmp_path, transport(dovecot, relay, tmp_path, retries=2))
    assert sent == 0 and len(problems) == 1 and "still deferring after 3 tries: 451" in problems[0]
    assert relay.handler.refused == 3 and len(pending(tmp_path)) == 3     # the other two were not tried
    relay.handler.refuse = ""
    forget_unreachable()                                                   # the next tick
    assert deliver(tmp_path, transport(dovecot, relay, tmp_path))[0] == 3


def test_permanent_refusal_of_an_unknown_recipient(dovecot: Dovecot, relay: Relay, tmp_path: Path) -> None:
    smtp = transport(dovecot, relay, tmp_path)
    with pytest.raises(MailRefused, match="550"):
        smtp.send(note(1, to="nobody@pbem.test"))
    smtp.send(note(2))                                  # the session is still good for the next one
    smtp.close()
    assert message_ids(mailbox(dovecot, "alice@pbem.test")) == ["<note-2@pbem.test>"]


def test_unreachable_port_raises_mail_unavailable(dovecot: Dovecot, relay: Relay, tmp_path: Path) -> None:
    relay.stop()
    with pytest.raises(MailUnavailable, match="after 2 attempts"):
        transport(dovecot, relay, tmp_path).send(note(1))


def test_a_permanently_refused_mail_stays_queued_and_the_rest_go(dovecot: Dovecot, relay: Relay,
                                                                 tmp_path: Path) -> None:
    enqueue(tmp_path, note(1, to="nobody@pbem.test"))
    enqueue(tmp_path, note(2))
    sent, problems = deliver(tmp_path, transport(dovecot, relay, tmp_path))
    assert sent == 1 and len(problems) == 1 and "550" in problems[0]
    [waiting] = pending(tmp_path)
    assert b"nobody@pbem.test" in waiting.read_bytes()


def test_starttls_is_never_skipped_when_the_server_does_not_offer_it(dovecot: Dovecot, tmp_path: Path) -> None:
    plain = Relay(dovecot, tls=False)                      # no STARTTLS, no AUTH
    try:
        smtp = transport(dovecot, plain, tmp_path)
        with pytest.raises(MailUnavailable, match="STARTTLS extension not supported"):
            smtp.send(note(1))
        assert plain.handler.accepted == 0
    finally:
        plain.stop()


def test_a_queued_mail_reaches_the_server_as_the_bytes_queued(dovecot: Dovecot, relay: Relay, tmp_path: Path) -> None:
    queued = enqueue(tmp_path, note(9)).read_bytes()
    assert deliver(tmp_path, transport(dovecot, relay, tmp_path)) == (1, [])
    client = login(dovecot, "alice@pbem.test")
    try:
        client.select_folder("INBOX", readonly=True)
        [uid] = client.search("ALL")
        raw = client.fetch([uid], [b"BODY.PEEK[]"])[uid][b"BODY[]"]
    finally:
        client.logout()
    assert raw.endswith(queued)             # the relay and the server only add their Received lines on top
    assert "<note-9@pbem.test>" in (tmp_path / "outbox" / "smtp-journal.txt").read_text()


def test_campaigns_of_one_server_and_account_share_one_session_within_a_run(dovecot: Dovecot, relay: Relay,
                                                                             tmp_path: Path) -> None:
    with shared_sessions():
        for number in range(3):
            campaign = tmp_path / f"c{number}"
            enqueue(campaign, note(number))
            assert deliver(campaign, transport(dovecot, relay, campaign)) == (1, [])
            assert relay.handler.quits == 0                          # kept for the next campaign
    assert (relay.handler.logins, relay.handler.quits) == (1, 1)    # quit when the run ends
    assert sorted(message_ids(mailbox(dovecot, "alice@pbem.test"))) == [f"<note-{n}@pbem.test>" for n in range(3)]
    for number in range(3):                                           # each campaign keeps its own journal
        assert f"<note-{number}@pbem.test>" in (tmp_path / f"c{number}" / "outbox" / "smtp-journal.txt").read_text()


def test_outside_a_run_and_with_other_settings_each_transport_has_its_own_session(dovecot: Dovecot, relay: Relay,
                                                                                  tmp_path: Path) -> None:
    for number in range(2):
        transport(dovecot, relay, tmp_path).send(note(number))
    with shared_sessions():
        transport(dovecot, relay, tmp_path).send(note(2))
        transport(dovecot, relay, tmp_path, timeout=7).send(note(3))
    assert (relay.handler.logins, relay.handler.accepted) == (4, 4)


def test_a_shared_session_the_server_dropped_is_opened_anew_and_nothing_sent_twice(dovecot: Dovecot, relay: Relay,
                                                                                   tmp_path: Path) -> None:
    with shared_sessions():
        first = transport(dovecot, relay, tmp_path / "c0")
        first.send(note(0))
        first.close()
        relay.stop()                                  # the server restarts: the kept session is dead
        relay.start()
        enqueue(tmp_path / "c1", note(1))
        assert deliver(tmp_path / "c1", transport(dovecot, relay, tmp_path / "c1")) == (1, [])
    assert (relay.handler.logins, relay.handler.accepted) == (1, 1)   # the restarted relay's own counts
    assert sorted(message_ids(mailbox(dovecot, "alice@pbem.test"))) == ["<note-0@pbem.test>", "<note-1@pbem.test>"]


def test_a_server_given_up_in_a_run_is_not_tried_again_through_a_shared_session(dovecot: Dovecot, relay: Relay,
                                                                              tmp_path: Path) -> None:
    with shared_sessions():
        transport(dovecot, relay, tmp_path / "c0").send(note(0))
        relay.handler.refuse = "451 4.3.0 Try again later"
        for number in (1, 2):
            enqueue(tmp_path / f"c{number}", note(number))
        first = deliver(tmp_path / "c1", transport(dovecot, relay, tmp_path / "c1"))
        second = deliver(tmp_path / "c2", transport(dovecot, relay, tmp_path / "c2"))
    assert "still deferring after 2 tries" in first[1][0] and "(earlier in this run)" in second[1][0]
    assert relay.handler.refused == 2 and len(pending(tmp_path / "c2")) == 1
