"""What handling one message gives: the replies to render and the GM alerts.

`Reply` is a mail to render (template and context, addressed and threaded); `Outcome` is
everything one message gave. `answer` threads a reply under the message it answers, and
`reply_mask` finds the secrets a reply must not quote back.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbem.delivery.replies import Reply
from pbem.intake.envelope import read_envelope
from pbem.intake.journal import journal_key
from pbem.intake.masking import SecretMask
from pbem.mail.message import Submission
from pbem.state import credentials
from pbem.state.campaign import Campaign, Player


def answer(camp: Campaign, sub: Submission, now: datetime, template: str, context: dict[str, Any],
           to: str = "") -> Reply:
    """The automatic reply to `sub`, threaded under it (its subject with "Re:")."""
    subject = sub.subject if sub.subject.lower().startswith("re:") else f"Re: {sub.subject or camp.settings.title}"
    base = {"campaign": camp.settings, "now": now, "schedule": camp.settings.schedule}
    return Reply(f"reply/{journal_key(sub)}/{template}", (to or sub.sender,), subject, template, base | context,
                 in_reply_to=sub.message_id, references=(*sub.references, sub.message_id))


def reply_mask(camp: Campaign, sub: Submission, first: Player) -> SecretMask:
    """The secrets to hide in what a reply quotes back (pbem.intake.masking): the envelope's, a
    PASSWORD's, and any stored secret of the campaign the sender typed, `first`'s tried first."""
    env = read_envelope(sub.subject, sub.text)
    chosen = [c.partition(" ")[2] for _, c in env.commands if c.startswith("PASSWORD ")]
    people = {p.id: p for p in (first, camp.settings.gm, *camp.settings.players)}
    typed = [env.secret, *(c for c in chosen if not credentials.weak_reason(c))]
    return SecretMask(f"{sub.subject}\n{sub.text}", typed, [camp.secret_of(person) for person in people.values()])


def masked_subject(reply: Reply, mask: SecretMask) -> Reply:
    reply.subject = mask(reply.subject)
    return reply
