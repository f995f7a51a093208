"""Where a mail's own text ends: the quoted mail it answers, a signature, an Outlook header block
(pbem/mail/message.py keeps only the text above them)."""

from __future__ import annotations

import re

_SIGNATURE = re.compile(r"--[ \t]*")
_SEPARATOR = re.compile(r"\s*_{20,}\s*")
_ORIGINAL = re.compile(
    r"\s*-{3,}\s*(original message|ursprüngliche nachricht|message d'origine"
    r"|mensaje original|messaggio originale)\s*-{3,}\s*",
    re.IGNORECASE,
)
_ATTRIBUTION = re.compile(
    r"\s*(On|Am|Le|El|Il|Op|Den)\s.*\d.*"
    r"\b(wrote|schrieb|a écrit|escribió|ha scritto|schreef|skrev)\b.*:\s*"
)
_OUTLOOK_NEXT = re.compile(r"\s*\**(Sent|Date)\**:")


def strip_reply(text: str) -> str:
    """Everything above the first quoted reply or signature: a "-- " (or "--") line, a
    ">" line, an "On ... wrote:" line, an Outlook "-----Original Message-----" or
    "From:/Sent:" header block, or a "____" separator."""
    lines = text.replace("\r\n", "\n").split("\n")
    kept = lines[: next((i for i in range(len(lines)) if _reply_starts(lines, i)), len(lines))]
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join(kept)


def _reply_starts(lines: list[str], i: int) -> bool:
    line = lines[i]
    following = lines[i + 1] if i + 1 < len(lines) else ""
    return (
        _SIGNATURE.fullmatch(line) is not None
        or line.lstrip().startswith(">")
        or _SEPARATOR.fullmatch(line) is not None
        or _ORIGINAL.fullmatch(line) is not None
        or _ATTRIBUTION.fullmatch(line) is not None
        or (line.startswith("On ") and _ATTRIBUTION.fullmatch(f"{line} {following}") is not None)
        or _outlook_header(lines, i, following)
    )


def _outlook_header(lines: list[str], i: int, following: str) -> bool:
    """A "From:" line after a blank line (or at the top), followed by "Sent:" or "Date:"."""
    after_blank = i == 0 or not lines[i - 1].strip()
    starts = re.match(r"\s*\**From:", lines[i]) is not None
    return after_blank and starts and _OUTLOOK_NEXT.match(following) is not None
