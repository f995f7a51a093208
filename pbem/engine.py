"""One tick: intake -> acknowledgements -> due stages -> reminders -> delivery.

`tick()` is what cron runs every few minutes. It reads like the pipeline in
DESIGN.md; each step is a function that can be tested alone. Campaign folders
are processed one at a time under their lock; a campaign whose files are
broken is reported and skipped without stopping the others, and its mail stays
in the inbox for the next tick.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from pbem import turns
from pbem.addressing import misdirected
from pbem.campaign import Campaign, SettingsError, discover
from pbem.envelope import read_envelope
from pbem.forum import admission
from pbem.forum.backends import open_forum
from pbem.forum.base import Forum, ForumError, Post, advance
from pbem.forum.config import forum_settings
from pbem.forum.queue import enqueue_post, pending_posts, publish_pending
from pbem.intake import Intake, Outcome, Reply
from pbem.journal import journal_key
from pbem.mail.compose import OutgoingMail, compose
from pbem.mail.connection import MailUnavailable, forget_unreachable
from pbem.mail.inbox import Inbox, open_inbox
from pbem.mail.message import Submission, parse_message
from pbem.mail.outbox import open_transport
from pbem.outqueue import deliver, enqueue
from pbem.reports import render
from pbem.routing import SharedIntake
from pbem.rulebook import RulesError
from pbem.rulesets import registry
from pbem.rulesets.base import GMDecisionNeeded, Report, Ruleset
from pbem.store import LockBusy, StoreError, campaign_lock

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

    def hook_sent(self, name: str) -> None:
        self.hook("sent")


@dataclass
class TickLog:
    lines: list[str] = field(default_factory=list)

    def __call__(self, text: str) -> None:
        self.lines.append(text)


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
        except (SettingsError, StoreError, RulesError, KeyError) as exc:
            log(f"{folder.name}: NOT PROCESSED: {exc}")
            print(f"pbem: {folder.name}: {exc}", file=sys.stderr)
    return log


def tick_campaign(folder: Path, now: datetime, faults: Faults, log: TickLog, mail_read: bool = True) -> None:
    camp = Campaign(folder)
    ruleset = registry.get(camp.settings.ruleset)
    forum_read = intake_forum(camp, ruleset, now, faults, log)
    if intake_mail(camp, ruleset, now, faults, log) and mail_read and forum_read:
        resolve_due(camp, ruleset, now, log)
        send_reminders(camp, ruleset, now, log)
    else:   # orders may be waiting in the mailbox or the forum: no deadline passes without them
        log(f"{camp.name}: mail or forum could not be read; nothing is resolved until they are")
    deliver_mail(camp, log, faults)
    publish_posts(camp, faults, log)


# -- intake ----------------------------------------------------------------------


def intake_mail(camp: Campaign, ruleset: Ruleset, now: datetime, faults: Faults, log: TickLog) -> bool:
    """Read the campaign's own inbox; False when it cannot be reached (the mail stays there)."""
    if camp.settings.inbox.get("shared"):
        return True      # read by intake_shared
    try:
        inbox: Inbox = open_inbox(camp.settings.inbox, camp.folder, log=log)
    except ValueError as exc:
        raise SettingsError(camp.folder / "campaign.toml", [f"transport.inbox: {exc}"]) from exc
    intake = Intake(camp, ruleset, now)
    taken: list[str] = []
    try:
        for item in inbox.items():
            sub = parse_message(item.raw, max_bytes=camp.settings.max_mail_bytes)
            if not belongs_here(camp, sub.subject, sub.text):
                continue
            take_in(camp, ruleset, intake, sub, now, faults, log)
            taken.append(item.key)
            if len(taken) >= COMMIT_EVERY:
                commit([camp], inbox, taken, faults)
        commit([camp], inbox, taken, faults)
    except MailUnavailable as exc:
        commit([camp], inbox, taken, faults)      # keep what was read; its marks may have to wait
        log(f"{camp.name}: inbox unavailable, mail stays on the server: {exc}")
        return False
    finally:
        inbox.close()
    return True


def intake_shared(root: Path, now: datetime, faults: Faults, log: TickLog) -> set[str]:
    """The mailbox of pbem.toml, read once for all campaigns sharing it (pbem/routing.py);
    returns the campaigns whose mail could not be read."""
    shared = SharedIntake.of(root, now, log)
    if shared is None:
        return set()
    return shared.run(lambda camp, ruleset, intake, sub: take_in(camp, ruleset, intake, sub, now, faults, log),
                      lambda camps, inbox, taken: commit(camps, inbox, taken, faults), COMMIT_EVERY)


def take_in(camp: Campaign, ruleset: Ruleset, intake: Intake, sub: Submission, now: datetime, faults: Faults,
            log: TickLog) -> None:
    """One message's effect in memory, its replies queued; commit() stores it."""
    outcome = intake.handle(sub)
    for reply in outcome.replies:
        enqueue(camp.folder, build_mail(camp, ruleset, reply, now))
    alert_gm(camp, ruleset, outcome, now, key=journal_key(sub))
    faults.hook("handled")
    log(f"{camp.name}: {sub.sender}: {outcome.note or 'processed'}")


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


def alert_gm(camp: Campaign, ruleset: Ruleset, outcome: Outcome, now: datetime, key: str) -> None:
    if not outcome.gm_alerts:
        return
    gm = camp.settings.gm
    reply = Reply(f"gm-alert/{key}", (gm.email,), f"[{camp.name}] needs your attention", "gm_alert",
                  {"campaign": camp.settings, "alerts": outcome.gm_alerts, "now": now}, auto_reply=False)
    enqueue(camp.folder, build_mail(camp, ruleset, reply, now))


def build_mail(camp: Campaign, ruleset: Ruleset, reply: Reply, now: datetime):  # type: ignore[no-untyped-def]
    body = render(ruleset.templates, reply.template, reply.context, camp.folder)
    mail = OutgoingMail(
        key=reply.key, to=reply.to, subject=reply.subject, markdown=body,
        sender=f"{camp.settings.title} <{camp.settings.address}>", in_reply_to=reply.in_reply_to,
        references=reply.references, auto_reply=reply.auto_reply, list_id=f"{camp.name}.{camp.settings.domain}",
    )
    return compose(mail, campaign=camp.name, domain=camp.settings.domain, date=now)


# -- forum -----------------------------------------------------------------------


def intake_forum(camp: Campaign, ruleset: Ruleset, now: datetime, faults: Faults, log: TickLog) -> bool:
    """Posts since the stored cursor go through the same Intake as mail; the cursor is saved
    with the journal, so no post is processed twice. False when the forum could not be read
    (its posts wait there for the next tick)."""
    try:
        forum = open_forum(camp.settings, camp.folder)
        posts = forum.fetch(camp.state.get("forum", {}).get("cursor", {})) if forum else []
    except (ForumError, OSError) as exc:
        log(f"{camp.name}: forum not read, retried next tick: {exc}")
        return False
    for problem in getattr(forum, "skipped", []):
        log(f"{camp.name}: forum post skipped: {problem}")
    intake = Intake(camp, ruleset, now)
    for post in posts:
        before = copy.deepcopy((camp.state, camp.auth))
        try:
            note = take_post(camp, ruleset, forum, intake, post, now) if forum else ""
        except (ForumError, OSError) as exc:   # its answer could not be posted: as if never read
            camp.state, camp.auth = before
            log(f"{camp.name}: forum post {post.id} kept for the next tick: {exc}")
            return False
        forum_state = camp.state.setdefault("forum", {})
        forum_state["cursor"] = advance(forum_state.get("cursor", {}), post)
        camp.save_auth()
        camp.save()
        faults.hook("forum-stored")
        if note:
            log(f"{camp.name}: forum post {post.id} by {post.author or '?'}: {note}")
    return True


def take_post(camp: Campaign, ruleset: Ruleset, forum: Forum, intake: Intake, post: Post, now: datetime) -> str:
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


def forum_answer(camp: Campaign, ruleset: Ruleset, reply: Reply) -> str:
    """The one place a forum answer is rendered: what players wrote is quoted back inert
    (no live HTML, no @mentions) however the template shows it."""
    from pbem.forum.base import inert

    return inert(render(ruleset.templates, reply.template, reply.context, camp.folder))


def sharing_campaigns(camp: Campaign) -> list[str]:
    """The campaigns beside this one whose forum has the same bot account (pbem/forum/shared.py)."""
    from pbem.forum.shared import campaigns_sharing_bot

    return campaigns_sharing_bot(camp.folder, camp.settings)


def untagged_message(camp: Campaign, ruleset: Ruleset, forum: Forum, post: Post, shared: list[str]) -> str:
    """A private message to a bot several campaigns share must name its campaign: none acts
    on it, and the first of them (by name) answers once, saying how to name it."""
    if camp.name != shared[0]:
        return "not acted on: names no campaign, and the bot serves several"
    context = {"campaign": camp.settings, "campaigns": shared, "bot": forum.bot}
    reply = Reply(f"no-campaign/{post.channel}/{post.id}", (), "", "forum_no_campaign", context)
    forum.reply(post, reply.key, forum_answer(camp, ruleset, reply))
    return "not acted on: names no campaign, and the bot serves several; told to name one"


def tell_owners(camp: Campaign, ruleset: Ruleset, sub: Submission, now: datetime) -> None:
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


def publish_posts(camp: Campaign, faults: Faults, log: TickLog) -> None:
    """Post the queued public reports to the thread, each once (pbem/forum/queue.py)."""
    if not pending_posts(camp.folder):
        return
    try:
        forum = open_forum(camp.settings, camp.folder)
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


def resolve_due(camp: Campaign, ruleset: Ruleset, now: datetime, log: TickLog) -> None:
    for _ in range(MAX_STAGES_PER_TICK):
        if "stage" not in camp.state:
            turns.open_stage(camp, ruleset, now)
            turns.snapshot_start(camp, camp.state["stage"]["turn"])
            camp.save()
        stage = ruleset.stage(turns.context(camp, now))
        if not turns.is_due(camp, stage, now):
            return
        resolve_stage(camp, ruleset, stage, now, log)


def resolve_stage(camp: Campaign, ruleset: Ruleset, stage, now: datetime, log: TickLog) -> None:  # type: ignore[no-untyped-def]
    ctx = turns.context(camp, now)
    submissions = {p: s["payload"] for p, s in camp.state.get("submissions", {}).items()}
    missing = turns.missing_players(camp, stage)
    dice = turns.stage_dice(camp, stage)
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
    extra["next_deadline"] = turns.parse_time(camp.state["stage"]["deadline"])
    for report in res.reports:
        queue_report(camp, ruleset, stage, report, extra, now)
    alert_gm(camp, ruleset, Outcome(gm_alerts=res.gm_alerts), now, key=f"turn-{stage.turn}-{stage.kind}")
    if res.turn_finished:
        turns.snapshot_start(camp, new_stage.turn)
    camp.save()
    log(f"{camp.name}: resolved {stage.title}" + (f"; waiting for {', '.join(missing)} was over" if missing else ""))


def ask_gm(camp: Campaign, ruleset: Ruleset, stage, need: GMDecisionNeeded, now: datetime, log: TickLog) -> None:  # type: ignore[no-untyped-def]
    """Hold the stage as it is until the GM answers with `DECIDE`."""
    meta = camp.state["stage"]
    meta["question"] = {"key": need.key, "text": need.question, "options": need.options}
    choices = f" Choose one of: {', '.join(need.options)}." if need.options else ""
    alert = f"{stage.title}: {need.question}{choices} Answer with `DECIDE {need.key} <choice>`."
    alert_gm(camp, ruleset, Outcome(gm_alerts=[alert]), now, key=f"question-{stage.turn}-{stage.kind}-{need.key}")
    camp.save()
    log(f"{camp.name}: {stage.title} waits for the GM: {need.key}")


def queue_report(camp: Campaign, ruleset: Ruleset, stage, report: Report, extra: dict, now: datetime) -> None:  # type: ignore[no-untyped-def]
    settings = camp.settings
    context = extra | report.context
    text = render(ruleset.templates, report.kind, context, camp.folder)
    key = f"turn-{stage.turn}/{stage.kind}/{report.key or report.kind}"
    turns.save_report(camp, stage.turn, f"{stage.kind}-{report.key or report.kind}", text)
    audience = [p.id for p in settings.players] if "*" in report.audience else list(report.audience)
    people = [settings.gm if a == "gm" else settings.player(a) for a in audience]
    to = [person.email for person in people if person is not None]
    if report.public and settings.gm.email not in to:
        to.append(settings.gm.email)
    for address in to:
        mail = OutgoingMail(key=f"{key}/{address}", to=(address,), subject=f"[{camp.name}] {report.subject}",
                            markdown=text, sender=f"{settings.title} <{settings.address}>",
                            list_id=f"{camp.name}.{settings.domain}")
        enqueue(camp.folder, compose(mail, campaign=camp.name, domain=settings.domain, date=now))
    if report.public and settings.forum:
        enqueue_post(camp.folder, key, f"[{camp.name}] {report.subject}", text)


# -- reminders and delivery ------------------------------------------------------


def send_reminders(camp: Campaign, ruleset: Ruleset, now: datetime, log: TickLog) -> None:
    stage = ruleset.stage(turns.context(camp, now))
    if not turns.reminder_due(camp, stage, now):
        return
    deadline = turns.parse_time(camp.state["stage"]["deadline"])
    for pid in turns.missing_players(camp, stage):
        player = camp.settings.player(pid)
        if player is None:
            continue
        reply = Reply(f"reminder/{stage.turn}/{stage.kind}/{pid}", (player.email,),
                      f"[{camp.name}] reminder: {stage.title} due {camp.settings.schedule.show(deadline)}",
                      "reminder", {"campaign": camp.settings, "player": player, "stage": stage,
                                   "deadline": deadline, "schedule": camp.settings.schedule, "now": now},
                      auto_reply=False)
        enqueue(camp.folder, build_mail(camp, ruleset, reply, now))
    camp.state["stage"]["reminded"] = True
    camp.save()
    log(f"{camp.name}: reminders sent for {stage.title}")


def deliver_mail(camp: Campaign, log: TickLog, faults: Faults | None = None) -> None:
    try:
        transport = open_transport(camp.settings.outbox, camp.folder, log=log)
    except ValueError as exc:
        raise SettingsError(camp.folder / "campaign.toml", [f"transport.outbox: {exc}"]) from exc
    sent, problems = deliver(camp.folder, transport, after_send=(faults or Faults()).hook_sent)
    if sent:
        log(f"{camp.name}: delivered {sent} mail(s)")
    for problem in problems:
        log(f"{camp.name}: delivery failed, kept for retry: {problem}")
