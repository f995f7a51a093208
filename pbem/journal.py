"""The key a handled message is remembered by in a journal.

Every place that records or looks up a handled message (the campaign's journal, the
postmaster's, the quarantine) asks this module, so that mail and forum posts never share a
namespace and the rule for telling two messages apart is written once:

- a forum post is `post:<its id>`: the forum gives ids that are never reused;
- a mail is `mail:<Message-ID>#<digest>`, the digest taken over what the sender wrote (sender,
  date, subject, order text), not over what each delivery adds (Received, Return-Path...).
  The same mail delivered twice gets the same key; a different mail that reuses a
  Message-ID (a broken client, a forged id) gets its own and is handled as new.

Journals written before these keys hold the bare Message-ID of each mail; such an entry still
counts as handled for every mail with that id (`handled`). Posts were also journalled by a
bare id, but the forum's cursor, stored with the same write, already keeps them from being
read again, so a bare entry never stands for a post: a stranger's mail forging a post's id
cannot make the post look handled.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from pbem.mail.message import Submission

DIGEST_CHARS = 16
"""64 bits of SHA-256: a second, different mail under one Message-ID never looks the same."""


def journal_key(sub: Submission) -> str:
    """The journal key of one incoming message."""
    if sub.forum_account:
        return f"post:{sub.message_id}"
    return f"mail:{sub.message_id}#{content_digest(sub)}"


def content_digest(sub: Submission) -> str:
    """What tells two mails under one Message-ID apart: what the sender wrote, nothing a
    delivery adds (a mail too large to read has no text; its size grows with each delivery's
    trace fields, so it is not used)."""
    date = sub.date.isoformat() if sub.date else ""
    fields = "\0".join((sub.sender, date, sub.subject, sub.text))
    return hashlib.sha256(fields.encode("utf-8", "surrogatepass")).hexdigest()[:DIGEST_CHARS]


def handled(journal: Mapping[str, object], sub: Submission) -> bool:
    """Is this message recorded in `journal`, under its key or (a mail only) under the bare
    Message-ID an earlier version of pbem recorded it by?"""
    if journal_key(sub) in journal:
        return True
    return not sub.forum_account and sub.message_id in journal


def message_id_of(key: str) -> str:
    """The Message-ID (or post id) a journal key was made from; a bare key of an earlier
    version is its own id."""
    kind, colon, rest = key.partition(":")
    if not colon or kind not in ("mail", "post"):
        return key
    return rest.rpartition("#")[0] if kind == "mail" else rest


def message_ids(journal: Mapping[str, object]) -> list[str]:
    """The ids of a journal's entries, in their order (what logs and tests show)."""
    return [message_id_of(key) for key in journal]


def notes_by_id(journal: Mapping[str, object]) -> dict[str, object]:
    """What the journal says of each message, by its Message-ID (or post id)."""
    return {message_id_of(key): note for key, note in journal.items()}
