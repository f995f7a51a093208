"""The key a handled message is remembered by in a journal.

Every place that records or looks up a handled message (the campaign's journal, the
postmaster's, the quarantine) asks `journal_key` for the key, so that mail and forum posts
never share a namespace and the rule for telling two messages apart is written once.
"""

from __future__ import annotations

from pbem.mail.message import Submission


def journal_key(sub: Submission) -> str:
    """The journal key of one incoming message."""
    return sub.message_id
