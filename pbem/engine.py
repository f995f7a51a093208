"""One tick: intake -> acknowledgements -> due stages -> reminders -> delivery.

`tick()` is what cron runs every few minutes. It reads like the pipeline in
DESIGN.md; each step is a function that can be tested alone. Campaign folders
are processed one at a time under their lock, each behind its own boundary:
whatever a campaign raises is logged on one line with its name, its GM is told
once per distinct problem, its mail stays in the inbox, and the next campaign
runs. Each message is handled behind a boundary too (`Guard`): a message whose
handling raises has its effects discarded and is retried on the next ticks,
then quarantined (pbem/quarantine.py), and the mail behind it goes on.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import turns
from pbem.addressing import misdirected
from pbem.campaign import Campaign, Settings, SettingsError, discover, load_settings
from pbem.envelope import read_envelope
from pbem.forum import admission
from pbem.forum.backends import open_forum
from pbem.forum.base import Forum, ForumError, Post, advance
from pbem.forum.config import forum_settings
from pbem.forum.queue import enqueue_post, pending_posts, publish_pending
from pbem.intake import Intake, Outcome, Reply
from pbem.isolation import (
    INJECTED,
    clear_reports,
    digest,
    first_report,
    is_injected,
    mark_reported,
    one_line,
    passes_through,
    problem_key,
)
from pbem.journal import journal_key
from pbem.journal import prune as prune_journal
from pbem.mail.compose import Letterhead, thread_root
from pbem.mail.connection import MailUnavailable, forget_unreachable
from pbem.mail.inbox import Inbox, open_inbox
from pbem.mail.message import Submission, parse_message
from pbem.mail.outbox import open_transport
from pbem.outqueue import deliver, enqueue
from pbem.quarantine import DONE, HELD, QUARANTINE_AFTER, RETRY, SKIP, Held, Quarantine, unreadable, usable_sender
from pbem.reports import render
from pbem.routing import SharedIntake
from pbem.rulesets import registry
from pbem.rulesets.base import AnyRuleset, GMDecisionNeeded, Report, Stage
from pbem.schedule import iso
from pbem.stagerecord import Question, StageRecord
from pbem.store import LockBusy, campaign_lock
from pbem.template_alerts import alert_template_problems
from pbem.welcome import send_owed as send_owed_welcomes

if TYPE_CHECKING:          # drawing pulls in numeric libraries: loaded only when a picture is made
    from pbem.pictures.picture import Picture

COMMIT_EVERY = 50
"""Messages whose effects are saved together, then marked done together: one state write per
batch rather than per message. A crash loses none of the batch's mail: unmarked, it comes back
and is handled the same way again, and its replies, having stable Message-IDs, are not queued
twice."""
MAX_STAGES_PER_TICK = 10   # stages that resolve with no mail (e.g. no battles) chain within one tick


@dataclass
class Faults:
    """Test seam: called at named points so tests can inject a crash."""

    hook: Callable[[str], None] = lambda point: None

    def __post_init__(self) -> None:
        """What the hook raises stands for a kill of the process: tagged so that no
        boundary of the tick catches it (pbem/isolation.py)."""
        inner = self.hook

        def hook(point: str) -> None:
            try:
                inner(point)
            except BaseException as exc:
                setattr(exc, INJECTED, True)
                raise

        self.hook = hook

    def hook_sent(self, name: str) -> None:
        self.hook("sent")


# what a tick's summary line counts, in its order, with the words it uses
TALLIES = (("read", "mail(s) read"), ("acks", "ack(s)"), ("resolved", "stage(s) resolved"),
           ("sent", "mail(s) sent"), ("throttled", "held back by throttling"), ("problems", "problem(s)"))


@dataclass
class TickLog:
    lines: list[str] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)

    def __call__(self, text: str) -> None:
        self.lines.append(text)
        self.counts["problems"] += "NOT PROCESSED" in text

    def count(self, what: str, n: int = 1) -> None:
        """Tally one of TALLIES for the summary line."""
        self.counts[what] += n

    def summary(self) -> str:
        """One line for the cron log: what the tick did."""
        return ", ".join(f"{self.counts[what]} {words}" for what, words in TALLIES)


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


def not_processed(folder: Path, exc: Exception, now: datetime, log: TickLog) -> None:
    """One line in the log (`pbem tick` shows it, on stderr when --quiet), and the GM told
    once per distinct problem when the settings load far enough to know the GM."""
    problem, key = one_line(exc), problem_key(exc)
    log(f"{folder.name}: NOT PROCESSED: {problem}")
    if not first_report(folder, key):
        return
    try:     # sent at once, not queued: the campaign folder may be what cannot be written
        settings = load_settings(folder)
        mail = problem_mail(settings, problem, now)
        transport = open_transport(settings.outbox, folder, log=log)
        mark_reported(folder, key, now)          # first: a GM must not be mailed every tick
        try:
            transport.send(mail)
        except Exception:
            clear_reports(folder)                # not told after all: try again next tick
            raise
        finally:
            getattr(transport, "close", lambda: None)()
    except Exception as exc:
        if is_injected(exc):
            raise
        told = one_line(exc)      # the same broken file twice would read as two problems
        log(f"{folder.name}: the GM could not be told" + ("" if told == problem else f": {told}"))


def problem_mail(settings: Settings, problem: str, now: datetime) -> EmailMessage:
    """The GM alert for a campaign that was not processed, rendered from the built-in
    template only: the campaign's own templates may be what is broken."""
    text = render("common", "campaign_problem", {"campaign": settings, "problem": problem, "now": now})
    # keyed by the telling, not only the problem: one that comes back after a clean tick is news
    # again (pbem/isolation.py), and the transport would refuse the Message-ID it sent the first time
    return Letterhead.of(settings).write(f"problem/{digest(problem)}/{iso(now)}", (settings.gm.email,),
                                         f"[{settings.name}] was not processed", text, now)


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


# -- intake ----------------------------------------------------------------------


def intake_mail(camp: Campaign, ruleset: AnyRuleset, now: datetime, faults: Faults, log: TickLog) -> bool:
    """Read the campaign's own inbox; False when it cannot be reached (the mail stays there)."""
    if camp.settings.inbox.get("shared"):
        return True      # read by intake_shared
    try:
        inbox: Inbox = open_inbox(camp.settings.inbox, camp.folder, log=log)
    except ValueError as exc:
        raise SettingsError(camp.folder / "campaign.toml", [f"transport.inbox: {exc}"]) from exc
    return read_inbox(camp, ruleset, inbox, now, faults, log, routed=True)


def intake_released(camp: Campaign, ruleset: AnyRuleset, now: datetime, faults: Faults, log: TickLog) -> None:
    """Messages the GM released from quarantine (`pbem quarantine release`), handled again."""
    inbox = Quarantine(camp.folder).released()
    if inbox is not None:
        read_inbox(camp, ruleset, inbox, now, faults, log)


def read_inbox(camp: Campaign, ruleset: AnyRuleset, inbox: Inbox, now: datetime, faults: Faults, log: TickLog,
               routed: bool = False) -> bool:
    """Every message behind its own boundary (Guard); a batch is stored, then its settled
    messages are marked done (or moved to the quarantine folder). Messages to retry stay
    unmarked. `routed`: mail naming another campaign is left for it."""
    guard = Guard(camp, ruleset, Intake(camp, ruleset, now), now, faults, log)
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
        log(f"{camp.name}: inbox unavailable, mail stays on the server: {exc}")
        return False
    finally:
        inbox.close()
    return True


def intake_shared(root: Path, now: datetime, faults: Faults, log: TickLog) -> set[str]:
    """The mailbox of pbem.toml, read once for all campaigns sharing it (pbem/routing.py);
    returns the campaigns whose mail could not be read. Behind its own boundary: if the
    shared intake fails as a whole, no campaign resolves a stage without its mail."""
    try:
        shared = SharedIntake.of(root, now, log)
        if shared is None:
            return set()
        guards: dict[str, Guard] = {}

        def guard_of(camp: Campaign, ruleset: AnyRuleset, intake: Intake) -> Guard:
            if camp.name not in guards or guards[camp.name].camp is not camp:
                guards[camp.name] = Guard(camp, ruleset, intake, now, faults, log)
            return guards[camp.name]

        return shared.run(lambda camp, ruleset, intake, raw, sub: guard_of(camp, ruleset, intake).take(raw, sub),
                          lambda camps, inbox, taken: commit(camps, inbox, taken, faults), COMMIT_EVERY)
    except Exception as exc:
        if is_injected(exc):
            raise
        log(f"pbem.toml: NOT PROCESSED: shared mailbox: {one_line(exc)}")
        return {folder.name for folder in discover(root)}


@dataclass
class Guard:
    """The boundary around each message of one campaign. A message whose handling raises has
    its in-memory effects undone (state and auth as before it), its failure counted, and is
    retried on the next ticks; the QUARANTINE_AFTER-th failure sets it aside. Failures of
    the surroundings (pbem/isolation.py) pass through: they stop the campaign, not the
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
    state = {key: dict(value) if key == "journal" and isinstance(value, dict) else copy.deepcopy(value)
             for key, value in camp.state.items()}
    return state, copy.deepcopy(camp.auth)


def take_in(camp: Campaign, ruleset: AnyRuleset, intake: Intake, sub: Submission, now: datetime, faults: Faults,
            log: TickLog) -> None:
    """One message's effect in memory, its replies queued; commit() stores it. Every mail is
    built before any is queued, so a message that fails leaves no reply behind."""
    outcome = intake.handle(sub)
    mails = [build_mail(camp, ruleset, reply, now) for reply in outcome.replies]
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
    faults.hook("stored")
    for key in taken:
        inbox.mark_done(key)
    taken.clear()


def belongs_here(camp: Campaign, subject: str, text: str, forum: bool = False) -> bool:
    """Is a message for this campaign to take? In its own inbox every mail is, but one naming
    another campaign that reads the same inbox (pbem/addressing.py); mail naming a campaign that
    reads elsewhere is taken and answered with its address (Intake). A forum bot may serve
    campaigns of other directories, so a private message naming any other campaign is not ours."""
    if forum:
        env = read_envelope(subject, text)
        names = {*env.tags, env.campaign_line} - {""}
        return not names or camp.name in names
    found = misdirected(camp, subject, text)
    return found is None or not found.same_inbox


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
    return Letterhead.of(camp.settings).write(reply.key, reply.to, reply.subject, body, now,
                                              in_reply_to=reply.in_reply_to, references=reply.references,
                                              auto_reply=reply.auto_reply)


# -- forum -----------------------------------------------------------------------


def intake_forum(camp: Campaign, ruleset: AnyRuleset, now: datetime, faults: Faults, log: TickLog) -> bool:
    """Posts since the stored cursor go through the same Intake as mail; the cursor is saved
    with the journal, so no post is processed twice. False when the forum could not be read
    (its posts wait there for the next tick)."""
    try:
        forum = open_forum(camp.settings, camp.folder, now)
        posts = forum.fetch(camp.state.get("forum", {}).get("cursor", {})) if forum else []
    except (ForumError, OSError) as exc:
        log(f"{camp.name}: forum not read, retried next tick: {exc}")
        return False
    for problem in getattr(forum, "skipped", []):
        log(f"{camp.name}: forum post skipped: {problem}")
    intake = Intake(camp, ruleset, now)
    for post in posts:
        before = snapshot(camp)     # the same undo as a mail's (Guard)
        try:
            note = take_post(camp, ruleset, forum, intake, post, now) if forum else ""
        except (ForumError, OSError) as exc:   # its answer could not be posted: as if never read
            camp.state, camp.auth = before
            log(f"{camp.name}: forum post {post.id} kept for the next tick: {exc}")
            return False
        except Exception as exc:
            if passes_through(exc):
                raise
            camp.state, camp.auth = before
            intake.take_mailings()
            Guard(camp, ruleset, intake, now, faults, log).probe()
            note = post_failed(camp, ruleset, forum, post, one_line(exc), now, log) if forum else ""
            if not note:
                return False       # tried again at the next tick, with the posts after it
        forum_state = camp.state.setdefault("forum", {})
        forum_state["cursor"] = advance(forum_state.get("cursor", {}), post)
        camp.save_auth()
        camp.save()
        faults.hook("forum-stored")
        if note:
            log(f"{camp.name}: forum post {post.id} by {post.author or '?'}: {note}")
    return True


def post_failed(camp: Campaign, ruleset: AnyRuleset, forum: Forum, post: Post, reason: str, now: datetime,
                log: TickLog) -> str:
    """A post whose handling raised: counted like a mail (pbem/quarantine.py); "" while it is
    to be tried again, else what became of it. The QUARANTINE_AFTER-th failure sets it aside:
    its text is kept in the quarantine for the GM, who is alerted, and the thread reads on. A
    post cannot be handed back (`pbem quarantine release` is for mail): its author posts again."""
    key = f"post:{admission.message_id(forum.kind, camp.name, post)}"
    box = Quarantine(camp.folder)
    count = box.failed(key, reason, now)
    log(f"{camp.name}: forum post {post.id} by {post.author or '?'} failed ({count} of {QUARANTINE_AFTER}): "
        f"{reason}")
    if count < QUARANTINE_AFTER:
        return ""
    raw = f"From: {post.author or '?'} (forum)\nSubject: {post.title}\n\n{post.text}\n".encode("utf-8", "replace")
    held = box.hold(key, raw, unreadable(raw), reason, now)
    camp.state.setdefault("journal", {})[key] = "quarantined"
    alert = (f"Forum post {post.id} by {post.author or 'an unknown account'} failed {held.failures} times and "
             f"was set aside as {held.id}: {held.reason}. Its text is in `quarantine/{held.id}.eml`; ask its "
             f"author to post again after a fix, and `pbem quarantine drop {camp.name} {held.id}` to clear it.")
    alert_gm(camp, ruleset, Outcome(gm_alerts=[alert]), now, key=f"quarantine/{held.id}")
    return f"set aside as {held.id}"


def take_post(camp: Campaign, ruleset: AnyRuleset, forum: Forum, intake: Intake, post: Post, now: datetime) -> str:
    """One post; returns what happened ("" for the bot's own posts and table talk, never read).
    Answers to a private message go back privately in its conversation; answers to a public
    post go by mail, so orders and receipts are never shown in the thread."""
    from pbem.envelope import read_envelope

    settings = forum_settings(camp.settings.forum)
    if settings is None or post.author.casefold() == forum.bot.casefold():
        return ""
    if post.problem:
        return f"skipped, unreadable: {post.problem}"
    if not admission.addressed(post, settings):
        return ""
    sub = admission.to_submission(camp.settings, forum.kind, settings, post)
    if post.private and not belongs_here(camp, post.title, sub.text, forum=True):
        return "for another campaign"
    if post.private and not read_envelope(post.title, sub.text).campaign:
        shared = sharing_campaigns(camp)
        if len(shared) > 1:
            return untagged_message(camp, ruleset, forum, post, shared)
    outcome = intake.handle(sub)
    for reply in outcome.replies:
        if post.private:
            forum.reply(post, reply.key, forum_answer(camp, ruleset, reply))
        else:
            enqueue(camp.folder, build_mail(camp, ruleset, reply, now))
    tell_owners(camp, ruleset, sub, now)
    outcome.gm_alerts = admission.throttle(camp.state.setdefault("forum", {}), sub.forum_account,
                                           outcome.note, outcome.gm_alerts, now)
    alert_gm(camp, ruleset, outcome, now, key=journal_key(sub))
    return outcome.note or "processed"


def forum_answer(camp: Campaign, ruleset: AnyRuleset, reply: Reply) -> str:
    """The one place a forum answer is rendered: what players wrote is quoted back inert
    (no live HTML, no @mentions) however the template shows it."""
    from pbem.forum.base import inert

    return inert(render(ruleset.templates, reply.template, reply.context, camp.folder))


def sharing_campaigns(camp: Campaign) -> list[str]:
    """The campaigns beside this one whose forum has the same bot account (pbem/forum/shared.py)."""
    from pbem.forum.shared import campaigns_sharing_bot

    return campaigns_sharing_bot(camp.folder, camp.settings)


def untagged_message(camp: Campaign, ruleset: AnyRuleset, forum: Forum, post: Post, shared: list[str]) -> str:
    """A private message to a bot several campaigns share must name its campaign: none acts
    on it, and the first of them (by name) answers once, saying how to name it."""
    if camp.name != shared[0]:
        return "not acted on: names no campaign, and the bot serves several"
    context = {"campaign": camp.settings, "campaigns": shared, "bot": forum.bot}
    reply = Reply(f"no-campaign/{post.channel}/{post.id}", (), "", "forum_no_campaign", context)
    forum.reply(post, reply.key, forum_answer(camp, ruleset, reply))
    return "not acted on: names no campaign, and the bot serves several; told to name one"


def tell_owners(camp: Campaign, ruleset: AnyRuleset, sub: Submission, now: datetime) -> None:
    """Every player whose secret a public post showed (its author apart: he has his answer)
    is told by mail to change it."""
    author = admission.player_of(camp.settings, sub.forum_account)
    for leak in getattr(sub, "leaks", []):
        if leak.gm or leak.owner == author:
            continue
        reply = Reply(f"leaked/{sub.message_id}/{leak.owner.id}", (leak.owner.email,),
                      f"[{camp.name}] your secret was posted in the forum: change it", "forum_leaked",
                      {"campaign": camp.settings, "player": leak.owner, "account": sub.forum_account, "now": now},
                      auto_reply=False)
        enqueue(camp.folder, build_mail(camp, ruleset, reply, now))


def publish_posts(camp: Campaign, faults: Faults, log: TickLog, now: datetime | None = None) -> None:
    """Post the queued public reports to the thread, each once (pbem/forum/queue.py)."""
    if not pending_posts(camp.folder):
        return
    try:
        forum = open_forum(camp.settings, camp.folder, now)
    except ForumError as exc:
        log(f"{camp.name}: reports not posted, kept for retry: {exc}")
        return
    if forum is None:
        return
    done, problems, held = publish_pending(camp.folder, forum, lambda key: faults.hook("published"))
    if done:
        log(f"{camp.name}: posted {len(done)} report(s) to the forum")
    for key in held:
        log(f"{camp.name}: report {key} is held for moderation by the forum; it is not posted again")
    for problem in problems:
        log(f"{camp.name}: posting failed, kept for retry: {problem}")


# -- resolution ------------------------------------------------------------------


def resolve_due(camp: Campaign, ruleset: AnyRuleset, now: datetime, log: TickLog) -> None:
    for _ in range(MAX_STAGES_PER_TICK):
        if "stage" not in camp.state:
            opened = turns.open_stage(camp, ruleset, now)
            turns.snapshot_start(camp, opened.turn)
            camp.save()
        stage = ruleset.stage(turns.context(camp, now))
        if not turns.is_due(camp, stage, now):
            return
        resolve_stage(camp, ruleset, stage, now, log)


def resolve_stage(camp: Campaign, ruleset: AnyRuleset, stage: Stage, now: datetime, log: TickLog) -> None:
    ctx = turns.context(camp, now)
    submissions = {p: s["payload"] for p, s in camp.state.get("submissions", {}).items()}
    missing = turns.missing_players(camp, stage)
    dice = turns.stage_dice(camp, stage)
    gen = turns.stage_generation(camp)      # read before the next stage opens with a new one
    try:
        res = ruleset.resolve(ctx, submissions, dice)
    except GMDecisionNeeded as need:
        ask_gm(camp, ruleset, stage, need, now, log)
        return
    turns.log_dice(camp, stage.turn, stage.kind, dice)
    extra = turns.engine_context(camp, stage, dice, missing, now)
    if res.turn_finished:
        extra["dice_secret"] = turns.reveal(camp, stage.turn)
        extra["next_commitment"] = turns.commitment(camp, stage.turn + 1)
    camp.state["game"] = res.game
    new_stage = turns.open_stage(camp, ruleset, now)
    extra["next_stage"] = new_stage
    extra["next_deadline"] = StageRecord.read(camp.state).due
    turns.snapshot_stage(camp, stage, gen)
    picture = stage_picture(camp, ruleset, stage, now, log)
    own = private_pictures(camp, ruleset, stage, now, log) if picture is not None else {}
    for report in res.reports:
        queue_report(camp, ruleset, stage, report, extra, now, gen, picture, own)
    alert_gm(camp, ruleset, Outcome(gm_alerts=res.gm_alerts), now, key=f"{stage_key(stage, gen)}/alert")
    if res.turn_finished or res.turn_opened:
        turns.snapshot_start(camp, new_stage.turn)
    camp.save()
    log.count("resolved")
    log(f"{camp.name}: resolved {stage.title}" + (f"; waiting for {', '.join(missing)} was over" if missing else ""))


def ask_gm(camp: Campaign, ruleset: AnyRuleset, stage: Stage, need: GMDecisionNeeded, now: datetime,
           log: TickLog) -> None:
    """Hold the stage as it is until the GM answers with `DECIDE`."""
    record = StageRecord.read(camp.state)
    record.question = Question(need.key, need.question, list(need.options))
    record.write(camp.state)
    choices = f" Choose one of: {', '.join(need.options)}." if need.options else ""
    alert = f"{stage.title}: {need.question}{choices} Answer with `DECIDE {need.key} <choice>`."
    key = f"{stage_key(stage, turns.stage_generation(camp))}/question/{need.key}"
    alert_gm(camp, ruleset, Outcome(gm_alerts=[alert]), now, key=key)
    camp.save()
    log(f"{camp.name}: {stage.title} waits for the GM: {need.key}")


def stage_key(stage: Stage, gen: int) -> str:
    """What every mail of one opening of a stage starts its key with. The generation tells the
    openings apart (a second resolution of a stage in one turn, a turn replayed after a
    rollback); a tick re-run after a crash opens nothing new, so its keys repeat and dedupe."""
    return f"turn-{stage.turn}/g{gen}/{stage.kind}"


def stage_picture(camp: Campaign, ruleset: AnyRuleset, stage: Stage, now: datetime, log: TickLog) -> Picture | None:
    """The map picture of the game just resolved, or None: a rule system without pictures, or a
    picture that failed (logged; the reports go out without it)."""
    from pbem.pictures.picture import picture_of

    try:
        return picture_of(ruleset, camp.settings, camp.state["game"], f"{camp.name}-turn-{stage.turn:03d}-{stage.kind}",
                          now=now)
    except Exception as exc:  # noqa: BLE001  # a map picture never holds back a turn's reports
        log(f"{camp.name}: no map picture for {stage.title}: {one_line(exc)}")
        return None


def private_pictures(camp: Campaign, ruleset: AnyRuleset, stage: Stage, now: datetime,
                     log: TickLog) -> dict[str, Picture]:
    """Player id -> his own picture, for the players the rule system hides something from
    (`Ruleset.private_scene`); the others see the public picture."""
    from pbem.pictures.picture import picture_of

    own = {}
    for player in camp.settings.players:
        name = f"{camp.name}-turn-{stage.turn:03d}-{stage.kind}-{player.id}"
        try:
            drawn = picture_of(ruleset, camp.settings, camp.state["game"], name, now=now, player=player)
        except Exception as exc:  # noqa: BLE001  # a map picture never holds back a turn's reports
            log(f"{camp.name}: no map picture of {player.id}'s own for {stage.title}: {one_line(exc)}")
            continue
        if drawn is not None:
            own[player.id] = drawn
    return own


def queue_report(camp: Campaign, ruleset: AnyRuleset, stage: Stage, report: Report, extra: dict[str, Any],
                 now: datetime, gen: int, picture: Picture | None = None,
                 own: Mapping[str, Picture] | None = None) -> None:
    """Mail `report` (and post it when public). A public report shows the public picture; a report
    to players alone shows each of them his own picture where the rule system draws one."""
    settings = camp.settings
    context = extra | report.context
    text = render(ruleset.templates, report.kind, context, camp.folder)
    key = f"{stage_key(stage, gen)}/{report.key or report.kind}"
    turns.save_report(camp, stage.turn, f"{stage.kind}-{report.key or report.kind}", text)
    audience = [p.id for p in settings.players] if "*" in report.audience else list(report.audience)
    people = [settings.gm if a == "gm" else settings.player(a) for a in audience]
    to = [person.email for person in people if person is not None]
    if report.public and settings.gm.email not in to:
        to.append(settings.gm.email)
    from pbem.pictures import mail as picture_mail

    players = {p.email: p.id for p in settings.players} if own and not report.public else {}
    for address in to:
        shown = (own or {}).get(players.get(address, ""), picture)
        pictures = [shown] if shown is not None else []    # PNG in the HTML part; a plain-text reader gets the SVG
        msg = Letterhead.of(settings).write(f"{key}/{address}", (address,), f"[{camp.name}] {report.subject}", text,
                                            now, references=(thread_root(camp.name, settings.domain),),
                                            inline_images=picture_mail.inline_images(pictures, settings.domain),
                                            attachments=picture_mail.attachments(pictures))
        enqueue(camp.folder, msg)
    if report.public and settings.forum:
        enqueue_post(camp.folder, key, f"[{camp.name}] {report.subject}", text,
                     picture=(f"{picture.name}.png", picture.png) if picture is not None else None)


# -- reminders and delivery ------------------------------------------------------


def send_reminders(camp: Campaign, ruleset: AnyRuleset, now: datetime, log: TickLog) -> None:
    stage = ruleset.stage(turns.context(camp, now))
    record = StageRecord.read(camp.state)
    deadline = record.due
    if deadline is None or not turns.reminder_due(camp, stage, now):
        return
    for pid in turns.missing_players(camp, stage):
        player = camp.settings.player(pid)
        if player is None:
            continue
        # one reminder per deadline: an extension that moves the deadline earns a new one
        key = f"reminder/{stage_key(stage, turns.stage_generation(camp))}/{iso(deadline)}/{pid}"
        reply = Reply(key, (player.email,),
                      f"[{camp.name}] reminder: {stage.title} due {camp.settings.schedule.show(deadline)}",
                      "reminder", {"campaign": camp.settings, "player": player, "stage": stage,
                                   "deadline": deadline, "schedule": camp.settings.schedule, "now": now},
                      auto_reply=False)
        enqueue(camp.folder, build_mail(camp, ruleset, reply, now))
    record.reminded = True
    record.write(camp.state)
    camp.save()
    log(f"{camp.name}: reminders sent for {stage.title}")


def deliver_mail(camp: Campaign, log: TickLog, faults: Faults | None = None) -> None:
    try:
        transport = open_transport(camp.settings.outbox, camp.folder, log=log)
    except ValueError as exc:
        raise SettingsError(camp.folder / "campaign.toml", [f"transport.outbox: {exc}"]) from exc
    sent, problems = deliver(camp.folder, transport, after_send=(faults or Faults()).hook_sent)
    log.count("sent", sent)
    if sent:
        log(f"{camp.name}: delivered {sent} mail(s)")
    for problem in problems:
        log(f"{camp.name}: delivery failed, kept for retry: {problem}")
