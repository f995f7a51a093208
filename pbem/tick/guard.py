"""The boundary around each message: its effects undone when its handling raises, its failure
counted, and the quarantine after QUARANTINE_AFTER failures (pbem/intake/quarantine.py)."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from functools import partial
from typing import Any

from pbem.delivery.digest import hold
from pbem.delivery.mails import alert_mail, build_mail
from pbem.delivery.outqueue import enqueue
from pbem.delivery.replies import Outcome, Reply
from pbem.intake.addressing import misdirected
from pbem.intake.envelope import read_envelope
from pbem.intake.handler import Intake
from pbem.intake.isolation import one_line, passes_through
from pbem.intake.journal import journal_key
from pbem.intake.quarantine import (
    DONE,
    HELD,
    QUARANTINE_AFTER,
    RETRY,
    SKIP,
    Held,
    Quarantine,
    unreadable,
    usable_sender,
)
from pbem.mail.inbox import Inbox
from pbem.mail.message import Submission, parse_message
from pbem.rulesets.base import AnyRuleset
from pbem.state.campaign import Campaign
from pbem.state.store import sync_folders
from pbem.tick.faults import Faults
from pbem.tick.log import TickLog


@dataclass
class Guard:
    """The boundary around each message of one campaign. A message whose handling raises has
    its in-memory effects undone (state and auth as before it), its failure counted, and is
    retried on the next ticks; the QUARANTINE_AFTER-th failure sets it aside. Failures of
    the surroundings (pbem/intake/isolation.py) pass through: they stop the campaign, not the
    message, and count against nothing."""

    camp: Campaign
    ruleset: AnyRuleset
    intake: Intake
    now: datetime
    faults: Faults
    log: TickLog
    box: Quarantine = field(init=False)

    def __post_init__(self) -> None:
        self.box = Quarantine(self.camp.folder)

    def take(self, raw: bytes, sub: Submission | None = None, routed: bool = False) -> str:
        before = snapshot(self.camp)
        try:
            sub = sub or parse_message(raw, max_bytes=self.camp.settings.max_mail_bytes)
            if self.box.holds(journal_key(sub)):
                return HELD          # set aside before, but the inbox still showed it
            if routed and not belongs_here(self.camp, sub.subject, sub.text):
                return SKIP
            take_in(self.camp, self.ruleset, self.intake, sub, self.now, self.faults, self.log)
        except Exception as exc:
            if passes_through(exc):
                raise
            self.camp.state, self.camp.auth = before
            self.intake.take_mailings()
            self.probe()
            return self.failed(raw, sub or unreadable(raw), one_line(exc))
        self.box.succeeded(journal_key(sub))
        return DONE

    def probe(self) -> None:
        """Before a failure is blamed on the message: can the campaign say, with no message at
        all, which stage it is in? If not (a state.toml edited wrong, say), the fault is the
        campaign's and goes to its boundary, so its mail is kept rather than quarantined."""
        self.ruleset.stage(self.intake.context())

    def failed(self, raw: bytes, sub: Submission, reason: str) -> str:
        key = journal_key(sub)
        count = self.box.failed(key, reason, self.now)
        self.log(f"{self.camp.name}: message {key} from {sub.sender or 'no sender'} failed "
                 f"({count} of {QUARANTINE_AFTER}): {reason}")
        if count < QUARANTINE_AFTER:
            return RETRY
        held = self.box.hold(key, raw, sub, reason, self.now)
        self.intake.journal[key] = "quarantined"
        self.tell(held, sub)
        self.log(f"{self.camp.name}: message {key} quarantined as {held.id}; see `pbem quarantine list`")
        return HELD

    def tell(self, held: Held, sub: Submission) -> None:
        """One plain reply to a usable sender, one alert to the GM. Neither quotes the
        message's headers into headers of ours: they may be what broke it."""
        alert = (f"A message from {held.sender or 'an unknown sender'} (subject: {held.subject or 'none'}) failed "
                 f"{held.failures} times and was set aside as {held.id}: {held.reason}. "
                 f"Use `pbem quarantine release {self.camp.name} {held.id}` to try it again after a fix, "
                 f"or `pbem quarantine drop {self.camp.name} {held.id}`.")
        outcome = Outcome(gm_alerts=[alert])
        if usable_sender(sub, {self.camp.settings.address}):
            subject = f"[{self.camp.name}] your message could not be processed"
            reply = Reply(f"quarantined/{held.id}", (sub.sender,), subject,
                          "quarantined", {"campaign": self.camp.settings, "title": self.camp.settings.title,
                                          "held": held, "now": self.now})
            outcome.replies = [reply] if self.intake.may_answer(reply, outcome) else []
        for reply in outcome.replies:
            self.send(f"no reply to {sub.sender}", partial(build_mail, self.camp, self.ruleset, reply, self.now))
        self.send("the GM was not alerted",
                  lambda: alert_mail(self.camp, self.ruleset, outcome, self.now, key=f"quarantine/{held.id}"))

    def send(self, failure: str, build: Callable[[], EmailMessage | None]) -> None:
        """Queue a mail about a quarantined message; one that cannot be built is logged, so
        the message stays set aside either way (a full disk still stops the campaign)."""
        try:
            mail = build()
        except Exception as exc:
            if passes_through(exc):
                raise
            self.log(f"{self.camp.name}: {failure}: {one_line(exc)}")
            return
        if mail is not None:
            enqueue(self.camp.folder, mail)


def snapshot(camp: Campaign) -> tuple[dict[str, Any], dict[str, Any]]:
    """A copy of state and auth to restore after a failed message. The journal, which grows
    with every message ever handled, is copied one level deep only: its entries are replaced,
    never changed in place, so a per-message copy costs little however long the campaign runs."""
    state = {key: dict(value) if key == "journal" and isinstance(value, dict) else _copied(value)
             for key, value in camp.state.items()}
    return state, _copied(camp.auth)


def _copied(value: Any) -> Any:
    """A deep copy of TOML data: through pickle, which copies plain data in a third of the
    time `copy.deepcopy` takes (this runs for every message); deepcopy for anything else."""
    try:
        return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    except (pickle.PicklingError, TypeError, AttributeError):
        return copy.deepcopy(value)


def take_in(camp: Campaign, ruleset: AnyRuleset, intake: Intake, sub: Submission, now: datetime, faults: Faults,
            log: TickLog) -> None:
    """One message's effect in memory, its replies queued; commit() stores it. Every mail is
    built before any is queued, so a message that fails leaves no reply behind."""
    outcome = intake.handle(sub)
    mails = [build_mail(camp, ruleset, reply, now) for reply in outcome.replies
             if not hold(camp, ruleset, reply, now)]        # a daily digest keeps some for its reader
    alert = alert_mail(camp, ruleset, outcome, now, key=journal_key(sub))
    for mail in [*mails, *([alert] if alert is not None else [])]:
        enqueue(camp.folder, mail)
    faults.hook("handled")
    log.count("read")
    log.count("acks", sum(reply.template in ("ack", "gm_ack") for reply in outcome.replies))
    log.count("throttled", outcome.note.endswith("throttled"))
    log(f"{camp.name}: {sub.sender or 'no sender'}: {outcome.note or 'processed'}")


def commit(camps: list[Campaign], inbox: Inbox, taken: list[str], faults: Faults) -> None:
    """Store what the messages in `taken` did, then mark them done (and empty the list)."""
    if not taken:
        return
    for camp in camps:
        camp.commit()       # state, journal and auth as one write (Campaign.commit)
    sync_folders()          # on disk before the server forgets the mail
    faults.hook("stored")
    for key in taken:
        inbox.mark_done(key)
    taken.clear()


def belongs_here(camp: Campaign, subject: str, text: str, forum: bool = False) -> bool:
    """Is a message for this campaign to take? In its own inbox every mail is, but one naming
    another campaign that reads the same inbox (pbem/intake/addressing.py); mail naming a campaign that
    reads elsewhere is taken and answered with its address (Intake). A forum bot may serve
    campaigns of other directories, so a private message naming any other campaign is not ours."""
    if forum:
        env = read_envelope(subject, text)
        names = {*env.tags, env.campaign_line} - {""}
        return not names or camp.name in names
    found = misdirected(camp, subject, text)
    return found is None or not found.same_inbox
