"""Header values and bodies pbem may write, whatever text they are made from, and message ids
written verbatim so that mail clients thread replies (pbem/mail/compose.py builds with them)."""

from __future__ import annotations

import re
from email import policy
from email.headerregistry import BaseHeader, HeaderRegistry
from email.policy import Policy
from typing import Self

_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
"""Control characters: among them everything str.splitlines (and so the email package)
takes for a line break: \\r \\n \\v \\f \\x1c-\\x1e \\x85, and U+2028/U+2029."""
_SURROGATE = re.compile(r"[\ud800-\udfff]")
"""Lone surrogates, as the utf-7 and unicode_escape codecs produce: no charset can write them."""


class KeptHeaderClasses(HeaderRegistry):
    """The email package's header registry, each header's class made once: its own makes a new
    class (`type()`) for every header set, a third of the time building a mail takes. The
    classes it makes, and so the headers written, are the same."""

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[str, type[BaseHeader]] = {}

    def __getitem__(self, name: str) -> type[BaseHeader]:
        key = name.lower()
        if key not in self._made:
            self._made[key] = super().__getitem__(name)
        return self._made[key]


_HEADERS = KeptHeaderClasses()
WRITING = policy.default.clone(header_factory=_HEADERS)
"""The policy pbem builds its mail with: the email package's default, with `KeptHeaderClasses`."""


def safe_header(value: str) -> str:
    """A header value pbem may write, made from any text: line breaks and other control
    characters become spaces (runs of white space one), code points no charset can encode
    become U+FFFD. The email package then encodes what is not ASCII (RFC 2047).

    Text that reads as RFC 2047 encoded words ("=?utf-8?q?hi=0C?=", typed into a forum
    title, say) would be decoded by the email package when set, smuggling back the very
    characters removed here: such text is cleaned as the email package will read it."""
    clean = _clean(value)
    for _ in range(3):          # encoded words inside encoded words: a few rounds, then none
        if "=?" not in clean:
            return clean
        seen = _as_read(clean)
        if seen == clean:
            return clean
        clean = _clean(seen)
    return clean.replace("=?", "= ?")


def _clean(value: str) -> str:
    return " ".join(_UNSAFE.sub(" ", _SURROGATE.sub("\ufffd", value)).split())


def _as_read(value: str) -> str:
    """The value as the email package reads it back (encoded words decoded)."""
    try:
        return str(_HEADERS("subject", value))
    except Exception:      # noqa: BLE001  (any parse failure: keep the words from being read as encoded)
        return value.replace("=?", "= ?")


def safe_text(text: str) -> str:
    """A mail body made from any text: LF line ends, lone surrogates as U+FFFD, and no
    control characters but tab and newline (NUL and its kin have no place in a mail)."""
    text = _SURROGATE.sub("\ufffd", text.replace("\r\n", "\n")).replace("\r", "\n")
    return re.sub(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", "", text.replace("\u2028", "\n").replace("\u2029", "\n"))


_MSG_ID = re.compile(r"<[!-;=?-~]{1,400}@[!-;=?-~]{1,400}>")
"""An id that can be written as it is: <left@right>, printable ASCII, no white space."""
_NO_MAIL = re.compile(r"\.invalid>$", re.IGNORECASE)
"""The reserved .invalid domain (RFC 2606): the id pbem makes up for a mail without one
(pbem.mail.message), which no mail client knows."""


def msg_ids(*values: str) -> list[str]:
    """The well-formed message ids in values, each once, in order. Anything else an
    incoming mail put there is dropped: an id is written verbatim or not at all, because an
    RFC 2047-encoded id no longer matches and mail clients cannot thread the reply."""
    found = (match.group() for value in values for match in _MSG_ID.finditer(value))
    return [*dict.fromkeys(found)]


def known_ids(ids: list[str]) -> list[str]:
    """The ids a mail client may know: a reply to mail that had no Message-ID has no In-Reply-To."""
    return [ident for ident in ids if not _NO_MAIL.search(ident)]


_PLAIN = re.compile(r"[!-~]+(?: [!-~]+)*")
"""Printable ASCII words, one space between them: a value the email package writes as it is."""
_ONE_LINE = 78


class PlainHeader(str):
    """A header value written as it is, with the `name` and `fold` an EmailPolicy asks of a
    header object: for a value the email package would write unchanged (`plain`), parsing it
    into the package's header objects and folding them again cost about as much as the rest of
    building a mail."""

    name: str

    def __new__(cls, name: str, value: str) -> Self:
        header = super().__new__(cls, value)
        header.name = name
        return header

    def __reduce__(self) -> tuple[type[PlainHeader], tuple[object, ...]]:
        return PlainHeader, (self.name, str(self))

    def fold(self, *, policy: Policy) -> str:
        return f"{self.name}: {self}{policy.linesep}"


class IdsHeader(PlainHeader):
    """Message-ID, In-Reply-To or References, written verbatim: the email package would fold
    a line longer than 78 characters (an Outlook id) into RFC 2047 encoded words. This value
    folds only at the white space between ids, so each id stays whole on one line (the first
    on the name's)."""

    def __new__(cls, name: str, ids: list[str]) -> Self:
        return super().__new__(cls, name, " ".join(ids))

    def __reduce__(self) -> tuple[type[PlainHeader], tuple[object, ...]]:
        return IdsHeader, (self.name, self.split())

    def fold(self, *, policy: Policy) -> str:
        limit = policy.max_line_length or 78
        lines = [f"{self.name}:"]
        for ident in self.split():
            if len(lines[-1]) + 1 + len(ident) > limit and lines[-1] != f"{self.name}:":
                lines.append("")
            lines[-1] += f" {ident}"
        return policy.linesep.join(lines) + policy.linesep


def plain(name: str, value: str) -> str:
    """`value` as a PlainHeader when it fits one line as it is (printable ASCII words, no
    encoded-word look); else `value`, for the email package to encode and fold."""
    if len(name) + 2 + len(value) <= _ONE_LINE and "=?" not in value and _PLAIN.fullmatch(value):
        return PlainHeader(name, value)
    return value
