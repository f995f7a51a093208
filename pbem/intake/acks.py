"""A player's mail, authenticated: parse the orders, keep them on file, acknowledge.

The acknowledgement quotes what was accepted and what was not, the orders now on file with
their receipt, what is still missing and what to send by when; HELP and STATUS add the rule
system's help and status, and one line on whether the stage may close early on the player
(pbem.stages.readiness). Engine commands (CLEAR, READY, WAIT, PASSWORD) act here too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pbem.delivery.replies import Outcome, Reply
from pbem.intake import between, press
from pbem.intake.answers import answer, masked_subject, reply_mask
from pbem.intake.elsewhere import fitting_campaign
from pbem.intake.envelope import Envelope
from pbem.intake.journal import journal_key
from pbem.intake.masking import masked
from pbem.kit.orders import InvalidOrder, OrderProblem
from pbem.kit.prose import prose_note
from pbem.mail.message import Submission
from pbem.rulesets.base import AnyRuleset, Context, Parsed, Stage
from pbem.stages import readiness
from pbem.stages.record import StageRecord
from pbem.state import credentials
from pbem.state.campaign import Campaign, Player
from pbem.state.schedule import iso

HELD = ("The deadline has passed and the game master is settling a question of this stage; "
        "orders on file can no longer change, so these lines were not read.")


def receipt(campaign: str, stage: Stage, player: str, lines: Sequence[str]) -> str:
    """SHA-256 sealing the canonical orders on file; published with the turn report."""
    text = "\n".join([campaign, str(stage.turn), stage.kind, player, *lines])
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class PlayerMail:
    """One authenticated player's message against the campaign in memory."""

    camp: Campaign
    ruleset: AnyRuleset
    ctx: Context
    sub: Submission
    env: Envelope
    player: Player
    others: between.Between | None = field(default=None, init=False)   # ABSENT, STANDING, MAIL, PRESS
    _read: dict[str, tuple[Mapping[str, Any], list[str]]] = field(default_factory=dict, init=False)

    @property
    def now(self) -> datetime:
        return self.ctx.now

    def handle(self) -> Outcome:
        notes: list[str] = []
        problems: list[OrderProblem] = list(self.env.problems)     # lines too long or too many: not read
        stage = self.ruleset.stage(self.ctx)
        self.others = between.Between(self.camp, self.player, self.now, stage, journal_key(self.sub),
                                      [line for _, line in self.env.lines])
        for no, command in self.env.commands:
            notes.extend(self.command(command, no, problems, stage))
        parsed = Parsed(payload={})
        if self.env.lines:
            parsed = self.orders(stage, notes)
        notes.extend(parsed.notes)
        if parsed.prose:
            notes.append(prose_note(parsed.prose))
        if self.env.lines and not parsed.accepted and not held(self.camp):
            notes.extend(filter(None, [fitting_campaign(self.camp, self.sub.sender, self.env.lines, self.now)]))
        notes.extend(press.relay_all(self.others, self.env.press, problems, self.env.secret))
        if not self.env.lines and not self.env.commands and not self.env.problems and not self.env.press:
            notes.append("No orders were found in your message.")
        words = {c.split()[0] for _, c in self.env.commands}
        if (self.env.lines or self.env.problems) and self.reads_orders(stage):
            self.mark(len({p.line_no for p in (*self.env.problems, *parsed.problems)}), "READY" in words)
        return Outcome([self.ack(stage, parsed, problems, notes, words), *self.others.mailings],
                       gm_alerts=self.others.alerts)

    def reads_orders(self, stage: Stage) -> bool:
        """Whether this mail's order lines were read against the stage (not frozen, owed)."""
        return not held(self.camp) and self.player.id in stage.owing and not stage.over

    def mark(self, rejected: int, ready: bool) -> None:
        """Store what the tick needs to know whether he is ready (pbem.stages.readiness): the lines
        of this mail of orders that were rejected, whether or not they replaced what is on file (he
        is still fixing his orders), and what the rule system reports missing from those on file."""
        entry = self.camp.state.get("submissions", {}).get(self.player.id)
        if entry is not None:
            missing = len(self.missing(entry["payload"]))
            for key, count in (("rejected", rejected), ("missing", missing)):
                if count:
                    entry[key] = count
                else:
                    entry.pop(key, None)
        readiness.say(self.camp.state, self.player.id, "READY" if ready else "ORDERS")

    def orders(self, stage: Stage, notes: list[str]) -> Parsed:
        if held(self.camp):
            notes.append(HELD)
            return Parsed(payload={})
        if self.player.id not in stage.owing:
            notes.append(f"Nothing is expected from you in this stage ({stage.title}); the lines were not read.")
            return Parsed(payload={})
        parsed = self.ruleset.parse(self.ctx, self.player, self.env.lines)
        subs = self.camp.state.setdefault("submissions", {})
        previous = subs.get(self.player.id, {}).get("payload", {})
        if parsed.payload and not parsed.accepted:
            notes.append("Nothing in this message could be accepted; it is on file as orders that were all "
                         "rejected, and it replaces earlier orders as any new message does.")
        if not parsed.payload:
            first = "No orders were found in your message" if parsed.prose and not parsed.problems else \
                "Nothing in this message could be accepted"
            notes.append(f"{first}; " +
                         ("your earlier orders stay on file." if previous else "nothing is on file for you yet."))
            return parsed
        payload = self.ruleset.combine(self.ctx, previous, parsed.payload)
        canon = self.canonical(payload)
        subs[self.player.id] = {"payload": payload, "receipt": receipt(self.camp.name, stage, self.player.id, canon),
                                "received": iso(self.now)}
        return parsed

    def canonical(self, payload: Mapping[str, Any]) -> list[str]:
        return self._reading("canonical", payload)

    def missing(self, payload: Mapping[str, Any]) -> list[str]:
        return self._reading("missing", payload)

    def _reading(self, hook: str, payload: Mapping[str, Any]) -> list[str]:
        """The rule system's canonical lines or missing orders of a payload on file, read once
        per mail: the receipt, the readiness mark and the ack all ask about the same payload,
        and each asking runs the rule system's reading of it again. The game does not change
        after the commands of the mail are done, which is before the first asking."""
        kept = self._read.get(hook)
        if kept is None or kept[0] is not payload:
            read = self.ruleset.canonical if hook == "canonical" else self.ruleset.missing
            kept = self._read[hook] = (payload, read(self.ctx, self.player, payload))
        return kept[1]

    def command(self, command: str, no: int, problems: list[OrderProblem], stage: Stage) -> list[str]:
        word, _, arg = command.partition(" ")
        if word in ("CLEAR", "READY", "WAIT") and held(self.camp):
            return [HELD]
        if word == "CLEAR":
            self.camp.state.setdefault("submissions", {}).pop(self.player.id, None)
            readiness.forget(self.camp.state, self.player.id)
            return ["Your orders on file for this stage were withdrawn (CLEAR)."]
        if word in ("READY", "WAIT"):
            return [self.readiness_word(word, stage)]
        if word in between.WORDS and self.others is not None:
            try:
                return self.others.command(word, arg)
            except ValueError as exc:
                problems.append(InvalidOrder(f"{word}: {exc}", no))
                return []
        if word == "PASSWORD":
            weak = credentials.weak_reason(arg)
            if weak:
                problems.append(InvalidOrder(f"PASSWORD: {weak}; your secret is unchanged", no))
                return []
            self.camp.auth.setdefault("secrets", {})[self.player.id] = credentials.hash_chosen(arg)
            return ["Your secret was changed. Use the new one from now on."]
        return []   # HELP and STATUS only shape the reply

    def readiness_word(self, word: str, stage: Stage) -> str:
        if not self.reads_orders(stage):
            return f"{word}: nothing is expected from you in this stage ({stage.title}), so it changes nothing."
        readiness.say(self.camp.state, self.player.id, word)
        if word == "READY":
            return "READY: you are ready, with the orders on file now; a new message of orders needs READY again."
        return "WAIT: the stage will not close early on your account; send READY when you are done."

    def readiness_line(self, stage: Stage) -> str:
        """One line: is he ready for the stage to close early, and if not, why."""
        if not self.reads_orders(stage):
            return ""
        when = self.camp.settings.schedule.show(self.ctx.deadline) if self.ctx.deadline else "its deadline"
        if self.camp.settings.schedule.early_close == "never":
            return f"This campaign closes each stage at its deadline, never earlier: {when}."
        state = readiness.readiness(self.camp.state, self.player.id, stage)
        if state.wait:
            return f"You said WAIT: the stage stays open until {when} unless you send READY."
        if state.ready:
            return f"You are ready: the stage closes when everyone is, or on {when}."
        return (f"The stage can close early once you are ready: {state.not_yet()}. Send orders without errors, "
                "or READY to go with the orders on file.")

    def ack(self, stage: Stage, parsed: Parsed, problems: list[OrderProblem], notes: list[str],
            words: set[str]) -> Reply:
        ctx, player, ruleset = self.ctx, self.player, self.ruleset
        on_file = self.camp.state.get("submissions", {}).get(player.id, {})
        payload = on_file.get("payload", {})
        context = {
            "player": player, "stage": stage, "deadline": None if stage.over else ctx.deadline,
            "accepted": parsed.accepted, "problems": sorted(problems + parsed.problems, key=lambda p: p.line_no),
            "on_file": self.canonical(payload) if payload else [],
            "missing": self.missing(payload) if player.id in stage.owing else [],
            "receipt": on_file.get("receipt", ""), "notes": notes, "readiness": self.readiness_line(stage),
            "closes_early": self.closes_early(stage),
            "help": ruleset.help_text(ctx, player) if "HELP" in words else "",
            "status": ruleset.status(ctx, player) if "STATUS" in words else {},
        }
        mask = reply_mask(self.camp, self.sub, player)
        shown = {key: masked(context[key], mask) for key in ("accepted", "problems", "notes")}
        reply = masked_subject(answer(self.camp, self.sub, self.now, "ack", context | shown), mask)
        plain = not context["problems"] and not words - {"READY", "WAIT", "CLEAR"}   # nothing asked, nothing wrong
        reply.kind = "ack" if plain else ""          # a plain one may wait for a daily digest
        return reply

    def closes_early(self, stage: Stage) -> bool:
        """The stage may close before the deadline on him: he is ready and the campaign allows it."""
        return (self.camp.settings.schedule.early_close != "never" and self.reads_orders(stage)
                and readiness.readiness(self.camp.state, self.player.id, stage).ready)


def held(camp: Campaign) -> bool:
    """Orders are frozen while the GM decides a question of the stage being resolved."""
    return StageRecord.read(camp.state).waiting
