"""One incoming message: route it, authenticate, then hand it to the GM's desk or acknowledge it.

`Intake.handle` changes only the in-memory campaign state and returns the
replies to send; the engine queues the replies, saves the state (which holds
the message journal) and only then marks the message done. A crash anywhere
in between leaves the message unmarked, and the journal makes the retry a no-op
if the state was already saved.

Who sent it is `pbem.intake.authentication`; a player's orders are parsed and acknowledged in
`pbem.intake.acks`; a GM's mail flows on to the desk the tick hands in (`GMMail`, which
`pbem.gm.desk.take_mail` is: the desk sits above intake and may use it). What is left here is
the routing between them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from pbem.delivery.replies import Outcome, Reply
from pbem.intake import admission, authentication
from pbem.intake.acks import HELD, PlayerMail, receipt
from pbem.intake.addressing import Misdirected, misdirected
from pbem.intake.answers import answer
from pbem.intake.between import unsubscribe
from pbem.intake.envelope import Envelope, read_envelope
from pbem.intake.journal import journal_key, recall
from pbem.intake.throttle import Throttle
from pbem.mail.message import Submission
from pbem.rulesets.base import AnyRuleset, Context
from pbem.stages.turns import context as stage_context
from pbem.state.campaign import Campaign, Player
from pbem.state.forumconfig import ForumSettings, forum_settings

__all__ = ["HELD", "Intake", "Outcome", "Reply", "receipt"]

REPLY_WINDOW = timedelta(hours=1)
REPLY_LIMIT = 30
"""Automatic replies to one address per hour. Beyond it the mail is still read and stored,
but not answered, so a runaway script or a forged sender cannot turn pbem into a mail cannon."""


GMMail = Callable[[Campaign, AnyRuleset, datetime, list[Reply], Submission, Envelope], Outcome]
"""The GM's desk taking one authenticated GM mail (`pbem.gm.desk.take_mail`); the mails its
commands ask for (a REPLACE's welcome) are appended to the list."""


class Intake:
    def __init__(self, campaign: Campaign, ruleset: AnyRuleset, now: datetime, gm_mail: GMMail) -> None:
        self.camp = campaign
        self.ruleset = ruleset
        self.now = now
        self.gm_mail = gm_mail
        self.mailings: list[Reply] = []
        self._context: Context | None = None

    # -- helpers -------------------------------------------------------------
    @property
    def journal(self) -> dict[str, str]:
        journal: dict[str, str] = self.camp.state.setdefault("journal", {})
        return journal

    def context(self) -> Context:
        """The stage's context; the last mail's while the campaign's game and settings are the
        same objects and the deadline and the GM's decisions the same, so the view the reading
        hooks share (`Context.views`) is loaded once for a pass's mail, not once a mail. Nothing
        changes a stored game in place: a GM verb, a resolution or a failed mail's undoing
        stores a new one."""
        fresh, kept = stage_context(self.camp, self.now), self._context
        if kept is not None and kept.game is fresh.game and kept.settings is fresh.settings \
                and (kept.deadline, kept.decisions) == (fresh.deadline, fresh.decisions):
            return kept
        self._context = fresh
        return fresh

    def _reply(self, sub: Submission, template: str, context: Mapping[str, Any], to: str = "") -> Reply:
        return answer(self.camp, sub, self.now, template, dict(context), to)

    # -- the message ---------------------------------------------------------
    def handle(self, sub: Submission) -> Outcome:
        if recall(self.camp.state, sub, self.now):
            return Outcome(note="duplicate")
        outcome = self._dispatch(sub)
        outcome.replies = [reply for reply in outcome.replies if self.may_answer(reply, outcome)]
        self.journal[journal_key(sub)] = outcome.note or "processed"
        return outcome

    def may_answer(self, reply: Reply, outcome: Outcome) -> bool:
        """Count automatic replies per address (in state.toml); the GM hears once when one is cut off."""
        if not reply.auto_reply:
            return True
        counts = self.camp.state.setdefault("replies", {})
        throttle = Throttle(REPLY_LIMIT, REPLY_WINDOW)
        allowed = True
        for address in reply.to:
            given = throttle.count(counts, address, self.now)
            if given <= REPLY_LIMIT:      # the first reply held back counts too: the GM hears once
                throttle.record(counts, address, self.now)
            if given == REPLY_LIMIT:
                outcome.gm_alerts.append(f"{address} was sent {REPLY_LIMIT} automatic replies within an hour; "
                                         "further mail from it is processed but not answered for now.")
            allowed = allowed and given < REPLY_LIMIT
        return allowed

    def _dispatch(self, sub: Submission) -> Outcome:
        settings = self.camp.settings
        if sub.auto:
            return Outcome(note=f"ignored: {sub.auto}")
        if sub.forum_account:
            return self._forum_post(sub)
        if not sub.sender:     # no From, an empty one, or group syntax: a reply could go nowhere
            return Outcome(note="ignored: no usable sender")
        if sub.sender == settings.address:
            return Outcome(note="ignored: our own address")
        if elsewhere := misdirected(self.camp, sub.subject, sub.text):
            return self._misdirected(sub, elsewhere)
        if sub.too_large:
            limit = f"{settings.max_mail_bytes // 1024} KB"
            return Outcome([self._reply(sub, "refused", {"reason": f"the message is larger than {limit}"})],
                           note="refused: too large")
        env = read_envelope(sub.subject, sub.text)
        if env.gm:
            if not authentication.is_gm(self.camp, sub, env):
                return authentication.failed(self.camp, sub, self.now, env)
            return self.gm_mail(self.camp, self.ruleset, self.now, self.mailings, sub, env)
        if (unsubscribed := unsubscribe(self.camp, sub, env, self.now)) is not None:
            return unsubscribed      # a mail client's unsubscribe: the digest, never resigning
        player = authentication.authenticate(self.camp, sub, env)
        if player is None:
            return authentication.failed(self.camp, sub, self.now, env)
        return self._player(sub, env, player)

    def _misdirected(self, sub: Submission, elsewhere: Misdirected) -> Outcome:
        """A mail naming another campaign: nothing in it is read; the sender learns where to send it."""
        context = {"named": elsewhere.name, "subject": sub.subject, "address": self.camp.settings.address,
                   "elsewhere": elsewhere.address}
        return Outcome([self._reply(sub, "unrouted", context)], note=f"answered: names campaign {elsewhere.name}")

    def _forum_post(self, sub: Submission) -> Outcome:
        """The forum vouches for the account; a public post may carry neither a secret nor, unless
        the campaign plays in the open, orders (pbem/intake/admission.py)."""
        env = read_envelope(sub.subject, sub.text)
        forum = forum_settings(self.camp.settings.forum) or ForumSettings("folder")
        verdict = admission.admit(self.camp.settings, forum, sub, env, self.camp.secret_of)
        if verdict.player is None:
            return Outcome(gm_alerts=verdict.alerts, note=verdict.note)
        if sub.too_large and not verdict.refusal:
            verdict.refusal = f"the post is larger than {self.camp.settings.max_mail_bytes // 1024} KB"
        if verdict.refusal:
            context = {"reason": verdict.refusal, "player": verdict.player, "public": sub.public}
            return Outcome([self._reply(sub, "forum_refused", context, to=verdict.player.email)],
                           gm_alerts=verdict.alerts, note=verdict.note)
        return self._player(sub, env, verdict.player)

    def _player(self, sub: Submission, env: Envelope, player: Player) -> Outcome:
        return PlayerMail(self.camp, self.ruleset, self.context(), sub, env, player).handle()

    # -- the game master -----------------------------------------------------
    def take_mailings(self) -> list[Reply]:
        """Mails a GM command asked for (e.g. REPLACE's welcome), handed out once."""
        mails, self.mailings[:] = list(self.mailings), []
        return mails
