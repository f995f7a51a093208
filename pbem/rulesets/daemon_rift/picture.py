"""The map picture of a Daemon Rift turn: territories by controlling faction, every token with its
id (defensive tokens marked), and what the last resolved window did: moves step by step, supports
(failed or cut ones dashed), battles and standoffs, tokens that must retreat, retreats. Reads only
the typed state.

A turn runs Steps A, B and C over up to three windows, and tokens change territory only in Step C
(DR-TRN-1): the picture of a window shows the turn so far. After the orders window with a battle
pending the tokens still stand where they started, their moves drawn towards the battles; once
the turn has ended they stand where they ended, the arrows showing where they came from. Step C
clears the turn's scratch, so what the picture needs is kept as the game's `last` record
(`turn_marks`), written by each step as it hands over to a window or ends the turn.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from pbem.kit.scene import (
    BATTLE,
    MOVE,
    RETREAT,
    STANDOFF,
    SUPPORT,
    Clash,
    Move,
    Piece,
    Resolved,
    Scene,
    Side,
    headline,
)
from pbem.rulesets.daemon_rift.endturn import EndOfTurn
from pbem.rulesets.daemon_rift.game_state import DRGame
from pbem.rulesets.daemon_rift.model import MOVE as MOVE_ORDER
from pbem.rulesets.daemon_rift.model import DRState, Order, TurnFacts
from pbem.rulesets.daemon_rift.movement import TABLETOP, Battle

STAGES = {"lists": "army lists", "orders": "orders", "battles": "battle results", "retreats": "retreats",
          "over": "campaign over"}
PENDING = ("entered", "battle", "unless-draw", "dependent")
"""Step A fates of a mover still on its way: it got in, or a battle decides (drawn solid, the
battle marked where it is fought)."""


def scene(state: DRState, campaign: str, last: Resolved | None = None) -> Scene:
    """`state` as stored; `last` what the last resolved window did (moves, battles, retreats)."""
    last = last or Resolved()
    factions = [state.factions[f] for f in state.ordered_factions()]
    title, stage = headline(campaign, last, f"{campaign}: Turn {state.turn}", STAGES.get(state.phase, state.phase))
    return Scene(
        title=title,
        stage=stage,
        sides=tuple(Side(f.id, f.name, f.name) for f in factions),
        owners=dict(state.control),
        pieces=tuple(_pieces(state, set(last.dislodged))),
        moves=last.moves,
        clashes=last.clashes,
        notes=last.notes,
    )


def _pieces(state: DRState, dislodged: set[str]) -> Iterable[Piece]:
    for faction in state.ordered_factions():
        for token in state.tokens_of(faction):
            kind = "defensive" if token.defensive else "token"
            yield Piece(token.id, token.territory, faction, kind, dislodged=token.id in dislodged)


# -- what the turn did so far ---------------------------------------------------------------


def turn_marks(game: DRGame, facts: TurnFacts | None = None) -> Resolved:
    """The turn so far, from its scratch: Step A's movement, Step B's aftermath once it ran, and
    Step C's `facts` once the tokens have moved."""
    if game.movement.turn != game.dr.turn:          # no movement this turn (the army lists window)
        return Resolved()
    return Resolved(
        moves=(*_order_moves(game, facts), *_retreats(game, facts)),
        clashes=tuple(_clashes(game)),
        dislodged=tuple(_dislodged(game, facts)),
        notes=(*_battle_notes(game), *_elimination_notes(game, facts)),
    )


def _stepped_b(game: DRGame) -> bool:
    return game.aftermath.turn == game.dr.turn


def _order_moves(game: DRGame, facts: TurnFacts | None) -> Iterable[Move]:
    eff, starts = game.effective, game.movement.starts
    for token, order in sorted(eff.orders.items()):
        start = starts.get(token, "")
        if not start:
            continue
        if order.kind == MOVE_ORDER:
            yield from _steps(start, order, _arrived(game, token, order, facts))
        elif token in eff.stopped and token in eff.submitted:       # its artillery die stopped it
            yield from _steps(start, eff.submitted[token], False)
    for line in game.movement.supports:
        start = starts.get(line.supporter, "")
        end = line.destination or starts.get(line.target, "")
        if start and end:
            yield Move(start, end, SUPPORT, line.valid and not line.cut, line.supporter)


def _steps(start: str, order: Order, done: bool) -> Iterable[Move]:
    for a, b in itertools.pairwise((start, *order.path)):
        yield Move(a, b, MOVE, done, order.token)


def _arrived(game: DRGame, token: str, order: Order, facts: TurnFacts | None) -> bool:
    if facts is not None:
        return facts.entered.get(token) == order.destination
    if _stepped_b(game):
        return game.aftermath.fates.get(token) == "entered"
    return game.movement.fates.get(token, "") in PENDING


def _retreats(game: DRGame, facts: TurnFacts | None) -> Iterable[Move]:
    if facts is None:
        return
    froms = {r.token: r.start for r in game.aftermath.retreats}
    for token, territory in sorted(facts.retreated.items()):
        start = froms.get(token) or game.movement.starts.get(token, "")
        if start:
            yield Move(start, territory, RETREAT, True, token)


def _clashes(game: DRGame) -> Iterable[Clash]:
    for battle in sorted(game.movement.battles, key=lambda b: b.number):
        yield Clash(battle.territory, BATTLE, f"B{battle.number}")
    standoffs = game.aftermath.standoffs if _stepped_b(game) else game.movement.standoffs
    for place in sorted(set(standoffs) - {b.territory for b in game.movement.battles}):
        yield Clash(place, STANDOFF)


def _dislodged(game: DRGame, facts: TurnFacts | None) -> Iterable[str]:
    """Tokens forced out: retreating (or retreated) after Step B, beaten on strength before it."""
    if facts is not None:
        yield from sorted(facts.retreated)
    elif _stepped_b(game):
        yield from sorted(r.token for r in game.aftermath.retreats if r.token in game.dr.tokens)
    else:
        yield from sorted(t for t, fate in game.movement.fates.items() if fate == "dislodged")


def _battle_notes(game: DRGame) -> Iterable[str]:
    names = {f: game.dr.factions[f].name for f in game.dr.factions}
    decided = {o.battle: o.winner for o in game.aftermath.outcomes} if _stepped_b(game) else {}
    for battle in sorted(game.movement.battles, key=lambda b: b.number):
        sides = " against ".join(f"{names.get(s.faction, s.faction)} ({s.token})" for s in battle.sides)
        yield f"B{battle.number} at {battle.territory}, {_kind(battle)}: {sides}; {_verdict(battle, decided, names)}"


def _kind(battle: Battle) -> str:
    return "tabletop battle" if battle.kind == TABLETOP else "roll-off"


def _verdict(battle: Battle, decided: dict[int, str], names: dict[str, str]) -> str:
    if battle.number in decided:
        winner = decided[battle.number]
    elif battle.kind != TABLETOP:
        winner = battle.winner
    else:
        return "result awaited"
    return f"won by {names.get(winner, winner)}" if winner else "drawn"


def _elimination_notes(game: DRGame, facts: TurnFacts | None) -> Iterable[str]:
    gone = facts.eliminated if facts else game.aftermath.eliminations if _stepped_b(game) else []
    for e in gone:                 # Step C's facts start from Step B's eliminations
        yield f"{e.token} eliminated" + (f" at {e.territory}" if e.territory else "") + f" ({e.cause})"


def with_end_of_turn(marks: Resolved, eot: EndOfTurn) -> Resolved:
    """`marks` with the tokens the turn's end took off the map or placed on it, in the legend."""
    removed = [f"{r.token} taken off {r.territory} ({r.cause})" for r in eot.removals]
    placed = [f"{p.token} placed on {p.territory}" for p in eot.placements]
    return Resolved(marks.stage, marks.moves, marks.clashes, marks.dislodged, (*marks.notes, *removed, *placed))
