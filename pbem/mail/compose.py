"""Outgoing mail: Markdown in, a multipart/alternative message (plain + HTML) out.

Every mail pbem sends is built here, through a `Letterhead` (who sends: a campaign or the
postmaster) and `compose`: From, To, Subject, Date, Message-ID, In-Reply-To, References, the
text part and the HTML part (Markdown with the inline STYLE), pictures shown inside the HTML
(`InlineImage`, multipart/related, referred to as `cid:` in the Markdown or else shown at the
top of the HTML body) and attachments
(multipart/mixed). The shape of a message with all of them:

    multipart/mixed                       only with attachments
      multipart/alternative
        text/plain
        multipart/related                 only with inline images
          text/html
          image/png (Content-ID)          one per inline image
      application/pdf ...                 one per attachment

Message-IDs are derived from the campaign and the mail's key, so composing the same mail
again after a crash gives the same message, and delivery can recognise it.

Every header value passes through `safe_header` (or, for Message-ID, In-Reply-To and
References, through `msg_ids` and the verbatim `IdsHeader`), and the body through
`safe_text`: whatever a player put into a subject, a name or a text, composing never raises
and never writes a header line a player chose.
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage, MIMEPart
from email.utils import format_datetime, formataddr, parseaddr
from typing import Protocol
from xml.etree.ElementTree import Element

import markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

from pbem.kit.texts import md_plain
from pbem.mail.headers import WRITING, IdsHeader, PlainHeader, known_ids, msg_ids, safe_header, safe_text
from pbem.mail.headers import plain as plain_header


@dataclass(frozen=True)
class InlineImage:
    """A picture shown inside the HTML part: where the Markdown shows it with `![what](cid:<cid>)`,
    or else at the top of the HTML body (the text part then stays free of picture markup)."""

    cid: str
    """The Content-ID without its angle brackets, e.g. "map-turn-3@rift.example.org"; unique in the mail."""
    mime_type: str
    """image/png, image/svg+xml, ..."""
    data: bytes
    filename: str = ""
    alt: str = ""
    """Said in place of the picture where it is not shown."""
    width: int = 0
    """The width the HTML part shows it at (0: its own), never wider than the window."""

    @property
    def src(self) -> str:
        """What the Markdown writes to show it (RFC 2392)."""
        return f"cid:{self.cid}"


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
    inline_images: tuple[InlineImage, ...] = ()


class SenderSettings(Protocol):
    """What a letterhead reads of a campaign's settings (pbem.state.campaign.Settings)."""

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def address(self) -> str: ...
    @property
    def domain(self) -> str: ...


@dataclass(frozen=True)
class Letterhead:
    """Who sends: the From header, the List-Id, and the campaign and domain the Message-IDs
    are made from (`message_id_for`). Every mail pbem sends is written on one."""

    campaign: str
    domain: str
    sender: str
    list_id: str = ""

    @classmethod
    def of(cls, settings: SenderSettings) -> Letterhead:
        """A campaign's: from its title and address, listed as <name>.<domain>."""
        return cls(settings.name, settings.domain, f"{settings.title} <{settings.address}>",
                   f"{settings.name}.{settings.domain}")

    @classmethod
    def postmaster(cls, address: str) -> Letterhead:
        """The postmaster's, for mail in a shared mailbox that no campaign takes."""
        return cls("postmaster", address.partition("@")[2] or "localhost", f"pbem <{address}>")

    def write(self, key: str, to: Sequence[str], subject: str, markdown: str, date: datetime, *,
              in_reply_to: str = "", references: Sequence[str] = (), auto_reply: bool = False,
              attachments: Sequence[tuple[str, str, bytes]] = (),
              inline_images: Sequence[InlineImage] = ()) -> EmailMessage:
        """The finished message (see `compose`); `key` is unique and stable within the campaign."""
        mail = OutgoingMail(key=key, to=tuple(to), subject=subject, markdown=markdown, sender=self.sender,
                            in_reply_to=in_reply_to, references=tuple(references), auto_reply=auto_reply,
                            list_id=self.list_id, attachments=tuple(attachments),
                            inline_images=tuple(inline_images))
        return compose(mail, campaign=self.campaign, domain=self.domain, date=date)


def message_id_for(campaign: str, key: str, domain: str) -> str:
    """The Message-ID of a campaign's mail: the same campaign and key always give the same id."""
    digest = hashlib.sha256(f"{campaign}\0{key}".encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"<{digest}@{re.sub(r'[^!-;=?-~]', '', domain) or 'localhost'}>"


def thread_root(campaign: str, domain: str) -> str:
    """The Message-ID every report of a campaign refers to (References), so that mail clients
    show a campaign's reports as one thread: the id of its first mails, the welcome mails,
    which carry it too. No mail is sent under it; clients thread on the reference alone."""
    return message_id_for(campaign, "campaign-thread-root", domain)


def compose(mail: OutgoingMail, *, campaign: str, domain: str, date: datetime) -> EmailMessage:
    """The finished message: text/plain and text/html alternatives, the HTML in
    multipart/related with its inline images, wrapped in multipart/mixed when there are
    attachments. A ValueError for a naive date, no usable recipient, or an inline image that
    is no image or has an id that cannot be written."""
    if date.tzinfo is None:
        raise ValueError("compose needs an aware date")
    if not _recipients(mail):
        raise ValueError(f"mail {safe_header(mail.key)!r} has no recipients with a usable address")
    msg = EmailMessage(policy=WRITING)
    for name, value in _headers(mail, message_id_for(campaign, mail.key, domain), date):
        msg[name] = value if isinstance(value, PlainHeader) else plain_header(name, value)
    plain, body = _converted(mail.markdown)
    msg.set_content(plain, cte="quoted-printable")     # escapes are for the HTML
    msg.add_alternative(_document(mail, body), subtype="html", cte="quoted-printable")
    _add_inline_images(msg, mail.inline_images)
    for filename, mime_type, data in mail.attachments:
        maintype, subtype = _mime(mime_type)
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
    for part in msg.iter_parts():
        _drop_mime_version(part)
    _set_boundaries(msg)
    return msg


def _set_boundaries(msg: EmailMessage) -> None:
    """Each multipart's boundary, chosen here: "=_" and 32 random hex digits. Left to the email
    package, writing the mail searches all that lies under each multipart for a boundary drawn
    for it, by a regular expression compiled for it: half the cost of building a report with
    its map. This one needs no search: quoted-printable writes "=" only before two hex digits
    or at a line's end, base64 only at its end, and a part's header line starts with its name,
    so no line under it starts "--=_". Under a part in any other encoding the package searches."""
    parts = list(msg.walk())
    if all(p.is_multipart() or str(p.get("Content-Transfer-Encoding", "")).lower() in _SEARCH_FREE for p in parts):
        for part in parts:
            if part.is_multipart():
                part.set_boundary(f"=_{secrets.token_hex(16)}")


_SEARCH_FREE = ("quoted-printable", "base64")


def _add_inline_images(msg: EmailMessage, images: Sequence[InlineImage]) -> None:
    """The HTML part becomes multipart/related: the HTML, then each picture by Content-ID."""
    if not images:
        return
    html_part = list(msg.iter_parts())[1]
    for image in images:
        maintype, subtype = _mime(image.mime_type)
        if maintype != "image":
            raise ValueError(f"inline image {safe_header(image.cid)!r}: {safe_header(image.mime_type)!r} "
                             "is not an image type")
        if not re.fullmatch(r"[!-;=?-~]{1,200}", image.cid):
            raise ValueError(f"inline image id {safe_header(image.cid)!r}: printable ASCII without <, > or spaces")
        html_part.add_related(image.data, maintype=maintype, subtype=subtype, cid=f"<{image.cid}>",
                              disposition="inline", filename=safe_header(image.filename) or None)


def markdown_to_html(text: str) -> str:
    """Markdown (tables, fenced code, sane lists) to an HTML fragment; raw HTML in the
    source shows as text and links other than http(s), mailto and cid lose their target,
    because players' words end up in reports."""
    converter = _converter()
    try:
        return _styled_blocks(converter.convert(text))
    finally:
        converter.reset()


def _styled_blocks(fragment: str) -> str:
    """Fenced code comes out of Markdown's stash as text, after the tree is styled: its <pre>
    gets the inline style here."""
    return fragment.replace("<pre>", f'<pre style="{INLINE["pre"]}">')


@functools.lru_cache(maxsize=1)
def _converter() -> markdown.Markdown:
    """One converter, reset after each use: building it compiles every pattern again."""
    extensions: list[str | Extension] = ["tables", "fenced_code", "sane_lists", _Untrusted()]
    return markdown.Markdown(extensions=extensions)


def _headers(mail: OutgoingMail, message_id: str, date: datetime) -> list[tuple[str, str]]:
    in_reply_to = known_ids(msg_ids(mail.in_reply_to))
    optional = [
        ("In-Reply-To", IdsHeader("In-Reply-To", in_reply_to[-1:])),
        ("References", IdsHeader("References", known_ids(msg_ids(*mail.references, *in_reply_to[-1:])))),
        ("Auto-Submitted", "auto-replied" if mail.auto_reply else "auto-generated"),
        ("List-Id", safe_header(_list_id(mail.list_id))),
    ]
    return [
        ("From", _mailbox(mail.sender)),
        ("To", ", ".join(_recipients(mail))),
        ("Subject", safe_header(mail.subject)),
        ("Date", format_datetime(date)),
        ("Message-ID", IdsHeader("Message-ID", msg_ids(message_id)[:1])),
        *((name, value) for name, value in optional if value),
        ("X-Pbem-Key", safe_header(mail.key)),
    ]


def _drop_mime_version(part: MIMEPart) -> None:
    """email adds MIME-Version to every part it creates; it belongs on the top only."""
    del part["MIME-Version"]
    for sub in part.iter_parts():
        _drop_mime_version(sub)


def _list_id(value: str) -> str:
    return value if not value or "<" in value else f"<{value}>"


def _recipients(mail: OutgoingMail) -> list[str]:
    """The To entries that name an address: an empty one (mail from no usable sender) would
    give a To the SMTP server refuses, and the mail would wait in the queue forever."""
    return [box for box in map(_mailbox, mail.to) if re.fullmatch(r"[^@\s<>]+@[^@\s<>]+", parseaddr(box)[1])]


def _mailbox(value: str) -> str:
    """`Name <address>` with the name quoted when it needs it: an unquoted "Daemon Rift: rift"
    would read as an RFC 5322 group, and mail clients would show no sender at all."""
    name, bracket, rest = safe_header(value).rpartition("<")
    if not bracket or not rest.endswith(">"):
        return safe_header(value)
    return formataddr((name.strip().strip('"'), rest[:-1].strip()))


def _mime(mime_type: str) -> tuple[str, str]:
    maintype, _, subtype = mime_type.strip().lower().partition("/")
    if not maintype or not subtype or maintype in ("multipart", "message"):
        return "application", "octet-stream"
    return maintype, subtype


# Inline, small and without remote resources: mail clients drop external stylesheets, and tables
# and code read badly without borders and a monospace face. Some clients drop <style> too, so
# the same rules are also written on each element (`INLINE`, by `_Phone`): on a phone 390 pixels
# wide a table scrolls in its own box and a long word or code line wraps, so nothing runs off.
STYLE = ("<style>body{font-family:sans-serif;line-height:1.4;overflow-wrap:anywhere}"
         "table{border-collapse:collapse}th,td{border:1px solid #999;padding:2px 6px;text-align:left}"
         "code,pre{font-family:monospace;background:#f3f3f3}"
         "pre{padding:6px;border:1px solid #ddd;white-space:pre-wrap;overflow-wrap:anywhere}"
         "img{max-width:100%;height:auto}</style>")
INLINE = {
    "pre": "font-family:monospace;background:#f3f3f3;padding:6px;border:1px solid #ddd;"
           "white-space:pre-wrap;overflow-wrap:anywhere",
    "img": "max-width:100%;height:auto",
}
SCROLLER = "overflow-x:auto;max-width:100%"
BODY = "font-family:sans-serif;line-height:1.4;overflow-wrap:anywhere;word-wrap:break-word"


@functools.lru_cache(maxsize=16)
def _converted(markdown: str) -> tuple[str, str]:
    """A mail's Markdown as plain text and as an HTML fragment: a report mailed to each of its
    readers is converted once, not once per reader."""
    text = safe_text(markdown)
    return md_plain(text), markdown_to_html(text)


def _document(mail: OutgoingMail, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(safe_header(mail.subject))}</title>{STYLE}</head>\n"
        f'<body style="{BODY}">\n{_pictures_on_top(mail)}{body}\n</body></html>\n'
    )


def _pictures_on_top(mail: OutgoingMail) -> str:
    """The inline images the Markdown does not show itself, one paragraph each, shrunk to the
    window; each links to itself, so a tap on a phone opens it at full size."""
    shown = []
    for image in mail.inline_images:
        if image.src in mail.markdown:
            continue
        width = f' width="{image.width}"' if image.width > 0 else ""
        src = html.escape(image.src)
        shown.append(f'<p><a href="{src}"><img src="{src}" alt="{html.escape(safe_header(image.alt))}"{width} '
                     'style="max-width:100%;height:auto"></a></p>\n')
    return "".join(shown)


_SAFE_URL = re.compile(r"(https?:|mailto:|cid:|[^:]*$)", re.IGNORECASE)


class _SafeLinks(Treeprocessor):
    """Drops href/src values with other schemes (javascript:, data:, ...)."""

    def run(self, root: Element) -> None:
        for element in root.iter():
            for attribute in ("href", "src"):
                value = element.get(attribute)
                if value is not None and not _SAFE_URL.match(value):
                    del element.attrib[attribute]


class _Phone(Treeprocessor):
    """Each table in a box of its own that scrolls sideways, and the styles of `INLINE` on each
    element, for the mail clients that drop the <style> of the head."""

    def run(self, root: Element) -> None:
        for parent in list(root.iter()):
            for i, child in enumerate(list(parent)):
                if child.tag == "table":
                    box = Element("div", {"style": SCROLLER})
                    box.append(child)
                    parent[i] = box
        for element in root.iter():
            style = INLINE.get(element.tag)
            if style and "style" not in element.attrib:
                element.set("style", style)


class _Untrusted(Extension):
    """Raw HTML is escaped instead of passed through (the Python-Markdown way since
    safe_mode was removed): without these processors "<" is just text. Autolinks
    (`<https://...>`, `<someone@host>`) go too: the `md` filter leaves "<" as typed, so a
    player's name could otherwise become a live link; pbem's own templates link with
    `[text](url)`, whose brackets player text never keeps unescaped."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.preprocessors.deregister("html_block")
        for pattern in ("html", "autolink", "automail"):
            md.inlinePatterns.deregister(pattern)
        md.treeprocessors.register(_SafeLinks(md), "safe_links", 0)
        md.treeprocessors.register(_Phone(md), "phone", 1)
