"""The intake step: a campaign's own inbox, the quarantine's released mail and the shared mailbox,
read in batches behind the per-message guard (pbem/tick/guard.py)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from pbem.gm.desk import take_mail
from pbem.intake.handler import Intake
from pbem.intake.isolation import is_injected, one_line
from pbem.intake.quarantine import (
    DONE,
    HELD,
    Quarantine,
)
from pbem.intake.routing import SharedIntake
from pbem.mail.connection import MailUnavailable
from pbem.mail.inbox import Inbox, open_inbox
from pbem.rulesets.base import AnyRuleset
from pbem.state.campaign import Campaign, SettingsError
from pbem.state.folders import discover
from pbem.tick.alarms import MailAlarms
from pbem.tick.faults import Faults
from pbem.tick.guard import Guard, commit
from pbem.tick.log import TickLog

COMMIT_EVERY = 50
"""Messages whose effects are saved together, then marked done together: one state write per
batch rather than per message. A crash loses none of the batch's mail: unmarked, it comes back
and is handled the same way again, and its replies, having stable Message-IDs, are not queued
twice."""


def intake_mail(camp: Campaign, ruleset: AnyRuleset, now: datetime, faults: Faults, log: TickLog,
                alarms: MailAlarms | None = None) -> bool:
    """Read the campaign's own inbox; False when it cannot be reached (the mail stays there,
    the problem goes to `alarms`)."""
    if camp.settings.inbox.get("shared"):
        return True      # read by intake_shared
    try:
        inbox: Inbox = open_inbox(camp.settings.inbox, camp.folder, log=log)
    except ValueError as exc:
        raise SettingsError(camp.folder / "campaign.toml", [f"transport.inbox: {exc}"]) from exc
    return read_inbox(camp, ruleset, inbox, now, faults, log, routed=True, alarms=alarms)


def intake_released(camp: Campaign, ruleset: AnyRuleset, now: datetime, faults: Faults, log: TickLog) -> None:
    """Messages the GM released from quarantine (`pbem quarantine release`), handled again."""
    inbox = Quarantine(camp.folder).released()
    if inbox is not None:
        read_inbox(camp, ruleset, inbox, now, faults, log)


def read_inbox(camp: Campaign, ruleset: AnyRuleset, inbox: Inbox, now: datetime, faults: Faults, log: TickLog,
               routed: bool = False, alarms: MailAlarms | None = None) -> bool:
    """Every message behind its own boundary (Guard); a batch is stored, then its settled
    messages are marked done (or moved to the quarantine folder). Messages to retry stay
    unmarked. `routed`: mail naming another campaign is left for it. `alarms`: told whether
    the inbox could be read (pbem/tick/alarms.py)."""
    guard = Guard(camp, ruleset, Intake(camp, ruleset, now, take_mail), now, faults, log)
    taken: list[str] = []
    held: list[str] = []

    def store() -> None:
        for key in held:        # before the marks: marking a message already moved is no error
            inbox.quarantine(key)
        held.clear()
        commit([camp], inbox, taken, faults)

    try:
        for item in inbox.items():
            verdict = guard.take(item.raw, routed=routed)
            if verdict in (DONE, HELD):
                taken.append(item.key)
                held.extend([item.key] if verdict == HELD else [])
            if len(taken) >= COMMIT_EVERY:
                store()
        store()
    except MailUnavailable as exc:
        store()      # keep what was read; its marks may have to wait
        if alarms is None:
            log(f"{camp.name}: inbox unavailable, mail stays on the server: {exc}")
        else:
            alarms.failed("inbox", str(exc))
        return False
    finally:
        inbox.close()
    if alarms is not None:
        alarms.worked("inbox")
    return True


def intake_shared(root: Path, now: datetime, faults: Faults, log: TickLog) -> dict[str, str]:
    """The mailbox of pbem.toml, read once for all campaigns sharing it (pbem/intake/routing.py);
    returns the campaigns whose mail could not be read, each with why when the mailbox itself
    could not be used ("" otherwise). Behind its own boundary: if the shared intake fails as a
    whole, no campaign resolves a stage without its mail."""
    try:
        shared = SharedIntake.of(root, now, log, take_mail)
        if shared is None:
            return {}
        guards: dict[str, Guard] = {}

        def guard_of(camp: Campaign, ruleset: AnyRuleset, intake: Intake) -> Guard:
            if camp.name not in guards or guards[camp.name].camp is not camp:
                guards[camp.name] = Guard(camp, ruleset, intake, now, faults, log)
            return guards[camp.name]

        unread = shared.run(lambda camp, ruleset, intake, raw, sub: guard_of(camp, ruleset, intake).take(raw, sub),
                            lambda camps, inbox, taken: commit(camps, inbox, taken, faults), COMMIT_EVERY)
        return dict.fromkeys(unread, shared.problem)
    except Exception as exc:
        if is_injected(exc):
            raise
        log(f"pbem.toml: NOT PROCESSED: shared mailbox: {one_line(exc)}")
        return dict.fromkeys((folder.name for folder in discover(root)), "")
