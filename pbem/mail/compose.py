"""Outgoing mail: Markdown in, a multipart/alternative message (plain + HTML) out.

Message-IDs are derived from the campaign and the mail's key, so composing the same mail
again after a crash gives the same message, and delivery can recognise it.
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage, MIMEPart
from email.utils import format_datetime, formataddr
from xml.etree.ElementTree import Element

import markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor


@dataclass(frozen=True)
class OutgoingMail:
    key: str
    """Unique and stable within the campaign, e.g. "ack/<id>" or "turn-3/report/red"."""
    to: tuple[str, ...]
    subject: str
    markdown: str
    sender: str
    """The From header, e.g. "Daemon Rift GM <pbem@localhost>"."""
    in_reply_to: str = ""
    references: tuple[str, ...] = ()
    auto_reply: bool = False
    """Auto-Submitted: auto-replied for an answer to a mail, else auto-generated (RFC 3834):
    every mail pbem sends is automatic, and says so, so that vacation notices and other
    robots do not answer it."""
    list_id: str = ""
    attachments: tuple[tuple[str, str, bytes], ...] = ()
    """(filename, mime type, data)."""


def message_id_for(campaign: str, key: str, domain: str) -> str:
    """The Message-ID of a campaign's mail: the same campaign and key always give the same id."""
    digest = hashlib.sha256(f"{campaign}\0{key}".encode()).hexdigest()[:32]
    return f"<{digest}@{domain}>"


def compose(mail: OutgoingMail, *, campaign: str, domain: str, date: datetime) -> EmailMessage:
    """The finished message: text/plain and text/html alternatives, wrapped in
    multipart/mixed when there are attachments."""
    if date.tzinfo is None:
        raise ValueError("compose needs an aware date")
    if not mail.to:
        raise ValueError(f"mail {mail.key!r} has no recipients")
    msg = EmailMessage()
    for name, value in _headers(mail, message_id_for(campaign, mail.key, domain), date):
        msg[name] = value
    msg.set_content(mail.markdown, cte="quoted-printable")
    msg.add_alternative(_document(mail), subtype="html", cte="quoted-printable")
    for filename, mime_type, data in mail.attachments:
        maintype, subtype = _mime(mime_type)
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
    for part in msg.iter_parts():
        _drop_mime_version(part)
    return msg


def markdown_to_html(text: str) -> str:
    """Markdown (tables, fenced code, sane lists) to an HTML fragment; raw HTML in the
    source shows as text and links other than http(s), mailto and cid lose their target,
    because players' words end up in reports."""
    converter = _converter()
    try:
        return converter.convert(text)
    finally:
        converter.reset()


@functools.lru_cache(maxsize=1)
def _converter() -> markdown.Markdown:
    """One converter, reset after each use: building it compiles every pattern again."""
    extensions: list[str | Extension] = ["tables", "fenced_code", "sane_lists", _Untrusted()]
    return markdown.Markdown(extensions=extensions)


def _headers(mail: OutgoingMail, message_id: str, date: datetime) -> list[tuple[str, str]]:
    optional = [
        ("In-Reply-To", mail.in_reply_to),
        ("References", _references(mail)),
        ("Auto-Submitted", "auto-replied" if mail.auto_reply else "auto-generated"),
        ("List-Id", _list_id(mail.list_id)),
    ]
    return [
        ("From", _mailbox(mail.sender)),
        ("To", ", ".join(mail.to)),
        ("Subject", _one_line(mail.subject)),
        ("Date", format_datetime(date)),
        ("Message-ID", message_id),
        *((name, value) for name, value in optional if value),
        ("X-Pbem-Key", _one_line(mail.key)),
    ]


def _drop_mime_version(part: MIMEPart) -> None:
    """email adds MIME-Version to every part it creates; it belongs on the top only."""
    del part["MIME-Version"]
    for sub in part.iter_parts():
        _drop_mime_version(sub)


def _references(mail: OutgoingMail) -> str:
    """The given references, ending with the mail replied to (RFC 5322 threading)."""
    ids = [*mail.references, mail.in_reply_to] if mail.in_reply_to else list(mail.references)
    return " ".join(dict.fromkeys(ids))


def _list_id(value: str) -> str:
    return value if not value or "<" in value else f"<{value}>"


def _mailbox(value: str) -> str:
    """`Name <address>` with the name quoted when it needs it: an unquoted "Daemon Rift: rift"
    would read as an RFC 5322 group, and mail clients would show no sender at all."""
    name, bracket, rest = _one_line(value).rpartition("<")
    if not bracket or not rest.endswith(">"):
        return _one_line(value)
    return formataddr((name.strip().strip('"'), rest[:-1].strip()))


def _one_line(text: str) -> str:
    """Header values never carry line breaks (no header injection from names)."""
    return re.sub(r"[\r\n]+\s*", " ", text).strip()


def _mime(mime_type: str) -> tuple[str, str]:
    maintype, _, subtype = mime_type.strip().lower().partition("/")
    if not maintype or not subtype or maintype in ("multipart", "message"):
        return "application", "octet-stream"
    return maintype, subtype


def _document(mail: OutgoingMail) -> str:
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f"<title>{html.escape(mail.subject)}</title></head>\n"
        f"<body>\n{markdown_to_html(mail.markdown)}\n</body></html>\n"
    )


_SAFE_URL = re.compile(r"(https?:|mailto:|cid:|[^:]*$)", re.IGNORECASE)


class _SafeLinks(Treeprocessor):
    """Drops href/src values with other schemes (javascript:, data:, ...)."""

    def run(self, root: Element) -> None:
        for element in root.iter():
            for attribute in ("href", "src"):
                value = element.get(attribute)
                if value is not None and not _SAFE_URL.match(value):
                    del element.attrib[attribute]


class _Untrusted(Extension):
    """Raw HTML is escaped instead of passed through (the Python-Markdown way since
    safe_mode was removed): without these two processors "<" is just text."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.treeprocessors.register(_SafeLinks(md), "safe_links", 0)
