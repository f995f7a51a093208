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

## Pruning: what dedup needs, for as long as it needs it

A journal entry is only needed while its message can come back. Mail pbem marks done (a
writable IMAP folder, a Maildir, an .eml folder) comes back only after a crash between the
state write and the mark, i.e. at the next tick; a forum post never does (the cursor). Mail in a
READ-ONLY mailbox comes back at every tick, forever. So each entry carries the day it was last
met (`state.toml` [journal_seen], journal key -> "YYYY-MM-DD"): the day it was recorded, and
again every day the same message is met again as a duplicate (`recall`, the intake's check). `prune` forgets
entries not met for KEEP_DAYS: a mail still lying in a read-only mailbox is met at every tick
and so is never forgotten, and everything else is bounded by the mail of the last KEEP_DAYS.
A mail delivered again after that (a server restoring a months-old backup into a writable
folder, which pbem has long marked done) is handled as new: orders in it go through the
ordinary rules of its stage (an order for a turn long past is refused like any late order);
its reply has the same Message-ID as the first one (made from the journal key), which the
transport has delivered, so it does not go out twice. An entry without a day (a journal of an earlier version, or an
entry written around the intake: a quarantined message) gets today's at the next prune, so
nothing is forgotten early. The postmaster's journal (pbem/intake/routing.py) keeps the same rule with its own table.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, MutableMapping
from datetime import datetime, timedelta
from typing import Any

from pbem.mail.message import Submission
from pbem.state.campaign import KEEP_DAYS

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


SEEN = "journal_seen"
"""The state.toml table of the day each journal entry was last met."""


def day_of(now: datetime) -> str:
    return now.date().isoformat()


def recall(state: MutableMapping[str, Any], sub: Submission, now: datetime) -> bool:
    """handled(), and today as the day the message was last met: for a new message the
    entry the caller is about to record (rolled back with it if its handling fails), for a
    message met again a renewal, so a mail that stays in a read-only mailbox is never pruned."""
    journal = state.get("journal", {})
    known = handled(journal, sub)
    key = sub.message_id if known and journal_key(sub) not in journal else journal_key(sub)
    _seen(state)[key] = day_of(now)
    return known


def prune(state: MutableMapping[str, Any], now: datetime, keep: timedelta = timedelta(days=KEEP_DAYS)) -> bool:
    """Forget the journal entries not met since `now - keep`; an entry without a day gets
    today's. True when an entry was forgotten (the state then needs storing)."""
    journal = state.get("journal")
    if not isinstance(journal, dict):
        return False
    seen = _seen(state)
    today, oldest = day_of(now), day_of(now - keep)
    for key in journal:
        if not _is_day(seen.get(key)):
            seen[key] = today
    stale = [key for key in journal if seen[key] < oldest]
    for key in stale:
        del journal[key]
    for key in [key for key in seen if key not in journal]:
        del seen[key]
    return bool(stale)


def _seen(state: MutableMapping[str, Any]) -> dict[str, Any]:
    """The table of days, made anew when missing or not a table (a hand edit)."""
    if not isinstance(state.get(SEEN), dict):
        state[SEEN] = {}
    seen: dict[str, Any] = state[SEEN]
    return seen


def _is_day(value: object) -> bool:
    try:
        return isinstance(value, str) and datetime.strptime(value, "%Y-%m-%d") is not None
    except ValueError:
        return False
