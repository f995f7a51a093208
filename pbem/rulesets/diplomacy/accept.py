"""From submitted text to checked orders: the step every phase starts with.

Each submitted line becomes either an order for one of the power's units or an
`invalid` result with the reason; a later order for the same unit replaces an
earlier one, as a player who corrects himself in one mail expects.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pbem.orders import IllegalOrder, OrderProblem
from pbem.rulesets.diplomacy.board import Board
from pbem.rulesets.diplomacy.orders import Order
from pbem.rulesets.diplomacy.results import VOID, OrderResult, Submitted, as_text, rejected
from pbem.rulesets.diplomacy.units import Unit

# Checks one order against the unit it names; returns the order as it will be tried.
Check = Callable[[Order, Unit], Order]


@dataclass(frozen=True)
class Given:
    """An accepted order: where it stood in the submission, whose it is, what it says."""

    index: int
    power: str
    order: Order


def parse_all(board: Board, orders: Sequence[Submitted], phase: str) -> tuple[list[OrderResult | None], list[Given]]:
    """Parse every line; results hold the rejected ones, the rest come back as Given."""
    results: list[OrderResult | None] = [None] * len(orders)
    parsed: list[Given] = []
    powers: dict[str, str] = {}
    for i, (power, raw) in enumerate(orders):
        try:
            power = powers.get(power) or powers.setdefault(power, board.power_names.lookup(power))
            order = Order.parse(raw, board, phase) if isinstance(raw, str) else raw
        except OrderProblem as problem:
            results[i] = rejected(power, as_text(raw), problem)
            continue
        parsed.append(Given(i, power, order))
    return results, parsed


def accept_unit_orders(
    board: Board, units: dict[str, Unit], orders: Sequence[Submitted], phase: str, check: Check
) -> tuple[list[OrderResult | None], dict[str, Given]]:
    """Parse and check orders that command a unit; the accepted ones keyed by province."""
    results, parsed = parse_all(board, orders, phase)
    accepted: dict[str, Given] = {}
    for g in parsed:
        try:
            order = check(g.order, own_unit(g.power, g.order, units))
        except OrderProblem as problem:
            results[g.index] = rejected(g.power, str(g.order), problem)
            continue
        earlier = accepted.get(order.province)
        if earlier is not None:
            results[earlier.index] = OrderResult(earlier.power, str(earlier.order), VOID, "replaced by a later order")
        accepted[order.province] = Given(g.index, g.power, order)
    return results, accepted


def own_unit(power: str, order: Order, units: dict[str, Unit]) -> Unit:
    """The unit an order names, if it is there and belongs to the power giving it."""
    unit = units.get(order.province)
    if unit is None:
        raise IllegalOrder(f"there is no unit in {order.province}")
    if unit.power != power:
        raise IllegalOrder(f"the unit in {order.province} belongs to {unit.power}")
    order.matches(unit)
    return unit
