"""A test-only rule system of one phase and one order (`ADD <n>`), with one GM verb (NOTE) and
a position format (`turn`, `[counts]`): what `pbem gm` and `pbem import` are tested on.
Registered by tests through the registry (monkeypatch.setitem(registry.RULESETS.extra, ...))."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from pbem.kit.dice import Dice
from pbem.kit.orders import InvalidOrder
from pbem.kit.rulebook import RuleBook
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.base import Parsed, PositionError, Ruleset
from pbem.rulesets.phases import GMVerb, Lines, Outcome, Phase, Submissions, View
from pbem.state.campaign import Player, Settings


@dataclass
class Tally:
    turn: int = 1
    phase: str = "orders"
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


TallyView = View[Tally, None]


def parse(view: TallyView, player: Player, lines: Lines) -> Parsed:
    parsed = Parsed(payload={"add": 0})
    for no, text in lines:
        word, _, number = text.strip().partition(" ")
        if word.upper() == "ADD" and number.strip().isdigit():
            parsed.payload["add"] += int(number)
            parsed.accepted.append((no, f"ADD {int(number)}"))
        else:
            parsed.problems.append(InvalidOrder("write ADD <number>", no, text))
    return parsed


def resolve(view: TallyView, submissions: Submissions, dice: Dice) -> Outcome[Tally]:
    state = view.state
    for pid, payload in submissions.items():
        state.counts[pid] = state.counts.get(pid, 0) + int(payload.get("add", 0))
    state.turn += 1
    return Outcome(state, turn_finished=True)


def note(view: TallyView, words: Sequence[str]) -> str:
    if not words:
        raise ValueError("usage: NOTE <text>")
    view.state.notes.append(" ".join(words))
    return "noted"


ORDERS: Phase[Tally, None] = Phase(
    "orders", "orders", parse, resolve, owing=lambda view: [p.id for p in view.settings.players],
    help=lambda view, player: "Send one line `ADD <number>`.",
    gm_verbs=(GMVerb("NOTE", "NOTE <text>", "keep a note in the game", note),))


class TallyRules(Ruleset[Tally, None]):
    name = "tally"
    title = "Tally"
    default_map = "rift_valley"
    phases = MappingProxyType({"orders": ORDERS})

    def create(self, settings: Settings) -> dict[str, Any]:
        return self.dump_state(Tally(counts={p.id: 0 for p in settings.players}))

    def position(self, settings: Settings, data: Mapping[str, Any], source: str) -> dict[str, Any]:
        problems = []
        turn = data.get("turn")
        if not isinstance(turn, int) or turn < 1:
            problems.append(f"turn: found {turn!r}; expected a whole number from 1")
        counts = data.get("counts", {})
        known = {p.id for p in settings.players}
        problems += [f"counts.{pid}: no such player" for pid in counts if pid not in known]
        problems += [f"counts.{pid}: expected a whole number" for pid, n in counts.items() if not isinstance(n, int)]
        if problems:
            raise PositionError(source, problems)
        return self.dump_state(Tally(turn=int(turn or 1), counts=dict(counts)))

    def load_state(self, game: Mapping[str, Any]) -> Tally:
        return from_data(Tally, game["tally"])

    def dump_state(self, state: Tally) -> dict[str, Any]:
        return {"tally": to_data(state)}

    def phase_of(self, state: Tally) -> str:
        return state.phase

    def turn_of(self, state: Tally) -> int:
        return state.turn

    def load_map(self, settings: Settings) -> None:
        return None

    def load_rules(self, settings: Settings) -> RuleBook:
        return RuleBook({})


RULESET = TallyRules()
