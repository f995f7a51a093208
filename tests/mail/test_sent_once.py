"""Sent mail is kept once: the transport holds the mail, the outbox only an index of what
it handed over; a crash between the hand-over and the index still sends once."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.delivery.outqueue import deliver, enqueue, pending, sent_names, was_sent
from pbem.mail.outbox import MaildirTransport
from pbem.state.campaign import KEEP_DAYS


def mail(n: int) -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "rift@pbem.localhost", "alice@test.localhost", f"report {n}"
    msg["Message-ID"] = f"<report-{n}@pbem.localhost>"
    msg.set_content(f"report {n}\n")
    return msg


def delivered(box: Path) -> list[Path]:
    return sorted((box / "new").glob("*"))


class PowerCut(Exception):
    pass


def test_a_sent_mail_is_stored_once_by_the_transport_and_indexed_by_the_outbox(tmp_path: Path) -> None:
    names = [enqueue(tmp_path, mail(n)).name for n in range(3)]
    box = tmp_path / "maildir"
    assert deliver(tmp_path, MaildirTransport(box)) == (3, [])
    assert len(delivered(box)) == 3 and not pending(tmp_path)
    assert not (tmp_path / "outbox" / "sent").exists()                # no second copy
    assert sent_names(tmp_path) == set(names)
    enqueue(tmp_path, mail(0))                                         # a repeated tick queues nothing
    assert not pending(tmp_path)


def test_a_crash_between_hand_over_and_index_still_sends_once(tmp_path: Path) -> None:
    for n in range(3):
        enqueue(tmp_path, mail(n))
    box = tmp_path / "maildir"

    def cut(name: str) -> None:
        raise PowerCut(name)

    with pytest.raises(PowerCut):
        deliver(tmp_path, MaildirTransport(box), after_send=cut)
    assert len(delivered(box)) == 1 and len(pending(tmp_path)) == 3 and not sent_names(tmp_path)
    assert deliver(tmp_path, MaildirTransport(box)) == (3, [])
    assert len(delivered(box)) == 3 and not pending(tmp_path) and len(sent_names(tmp_path)) == 3
    assert len((box / ".delivered").read_text().splitlines()) == 3


def test_a_crash_after_the_index_before_the_queue_is_emptied_sends_nothing_again(tmp_path: Path) -> None:
    path = enqueue(tmp_path, mail(1))
    box = tmp_path / "maildir"
    deliver(tmp_path, MaildirTransport(box))
    path.write_bytes(b"From: x\n\nthe queue file a crash left behind\n")
    (box / ".delivered").unlink()                                      # only the outbox's index remembers
    assert deliver(tmp_path, MaildirTransport(box)) == (0, [])
    assert not pending(tmp_path) and len(delivered(box)) == 1


def test_mail_filed_whole_by_an_earlier_version_still_counts_as_sent(tmp_path: Path) -> None:
    queued = enqueue(tmp_path, mail(7))
    old = tmp_path / "outbox" / "sent"
    old.mkdir(parents=True)
    queued.rename(old / queued.name)                                   # the previous layout
    assert was_sent(tmp_path, queued.name) and queued.name in sent_names(tmp_path)
    enqueue(tmp_path, mail(7))
    assert not pending(tmp_path)


def test_the_index_keeps_only_the_last_days(tmp_path: Path) -> None:
    index = tmp_path / "outbox" / "sent.txt"
    index.parent.mkdir(parents=True)
    index.write_text("2000-01-01 ancient.eml\n")
    enqueue(tmp_path, mail(1))
    deliver(tmp_path, MaildirTransport(tmp_path / "maildir"))
    lines = index.read_text().splitlines()
    assert len(lines) == 1 and "ancient.eml" not in lines[0] and KEEP_DAYS > 0


def test_a_queued_mail_goes_into_the_maildir_as_the_bytes_queued(tmp_path: Path) -> None:
    queued = enqueue(tmp_path, mail(7)).read_bytes()
    box = tmp_path / "maildir"
    assert deliver(tmp_path, MaildirTransport(box)) == (1, [])
    [stored] = delivered(box)
    assert stored.read_bytes() == queued.replace(b"\r\n", b"\n")     # a Maildir's lines end in LF
    assert (box / ".delivered").read_text() == "<report-7@pbem.localhost>\n"


def test_a_queued_mail_with_a_bcc_is_still_delivered_read_whole(tmp_path: Path) -> None:
    msg = mail(8)
    msg["Bcc"] = "hidden@test.localhost"
    enqueue(tmp_path, msg)
    box = tmp_path / "maildir"
    assert deliver(tmp_path, MaildirTransport(box)) == (1, [])
    [stored] = delivered(box)
    assert b"report 8" in stored.read_bytes() and (box / ".delivered").exists()
