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
    with pytest.raises(ValueError, match="no recipients with a usable address"):
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
    mail = OutgoingMail(key="k", to=("red@example.org",), subject="s", markdown="x",
                        sender="Daemon Rift: rift <rift@x.org>")
    msg = message_from_bytes(compose(mail, campaign="rift", domain="x.org", date=WHEN).as_bytes(),
                             policy=policy.default)
    [sender] = msg["From"].addresses
    assert (sender.display_name, sender.addr_spec) == ("Daemon Rift: rift", "rift@x.org")


def test_player_text_stays_readable_in_the_text_part_and_inert_in_html() -> None:
    from pbem.kit.texts import md_escape

    text = md_escape("Fish & chips <3 *now*\n> not a quote <script>x</script>")
    assert text == "Fish & chips <3 \\*now\\*\n\\> not a quote <script>x</script>"
    assert md_escape("+1 S") == "+1 S"
    html = markdown_to_html(text)
    assert "&lt;script&gt;" in html and "<blockquote>" not in html and "<em>" not in html


# --- hostile text: headers made safe in one place -------------------------------------------

OUTLOOK_ID = "<" + "DB9PR07MB1234ABCDEF0123456789" * 2 + "AB12@DB9PR07MB1234.eurprd07.prod.outlook.com>"


def reply_to(raw: bytes) -> EmailMessage:
    """What intake does with a mail: parse it, answer with its subject, text and ids."""
    sub = parse_message(raw)
    mail = OutgoingMail(key=f"reply/{sub.message_id}/ack", to=("red@example.org",), subject=f"Re: {sub.subject}",
                        markdown=f"You wrote:\n\n{sub.text}\n", sender="Rift <rift@x.org>",
                        in_reply_to=sub.message_id, references=(*sub.references, sub.message_id), auto_reply=True)
    return compose(mail, campaign="rift", domain="x.org", date=WHEN)


def serialised(msg: EmailMessage) -> bytes:
    return msg.as_bytes(policy=policy.SMTP)


@pytest.mark.parametrize("brk", ["\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\x00", "\r", "\n"])
def test_a_subject_with_any_line_break_character_gives_one_header_line(brk: str) -> None:
    msg = build(dataclasses.replace(REPORT, subject=f"hi{brk}there", sender=f"Rift{brk}GM <rift@x.org>"))
    back = message_from_bytes(serialised(msg), policy=policy.default)
    assert back["Subject"] == "hi there" and back["From"] == "Rift GM <rift@x.org>"


def test_an_encoded_vertical_tab_in_a_subject_is_answered() -> None:
    raw = b"From: red@example.org\r\nSubject: =?utf-8?q?hi=0Bthere?=\r\nMessage-ID: <vt@example.org>\r\n\r\nR-1 H\r\n"
    back = message_from_bytes(serialised(reply_to(raw)), policy=policy.default)
    assert back["Subject"] == "Re: hi there"


@pytest.mark.parametrize("typed", ["hi=?utf-8?q?=0Cthere?=", "=?utf-8?q?hi=0C?=Bcc: x@evil.example",
                                   "=?utf-8?q?=3D=3Futf-8=3Fq=3Fhi=3D0A=3F=3D?= there"])
def test_encoded_words_typed_as_plain_text_cannot_smuggle_a_line_break(typed: str) -> None:
    """A forum title is plain text, never decoded: what looks like an encoded word in it
    would be decoded by the email package when the reply's Subject is set."""
    msg = build(dataclasses.replace(REPORT, subject=f"Re: {typed}"))
    queued = message_from_bytes(serialised(msg), policy=policy.compat32)    # as delivery re-reads the queue
    assert queued.as_bytes()                                                # and writes it again
    subject = str(message_from_bytes(serialised(msg), policy=policy.default)["Subject"])
    assert subject.startswith("Re: ") and not re.search(r"[\x00-\x1f\x7f-\x9f]", subject)


def test_lone_surrogates_from_utf7_become_replacement_characters() -> None:
    raw = (b"From: red@example.org\r\nSubject: =?utf-7?Q?+2AA-?=\r\nMessage-ID: <u7@example.org>\r\n"
           b"Content-Type: text/plain; charset=utf-7\r\n\r\nR-1 H +2AA- end\r\n")
    back = message_from_bytes(serialised(reply_to(raw)), policy=policy.default)
    assert back["Subject"] == "Re: \ufffd"
    plain = back.get_body(("plain",))
    assert plain is not None and "R-1 H \ufffd end" in plain.get_content()
    assert "R-1 H \ufffd end" in html_of(back)


def test_nul_in_an_incoming_header_never_reaches_the_reply() -> None:
    raw = (b"From: red@example.org\r\nSubject: a\x00b =?utf-8?q?c=00d?=\r\n"
           b"Message-ID: <n\x00ul@example.org>\r\n\r\nx\x00y\r\n")
    data = serialised(reply_to(raw))
    assert b"\x00" not in data
    back = message_from_bytes(data, policy=policy.default)
    boundaries = [b.encode() for b in (part.get_boundary() for part in back.walk()) if b]
    for boundary in boundaries:       # random digits: "=00" may be part of one
        data = data.replace(boundary, b"")
    assert b"=00" not in data
    assert back["Subject"] == "Re: a b c d" and "In-Reply-To" not in back


def test_a_long_outlook_message_id_threads_verbatim() -> None:
    assert len(OUTLOOK_ID) >= 100
    raw = f"From: red@example.org\r\nSubject: orders\r\nMessage-ID: {OUTLOOK_ID}\r\n\r\nR-1 H\r\n".encode()
    data = serialised(reply_to(raw))
    assert f"In-Reply-To: {OUTLOOK_ID}\r\nReferences: {OUTLOOK_ID}\r\n".encode() in data
    back = message_from_bytes(data, policy=policy.default)
    assert back["In-Reply-To"] == OUTLOOK_ID and back["References"] == OUTLOOK_ID


def test_many_long_references_fold_between_ids_only() -> None:
    ids = tuple(OUTLOOK_ID.replace("AB12", f"{n:04}") for n in range(5))
    mail = dataclasses.replace(REPORT, subject="Turn 3", in_reply_to=ids[-1], references=ids[:-1])
    head = serialised(build(mail)).partition(b"\r\n\r\n")[0].decode("ascii")
    assert f"References: {ids[0]}\r\n {ids[1]}\r\n" in head
    assert all(len(line) <= 998 for line in head.split("\r\n")) and "=?" not in head
    assert reread(build(mail))["References"] == " ".join(ids)


def test_a_reply_to_mail_without_a_message_id_has_no_in_reply_to() -> None:
    raw = b"From: red@example.org\r\nSubject: orders\r\n\r\nR-1 H\r\n"
    back = message_from_bytes(serialised(reply_to(raw)), policy=policy.default)
    assert "In-Reply-To" not in back and "References" not in back
    assert back["Message-ID"].endswith("@x.org>")


def test_ids_that_are_not_message_ids_are_dropped_not_encoded() -> None:
    mail = dataclasses.replace(REPORT, in_reply_to="<läuft@example.org>",
                               references=("no-brackets@example.org", "<no-at>", "<fine@example.org>", "<a b@c>"))
    back = message_from_bytes(serialised(build(mail)), policy=policy.default)
    assert "In-Reply-To" not in back and back["References"] == "<fine@example.org>"


def test_safe_header_and_safe_text() -> None:
    from pbem.mail.headers import msg_ids, safe_header, safe_text

    assert safe_header(" a\x00b\u2028c \ud800 \t d\r\n") == "a b c \ufffd d"
    assert safe_text("a\x00b\r\nc\rd\u2028e\x0b\ud800\tf") == "ab\nc\nd\ne\ufffd\tf"
    assert msg_ids("x <a@b> <a@b> <c d@e> <f@g>") == ["<a@b>", "<f@g>"]


def test_autolinks_in_player_text_stay_text() -> None:
    from pbem.kit.texts import md_escape

    html = markdown_to_html(md_escape("<https://evil.example/login> <me@evil.example> [x](https://evil.example)"))
    assert "<a" not in html and "evil.example/login" in html


@pytest.mark.parametrize("to", [(), ("",), ("Bob <>",), ("undisclosed-recipients:;",)])
def test_a_mail_without_a_usable_recipient_is_refused_in_one_line(to: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match=r"^mail 'turn-3/report/red' has no recipients with a usable address$"):
        build(dataclasses.replace(REPORT, to=to))


def test_recipients_without_an_address_are_left_out() -> None:
    assert reread(build(dataclasses.replace(REPORT, to=("", "red@example.org"))))["To"] == "red@example.org"


def test_a_subject_that_fits_on_one_line_is_never_folded_behind_an_empty_first_line(tmp_path: Path) -> None:
    from pbem.delivery.outqueue import enqueue

    subject = "[dip-demo] reminder: Spring 1902 movement due Wed 02 Dec 2026 20:00 GMT"
    queued = enqueue(tmp_path, build(dataclasses.replace(REPORT, subject=subject))).read_bytes()
    assert f"\r\nSubject: {subject}\r\n".encode() in queued


def test_headers_written_with_the_kept_header_classes_are_the_email_packages_own() -> None:
    from email import policy

    from pbem.mail.headers import WRITING

    values = {"From": "Zoë Rift <rift@pbem.test>", "To": "a@pbem.test, Bob <b@pbem.test>",
              "Subject": "[rift] Turn 3: résumé " + "long " * 30, "Date": "Mon, 23 Nov 2026 10:00:00 +0000",
              "Content-Type": 'text/plain; charset="utf-8"', "Auto-Submitted": "auto-replied"}
    for _ in range(2):                                  # the second time from the kept classes
        for name, value in values.items():
            kept, own = WRITING.header_factory(name, value), policy.default.header_factory(name, value)
            assert type(kept).__mro__[1:] == type(own).__mro__[1:]
            assert kept.fold(policy=policy.SMTP) == own.fold(policy=policy.SMTP)
