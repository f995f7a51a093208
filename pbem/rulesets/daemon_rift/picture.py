"""The map picture of a Daemon Rift turn: territories by controlling faction, every token with its
id (defensive tokens marked), and, when the turn's orders and facts are given, its moves,
supports and retreats (failed moves dashed) and its battles. Reads only the typed state."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping

from pbem.kit.scene import BATTLE, MOVE, RETREAT, SUPPORT, Clash, Move, Piece, Scene, Side
from pbem.rulesets.daemon_rift.model import HOLD, DRState, Effective, Order, TurnFacts
from pbem.rulesets.daemon_rift.model import MOVE as MOVE_ORDER

STAGES = {"orders": "orders", "battles": "battles", "retreats": "retreats", "over": "campaign over"}


def scene(state: DRState, campaign: str, effective: Effective | None = None, facts: TurnFacts | None = None,
          battles: Mapping[str, int] | None = None) -> Scene:
    """`state` as the turn starts (tokens where they stood); `effective` and `facts` add what the
    orders did, `battles` the territories a tabletop battle is fought in (by battle number)."""
    factions = [state.factions[f] for f in state.ordered_factions()]
    return Scene(
        title=f"{campaign}: Turn {state.turn}",
        stage=STAGES.get(state.phase, state.phase),
        sides=tuple(Side(f.id, f.name, f.name) for f in factions),
        owners=dict(state.control),
        pieces=tuple(_pieces(state, facts)),
        moves=tuple(_moves(state, effective, facts)),
        clashes=tuple(Clash(t, BATTLE, f"B{n}") for t, n in sorted((battles or {}).items())),
    )


def _pieces(state: DRState, facts: TurnFacts | None) -> Iterable[Piece]:
    retreating = set(facts.retreated) if facts else set()
    for faction in state.ordered_factions():
        for token in state.tokens_of(faction):
            kind = "defensive" if token.defensive else "token"
            yield Piece(token.id, token.territory, faction, kind, dislodged=token.id in retreating)


def _moves(state: DRState, effective: Effective | None, facts: TurnFacts | None) -> Iterable[Move]:
    if effective is None:
        return
    for token, order in sorted(effective.orders.items()):
        start = state.tokens[token].territory if token in state.tokens else ""
        if start and order.kind != HOLD:
            yield from _order_moves(state, order, start, effective, facts)
    for token, territory in sorted((facts.retreated if facts else {}).items()):
        if token in state.tokens:
            yield Move(state.tokens[token].territory, territory, RETREAT, True, token)


def _order_moves(state: DRState, order: Order, start: str, effective: Effective,
                 facts: TurnFacts | None) -> Iterable[Move]:
    if order.kind == MOVE_ORDER:
        done = facts is None or facts.entered.get(order.token) == order.destination
        steps = (start, *order.path)
        for a, b in itertools.pairwise(steps):
            yield Move(a, b, MOVE, done, order.token)
        return
    target = order.path[-1] if order.path else (state.tokens[order.target].territory
                                                  if order.target in state.tokens else "")
    if target:
        yield Move(start, target, SUPPORT, order.token not in effective.void_supports, order.token)
