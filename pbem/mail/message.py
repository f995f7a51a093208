"""One incoming email as a Submission: who sent it, the order text, and whether a machine
sent it (then it must never be answered, or two robots mail each other forever).

Whatever arrives (broken MIME, unknown charsets, garbage bytes) gives a Submission with
problems noted; one bad mail must never stop a tick.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from email import message_from_bytes
from email.message import Message
from email.policy import Compat32
from email.quoprimime import header_decode
from email.utils import collapse_rfc2231_value, getaddresses, parsedate_to_datetime

from pbem.mail.headers import safe_header
from pbem.mail.htmltext import html_to_text, normalise
from pbem.mail.quoting import strip_reply


@dataclass(frozen=True)
class Submission:
    """What pbem needs from one incoming mail."""

    message_id: str
    """The Message-ID with <>, or "<sha256-HEX@pbem.invalid>" from the raw bytes."""
    sender: str
    """Bare From address, lower-cased; "" when there is no usable one (never answered)."""
    sender_name: str
    subject: str
    """Decoded, on one line: no line breaks, NUL or other control characters."""
    date: datetime | None
    """Aware datetime from the Date header; None if missing or unparseable."""
    text: str
    """The orders: body without quoted reply and signature, then any .txt or .toml attachments."""
    references: tuple[str, ...]
    """References then In-Reply-To ids, for threading replies."""
    auto: str
    """Empty for a person's mail, else why it must never be answered: "bounce",
    "auto-submitted", "mailing-list" or "precedence"."""
    size: int
    too_large: bool
    """size > max_bytes; the body is not read and text is ""."""
    problems: tuple[str, ...]
    """Human-readable notes on what could not be read cleanly."""
    forum_account: str = ""
    """For a forum post, the account that wrote it (the forum authenticated it); "" for mail."""
    public: bool = False
    """A post in a public forum thread, which everyone reads (mail and private messages are not)."""


def parse_message(raw: bytes, *, max_bytes: int = 256 * 1024) -> Submission:
    """Read one raw mail; never raises."""
    problems: list[str] = []
    too_large = len(raw) > max_bytes
    msg = _parse(_head(raw) if too_large else raw, problems)
    sender_name, sender = _sender(msg, problems)
    if too_large:
        problems.append(f"message too large ({len(raw)} bytes, limit {max_bytes})")
    return Submission(
        message_id=_message_id(msg, raw),
        sender=sender,
        sender_name=sender_name,
        subject=_header(msg, "Subject", problems),
        date=_date(msg),
        text="" if too_large else _safe_order_text(msg, problems),
        references=_references(msg),
        auto=_auto(msg, sender),
        size=len(raw),
        too_large=too_large,
        problems=tuple(dict.fromkeys(problems)),
    )


# --- headers ---------------------------------------------------------------------------


class _LenientPolicy(Compat32):
    """compat32 parsing, but header values come back as one unfolded str, raw 8-bit
    bytes read as UTF-8 (else latin-1) instead of an opaque Header object."""

    def header_fetch_parse(self, name: str, value: str) -> str:
        data = value.encode("utf-8", "surrogateescape")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
        return re.sub(r"\r?\n(?=[ \t])", "", text)


_LENIENT = _LenientPolicy()
_ID = re.compile(r"<[^<>\s]+>")
_ENCODED_WORD = re.compile(r"=\?([^?\s*]+)(?:\*[^?\s]*)?\?([QqBb])\?([^?\s]*)\?=")


def _parse(raw: bytes, problems: list[str]) -> Message:
    """The parsed message. The email package parses nested multiparts by recursion, so a
    mail nested a thousand levels deep exhausts the stack: such a mail is read flat."""
    try:
        return message_from_bytes(raw, policy=_LENIENT)
    except RecursionError:
        problems.append("parts nested too deeply to be read as MIME, read as plain text")
        return _flat(raw)


_STRUCTURE = re.compile(r"--\S*|content-[\w-]+:.*|[ \t]+\S.*=.*", re.IGNORECASE)
"""Lines of MIME structure: boundaries, part headers and their folded parameters."""


def _flat(raw: bytes) -> Message:
    """The headers, and as a plain text body every line of the mail that is not MIME
    structure (boundaries and part headers)."""
    msg = message_from_bytes(_head(raw), policy=_LENIENT)
    for name in ("Content-Type", "Content-Transfer-Encoding", "Content-Disposition"):
        del msg[name]
    body = raw[len(_head(raw)):].decode("utf-8", "replace")
    msg.set_payload("\n".join(line for line in body.splitlines() if not _STRUCTURE.fullmatch(line)))
    return msg


def _head(raw: bytes) -> bytes:
    """The header block alone: a too-large mail gets a reply but its body is never read."""
    ends = (raw.find(b"\n\n"), raw.find(b"\r\n\r\n"))
    return raw[: min((end for end in ends if end >= 0), default=len(raw))]


def _header(msg: Message, name: str, problems: list[str]) -> str:
    """A header's text, decoded, on one line: line breaks, NUL and other control characters
    an encoded word carried become spaces, so they never reach a reply or a journal."""
    return safe_header(_decode_words(str(msg.get(name, "")), problems))


def _decode_words(value: str, problems: list[str]) -> str:
    """Decode RFC 2047 encoded words; whitespace between two encoded words goes."""
    parts: list[str] = []
    position = 0
    for match in _ENCODED_WORD.finditer(value):
        between = value[position : match.start()]
        if not position or between.strip():
            parts.append(between)
        parts.append(_decode_word(match, problems))
        position = match.end()
    parts.append(value[position:])
    return "".join(parts)


def _decode_word(match: re.Match[str], problems: list[str]) -> str:
    charset, encoding, text = match.groups()
    try:
        if encoding in "Bb":
            data = base64.b64decode(text + "=" * (-len(text) % 4))
        else:
            data = header_decode(text).encode("latin-1")
    except (binascii.Error, ValueError, UnicodeEncodeError):
        return match.group()
    return _decode(data, charset, problems)


_ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9_.-]+")
"""An address a reply can go to: local@domain in printable ASCII, nothing that needs quoting."""


def _sender(msg: Message, problems: list[str]) -> tuple[str, str]:
    """(name, address) of the From; the address is "" when there is no usable one (none,
    empty, a group such as `undisclosed-recipients:;`, no @, several authors): such mail is
    never answered."""
    found = [pair for pair in getaddresses([str(msg.get("From", ""))]) if any(pair)]
    name, address = found[0] if len(found) == 1 else ("", "")
    address = address.strip().lower()
    if not _ADDRESS.fullmatch(address):
        problems.append("no sender address")
        address = ""
    return safe_header(_decode_words(name, problems)), address


def _message_id(msg: Message, raw: bytes) -> str:
    """The Message-ID, else a hash of the content (line endings and trace fields left out,
    so the same mail read over IMAP or from a Maildir, or delivered twice, gets the same id)."""
    value = str(msg.get("Message-ID", "")).strip()
    if found := _ID.search(value):
        return found.group()
    if re.fullmatch(r"[^<>\s]+", value):
        return f"<{value}>"
    return f"<sha256-{_content_digest(raw)}@pbem.invalid>"


_TRACE = re.compile(rb"(return-path|delivered-to|x-original-to|received)[ \t]*:", re.IGNORECASE)


def _content_digest(raw: bytes) -> str:
    """SHA-256 of the mail without the trace fields each delivery adds (Received,
    Return-Path, Delivered-To, X-Original-To), so two deliveries of one mail match."""
    head, blank, body = raw.replace(b"\r\n", b"\n").partition(b"\n\n")
    kept: list[bytes] = []
    skipping = False
    for line in head.split(b"\n"):
        if not line[:1].isspace():      # a new field; a folded line belongs to the one before
            skipping = bool(_TRACE.match(line))
        if not skipping:
            kept.append(line)
    return hashlib.sha256(b"\n".join(kept) + blank + body).hexdigest()


def _references(msg: Message) -> tuple[str, ...]:
    ids = _ID.findall(f"{msg.get('References', '')} {msg.get('In-Reply-To', '')}")
    return tuple(dict.fromkeys(ids))


def _date(msg: Message) -> datetime | None:
    try:
        parsed = parsedate_to_datetime(str(msg.get("Date", "")))
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


# --- machine mail ----------------------------------------------------------------------


def _auto(msg: Message, sender: str) -> str:
    """Why this mail must never be answered (RFC 3834), or ""; a bounce counts first
    because bounces usually also say Auto-Submitted."""
    if _is_bounce(msg, sender):
        return "bounce"
    if _value(msg, "Auto-Submitted") not in ("", "no") or _has(msg, "X-Autoreply", "X-Autorespond"):
        return "auto-submitted"
    if _has(msg, "List-Id", "List-Unsubscribe"):
        return "mailing-list"
    if _value(msg, "Precedence") in ("bulk", "junk", "list", "auto_reply"):
        return "precedence"
    return ""


def _is_bounce(msg: Message, sender: str) -> bool:
    return (
        _value(msg, "Return-Path") == "<>"
        or sender.partition("@")[0] in ("mailer-daemon", "postmaster")
        or msg.get_content_type() == "multipart/report"
        or _has(msg, "X-Failed-Recipients")
    )


def _value(msg: Message, name: str) -> str:
    """A header's main value, lower-cased, without parameters."""
    return str(msg.get(name, "")).partition(";")[0].strip().lower()


def _has(msg: Message, *names: str) -> bool:
    return any(name in msg for name in names)


# --- body ------------------------------------------------------------------------------


def _safe_order_text(msg: Message, problems: list[str]) -> str:
    try:
        return _order_text(msg, problems)
    except Exception as error:  # noqa: BLE001  (the email package has crashed on hostile MIME before)
        problems.append(f"could not read the message body ({type(error).__name__})")
        return ""


def _order_text(msg: Message, problems: list[str]) -> str:
    """The body without reply and signature; .txt attachments are taken whole after it."""
    body, files = _texts(msg, problems)
    text = _tidy(strip_reply(body))
    attached = "\n\n".join(_tidy(file) for file in files if file.strip())
    if not text:
        text = attached
    elif attached:
        text = f"{text}\n\n{attached}"
    if not text and "no readable text part" not in problems:
        problems.append("no text in the message")
    return text


def _texts(msg: Message, problems: list[str]) -> tuple[str, list[str]]:
    """The body (plain text preferred over HTML) and the texts of .txt and .toml attachments."""
    found: dict[str, list[str]] = {"plain": [], "html": [], "file": []}
    for part in _leaves(msg, problems):
        kind = _kind(part)
        if kind == "broken":
            problems.append("broken MIME structure, read as plain text")
            kind = "plain"
        if kind:
            found[kind].append(_part_text(part, problems))
    if not any(found.values()):
        problems.append("no readable text part")
    body = "\n".join(found["plain"])
    if not body.strip():  # some clients send an empty plain alternative to an HTML mail
        body = "\n".join(html_to_text(page) for page in found["html"])
    return body, found["file"]


MAX_DEPTH = 20
"""Multipart levels read; real mail nests three or four deep."""


def _leaves(top: Message, problems: list[str]) -> Iterator[Message]:
    """Leaf parts in order, depth first without recursion; forwarded messages are skipped
    (not the sender's orders), and so are parts nested deeper than MAX_DEPTH."""
    stack: list[tuple[Message, int]] = [(top, 0)]
    while stack:
        part, depth = stack.pop()
        if not part.is_multipart():
            yield part
        elif depth >= MAX_DEPTH:
            problems.append(f"parts nested deeper than {MAX_DEPTH} levels were not read")
        else:
            subs = [sub for sub in part.get_payload() if isinstance(sub, Message)]
            stack += [(sub, depth + 1) for sub in reversed(subs) if sub.get_content_maintype() != "message"]


def _kind(part: Message) -> str:
    """What a part holds: "plain", "html", "file" (a .txt or .toml attachment), "broken" (a
    multipart without parts), or "" (nothing that can hold orders)."""
    content_type = part.get_content_type()
    filename = part.get_filename() or ""
    attachment = part.get_content_disposition() == "attachment"
    if filename.lower().endswith((".txt", ".toml")) or (attachment and content_type == "text/plain"):
        return "file"
    if attachment:
        return ""
    if content_type in ("text/plain", "text/html"):
        return content_type[5:]
    return "broken" if part.get_content_maintype() == "multipart" else ""


def _part_text(part: Message, problems: list[str]) -> str:
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes):
        return ""
    text = normalise(_decode(data, part.get_content_charset(), problems))
    if _param(part, "format") == "flowed":
        text = _unflow(text, delsp=_param(part, "delsp") == "yes")
    return text


def _param(part: Message, name: str) -> str:
    value = part.get_param(name)
    return str(collapse_rfc2231_value(value) if value else "").strip().lower()


def _decode(data: bytes, charset: str | None, problems: list[str]) -> str:
    """Bytes to text by the declared charset; an unknown charset is read as latin-1, and
    text that does not fit its charset is tried as UTF-8, then Windows-1252."""
    declared = (charset or "").strip().lower()
    for name in dict.fromkeys([declared or "utf-8", "utf-8", "cp1252"]):
        try:
            text = data.decode(name)
        except LookupError:
            problems.append(f"undecodable charset {declared}, read as latin-1")
            return data.decode("latin-1")
        except ValueError:
            continue
        if name != (declared or "utf-8"):
            problems.append(f"text does not fit charset {declared or 'utf-8'}, read as {name}")
        return text
    problems.append("text fits no known charset, read as latin-1")
    return data.decode("latin-1")






def _unflow(text: str, *, delsp: bool) -> str:
    """Rejoin format=flowed soft line breaks (RFC 3676) so a long order stays one line;
    quoted lines are left alone, they are stripped anyway."""
    lines: list[str] = []
    soft = False
    for line in text.split("\n"):
        quoted = line.startswith(">")
        if not quoted and line.startswith(" "):
            line = line[1:]
        if soft and not quoted:
            lines[-1] += line
        else:
            lines.append(line)
        soft = not quoted and line.endswith(" ") and line != "-- "
        if soft and delsp:
            lines[-1] = lines[-1][:-1]
    return "\n".join(lines)


def _tidy(text: str) -> str:
    """No trailing spaces, no blank lines at either end."""
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")
