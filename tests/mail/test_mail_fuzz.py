"""Property-based tests: reading any mail never raises, and any reply pbem composes from
what a player can influence is a well-formed message whose header lines pbem chose."""

from __future__ import annotations

import base64
import quopri
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.mail.compose import OutgoingMail, compose
from pbem.mail.message import Submission, parse_message

WHEN = datetime(2026, 11, 25, 1, 0, tzinfo=UTC)
FUZZ = settings(derandomize=True, max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""Modest counts: the whole suite stays fast; derandomized, the same examples every run."""
HEADERS_WRITTEN = {"From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "References", "Auto-Submitted",
                   "List-Id", "X-Pbem-Key", "MIME-Version", "Content-Type", "Content-Transfer-Encoding"}

# Text a player controls: every kind of line break, control characters, lone surrogates,
# astral characters, Markdown and header syntax.
hostile_chars = st.one_of(
    st.characters(),
    st.sampled_from(list("\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029\x00\t\x7f\ud800\udfff<>@:;,\"()[]`*_=?")),
)
hostile_text = st.text(hostile_chars, max_size=120)
charsets = st.sampled_from(["utf-8", "utf-7", "unicode_escape", "raw_unicode_escape", "latin-1", "iso-2022-jp",
                            "shift_jis", "utf-16", "utf-32", "cp1252", "x-unknown", "us-ascii", ""])


@st.composite
def encoded_words(draw: st.DrawFn) -> str:
    """An RFC 2047 encoded word with any charset and payload, well-formed or not."""
    charset = draw(charsets)
    data = draw(st.binary(max_size=30)
                | st.text(hostile_chars, max_size=20).map(lambda t: t.encode("utf-8", "surrogatepass")))
    if draw(st.booleans()):
        return f"=?{charset}?B?{base64.b64encode(data).decode()}?="
    return f"=?{charset}?Q?{quopri.encodestring(data, header=True).decode('ascii', 'replace')}?="


header_values = st.lists(hostile_text | encoded_words() | st.sampled_from(["undisclosed-recipients:;", "<a@b>", "<>"]),
                         max_size=4).map(" ".join)
header_names = st.sampled_from(["Subject", "From", "Message-ID", "In-Reply-To", "References", "Date", "To",
                                "Content-Type", "Content-Transfer-Encoding", "Auto-Submitted", "X-Any"])


@st.composite
def bodies(draw: st.DrawFn, depth: int = 0) -> bytes:
    """A body part: text in some charset and transfer encoding, or a multipart nesting more."""
    if depth < 4 and draw(st.integers(0, 3)) == 0:
        boundary = f"b{depth}".encode()
        parts = draw(st.lists(bodies(depth + 1), min_size=0, max_size=3))
        inner = b"".join(b"--" + boundary + b"\r\n" + part + b"\r\n" for part in parts)
        closing = b"--" + boundary + b"--\r\n" if draw(st.booleans()) else b""
        return b"Content-Type: multipart/mixed; boundary=" + boundary + b"\r\n\r\n" + inner + closing
    charset = draw(charsets)
    text = draw(hostile_text)
    data = text.encode(charset if charset in ("utf-7", "utf-16", "latin-1") else "utf-8", "surrogatepass"
                       if charset not in ("utf-7", "latin-1", "utf-16") else "replace")
    cte = draw(st.sampled_from(["7bit", "8bit", "base64", "quoted-printable", "x-bogus"]))
    payload = (base64.encodebytes(data) if cte == "base64"
               else quopri.encodestring(data) if cte == "quoted-printable" else data)
    kind = draw(st.sampled_from(["text/plain", "text/html", "application/octet-stream", "multipart/alternative"]))
    return (f"Content-Type: {kind}; charset={charset}\r\nContent-Transfer-Encoding: {cte}\r\n\r\n".encode()
            + payload)


@st.composite
def hostile_mails(draw: st.DrawFn) -> bytes:
    """Subject, From and Message-ID always, hostile; then any headers, then any body."""
    first = [(name, draw(header_values)) for name in ("Subject", "From", "Message-ID")]
    headers = first + draw(st.lists(st.tuples(header_names, header_values), max_size=5))
    head = b"".join(f"{name}: {value}\r\n".encode("utf-8", "surrogatepass") for name, value in headers)
    return head + draw(bodies())


def assert_text_fields(sub: Submission) -> None:
    for value in (sub.message_id, sub.sender, sub.sender_name, sub.subject, sub.text, sub.auto, *sub.references,
                  *sub.problems):
        assert isinstance(value, str)
    assert "\x00" not in sub.subject + sub.sender_name and "\n" not in sub.subject


def reply(sub: Submission) -> OutgoingMail:
    """The reply intake would send: the subject, the sender's name and text quoted back."""
    return OutgoingMail(key=f"reply/{sub.message_id}/ack", to=(sub.sender or "red@example.org",),
                        subject=f"Re: {sub.subject}", markdown=f"Hello {sub.sender_name}\n\n{sub.text}\n",
                        sender="Rift <rift@example.org>", in_reply_to=sub.message_id,
                        references=(*sub.references, sub.message_id), auto_reply=True)


def assert_well_formed(msg: EmailMessage) -> None:
    """Serialises for SMTP; every header line is ASCII and pbem's own; reads back with its Message-ID."""
    data = msg.as_bytes(policy=policy.SMTP)
    head = data.partition(b"\r\n\r\n")[0]
    head.decode("ascii")
    assert b"\r" not in head.replace(b"\r\n", b"") and b"\n" not in head.replace(b"\r\n", b"")
    names = {line.partition(b":")[0].decode() for line in head.split(b"\r\n") if not line[:1].isspace()}
    assert names <= HEADERS_WRITTEN and all(len(line) <= 998 for line in data.split(b"\r\n"))
    back = message_from_bytes(data, policy=policy.default)
    assert back["Message-ID"] == msg["Message-ID"]


@settings(FUZZ, max_examples=200)
@given(st.binary(max_size=2000))
def test_parse_message_reads_any_bytes(raw: bytes) -> None:
    assert_text_fields(parse_message(raw))


@settings(FUZZ, max_examples=40)
@given(hostile_mails())
def test_parse_message_reads_any_hostile_mail_and_the_reply_is_well_formed(raw: bytes) -> None:
    sub = parse_message(raw)
    assert_text_fields(sub)
    assert_well_formed(compose(reply(sub), campaign="rift", domain="example.org", date=WHEN))


@settings(FUZZ, max_examples=40)
@given(subject=hostile_text, name=hostile_text, text=hostile_text, in_reply_to=hostile_text,
       references=st.lists(hostile_text, max_size=3), key=hostile_text)
def test_compose_takes_any_text_a_player_influences(subject: str, name: str, text: str, in_reply_to: str,
                                                    references: list[str], key: str) -> None:
    mail = OutgoingMail(key=key, to=(f"{name} <red@example.org>",), subject=subject, markdown=text,
                        sender=f"{name} <rift@example.org>", in_reply_to=in_reply_to, references=tuple(references),
                        list_id=name)
    assert_well_formed(compose(mail, campaign="rift", domain="example.org", date=WHEN))
