"""Retreat phase: dislodged units retreat or disband.

A retreat must go to an adjacent province that is empty, was not left empty by a
standoff, and is not where the attacker came from (unless the attacker came by
convoy, DATC 4.A.5). Two retreats to one province both fail. A dislodged unit
without a valid retreat is disbanded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pbem.kit.orders import IllegalOrder
from pbem.rulesets.diplomacy.accept import accept_unit_orders
from pbem.rulesets.diplomacy.board import Board
from pbem.rulesets.diplomacy.orders import Move, Order, Retreat
from pbem.rulesets.diplomacy.results import (
    FAILS,
    SUCCEEDS,
    DislodgedUnit,
    OrderResult,
    PhaseResult,
    Submitted,
    check_edition,
    sort_units,
)
from pbem.rulesets.diplomacy.units import Unit


def adjudicate_retreats(
    board: Board,
    units: Sequence[Unit],
    dislodged: Sequence[DislodgedUnit],
    contested: Sequence[str],
    orders: Sequence[Submitted],
    edition: str = "3.0",
) -> PhaseResult:
    """Resolve a retreat phase; units on the board are those not dislodged."""
    check_edition(edition)
    by_prov = {d.unit.province: d for d in dislodged}
    occupied = {u.province for u in units}
    blocked = occupied | set(contested)

    def check(order: Order, unit: Unit) -> Order:
        if isinstance(order, Retreat):
            return _check_retreat(board, order, by_prov[unit.province], blocked)
        return replace(order, loc=unit.loc)

    results, given, places = accept_unit_orders(
        board, {p: d.unit for p, d in by_prov.items()}, orders, "retreat", check
    )
    targets: dict[str, int] = {}
    for order in given.values():
        if isinstance(order, Retreat):
            targets[order.target] = targets.get(order.target, 0) + 1
    moved: list[Unit] = []
    retreated: set[str] = set()
    for prov, order in given.items():
        index, power = places[prov], by_prov[prov].unit.power
        result = OrderResult(power, str(order), SUCCEEDS)
        if isinstance(order, Retreat) and targets[order.target] == 1:
            moved.append(replace(by_prov[prov].unit, loc=order.dst))
            retreated.add(prov)
        elif isinstance(order, Retreat):
            result = OrderResult(power, str(order), FAILS, "bounced; the unit is disbanded")
        results[index] = result
    disbanded = [d.unit for d in dislodged if d.unit.province not in retreated]
    return PhaseResult("retreat", [r for r in results if r is not None], sort_units([*units, *moved]),
                       [], sort_units(disbanded), [])


def _check_retreat(board: Board, order: Retreat, d: DislodgedUnit, blocked: set[str]) -> Retreat:
    """The retreat as it will be tried (fleet coast filled in), or IllegalOrder."""
    move = Move(order.kind, order.loc, order.dst).validate(board, d.unit)
    target = move.target
    if d.unit.kind == "A" and not board.can_move("A", d.unit.loc, target):
        raise IllegalOrder("a retreat cannot use a convoy")
    if target == d.attacker_from and not d.by_convoy:
        raise IllegalOrder(f"cannot retreat to {target}, where the attacker came from")
    if target in blocked:
        raise IllegalOrder(f"cannot retreat to {target}: it is occupied or was left empty by a standoff")
    return replace(order, loc=d.unit.loc, dst=move.dst)
