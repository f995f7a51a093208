"""Window W2: deployment and artefact allocation, once per winter (MK-DEP-*, MK-ART-4, MK-PBM-10/11).

A player sends, one line each (standing preference lines are read here too):

    DEPLOY A1 T5                         army A1 winters in T5, a settlement of his
    ALLOT Blade of Slashing A1.U2        the artefact goes to unit U2 of army A1

The acknowledgement checks every line against the board: a deployment with any illegal line
is refused as a whole, each line with its reason, and nothing of it is stored, so the defaults
apply unless a legal one is sent (A32). ALLOT lines are judged one by one. The window resolves
all kingdoms at once (`deploy.run`) and the next year's month 1 opens (`steps.next_year`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.kit.orders import IllegalOrder, InvalidOrder, NameIndex, NotAnOrder, OrderProblem
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.mighty_kingdoms import artefacts, chronicle, deploy, standing, steps
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import DEPLOYMENT, MKState, MKView, unit_key
from pbem.rulesets.phases import Lines, Outcome, Payload, Phase, Submissions

HELP = ("DEPLOY <army> <tile>: the settlement of yours where the army winters (one line per army); "
        "ALLOT <artefact> <army>.<unit>: the unit that carries an artefact you own (one line per artefact).")


# -- reading a submission -------------------------------------------------------------------------
class Reader:
    """One player's W2 lines: what they mean, and what is wrong with them."""

    def __init__(self, view: MKView, player: Player) -> None:
        self.view, self.who, self.player = view, player, player.id
        state = view.state
        self.armies = NameIndex({a.id: () for a in state.armies_of(player.id)}, what="army of yours")
        self.items = NameIndex({n: () for n in artefacts.owned_by(state, player.id)}, what="artefact of yours")
        self.deploys: list[tuple[int, str, str, str]] = []        # (line no, line, army, tile)
        self.allots: dict[str, tuple[int, str]] = {}               # artefact -> (line no, unit key)
        self.taken: dict[str, int] = {}
        self.payload: dict[str, Any] = {"deploy": {}, "allot": {}}
        self.accepted: list[tuple[int, str]] = []
        self.problems: list[OrderProblem] = []

    def line(self, no: int, line: str) -> None:
        words = line.split()
        verb = words[0].upper()
        try:
            if verb in standing.VERBS:
                entry = standing.parse(self.view, self.who, verb, words[1:])
                self.payload.setdefault("standing", []).append(entry)
                self.accepted.append((no, line))
            elif verb == "DEPLOY":
                self.deploys.append((no, line, *self.deploy(words[1:])))
            elif verb == "ALLOT":
                name, key = self.allot(no, words[1:])
                self.payload["allot"][name] = key
                self.accepted.append((no, f"ALLOT {name} {key}"))
            else:
                raise NotAnOrder(f"{words[0]} is not an order of this window; {HELP}")
        except OrderProblem as problem:
            self.problems.append(problem.at(no, line))

    def deploy(self, words: Sequence[str]) -> tuple[str, str]:
        if len(words) < 2:
            raise InvalidOrder("a deployment reads DEPLOY <army> <tile>", suggestion=self.example())
        army = self.army(words[0])
        found = self.view.map.longest(words, 1)
        if found is None:
            raise self.view.map.unknown(words, 1, 1)
        if found[1] != len(words):
            raise InvalidOrder(f"DEPLOY names one army and one tile; {' '.join(words[found[1]:])} is too much")
        return army, found[0]

    def army(self, text: str) -> str:
        state = self.view.state
        other = next((a for a in state.armies.values() if a.id.casefold() == text.casefold()), None)
        if other is not None and other.owner != self.player:
            raise IllegalOrder(f"{other.id} is {state.kingdoms[other.owner].name}'s army, not yours")
        return self.armies.lookup(text)

    def allot(self, no: int, words: Sequence[str]) -> tuple[str, str]:
        if len(words) < 2 or "." not in words[-1]:
            raise InvalidOrder("an allocation reads ALLOT <artefact> <army>.<unit>, like ALLOT Blade of Slashing A1.U2")
        if not artefacts.owned_by(self.view.state, self.player):
            raise IllegalOrder("you own no artefact")
        name = self.items.lookup(" ".join(words[:-1]))
        army_text, _, unit = words[-1].partition(".")
        key = unit_key(self.army(army_text), unit.upper())
        if name in self.allots:
            raise IllegalOrder(f"{name} is already allotted on line {self.allots[name][0]}")
        reason = deploy.allot_problem(self.view.state, self.view.rules, self.player, name, key, self.taken)
        if reason:
            raise IllegalOrder(reason)
        self.allots[name] = (no, key)
        self.taken[key] = self.taken.get(key, 0) + 1
        return name, key

    def example(self) -> str:
        mine = self.view.state.armies_of(self.player)
        places = deploy.fill_order(self.view.state, self.player)
        return f"DEPLOY {mine[0].id} {places[0]}" if mine and places else "DEPLOY A1 T5"

    def finish(self) -> Parsed:
        """The deployment as a whole: stored only when every DEPLOY line is legal (A32)."""
        state, rules = self.view.state, self.view.rules
        reasons = deploy.deploy_problems(state, rules, self.player, [(a, t) for _, _, a, t in self.deploys])
        bad = [d[0] for d, r in zip(self.deploys, reasons, strict=True) if r]
        for (no, line, army, tile), reason in zip(self.deploys, reasons, strict=True):
            if bad:
                why = reason or (f"refused with the whole deployment, because line{'s' if len(bad) > 1 else ''} "
                                 f"{', '.join(map(str, bad))} cannot stand; the defaults apply unless you send "
                                 f"a legal deployment")
                self.problems.append(IllegalOrder(why, no, line))
            else:
                self.payload["deploy"][army] = tile
                self.accepted.append((no, f"DEPLOY {army} {tile}"))
        self.accepted.sort()
        return Parsed(self.payload, self.accepted, sorted(self.problems, key=lambda p: p.line_no))


def parse(view: MKView, player: Player, lines: Lines) -> Parsed:
    reader = Reader(view, player)
    for no, line in lines:
        reader.line(no, line)
    return reader.finish()


# -- closing the window ---------------------------------------------------------------------------
def resolve(view: MKView, submissions: Submissions, dice: Dice) -> Outcome[MKState]:
    """Every kingdom deploys and allocates at once (MK-DEP-4); then month 1 of the next year."""
    state, turn_before = view.state, view.state.calendar.turn
    for player in state.order:
        payload = submissions.get(player, {})
        if payload.get("standing"):
            standing.apply(state, player, payload)
    sections: list[Section] = []
    deploy.run(view, submissions, sections)
    title = f"{chronicle.when(view)}: deployment"
    steps.next_year(view)
    return steps.outcome(view, turn_before, title, sections, "deployment")


def owing(view: MKView) -> list[str]:
    """Every kingdom with an army or an artefact to place."""
    state = view.state
    return [p for p in state.order if state.armies_of(p) or artefacts.owned_by(state, p)]


def missing(view: MKView, player: Player, payload: Payload) -> list[str]:
    """Armies and artefacts the submission leaves to the defaults."""
    state = view.state
    armies = [f"DEPLOY {a.id}" for a in state.armies_of(player.id) if a.id not in payload.get("deploy", {})]
    items = [f"ALLOT {n}" for n in artefacts.owned_by(state, player.id) if n not in payload.get("allot", {})]
    return [f"{line} (the default applies)" for line in armies + items]


def canonical(view: MKView, player: Player, payload: Payload) -> list[str]:
    return [f"DEPLOY {a} {t}" for a, t in payload.get("deploy", {}).items()] + \
        [f"ALLOT {n} {k}" for n, k in payload.get("allot", {}).items()] + \
        [standing.canonical(entry) for entry in standing.entries(payload)]


# -- what the report opening the window asks for (`_call_deployment.md.j2`) --------------------------
def call(view: MKView) -> dict[str, Any]:
    state, rules = view.state, view.rules
    kingdoms = []
    for player in state.order:
        places = deploy.fill_order(state, player)
        mine = state.armies_of(player)
        items = [_item(view, n) for n in artefacts.owned_by(state, player)]
        kingdoms.append({
            "name": state.kingdoms[player].name,
            "settlements": [f"{view.map.label(t)} ({state.tile(t).settlement}"
                            f"{', capital' if t == state.capital_of(player) else ''}, room "
                            f"{deploy.limit(state, rules, t)})" for t in places],
            "capacity": deploy.capacity(state, rules, player),
            "armies": [f"{a.id} in {view.map.label(a.tile)}" for a in mine],
            "artefacts": items,
            "example": ([f"DEPLOY {mine[0].id} {places[0]}"] if mine and places else [])
            + _allot_example(view, player)})
    limits = rules["deployment.limits"]
    return {"kingdoms": kingdoms, "limits": limits, "disband": rules["deployment.overflow"] == deploy.DISBAND}


def _allot_example(view: MKView, player: str) -> list[str]:
    state = view.state
    for name in artefacts.owned_by(state, player):
        held = state.artefacts[name]
        army, unit = (held.army, held.unit) if held.army else \
            artefacts.first_unit(state, view.rules, name, state.armies_of(player))
        if army:
            return [f"ALLOT {name} {unit_key(army, unit)}"]
    return []


def _item(view: MKView, name: str) -> str:
    item = artefacts.find(view.rules, name)
    what = f"{item.points} points; {item.restriction()}" if item else "not in the pool data"
    return f"{name} ({what}), {artefacts.describe(view.state, name)}"


def help_text(view: MKView, player: Player) -> str:
    """HELP in window W2: the syntax, then the player's own armies, settlements and artefacts."""
    if player.id not in view.state.kingdoms:
        return HELP
    mine = next(k for k in call(view)["kingdoms"] if k["name"] == view.state.kingdoms[player.id].name)
    parts = [HELP, f"Your armies: {', '.join(mine['armies']) or 'none'}.",
             f"Your settlements: {', '.join(mine['settlements']) or 'none'}."]
    parts += [f"Your artefacts: {'; '.join(mine['artefacts'])}."] if mine["artefacts"] else []
    parts += [f"For example: {'; '.join(mine['example'])}."] if mine["example"] else []
    return " ".join(parts)


chronicle.CALLS[DEPLOYMENT] = call

PHASE = Phase[MKState, HexMap](
    title="deployment", window=DEPLOYMENT, parse=parse, resolve=resolve, owing=owing, missing=missing,
    canonical=canonical, help=help_text, words=lambda view: ("DEPLOY", "ALLOT", *standing.VERBS))
