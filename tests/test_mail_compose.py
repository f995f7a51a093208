"""Outgoing mail: composing it, and delivering it into a real Maildir exactly once."""

from __future__ import annotations

import dataclasses
import mailbox
import re
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.mail.compose import OutgoingMail, compose, markdown_to_html, message_id_for
from pbem.mail.message import parse_message
from pbem.mail.outbox import MaildirTransport, open_transport

WHEN = datetime(2024, 6, 3, 10, 0, tzinfo=UTC)
REPORT = OutgoingMail(
    key="turn-3/report/red",
    to=("Red Player <red@example.org>",),
    subject="[rift] Turn 3 — report",
    markdown="# Turn 3\n\n| Unit | Hex |\n|---|---|\n| R-1 | T5 |\n\nÄrger im Tal.\n",
    sender="Daemon Rift GM <pbem@localhost>",
)


def build(mail: OutgoingMail = REPORT, campaign: str = "rift") -> EmailMessage:
    return compose(mail, campaign=campaign, domain="pbem.localhost", date=WHEN)


def reread(msg: EmailMessage) -> EmailMessage:
    parsed = message_from_bytes(msg.as_bytes(), policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def html_of(msg: EmailMessage) -> str:
    part = msg.get_body(("html",))
    assert part is not None
    return str(part.get_content())


def test_message_id_is_deterministic_per_campaign_and_key() -> None:
    first = message_id_for("rift", "turn-3/report/red", "pbem.localhost")
    assert first == message_id_for("rift", "turn-3/report/red", "pbem.localhost")
    assert re.fullmatch(r"<[0-9a-f]{32}@pbem\.localhost>", first)
    assert first != message_id_for("rift", "turn-3/report/blue", "pbem.localhost")
    assert message_id_for("ri", "ft/x", "d") != message_id_for("rif", "t/x", "d")


def test_compose_builds_plain_and_html_alternatives() -> None:
    msg = reread(build())
    assert msg.get_content_type() == "multipart/alternative"
    plain, html = msg.iter_parts()
    assert (plain.get_content_type(), html.get_content_type()) == ("text/plain", "text/html")
    assert plain.get_content_charset() == html.get_content_charset() == "utf-8"
    assert plain.get_content() == REPORT.markdown
    assert '<meta charset="utf-8">' in html_of(msg)
    assert "<h1>Turn 3</h1>" in html_of(msg) and "<td>R-1</td>" in html_of(msg)


def test_compose_headers() -> None:
    msg = reread(build())
    assert msg["From"] == REPORT.sender and msg["To"] == "Red Player <red@example.org>"
    assert msg["Subject"] == REPORT.subject
    assert msg["Date"] == "Mon, 03 Jun 2024 10:00:00 +0000"
    assert msg["Message-ID"] == message_id_for("rift", REPORT.key, "pbem.localhost")
    assert msg["X-Pbem-Key"] == REPORT.key and msg["MIME-Version"] == "1.0"
    assert msg["Auto-Submitted"] == "auto-generated"           # a report is automatic, not a reply
    for absent in ("In-Reply-To", "References", "List-Id"):
        assert absent not in msg


def test_compose_threads_replies_and_marks_auto_replies() -> None:
    ack = dataclasses.replace(
        REPORT,
        key="ack/<m1@example.org>",
        in_reply_to="<m1@example.org>",
        references=("<turn-3@pbem.localhost>",),
        auto_reply=True,
        list_id="rift.pbem.localhost",
    )
    msg = reread(build(ack))
    assert msg["In-Reply-To"] == "<m1@example.org>"
    assert msg["References"] == "<turn-3@pbem.localhost> <m1@example.org>"
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["List-Id"] == "<rift.pbem.localhost>"


def test_our_own_auto_reply_is_never_answered_by_us() -> None:
    ack = dataclasses.replace(REPORT, auto_reply=True)
    assert parse_message(build(ack).as_bytes()).auto == "auto-submitted"


def test_player_html_is_escaped_not_obeyed() -> None:
    press = dataclasses.replace(
        REPORT,
        subject="<b>press</b>",
        markdown='Red says: <script>alert("x")</script> <img src=x onerror=alert(1)>\n\n'
        "<div>\n<script>steal()</script>\n</div>\n\n"
        "[click](javascript:alert(1)) [map](https://example.org/map) `<code>` & co\n",
    )
    html = html_of(reread(build(press)))
    assert "<script" not in html and "<img" not in html and "<div>" not in html
    assert "&lt;script&gt;" in html and "<title>&lt;b&gt;press&lt;/b&gt;</title>" in html
    assert "javascript:" not in html and '<a href="https://example.org/map">map</a>' in html
    assert "<code>&lt;code&gt;</code> &amp; co" in html


def test_attachments_wrap_the_alternative_in_mixed() -> None:
    mail = dataclasses.replace(REPORT, attachments=(("map.png", "image/png", b"\x89PNG"),))
    msg = reread(build(mail))
    assert msg.get_content_type() == "multipart/mixed"
    alternative, attachment = msg.iter_parts()
    assert alternative.get_content_type() == "multipart/alternative"
    assert attachment.get_filename() == "map.png" and attachment.get_content() == b"\x89PNG"
    assert [part["MIME-Version"] for part in msg.walk()] == ["1.0", None, None, None, None]


def test_compose_keeps_headers_on_one_line() -> None:
    mail = dataclasses.replace(REPORT, subject="Hi\r\nBcc: victim@example.org")
    msg = reread(build(mail))
    assert msg["Subject"] == "Hi Bcc: victim@example.org" and "Bcc" not in msg


def test_compose_refuses_naive_dates_and_empty_recipients() -> None:
    with pytest.raises(ValueError, match="aware"):
        compose(REPORT, campaign="rift", domain="d", date=datetime(2024, 6, 3))
    with pytest.raises(ValueError, match="no recipients"):
        build(dataclasses.replace(REPORT, to=()))


# --- delivery -----------------------------------------------------------------------------


def delivered(root: Path) -> list[bytes]:
    box = mailbox.Maildir(root, create=False)
    return [box.get_bytes(key) for key in box.iterkeys()]


def test_maildir_transport_delivers_each_message_once(tmp_path: Path) -> None:
    msg = build()
    MaildirTransport(tmp_path / "outbox").send(msg)
    MaildirTransport(tmp_path / "outbox").send(msg)
    MaildirTransport(tmp_path / "outbox").send(build())
    assert delivered(tmp_path / "outbox") == [msg.as_bytes()]
    index = (tmp_path / "outbox" / ".delivered").read_text().splitlines()
    assert index == [msg["Message-ID"]]


def test_maildir_transport_does_not_resend_mail_taken_out(tmp_path: Path) -> None:
    transport = MaildirTransport(tmp_path / "outbox")
    transport.send(build())
    for file in (tmp_path / "outbox" / "new").iterdir():
        file.unlink()
    transport.send(build())
    assert delivered(tmp_path / "outbox") == []


def test_maildir_transport_recovers_from_a_crash_before_recording(tmp_path: Path) -> None:
    transport = MaildirTransport(tmp_path / "outbox")
    transport.send(build())
    (tmp_path / "outbox" / ".delivered").unlink()
    transport = MaildirTransport(tmp_path / "outbox")     # the run after the crash
    transport.send(build())
    transport.send(build(dataclasses.replace(REPORT, key="turn-3/report/blue")))
    assert len(delivered(tmp_path / "outbox")) == 2
    assert len((tmp_path / "outbox" / ".delivered").read_text().splitlines()) == 2


def test_maildir_transport_needs_a_message_id(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="Message-ID"):
        MaildirTransport(tmp_path).send(EmailMessage())


def test_open_transport(tmp_path: Path) -> None:
    transport = open_transport({"type": "maildir", "path": "outbox"}, tmp_path)
    assert isinstance(transport, MaildirTransport) and transport.path == tmp_path / "outbox"
    with pytest.raises(ValueError, match="unknown transport type 'uucp'; expected one of: maildir, smtp"):
        open_transport({"type": "uucp", "path": "x"}, tmp_path)
    with pytest.raises(ValueError, match="host: required"):
        open_transport({"type": "smtp"}, tmp_path)


def test_a_sender_name_with_a_colon_is_quoted_so_it_is_not_read_as_a_group() -> None:
    mail = OutgoingMail(key="k", to=("red@example.org",), subject="s", markdown="x", sender="Daemon Rift: rift <rift@x.org>")
    msg = message_from_bytes(compose(mail, campaign="rift", domain="x.org", date=WHEN).as_bytes(), policy=policy.default)
    [sender] = msg["From"].addresses
    assert (sender.display_name, sender.addr_spec) == ("Daemon Rift: rift", "rift@x.org")


def test_player_text_stays_readable_in_the_text_part_and_inert_in_html() -> None:
    from pbem.reports import md_escape

    text = md_escape("Fish & chips <3 *now*\n> not a quote <script>x</script>")
    assert text == "Fish & chips <3 \\*now\\*\n\\> not a quote <script>x</script>"
    assert md_escape("+1 S") == "+1 S"
    html = markdown_to_html(text)
    assert "&lt;script&gt;" in html and "<blockquote>" not in html and "<em>" not in html
