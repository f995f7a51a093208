"""Replies and GM alerts rendered into mail: the one place a `Reply` becomes an EmailMessage."""

from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage

from pbem.delivery.outqueue import enqueue
from pbem.delivery.replies import Outcome, Reply
from pbem.kit.texts import render
from pbem.mail.compose import Letterhead
from pbem.rulesets.base import AnyRuleset
from pbem.state.campaign import Campaign


def alert_gm(camp: Campaign, ruleset: AnyRuleset, outcome: Outcome, now: datetime, key: str) -> None:
    mail = alert_mail(camp, ruleset, outcome, now, key)
    if mail is not None:
        enqueue(camp.folder, mail)


def alert_mail(camp: Campaign, ruleset: AnyRuleset, outcome: Outcome, now: datetime, key: str) -> EmailMessage | None:
    """The GM alert for an outcome, or None when it has none."""
    if not outcome.gm_alerts:
        return None
    gm = camp.settings.gm
    reply = Reply(f"gm-alert/{key}", (gm.email,), f"[{camp.name}] needs your attention", "gm_alert",
                  {"campaign": camp.settings, "alerts": outcome.gm_alerts, "now": now}, auto_reply=False)
    return build_mail(camp, ruleset, reply, now)


def build_mail(camp: Campaign, ruleset: AnyRuleset, reply: Reply, now: datetime) -> EmailMessage:
    body = render(ruleset.templates, reply.template, reply.context, camp.folder)
    msg = Letterhead.of(camp.settings).write(reply.key, reply.to, reply.subject, body, now,
                                             in_reply_to=reply.in_reply_to, references=reply.references,
                                             auto_reply=reply.auto_reply, attachments=reply.attachments)
    for name, value in reply.headers:
        msg[name] = value
    return msg
