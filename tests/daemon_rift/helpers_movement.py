"""Builders for movement tests: effective orders from short text, and one-call turns."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from pbem.kit.dice import ScriptedDice
from pbem.kit.rulebook import RuleBook, load_rules
from pbem.kit.territories import GameMap
from pbem.rulesets.daemon_rift.aftermath import Aftermath, finish_turn_moves, step_b
from pbem.rulesets.daemon_rift.model import (
    HOLD,
    BattleResult,
    DRState,
    Effective,
    FactionOrders,
    Order,
    TurnFacts,
)
from pbem.rulesets.daemon_rift.movement import Movement, step_a


def parse_order(token: str, text: str) -> Order:
    """`M T5`, `M T1-T2-T3`, `S R-1 T5-T6`, `S R-1`, `H`, each optionally `champion R-2`."""
    words = text.split()
    champion = ""
    if "champion" in words:
        at = words.index("champion")
        champion, words = words[at + 1], words[:at]
    kind = words[0]
    if kind == "M":
        return Order(token, "M", tuple(words[1].split("-")), champion=champion)
    if kind == "S":
        path = tuple(words[2].split("-")) if len(words) > 2 else ()
        return Order(token, "S", path, target=words[1], champion=champion)
    return Order(token, HOLD, champion=champion)


def effective(state: DRState, orders: Mapping[str, str], stopped: Iterable[str] = (),
              void: Mapping[str, str] | None = None, invalid: Mapping[str, str] | None = None) -> Effective:
    """Every token not given an order holds (and counts as a default hold)."""
    eff = Effective()
    for tok in state.tokens:
        if tok in orders:
            eff.submitted[tok] = parse_order(tok, orders[tok])
        order = eff.submitted.get(tok, Order(tok, HOLD))
        if tok in stopped or tok in (invalid or {}):
            order = Order(tok, HOLD)
        eff.orders[tok] = order
    eff.stopped = list(stopped)
    eff.invalid = dict(invalid or {})
    eff.void_supports = dict(void or {})
    return eff


def submitted_for(state: DRState, eff: Effective, rolloff: Mapping[str, Sequence[str]] | None = None,
                  retreats: Mapping[str, Sequence[str]] | None = None) -> dict[str, FactionOrders]:
    out = {f: FactionOrders() for f in state.factions}
    for tok, order in eff.submitted.items():
        fo = out[state.tokens[tok].faction]
        fo.orders[tok] = order
        fo.explicit.append(tok)
    for faction, against in (rolloff or {}).items():
        out[faction].rolloff_against = list(against)
    for tok, ranked in (retreats or {}).items():
        out[state.tokens[tok].faction].retreats[tok] = list(ranked)
    return out


class Turn:
    """Runs Step A, Step B and the retreat moves with scripted dice."""

    def __init__(self, state: DRState, gmap: GameMap, orders: Mapping[str, str], rules: RuleBook | None = None,
                 dice: Sequence[int] = (), stopped: Iterable[str] = (), void: Mapping[str, str] | None = None,
                 rolloff: Mapping[str, Sequence[str]] | None = None,
                 retreats: Mapping[str, Sequence[str]] | None = None) -> None:
        self.state, self.gmap = state, gmap
        self.rules = rules or load_rules("daemon_rift")
        self.dice = ScriptedDice(dice)
        self.eff = effective(state, orders, stopped, void)
        self.submitted = submitted_for(state, self.eff, rolloff, retreats)
        self.movement: Movement = step_a(state, gmap, self.rules, self.eff, self.submitted, self.dice)
        self.aftermath: Aftermath | None = None

    def results(self, *results: BattleResult) -> Aftermath:
        self.aftermath = step_b(self.state, self.gmap, self.rules, self.movement,
                                {r.battle: r for r in results}, self.dice, self.submitted)
        return self.aftermath

    def finish(self, choices: Mapping[str, str] | None = None) -> TurnFacts:
        if self.aftermath is None:
            self.results()
        assert self.aftermath is not None
        return finish_turn_moves(self.state, self.gmap, self.rules, self.movement, self.aftermath, dict(choices or {}))

    def where(self) -> dict[str, str]:
        return {t: tok.territory for t, tok in self.state.tokens.items()}

    def contest(self, territory: str) -> object:
        return next(c for c in self.movement.contests if c.territory == territory and c.kind != "swap")
