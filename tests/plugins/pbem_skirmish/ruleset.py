"""Skirmish: each turn every player may `CLAIM` one place; an uncontested claim takes it.

The smallest rule system on the phase shape, written as a third-party plug-in would be: it
registers through the `pbem.rulesets` entry point and ships its own templates, touching no file
of pbem. One phase (orders), one order, three turns; the conformance test plays it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.kit.dice import Dice
from pbem.kit.orders import InvalidOrder, OrderProblem
from pbem.kit.rulebook import RuleBook
from pbem.kit.territories import GameMap, map_from_dict
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.base import Parsed, Report, Ruleset
from pbem.rulesets.phases import Lines, Outcome, Phase, Submissions, View
from pbem.state.campaign import Player, Settings

LAST_TURN = 3
FIELD = map_from_dict({"name": "Four Fields", "territories": {f"F{n}": {"name": f"Field {n}", "terrain": "clear"}
                                                               for n in range(1, 5)},
                       "borders": [{"between": ["F1", "F2"]}, {"between": ["F2", "F3"]}, {"between": ["F3", "F4"]}]})


@dataclass
class SkirmishState:
    turn: int = 1
    owners: dict[str, str] = field(default_factory=dict)      # place -> player id


SkirmishView = View[SkirmishState, GameMap]


def parse(view: SkirmishView, player: Player, lines: Lines) -> Parsed:
    claims: list[str] = []
    parsed = Parsed(payload={})
    for n, line in lines:
        verb, _, where = line.partition(" ")
        try:
            if verb.upper() != "CLAIM":
                raise InvalidOrder("the only order is CLAIM <place>", n, line)
            claims = [view.map.lookup(where.strip())]
            parsed.accepted.append((n, f"CLAIM {claims[0]}"))
        except OrderProblem as problem:
            parsed.problems.append(problem if problem.line else InvalidOrder(str(problem), n, line))
    parsed.payload = {"claim": claims[0]} if claims else {}
    return parsed


def resolve(view: SkirmishView, submissions: Submissions, dice: Dice) -> Outcome[SkirmishState]:
    state = view.state
    wanted = Counter(str(s["claim"]) for s in submissions.values() if "claim" in s)
    taken = {str(s["claim"]): pid for pid, s in submissions.items() if wanted[str(s.get("claim"))] == 1}
    state.owners.update(taken)
    lines = [f"{pid} takes {place}" for place, pid in sorted(taken.items())] or ["nobody takes anything"]
    report = Report("turn_report", f"Turn {state.turn} report", ("*",), {"turn": state.turn, "lines": lines},
                    public=True, key="turn")
    state.turn += 1
    return Outcome(state, [report], turn_finished=True)


def owing(view: SkirmishView) -> list[str]:
    return [p.id for p in view.settings.players]


class Skirmish(Ruleset[SkirmishState, GameMap]):
    name = "skirmish"
    title = "Skirmish"
    templates = str(Path(__file__).parent / "templates")
    default_map = "four_fields"
    windows: Mapping[str, str] = {"orders": "2d"}
    phases: Mapping[str, Phase[SkirmishState, GameMap]] = {
        "orders": Phase[SkirmishState, GameMap]("orders", "orders", parse, resolve, owing=owing,
                                                help=lambda view, player: "Send `CLAIM <place>`."),
        "over": Phase[SkirmishState, GameMap]("over", "orders", parse, resolve, over=True),
    }

    def create(self, settings: Settings) -> dict[str, Any]:
        return self.dump_state(SkirmishState())

    def ready_maps(self) -> list[str]:
        return ["four_fields"]

    def load_state(self, game: Mapping[str, Any]) -> SkirmishState:
        return from_data(SkirmishState, game["skirmish"])

    def dump_state(self, state: SkirmishState) -> dict[str, Any]:
        return {"skirmish": to_data(state)}

    def phase_of(self, state: SkirmishState) -> str:
        return "orders" if state.turn <= LAST_TURN else "over"

    def turn_of(self, state: SkirmishState) -> int:
        return state.turn

    def load_map(self, settings: Settings) -> GameMap:
        return FIELD

    def load_rules(self, settings: Settings) -> RuleBook:
        return RuleBook({})


RULESET = Skirmish()
