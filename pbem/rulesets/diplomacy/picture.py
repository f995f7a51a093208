"""The map picture of a Diplomacy phase: supply centres by owner, every unit (dislodged ones
marked), and what the last resolution did: each order as an arrow (moves, supports, convoys,
retreats; failed ones dashed), the standoffs, and in the legend the units disbanded, the builds
and the centres that changed hands. Reads only the typed state.

The units stand where the resolution left them, so a move that succeeded ends at its unit and a
failed one starts from it. What the resolution did is kept as the game's `last` record (`marks`),
written when the phase resolves: the position alone no longer holds the orders.
"""

from __future__ import annotations

from collections.abc import Iterable

from pbem.kit.scene import (
    CONVOY,
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
from pbem.rulesets.diplomacy.board import Board, province_of
from pbem.rulesets.diplomacy.cycle import GameState, Step
from pbem.rulesets.diplomacy.results import SUCCEEDS, PhaseResult

# Colours the powers are usually shown in, but France's areas in its usual light blue passed for
# sea: it takes an orange far from the sea and from Turkey's yellow. A variant's other powers
# get the picture's own.
COLOURS = {"Austria": "#c0392b", "England": "#1f4e9c", "France": "#e8742a", "Germany": "#555555",
           "Italy": "#2f9e44", "Russia": "#7b4bb7", "Turkey": "#f2c12e"}
KINDS = {"A": "army", "F": "fleet"}


def scene(board: Board, state: GameState, campaign: str, last: Resolved | None = None) -> Scene:
    """`state` as stored; `last` what the last resolution did."""
    last = last or Resolved()
    title, stage = headline(campaign, last, f"{campaign}: {state.season.title()} {state.year}", state.title)
    return Scene(
        title=title,
        stage=stage,
        sides=tuple(Side(p, p, COLOURS.get(p, ""), p[:3]) for p in board.powers),
        owners=dict(state.centers),
        pieces=tuple(_pieces(state, set(last.dislodged))),
        moves=last.moves,
        clashes=tuple(dict.fromkeys((*last.clashes, *(Clash(p, STANDOFF) for p in state.contested)))),
        notes=(f"Supply centres: {_counts(board, state)}", *last.notes),
    )


def _pieces(state: GameState, dislodged: set[str]) -> Iterable[Piece]:
    for unit in state.units:
        ident = f"{unit.kind} {unit.loc}"
        yield Piece(ident, unit.province, unit.power, KINDS[unit.kind], dislodged=ident in dislodged)
    for d in state.dislodged:
        yield Piece(f"{d.unit.kind} {d.unit.loc}", d.unit.province, d.unit.power, KINDS[d.unit.kind], dislodged=True)


# -- what a resolution did ------------------------------------------------------------------


def marks(step: Step) -> Resolved:
    """The phase played with orders (the first result of `step`) as arrows and standoffs; the
    phases resolved after it on their own (retreats nobody could order) and the year's end in
    the legend."""
    if not step.results:                                 # a draw declared: nothing was ordered
        return Resolved(step.before.title)
    first = step.results[0]
    return Resolved(
        step.before.title,
        moves=tuple(m for r in first.orders for m in arrows(r.order, r.result == SUCCEEDS)),
        clashes=tuple(Clash(p, STANDOFF) for p in first.contested),
        notes=tuple(_notes(step)),
    )


def _notes(step: Step) -> Iterable[str]:
    for result in step.results:
        yield from _adjustments(result)
        for unit in result.disbanded:
            yield f"{unit.power}: {unit.kind} {unit.loc} disbanded"
    for change in step.changes:
        yield f"{change.centre} taken by {change.after}" + (f" from {change.before}" if change.before else "")


def _adjustments(result: PhaseResult) -> Iterable[str]:
    for r in result.orders:
        words = r.order.split()
        if len(words) == 3 and words[2] == "B" and r.result == SUCCEEDS:
            yield f"{r.power}: {words[0]} {words[1]} built"


def arrows(order: str, succeeded: bool) -> list[Move]:
    """The arrows of one canonical order ("A PAR - BUR", "F NTH C A YOR - NWY", "A RUH S A MUN - BUR",
    "A BUR R PAR"); holds, disbands and builds draw none."""
    words = order.replace(" VIA CONVOY", "").split()
    if len(words) < 4:
        return []
    here, verb, piece = province_of(words[1]), words[2], f"{words[0]} {words[1]}"
    if verb == "-":
        return [Move(here, province_of(words[3]), MOVE, succeeded, piece)]
    if verb == "R":
        return [Move(here, province_of(words[3]), RETREAT, succeeded, piece)]
    if verb == "S" and len(words) >= 5:
        target = words[6] if len(words) >= 7 and words[5] == "-" else words[4]
        return [Move(here, province_of(target), SUPPORT, succeeded, piece)]
    if verb == "C" and len(words) >= 7:
        return [Move(here, province_of(words[6]), CONVOY, succeeded, piece)]
    return []


def _counts(board: Board, state: GameState) -> str:
    counts = {p: sum(1 for owner in state.centers.values() if owner == p) for p in board.powers}
    return ", ".join(f"{p} {n}" for p, n in counts.items())
