"""The map picture of a Diplomacy phase: supply centres by owner, every unit (dislodged ones
marked), and, given the phase's results, each order as an arrow (moves, supports, convoys,
retreats; failed ones dashed) and the standoffs left empty. Reads only the typed state."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pbem.kit.scene import CONVOY, MOVE, RETREAT, STANDOFF, SUPPORT, Clash, Move, Piece, Scene, Side
from pbem.rulesets.diplomacy.board import Board, province_of
from pbem.rulesets.diplomacy.cycle import GameState
from pbem.rulesets.diplomacy.results import SUCCEEDS, OrderResult

# Colours the powers are usually shown in; a variant's other powers get the picture's own.
COLOURS = {"Austria": "#c0392b", "England": "#1f4e9c", "France": "#5aa9e6", "Germany": "#555555",
           "Italy": "#2f9e44", "Russia": "#7b4bb7", "Turkey": "#f2c12e"}
KINDS = {"A": "army", "F": "fleet"}


def scene(board: Board, state: GameState, campaign: str, results: Sequence[OrderResult] = ()) -> Scene:
    """`state` as the phase starts; `results` (the phase's order results) add the arrows."""
    return Scene(
        title=f"{campaign}: {state.season.title()} {state.year}",
        stage=state.title,
        sides=tuple(Side(p, p, COLOURS.get(p, ""), p[:3]) for p in board.powers),
        owners=dict(state.centers),
        pieces=tuple(_pieces(state)),
        moves=tuple(m for r in results for m in arrows(r.order, r.result == SUCCEEDS)),
        clashes=tuple(Clash(p, STANDOFF) for p in state.contested),
        notes=(f"Supply centres: {_counts(board, state)}",),
    )


def _pieces(state: GameState) -> Iterable[Piece]:
    for unit in state.units:
        yield Piece(f"{unit.kind} {unit.loc}", unit.province, unit.power, KINDS[unit.kind])
    for d in state.dislodged:
        yield Piece(f"{d.unit.kind} {d.unit.loc}", d.unit.province, d.unit.power, KINDS[d.unit.kind], dislodged=True)


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
