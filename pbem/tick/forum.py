"""The forum step: posts since the stored cursor go through the same intake as mail."""

from __future__ import annotations

from datetime import datetime

from pbem.delivery.mails import alert_gm, build_mail
from pbem.delivery.outqueue import enqueue
from pbem.delivery.replies import Outcome, Reply
from pbem.forum.backends import open_forum
from pbem.forum.base import Forum, ForumError, Post, advance
from pbem.gm.desk import take_mail
from pbem.intake import admission
from pbem.intake.envelope import read_envelope
from pbem.intake.handler import Intake
from pbem.intake.isolation import one_line, passes_through
from pbem.intake.journal import journal_key
from pbem.intake.quarantine import (
    QUARANTINE_AFTER,
    Quarantine,
    unreadable,
)
from pbem.kit.texts import render
from pbem.mail.message import Submission
from pbem.rulesets.base import AnyRuleset
from pbem.state.campaign import Campaign
from pbem.state.forumconfig import forum_settings
from pbem.tick.faults import Faults
from pbem.tick.guard import Guard, belongs_here, snapshot
from pbem.tick.log import TickLog


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
    intake = Intake(camp, ruleset, now, take_mail)
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
    """A post whose handling raised: counted like a mail (pbem/intake/quarantine.py); "" while it is
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
