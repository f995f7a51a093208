"""One incoming message: authenticate, parse, store, and answer.

`Intake.handle` changes only the in-memory campaign state and returns the
replies to send; the engine queues the replies, saves the state (which holds
the message journal) and only then marks the message done. A crash anywhere
in between leaves the message unmarked, and the journal makes the retry a no-op
if the state was already saved.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from pbem import credentials
from pbem.addressing import Misdirected, misdirected
from pbem.campaign import Campaign, Player
from pbem.envelope import Envelope, read_envelope
from pbem.forum import admission
from pbem.forum.config import ForumSettings, forum_settings
from pbem.isolation import is_injected, one_line
from pbem.journal import journal_key, recall
from pbem.mail.compose import thread_root
from pbem.mail.message import Submission
from pbem.masking import SecretMask, masked
from pbem.orders import InvalidOrder, OrderProblem, quoted, trailing
from pbem.rulesets.base import Context, Parsed, Report, Ruleset, Stage
from pbem.schedule import iso, parse_duration, parse_time

FAILURE_WINDOW = timedelta(hours=24)
FAILURE_LIMIT = 5
REPLY_WINDOW = timedelta(hours=1)
REPLY_LIMIT = 30
"""Automatic replies to one address per hour. Beyond it the mail is still read and stored,
but not answered, so a runaway script or a forged sender cannot turn pbem into a mail cannon."""


@dataclass
class Reply:
    """A mail to render: template name plus context, addressed and threaded."""

    key: str
    to: tuple[str, ...]
    subject: str
    template: str
    context: dict[str, Any]
    in_reply_to: str = ""
    references: tuple[str, ...] = ()
    auto_reply: bool = True


@dataclass
class Outcome:
    replies: list[Reply] = field(default_factory=list)
    gm_alerts: list[str] = field(default_factory=list)
    note: str = ""


HELD = ("The deadline has passed and the game master is settling a question of this stage; "
        "orders on file can no longer change, so these lines were not read.")


def decide(stage: dict[str, Any], words: Sequence[str]) -> str:
    """`DECIDE <key> <choice>`: answer the question a resolution stopped on (GMDecisionNeeded)."""
    question = stage.get("question")
    if not question:
        raise ValueError("no question is waiting for the GM")
    if not words or words[0].lower() != question["key"].lower():
        raise ValueError(f"the open question is {question['key']}: {question['text']}")
    choice = " ".join(words[1:]).strip()
    options = question.get("options", [])
    match = next((o for o in options if o.lower() == choice.lower()), "" if options else choice)
    if not match:
        raise ValueError(f"{question['key']}: choose one of {', '.join(options)}")
    stage.setdefault("decisions", {})[question["key"]] = match
    del stage["question"]
    stage["force"] = True
    return f"{question['key']}: {match}; the stage is resolved at the next tick"


def _lines(count: int) -> str:
    return "1 line" if count == 1 else f"{count} lines"


def receipt(campaign: str, stage: Stage, player: str, lines: Sequence[str]) -> str:
    """SHA-256 sealing the canonical orders on file; published with the turn report."""
    text = "\n".join([campaign, str(stage.turn), stage.kind, player, *lines])
    return hashlib.sha256(text.encode()).hexdigest()


class Intake:
    def __init__(self, campaign: Campaign, ruleset: Ruleset, now: datetime) -> None:
        self.camp = campaign
        self.ruleset = ruleset
        self.now = now
        self.mailings: list[Reply] = []

    # -- helpers -------------------------------------------------------------
    @property
    def journal(self) -> dict[str, str]:
        return self.camp.state.setdefault("journal", {})

    def context(self) -> Context:
        stage = self.camp.state.get("stage", {})
        deadline = parse_time(stage["deadline"]) if stage.get("deadline") else None
        return Context(self.camp.settings, self.camp.state.get("game", {}), self.now, deadline,
                       stage.get("decisions", {}))

    def _reply(self, sub: Submission, template: str, context: dict[str, Any], to: str = "") -> Reply:
        subject = sub.subject if sub.subject.lower().startswith("re:") else f"Re: {sub.subject or self.camp.settings.title}"
        base = {"campaign": self.camp.settings, "now": self.now, "schedule": self.camp.settings.schedule}
        return Reply(f"reply/{journal_key(sub)}/{template}", (to or sub.sender,), subject, template, base | context,
                     in_reply_to=sub.message_id, references=(*sub.references, sub.message_id))

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
        allowed = True
        for address in reply.to:
            recent = [t for t in counts.get(address, []) if parse_time(t) > self.now - REPLY_WINDOW]
            if len(recent) >= REPLY_LIMIT:
                allowed = False
                if len(recent) == REPLY_LIMIT:
                    outcome.gm_alerts.append(f"{address} was sent {REPLY_LIMIT} automatic replies within an hour; "
                                             "further mail from it is processed but not answered for now.")
                    recent.append(iso(self.now))
            else:
                recent.append(iso(self.now))
            counts[address] = recent
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
            return self._gm(sub, env)
        player = self._authenticate(sub, env)
        if player is None:
            return self._auth_failed(sub)
        return self._player(sub, env, player)

    def _misdirected(self, sub: Submission, elsewhere: Misdirected) -> Outcome:
        """A mail naming another campaign: nothing in it is read; the sender learns where to send it."""
        context = {"named": elsewhere.name, "subject": sub.subject, "address": self.camp.settings.address,
                   "elsewhere": elsewhere.address}
        return Outcome([self._reply(sub, "unrouted", context)], note=f"answered: names campaign {elsewhere.name}")

    def _forum_post(self, sub: Submission) -> Outcome:
        """The forum vouches for the account; a public post may carry neither a secret nor, unless
        the campaign plays in the open, orders (pbem/forum/admission.py)."""
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

    # -- authentication ------------------------------------------------------
    def _authenticate(self, sub: Submission, env: Envelope) -> Player | None:
        settings = self.camp.settings
        candidates = [settings.player(env.player)] if env.player else settings.players_at(sub.sender)
        for player in candidates:
            if player and sub.sender in player.emails and env.secret and \
                    credentials.check(env.secret, self.camp.secret_of(player)):
                return player
        return None

    def _auth_failed(self, sub: Submission) -> Outcome:
        failures = self.camp.auth.setdefault("failures", {})
        recent = [t for t in failures.get(sub.sender, []) if parse_time(t) > self.now - FAILURE_WINDOW]
        recent.append(iso(self.now))
        failures[sub.sender] = recent
        if len(recent) > FAILURE_LIMIT + 1:
            return Outcome(note="refused: throttled")
        if len(recent) > FAILURE_LIMIT:       # told once, as is the GM, who may lift the lock
            alert = (f"{sub.sender} failed to authenticate {len(recent)} times in 24 hours; further mail from it "
                     f"is not answered. To lift the lock, mail the line `UNLOCK {sub.sender}` as GM or run "
                     f"`pbem unlock {self.camp.name} {sub.sender}`.")
            reason = (f"{FAILURE_LIMIT + 1} messages from this address in 24 hours did not match a player and "
                      "secret; further mail from it is not answered for 24 hours unless the game master lifts "
                      "the lock (ask them if you lost your secret)")
            return Outcome([self._reply(sub, "refused", {"reason": reason})], gm_alerts=[alert],
                           note="refused: throttled")
        reason = ("the sender, player and secret do not match a player of this campaign "
                  "(sign with a line `PLAYER <name> <secret>`)")
        return Outcome([self._reply(sub, "refused", {"reason": reason})], note="refused: authentication")

    # -- players -------------------------------------------------------------
    def _player(self, sub: Submission, env: Envelope, player: Player) -> Outcome:
        notes: list[str] = []
        problems: list[OrderProblem] = list(env.problems)     # lines too long or too many: not read
        for no, command in env.commands:
            notes.extend(self._command(player, command, no, problems))
        ctx = self.context()
        stage = self.ruleset.stage(ctx)
        parsed = Parsed(payload={})
        if env.lines:
            parsed = self._orders(ctx, stage, player, env.lines, notes)
        parsed.problems, ignored = trailing(parsed.problems, [n for n, _ in (*parsed.accepted, *env.commands)])
        if ignored:
            notes.append(f"Ignored as not orders: {_lines(len(ignored))} from line {ignored[0].line_no} on, "
                         f"starting {quoted(ignored[0].line)}.")
        if not env.lines and not env.commands and not env.problems:
            notes.append("No orders were found in your message.")
        words = {c.split()[0] for _, c in env.commands}
        return Outcome([self._ack(sub, ctx, stage, player, parsed, problems, notes, words)])

    def _orders(self, ctx: Context, stage: Stage, player: Player, lines: list[tuple[int, str]],
                notes: list[str]) -> Parsed:
        if self._held():
            notes.append(HELD)
            return Parsed(payload={})
        if player.id not in stage.owing:
            notes.append(f"Nothing is expected from you in this stage ({stage.title}); the lines were not read.")
            return Parsed(payload={})
        parsed = self.ruleset.parse(ctx, player, lines)
        subs = self.camp.state.setdefault("submissions", {})
        previous = subs.get(player.id, {}).get("payload", {})
        if parsed.payload and not parsed.accepted:
            notes.append("Nothing in this message could be accepted; it is on file as orders that were all "
                         "rejected, and it replaces earlier orders as any new message does.")
        if not parsed.payload:
            notes.append("Nothing in this message could be accepted; " +
                         ("your earlier orders stay on file." if previous else "nothing is on file for you yet."))
            return parsed
        payload = self.ruleset.combine(ctx, previous, parsed.payload)
        canon = self.ruleset.canonical(ctx, player, payload)
        subs[player.id] = {"payload": payload, "receipt": receipt(self.camp.name, stage, player.id, canon),
                           "received": iso(self.now)}
        return parsed

    def _held(self) -> bool:
        """Orders are frozen while the GM decides a question of the stage being resolved."""
        return bool(self.camp.state.get("stage", {}).get("question"))

    def _command(self, player: Player, command: str, no: int, problems: list[OrderProblem]) -> list[str]:
        word, _, arg = command.partition(" ")
        if word == "CLEAR" and self._held():
            return [HELD]
        if word == "CLEAR":
            self.camp.state.setdefault("submissions", {}).pop(player.id, None)
            return ["Your orders on file for this stage were withdrawn (CLEAR)."]
        if word == "PASSWORD":
            weak = credentials.weak_reason(arg)
            if weak:
                problems.append(InvalidOrder(f"PASSWORD: {weak}; your secret is unchanged", no))
                return []
            self.camp.auth.setdefault("secrets", {})[player.id] = credentials.hash_chosen(arg)
            return ["Your secret was changed. Use the new one from now on."]
        return []   # HELP and STATUS only shape the reply

    def _ack(self, sub: Submission, ctx: Context, stage: Stage, player: Player, parsed: Parsed,
             problems: list[OrderProblem], notes: list[str], words: set[str]) -> Reply:
        on_file = self.camp.state.get("submissions", {}).get(player.id, {})
        payload = on_file.get("payload", {})
        context = {
            "player": player, "stage": stage, "deadline": None if stage.over else ctx.deadline,
            "accepted": parsed.accepted, "problems": sorted(problems + parsed.problems, key=lambda p: p.line_no),
            "on_file": self.ruleset.canonical(ctx, player, payload) if payload else [],
            "missing": self.ruleset.missing(ctx, player, payload) if player.id in stage.owing else [],
            "receipt": on_file.get("receipt", ""), "notes": notes,
            "help": self.ruleset.help_text(ctx, player) if "HELP" in words else "",
            "status": self.ruleset.status(ctx, player) if "STATUS" in words else {},
        }
        mask = self._mask(sub, player)
        quoted = {key: masked(context[key], mask) for key in ("accepted", "problems", "notes")}
        return self._masked(self._reply(sub, "ack", context | quoted), mask)

    def _mask(self, sub: Submission, first: Player) -> SecretMask:
        """The secrets to hide in what a reply quotes back (pbem.masking): the envelope's, a
        PASSWORD's, and any stored secret of the campaign the sender typed, `first`'s tried first."""
        env = read_envelope(sub.subject, sub.text)
        chosen = [c.partition(" ")[2] for _, c in env.commands if c.startswith("PASSWORD ")]
        people = {p.id: p for p in (first, self.camp.settings.gm, *self.camp.settings.players)}
        return SecretMask(f"{sub.subject}\n{sub.text}", [env.secret, *(c for c in chosen if not credentials.weak_reason(c))],
                          [self.camp.secret_of(person) for person in people.values()])

    @staticmethod
    def _masked(reply: Reply, mask: SecretMask) -> Reply:
        reply.subject = mask(reply.subject)
        return reply

    # -- the game master -----------------------------------------------------
    def _gm(self, sub: Submission, env: Envelope) -> Outcome:
        gm = self.camp.settings.gm
        if sub.sender not in gm.emails or not credentials.check(env.secret, self.camp.secret_of(gm)):
            return self._auth_failed(sub)
        lines = [f"{no}: {self.gm_command(text.split())}" for no, text in env.lines + env.commands]
        lines += [f"{p.line_no}: {p.reason}" for p in env.problems]
        mask = self._mask(sub, gm)
        reply = self._masked(self._reply(sub, "gm_ack", {"lines": masked(lines, mask)}), mask)
        return Outcome([reply, *self.take_mailings()], note="processed: gm")

    def take_mailings(self) -> list[Reply]:
        """Mails a GM command asked for (e.g. REPLACE's welcome), handed out once."""
        mails, self.mailings = self.mailings, []
        return mails

    def gm_command(self, words: list[str]) -> str:
        """Run one GM command (also used by the CLI); returns what happened, or one line
        "not done: ..." for a command that could not be carried out, whatever the ruleset
        raised: a typo of the GM's must never cost the rest of the mail or a traceback.
        A command not done leaves the state as it was."""
        before, mailings = copy.deepcopy((self.camp.state, self.camp.auth)), len(self.mailings)
        try:
            return self._gm_command(words)
        except Exception as exc:     # even a full disk: nothing was changed, and the GM should hear it
            if is_injected(exc):
                raise
            self.camp.state, self.camp.auth = before
            del self.mailings[mailings:]
            reason = str(exc) if isinstance(exc, (OrderProblem, ValueError, LookupError)) else one_line(exc)
            return f"not done: {' '.join(reason.split()) or type(exc).__name__}"

    def _gm_command(self, words: list[str]) -> str:
        verb = words[0].upper() if words else ""
        stage = self.camp.state.setdefault("stage", {})
        log = self.camp.state.setdefault("gm_log", [])
        try:
            if verb == "RESOLVE":
                stage["force"] = True
                text = "the current stage will be resolved now"
            elif verb == "EXTEND":
                text = self._extend(stage, words[1])
            elif verb == "DECIDE":
                text = decide(stage, words[1:])
            elif verb == "REPLACE":
                from pbem.seats import replace_player

                text, mails = replace_player(self.camp, words[1:], self.now)
                self.mailings += mails
            elif verb == "UNLOCK":
                text = self._unlock(words[1])
            elif verb == "PAUSE":
                text = self._pause(stage)
            elif verb == "RESUME":
                text = self._resume(stage)
            elif verb == "FINISH":
                text = self._end(stage, " ".join(words[1:]))
            else:
                game, text = self.ruleset.gm_command(self.context(), words)
                self.camp.state["game"] = game
        except (ValueError, IndexError, KeyError) as exc:
            return f"not done: {exc}"
        log.append({"at": iso(self.now), "turn": stage.get("turn", 0), "text": f"{' '.join(words)}: {text}"})
        return text

    def _unlock(self, address: str) -> str:
        """Forget an address's failed authentications, so its mail is answered again."""
        wanted = address.strip("<>").casefold()
        failures = self.camp.auth.setdefault("failures", {})
        locked = [a for a in failures if a.casefold() == wanted]
        if not locked:
            raise ValueError(f"{address} has no failed authentications on record; nothing to unlock")
        for found in locked:
            del failures[found]
        return f"{address} is unlocked; its mail is answered again"

    def _extend(self, stage: dict[str, Any], arg: str) -> str:
        try:
            new = parse_time(stage["deadline"]) + parse_duration(arg)
        except ValueError:
            new = parse_time(arg)
        stage["deadline"], stage["reminded"] = iso(new), False
        self.mailings += self._extended_mails(new)
        return f"deadline moved to {self.camp.settings.schedule.show(new)}; the players who owe orders are told"

    def _extended_mails(self, deadline: datetime) -> list[Reply]:
        """The players the stage waits for hear the new deadline and what to send by then; keyed
        by the stage's opening and the new deadline, so each extension is told once."""
        meta, settings = self.camp.state.get("stage", {}), self.camp.settings
        owing = self.ruleset.stage(self.context()).owing
        on_file = self.camp.state.get("submissions", {})
        key = f"extended/g{meta.get('generation', 0)}/{meta.get('kind', '')}/{iso(deadline)}"
        context = {"campaign": settings, "schedule": settings.schedule, "now": self.now, "deadline": deadline,
                   "title": meta.get("title", "")}
        return [Reply(f"{key}/{p.id}", (p.email,), f"[{self.camp.name}] {meta.get('title', 'deadline')}: deadline "
                      f"moved to {settings.schedule.show(deadline)}", "extended",
                      context | {"player": p, "on_file": p.id in on_file}, auto_reply=False)
                for p in settings.players if p.id in owing]

    # -- pause and end ---------------------------------------------------------
    def _pause(self, stage: dict[str, Any]) -> str:
        """The clock stops: no reminder and no deadline passes until RESUME (pbem.turns)."""
        if stage.get("paused"):
            raise ValueError("the campaign is already paused (RESUME goes on)")
        stage["paused"], stage["paused_at"] = True, iso(self.now)
        return "campaign paused: no reminders and no deadline passes until RESUME"

    def _resume(self, stage: dict[str, Any]) -> str:
        """The deadline moves by the time paused, so players get the time that was left; they hear it."""
        if not stage.get("paused"):
            raise ValueError("the campaign is not paused")
        since = stage.pop("paused_at", "")
        stage["paused"] = False
        if not stage.get("deadline") or not since:
            return "campaign resumed"
        new = parse_time(stage["deadline"]) + max(self.now - parse_time(since), timedelta(0))
        stage["deadline"] = iso(new)
        self.mailings += self._resumed_mails(new)
        return f"campaign resumed; deadline moved to {self.camp.settings.schedule.show(new)}"

    def _resumed_mails(self, deadline: datetime) -> list[Reply]:
        meta = self.camp.state.get("stage", {})
        settings, key = self.camp.settings, f"resumed/{meta.get('turn', 0)}/{meta.get('kind', '')}/{iso(self.now)}"
        context = {"campaign": settings, "schedule": settings.schedule, "now": self.now, "deadline": deadline,
                   "title": meta.get("title", "")}
        return [Reply(f"{key}/{p.id}", (p.email,), f"[{self.camp.name}] resumed: deadline "
                      f"{settings.schedule.show(deadline)}", "resumed", context | {"player": p}, auto_reply=False)
                for p in settings.players]

    def _end(self, stage: dict[str, Any], reason: str) -> str:
        """FINISH [reason] (`pbem end`): the rule system's end hook makes the game over; its final
        report goes out now. (Not END: a line `END` closes a mail's orders, pbem/envelope.py.)"""
        res = self.ruleset.end(self.context(), reason)
        self.camp.state["game"] = res.game
        over = self.ruleset.stage(self.context())
        stage.update(kind=over.kind, title=over.title, paused=False, force=False)
        stage.pop("paused_at", None)
        for report in res.reports:
            self.mailings += self._report_mails(over, report)
        return "the campaign is over; the final report goes to every player and the GM"

    def _report_mails(self, stage: Stage, report: Report) -> list[Reply]:
        settings = self.camp.settings
        audience = [p.id for p in settings.players] if "*" in report.audience else list(report.audience)
        people = [settings.gm if a == "gm" else settings.player(a) for a in audience]
        if report.public and "gm" not in audience:
            people.append(settings.gm)
        base = {"campaign": settings, "now": self.now, "schedule": settings.schedule, "stage": stage}
        root = thread_root(self.camp.name, settings.domain)      # threaded with the turn reports
        return [Reply(f"turn-{stage.turn}/end/{report.key or report.kind}/{person.email}", (person.email,),
                      f"[{self.camp.name}] {report.subject}", report.kind, base | report.context,
                      references=(root,), auto_reply=False)
                for person in people if person is not None]
