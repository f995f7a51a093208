"""One campaign's tick: its steps in order, behind its boundary.

Loaded only when some campaign has work (pbem/tick/engine.py): the steps bring in Jinja,
Markdown, the mail stack and the rule systems, which an idle tick never needs.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from pbem.delivery.digest import send_digests
from pbem.delivery.template_alerts import alert_template_problems
from pbem.delivery.welcome import send_owed as send_owed_welcomes
from pbem.intake.isolation import is_injected
from pbem.intake.journal import prune as prune_journal
from pbem.mail.connection import forget_unreachable
from pbem.mail.smtp import shared_sessions
from pbem.rulesets import registry
from pbem.rulesets.base import AnyRuleset
from pbem.stages import setup_rules
from pbem.state.campaign import Campaign
from pbem.state.store import LockBusy, batched_folder_syncs, campaign_lock
from pbem.tick import idle
from pbem.tick.alarms import MailAlarms
from pbem.tick.deliver import deliver_mail, publish_posts
from pbem.tick.faults import Faults
from pbem.tick.forum import intake_forum
from pbem.tick.log import TickLog
from pbem.tick.mail import intake_mail, intake_released, intake_shared
from pbem.tick.problems import clear_reports, not_processed
from pbem.tick.quiet import Busy, inbox_paths, quiet_until
from pbem.tick.reminders import send_reminders
from pbem.tick.resolve import resolve_due


def tick_busy(root: Path, folders: list[Path], now: datetime, faults: Faults | None, log: TickLog) -> TickLog:
    """The shared mailbox read once for all its campaigns, then each campaign with work; the
    campaigns sending by the same SMTP server and account share one session (pbem/mail/smtp.py)."""
    faults = faults or Faults()
    forget_unreachable()
    # folder fsyncs once per folder, before anything leaves (store.py)
    with batched_folder_syncs(), shared_sessions():
        unread = intake_shared(root, now, faults, log)
        for folder in folders:
            if not idle.skippable(folder, now):     # the shared mailbox may just have given it mail
                run(folder, now, faults, log, folder.name not in unread, unread.get(folder.name, ""))
    return log


def run(folder: Path, now: datetime, faults: Faults, log: TickLog, mail_read: bool = True,
        shared_problem: str = "") -> None:
    """The campaign under its lock and behind its boundary: whatever it raises is logged on one
    line, its GM told once per distinct problem, and the next campaign runs."""
    try:
        with campaign_lock(folder, wait=False):
            sleep = tick_campaign(folder, now, faults, log, mail_read, shared_problem)
    except LockBusy as exc:
        log(f"{folder.name}: skipped, {exc}")
    except Exception as exc:       # the campaign's boundary: the next campaign runs
        if is_injected(exc):
            raise
        idle.forget(folder)
        not_processed(folder, exc, now, log)
    else:
        clear_reports(folder)
        if sleep is None:
            idle.forget(folder)
        else:
            idle.remember(folder, *sleep)


def tick_campaign(folder: Path, now: datetime, faults: Faults, log: TickLog, mail_read: bool = True,
                  shared_problem: str = "") -> tuple[datetime | None, tuple[str, ...]] | None:
    """The campaign's steps; returns when it next has something to do by itself and the inbox
    folders to watch meanwhile (pbem/tick/idle.py), or None when it has work left.
    `shared_problem`: why the shared mailbox of pbem.toml could not be read, if it could not."""
    camp = Campaign(folder)
    ruleset = registry.get(camp.settings.ruleset)
    if (done := setup_rules.apply(camp, ruleset)) is not None:      # first: setup rules apply until the start
        camp.commit()
        log(f"{camp.name}: {done}")
    alarms = MailAlarms(camp, ruleset, now, log)
    if camp.settings.inbox.get("shared"):
        alarms.shared(shared_problem, mail_read)
    if prune_journal(camp.state, now): camp.commit()    # noqa: E701 (the journal keeps what dedup needs)
    send_owed_welcomes(camp, now)          # first: a player's welcome comes before any answer to him
    forum_read = intake_forum(camp, ruleset, now, faults, log)
    intake_released(camp, ruleset, now, faults, log)
    mail_read = intake_mail(camp, ruleset, now, faults, log, alarms) and mail_read
    if mail_read and forum_read:
        resolve_due(camp, ruleset, now, log)
        send_reminders(camp, ruleset, now, log)
    else:   # orders may be waiting in the mailbox or the forum: no deadline passes without them
        log(f"{camp.name}: mail or forum could not be read; nothing is resolved until they are")
    alert_template_problems(camp, ruleset, now)
    if send_digests(camp, ruleset, now):
        log(f"{camp.name}: daily digests sent")
    deliver_mail(camp, log, faults, alarms)
    publish_posts(camp, faults, log, now)
    return sleep_of(camp, ruleset, now) if mail_read and forum_read else None


def sleep_of(camp: Campaign, ruleset: AnyRuleset, now: datetime) -> tuple[datetime | None, tuple[str, ...]] | None:
    try:
        paths = inbox_paths(camp)      # first: an inbox only a server can tell about keeps it busy
        return quiet_until(camp, ruleset, now), paths
    except Busy:
        return None
