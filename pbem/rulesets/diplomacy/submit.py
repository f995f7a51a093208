"""A power's order lines for the current phase, checked as the adjudicator will check them.

Every line is parsed on its own and answered with its line number: not
understood (invalid), understood but not allowed here (illegal: no such unit,
not adjacent, no build left...), or open to several readings (ambiguous), each
with a suggestion where one can be guessed. The legality checks are the
adjudicator's own: the power's orders are put through the phase alone, and an
order it would treat as invalid is refused now, while the player can still fix
it. Whether a support or convoy matches another power's move is only known at
the deadline, so such orders are accepted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pbem.kit.orders import IllegalOrder, OrderProblem
from pbem.rulesets.diplomacy.adjustments import adjudicate_adjustments
from pbem.rulesets.diplomacy.board import Board
from pbem.rulesets.diplomacy.cycle import (
    ADJUSTMENT,
    MOVEMENT,
    RETREAT,
    GameState,
    adjustments_due,
    retreat_options,
)
from pbem.rulesets.diplomacy.movement import adjudicate_movement
from pbem.rulesets.diplomacy.orders import Build, Disband, Order, Waive
from pbem.rulesets.diplomacy.results import INVALID, VOID, PhaseResult, Submitted
from pbem.rulesets.diplomacy.retreats import adjudicate_retreats

_HINT = " (did you mean "


@dataclass
class Checked:
    """The lines of one submission: accepted orders in canonical form, and the problems."""

    accepted: list[tuple[int, str]] = field(default_factory=list)
    problems: list[OrderProblem] = field(default_factory=list)

    @property
    def orders(self) -> list[str]:
        return [text for _, text in self.accepted]


def check_lines(board: Board, state: GameState, power: str, lines: Sequence[tuple[int, str]],
                edition: str) -> Checked:
    """Parse and check a power's lines against the position of the current phase."""
    out = Checked()
    parsed: list[tuple[int, str, Order]] = []
    for no, line in lines:
        try:
            parsed.append((no, line, Order.parse(line, board, state.phase)))
        except OrderProblem as problem:
            out.problems.append(problem.at(no, line))
    trial = _trial(board, state, [(power, order) for _, _, order in parsed], edition)
    kept: list[tuple[int, str, Order]] = []
    for (no, line, _), result in zip(parsed, trial.orders, strict=False):
        refused = result.result == INVALID or (state.phase == ADJUSTMENT and result.result == VOID)
        if refused:
            reason, suggestion = _split(result.reason)
            out.problems.append(IllegalOrder(reason, no, line, suggestion))
        else:
            kept.append((no, result.order, Order.parse(result.order, board, state.phase)))
    out.accepted = [(no, text) for no, text, _ in _last_per_unit(kept, dict(lines), out.problems)]
    out.problems.sort(key=lambda p: p.line_no)
    return out


def _last_per_unit(parsed: list[tuple[int, str, Order]], lines: dict[int, str],
                   problems: list[OrderProblem]) -> list[tuple[int, str, Order]]:
    """One order per unit: a later accepted line for the same unit replaces an earlier one."""
    last: dict[str, int] = {}
    for no, _, order in parsed:
        if _commands_unit(order):
            last[order.province] = no
    kept = []
    for no, text, order in parsed:
        if _commands_unit(order) and last[order.province] != no:
            problems.append(IllegalOrder(f"replaced by line {last[order.province]}, a later order for the "
                                         f"unit in {order.province}", no, lines[no]))
        else:
            kept.append((no, text, order))
    return kept


def _commands_unit(order: Order) -> bool:
    return not isinstance(order, (Build, Waive))


def _trial(board: Board, state: GameState, orders: Sequence[Submitted], edition: str) -> PhaseResult:
    if state.phase == MOVEMENT:
        return adjudicate_movement(board, state.units, orders, edition)
    if state.phase == RETREAT:
        return adjudicate_retreats(board, state.units, state.dislodged, state.contested, orders, edition)
    return adjudicate_adjustments(board, state.units, state.centers, orders, edition)


def _split(reason: str) -> tuple[str, str]:
    """The adjudicator writes a suggestion into the reason; the ack shows it on its own."""
    if reason.endswith("?)") and _HINT in reason:
        head, _, hint = reason.rpartition(_HINT)
        return head, hint[:-2]
    return reason, ""


# ---------------------------------------------------------------- what is still missing


# What the power has not yet ordered in the phase, in words for the ack: one function per phase.
Missing = Callable[[Board, GameState, str, Sequence[str]], list[str]]


def missing_moves(board: Board, state: GameState, power: str, orders: Sequence[str]) -> list[str]:
    provinces = _ordered(board, state, orders)
    return [f"{u.kind} {u.loc}" for u in state.units_of(power) if u.province not in provinces]


def missing_retreats(board: Board, state: GameState, power: str, orders: Sequence[str]) -> list[str]:
    provinces = _ordered(board, state, orders)
    return [f"{d.unit.kind} {d.unit.loc} (retreat to {' or '.join(opts)}, or disband)"
            for d in state.dislodged if d.unit.power == power and d.unit.province not in provinces
            for opts in [retreat_options(board, state, d)] if opts]


def missing_adjustments(board: Board, state: GameState, power: str, orders: Sequence[str]) -> list[str]:
    given = [Order.parse(text, board, state.phase) for text in orders]
    due = adjustments_due(board, state).get(power, 0)
    if due > 0:
        left = due - sum(isinstance(o, (Build, Waive)) for o in given)
        return [f"{left} build{'s' if left > 1 else ''} (BUILD A/F <home centre>, or WAIVE)"] if left > 0 else []
    left = -due - sum(isinstance(o, Disband) for o in given)
    return [f"{left} removal{'s' if left > 1 else ''} (e.g. A PAR D)"] if left > 0 else []


def _ordered(board: Board, state: GameState, orders: Sequence[str]) -> set[str]:
    """Provinces whose unit the orders command."""
    return {o.province for text in orders if _commands_unit(o := Order.parse(text, board, state.phase))}
