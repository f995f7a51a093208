"""One tick: intake -> GM desk -> due stages -> reminders -> delivery, as a list of named steps.

`tick()` is what cron runs every few minutes. Campaign folders are processed one at a time
under their lock, each behind its own boundary: whatever a campaign raises is logged on one line
with its name, its GM is told once per distinct problem (pbem/tick/problems.py), its mail stays in
the inbox, and the next campaign runs. Each step is a module of this package, testable alone.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from pbem.delivery.template_alerts import alert_template_problems
from pbem.delivery.welcome import send_owed as send_owed_welcomes
from pbem.intake.isolation import is_injected
from pbem.intake.journal import prune as prune_journal
from pbem.mail.connection import forget_unreachable
from pbem.rulesets import registry
from pbem.state.campaign import Campaign, discover
from pbem.state.store import LockBusy, campaign_lock
from pbem.tick.deliver import deliver_mail, publish_posts
from pbem.tick.faults import Faults
from pbem.tick.forum import intake_forum
from pbem.tick.log import TickLog
from pbem.tick.mail import intake_mail, intake_released, intake_shared
from pbem.tick.problems import clear_reports, not_processed
from pbem.tick.reminders import send_reminders
from pbem.tick.resolve import resolve_due


def tick(root: Path, now: datetime, faults: Faults | None = None, log: TickLog | None = None) -> TickLog:
    log = log or TickLog()
    faults = faults or Faults()
    forget_unreachable()
    unread = intake_shared(root, now, faults, log)
    for folder in discover(root):
        try:
            with campaign_lock(folder, wait=False):
                tick_campaign(folder, now, faults, log, mail_read=folder.name not in unread)
        except LockBusy as exc:
            log(f"{folder.name}: skipped, {exc}")
        except Exception as exc:       # the campaign's boundary: the next campaign runs
            if is_injected(exc):
                raise
            not_processed(folder, exc, now, log)
        else:
            clear_reports(folder)
    return log


def tick_campaign(folder: Path, now: datetime, faults: Faults, log: TickLog, mail_read: bool = True) -> None:
    camp = Campaign(folder)
    ruleset = registry.get(camp.settings.ruleset)
    if prune_journal(camp.state, now): camp.commit()    # noqa: E701 (the journal keeps what dedup needs)
    send_owed_welcomes(camp, now)          # first: a player's welcome comes before any answer to him
    forum_read = intake_forum(camp, ruleset, now, faults, log)
    intake_released(camp, ruleset, now, faults, log)
    if intake_mail(camp, ruleset, now, faults, log) and mail_read and forum_read:
        resolve_due(camp, ruleset, now, log)
        send_reminders(camp, ruleset, now, log)
    else:   # orders may be waiting in the mailbox or the forum: no deadline passes without them
        log(f"{camp.name}: mail or forum could not be read; nothing is resolved until they are")
    alert_template_problems(camp, ruleset, now)
    deliver_mail(camp, log, faults)
    publish_posts(camp, faults, log, now)
