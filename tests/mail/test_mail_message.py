"""Reading incoming mail: the sample mails in tests/data/mail and the text helpers."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pbem.mail.htmltext import html_to_text
from pbem.mail.message import Submission, parse_message
from pbem.mail.quoting import strip_reply

MAIL = Path(__file__).parents[1] / "data" / "mail"


def read(name: str) -> Submission:
    return parse_message((MAIL / name).read_bytes())


# Each sample mail and the order text pbem must read from it.
ORDER_TEXTS = {
    "plain.eml": "PLAYER red secret\nR-1 M T5-T6\n--- note: hold the line\nEND",
    "html_only.eml": "PLAYER red secret\nR-1 M T5-T6\nR-2 H\nR-3 M T1-T2\nFish & chips <3",
    "qp_latin1.eml": "PLAYER rouge secret\nPRESS Le général arrive à Königsberg - soon",
    "base64_utf8.eml": "PLAYER blue secret\nR-1 M T5-T6  # über den Fluß",
    "windows1252.eml": "PLAYER red secret\nPRESS \u201cNo retreat\u201d \u2013 costs 5\u20ac",
    "unknown_charset.eml": "PLAYER red secret\nPRESS café",
    "nested.eml": "PLAYER green secret\nR-1 M T5-T6 and a long line that the client has"
    " soft-wrapped for us in transit",
    "attachment_only.eml": "PLAYER red secret\nR-1 M T5-T6\nR-2 H",
    "body_and_attachment.eml": "PLAYER red secret\nR-1 M T5-T6\n\nR-2 M T7-T8\nR-3 H",
    "reply_gmail.eml": "PLAYER red secret\nR-1 M T5-T6",
    "reply_outlook.eml": "PLAYER red secret\nR-1 M T5-T6",
    "reply_outlook_html.eml": "PLAYER red secret\nR-1 M T5-T6",
    "signature.eml": "PLAYER red secret\nR-1 M T5-T6",
    "flowed.eml": "PLAYER red secret\nPRESS A long press release that the mail client wrapped"
    " at seventy-two characters for us.\nFrom the mountains we come",
    "broken_boundary.eml": "PLAYER red secret\nR-1 M T5-T6",
    "empty.eml": "",
}


@pytest.mark.parametrize("name", ORDER_TEXTS)
def test_sample_mail_gives_its_order_text(name: str) -> None:
    assert read(name).text == ORDER_TEXTS[name]


def test_plain_mail_headers() -> None:
    mail = read("plain.eml")
    assert mail.message_id == "<plain-1@example.org>"
    assert (mail.sender, mail.sender_name) == ("alice@example.org", "Alice Example")
    assert mail.subject == "Orders turn 3"
    assert mail.date == datetime(2024, 6, 3, 8, 0, tzinfo=UTC)
    assert mail.date is not None and mail.date.utcoffset() == timedelta(hours=2)
    assert (mail.auto, mail.too_large, mail.problems) == ("", False, ())
    assert mail.size == (MAIL / "plain.eml").stat().st_size


def test_clean_charsets_leave_no_problem_notes() -> None:
    for name in ("qp_latin1.eml", "base64_utf8.eml", "windows1252.eml", "html_only.eml"):
        assert read(name).problems == (), name


def test_unknown_charset_reads_as_latin1_with_a_note() -> None:
    assert read("unknown_charset.eml").problems == ("undecodable charset x-foo, read as latin-1",)


def test_mislabelled_charset_falls_back_with_a_note() -> None:
    raw = b"From: a@b.c\nContent-Type: text/plain; charset=us-ascii\n\nM\xc3\xbcnchen\n"
    mail = parse_message(raw)
    assert mail.text == "München"
    assert mail.problems == ("text does not fit charset us-ascii, read as utf-8",)


def test_nested_multipart_prefers_plain_and_ignores_forwarded_mail() -> None:
    text = read("nested.eml").text
    assert "HTML VERSION" not in text and "FORWARDED" not in text


def test_empty_plain_alternative_falls_back_to_html() -> None:
    raw = (
        b"From: a@b.c\nContent-Type: multipart/alternative; boundary=b\n\n"
        b"--b\nContent-Type: text/plain\n\n \n--b\nContent-Type: text/html\n\n<p>R-1 H</p>\n--b--\n"
    )
    assert parse_message(raw).text == "R-1 H"


def test_crlf_bom_and_nonbreaking_spaces_are_normalised() -> None:
    head = "From: a@b.c\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
    raw = head + "\ufeffR-1\u00a0M T5\u2011T6\r\nEND\r\n"
    assert parse_message(raw.encode()).text == "R-1 M T5-T6\nEND"


def test_reply_threading_ids() -> None:
    mail = read("reply_gmail.eml")
    assert mail.references == ("<turn-3@pbem.localhost>", "<ack-3@pbem.localhost>")


def test_encoded_subject_and_missing_from_are_noted_not_raised() -> None:
    mail = read("no_from.eml")
    assert mail.subject == "Befehle für Zug 3"
    assert (mail.sender, mail.date) == ("", None)
    assert "no sender address" in mail.problems
    assert mail.text == "PLAYER red secret"


def test_raw_utf8_and_unknown_encoded_words_in_headers() -> None:
    raw = (
        "From: Jörg Müller <Joerg@Example.DE>\n"
        "Subject: Zug =?x-foo?q?caf=E9?= =?utf-8?b?w7w=?= Ende\n\nR-1 H\n"
    ).encode()
    mail = parse_message(raw)
    assert (mail.sender_name, mail.sender) == ("Jörg Müller", "joerg@example.de")
    assert mail.subject == "Zug caféü Ende"
    assert mail.problems == ("undecodable charset x-foo, read as latin-1",)


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\x00\xff\xfe garbage\n\x01\x02",
        b"From: <<<@@@>>>\nDate: 31 Feb 2024\nContent-Type: multipart/mixed; boundary=\n\n--\n",
        b'Content-Type: text/plain; charset="ut\x00f"\nContent-Transfer-Encoding: base64\n\n!!!\n',
        b"Content-Type: text/html\n\n<p>x<![foo bar <script>",
        b"Content-Type: text/plain; charset=rot13\n\nhello\n",
        b'Content-Type: text/plain; charset="a\x00b"\n\n\xff\xfe 8-bit body\n',
        b"\n\n\n",
    ],
)
def test_malformed_input_never_raises(raw: bytes) -> None:
    mail = parse_message(raw)
    assert mail.size == len(raw)
    assert mail.message_id.startswith("<sha256-")


def test_garbage_bytes_still_give_a_submission_with_problems() -> None:
    mail = parse_message(b"\x00\xff\xfe garbage\n\x01\x02")
    assert mail.sender == "" and "garbage" in mail.text
    assert "no sender address" in mail.problems


def test_broken_mime_is_read_as_plain_text_with_a_note() -> None:
    assert read("broken_boundary.eml").problems == ("broken MIME structure, read as plain text",)


def test_mail_without_text_part_is_noted() -> None:
    raw = (
        b"From: a@b.c\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=\n"
    )
    mail = parse_message(raw)
    assert (mail.text, mail.problems) == ("", ("no readable text part",))


def test_empty_mail_is_noted() -> None:
    assert read("empty.eml").problems == ("no text in the message",)


def test_oversized_mail_is_flagged_and_its_body_not_read() -> None:
    raw = (MAIL / "plain.eml").read_bytes() + b"x" * 300
    mail = parse_message(raw, max_bytes=len(raw) - 1)
    assert mail.too_large and mail.text == ""
    assert mail.sender == "alice@example.org" and mail.message_id == "<plain-1@example.org>"
    assert mail.size == len(raw)
    assert mail.problems == (f"message too large ({len(raw)} bytes, limit {len(raw) - 1})",)


@pytest.mark.parametrize(
    ("name", "auto"),
    [("bounce.eml", "bounce"), ("vacation.eml", "auto-submitted"), ("list.eml", "mailing-list")],
)
def test_machine_mail_is_recognised(name: str, auto: str) -> None:
    assert read(name).auto == auto


@pytest.mark.parametrize(
    ("header", "auto"),
    [
        ("Auto-Submitted: auto-generated", "auto-submitted"),
        ("Auto-Submitted: no", ""),
        ("X-Autoreply: yes", "auto-submitted"),
        ("X-Autorespond: vacation", "auto-submitted"),
        ("Precedence: bulk", "precedence"),
        ("Precedence: junk", "precedence"),
        ("Precedence: first-class", ""),
        ("List-Unsubscribe: <mailto:x@y.z>", "mailing-list"),
        ("Return-Path: <>", "bounce"),
        ("Content-Type: multipart/report; report-type=delivery-status; boundary=x", "bounce"),
    ],
)
def test_auto_headers(header: str, auto: str) -> None:
    raw = f"From: Bob <bob@example.org>\n{header}\n\nhello\n".encode()
    assert parse_message(raw).auto == auto


def test_postmaster_is_a_bounce() -> None:
    assert parse_message(b"From: postmaster@example.org\n\nhello\n").auto == "bounce"


def test_missing_message_id_becomes_a_stable_content_hash() -> None:
    raw = (MAIL / "no_message_id.eml").read_bytes()
    first, again = parse_message(raw), parse_message(raw.replace(b"\n", b"\r\n"))
    digest = hashlib.sha256(raw).hexdigest()
    assert first.message_id == again.message_id == f"<sha256-{digest}@pbem.invalid>"
    assert parse_message(raw + b"R-1 H\n").message_id != first.message_id


def test_message_id_without_angle_brackets_gets_them() -> None:
    assert parse_message(b"Message-ID: abc@example.org\n\nx\n").message_id == "<abc@example.org>"


# --- strip_reply --------------------------------------------------------------------------

ORDERS = "PLAYER red secret\nR-1 M T5-T6"


@pytest.mark.parametrize(
    "tail",
    [
        "-- \nAlice",
        "--\nAlice",
        "> R-9 M T1-T2",
        "On Mon, 3 Jun 2024 at 09:00, GM <pbem@localhost> wrote:\nR-9",
        "On Mon, 3 Jun 2024 at 09:00, Daemon Rift GM <\npbem@localhost> wrote:\nR-9",
        "Am 03.06.2024 um 09:00 schrieb GM <pbem@localhost>:\nR-9",
        "-----Original Message-----\nR-9",
        "From: GM <pbem@localhost>\nSent: Monday, June 3, 2024 9:00 AM\nR-9",
        "From: GM <pbem@localhost>\nDate: Monday, June 3, 2024 9:00 AM\nR-9",
        "________________________________\nFrom: GM\nR-9",
    ],
)
def test_strip_reply_stops_at_quotes_and_signatures(tail: str) -> None:
    assert strip_reply(f"{ORDERS}\n\n{tail}\n") == ORDERS


@pytest.mark.parametrize(
    "line",
    ["--- note", "-- R-1 H", "R-1 M T5-T6 -- ", "From: the north", "On turn 3 we attack", "----"],
)
def test_strip_reply_keeps_lines_that_only_look_like_markers(line: str) -> None:
    assert strip_reply(f"{ORDERS}\n{line}\nEND") == f"{ORDERS}\n{line}\nEND"


def test_strip_reply_needs_sent_or_date_after_from() -> None:
    text = f"{ORDERS}\n\nFrom: the hills\nR-2 H"
    assert strip_reply(text) == text


# --- html_to_text -------------------------------------------------------------------------


def test_html_blocks_become_lines_and_entities_are_decoded() -> None:
    html = "<p>A&amp;B</p><div>one<br>two</div><table><tr><td>x</td><td>y</td></tr></table>"
    assert html_to_text(html + "<ul><li>i</li><li>j</li></ul>") == "A&B\none\ntwo\nx y\ni\nj"


def test_html_scripts_styles_and_titles_are_dropped() -> None:
    html = "<head><title>T</title><style>p {}</style></head><p>keep</p><script>alert(1)</script>"
    assert html_to_text(html) == "keep"


def test_html_blockquotes_are_marked_as_quotes() -> None:
    assert html_to_text("<p>mine</p><blockquote><p>theirs</p></blockquote>") == "mine\n> theirs"


def test_html_whitespace_collapses_except_in_pre() -> None:
    assert html_to_text("<p>a \n  b</p><pre>x  y\n  z</pre>") == "a b\nx  y\n  z"


# --- hostile mail --------------------------------------------------------------------------


def nested(levels: int, text: bytes = b"PLAYER red secret\r\nR-1 H\r\n") -> bytes:
    inner = b"Content-Type: text/plain\r\n\r\n" + text
    for level in range(levels):
        boundary = b"b%d" % level
        inner = (b"Content-Type: multipart/mixed; boundary=" + boundary + b"\r\n\r\n--" + boundary + b"\r\n"
                 + inner + b"\r\n--" + boundary + b"--\r\n")
    return b"From: red@example.org\r\nSubject: deep\r\nMessage-ID: <deep@example.org>\r\n" + inner


def test_980_nested_multipart_levels_are_read_flat_not_raised() -> None:
    raw = nested(980)
    assert 60_000 < len(raw) < 256 * 1024
    mail = parse_message(raw)
    assert mail.text == "PLAYER red secret\nR-1 H"
    assert "parts nested too deeply to be read as MIME, read as plain text" in mail.problems
    assert (mail.sender, mail.message_id) == ("red@example.org", "<deep@example.org>")


def test_parts_nested_deeper_than_the_limit_are_noted_not_read() -> None:
    from pbem.mail.message import MAX_DEPTH

    assert parse_message(nested(MAX_DEPTH)).text == "PLAYER red secret\nR-1 H"
    deep = parse_message(nested(MAX_DEPTH + 5))
    assert deep.text == "" and f"parts nested deeper than {MAX_DEPTH} levels were not read" in deep.problems


@pytest.mark.parametrize("sender", ["", "From: \r\n", "From: undisclosed-recipients:;\r\n", "From: Bob\r\n",
                                    "From: bob@\r\n", "From: <@example.org>\r\n", "From: a\x00b@example.org\r\n",
                                    "From: Friends: a@example.org, b@example.org;\r\n"])
def test_a_mail_without_a_usable_sender_has_sender_empty(sender: str) -> None:
    mail = parse_message(f"{sender}Subject: hi\r\n\r\nR-1 H\r\n".encode())
    assert mail.sender == "" and "no sender address" in mail.problems


def test_line_breaks_and_nul_in_headers_become_spaces() -> None:
    raw = b"From: =?utf-8?q?Red=0BPlayer=00?= <red@example.org>\r\nSubject: =?utf-8?q?hi=0Bthere?= a\x00b\r\n\r\nx\r\n"
    mail = parse_message(raw)
    assert (mail.subject, mail.sender_name, mail.sender) == ("hi there a b", "Red Player", "red@example.org")
