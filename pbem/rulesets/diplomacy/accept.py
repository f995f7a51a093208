"""From submitted text to checked orders: the step every phase starts with.

Each submitted line becomes either an order for one of the power's units or an
`invalid` result with the reason; a later order for the same unit replaces an
earlier one, as a player who corrects himself in one mail expects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from pbem.kit.orders import IllegalOrder, OrderProblem
from pbem.rulesets.diplomacy.board import Board
from pbem.rulesets.diplomacy.orders import Order, order_memo, order_reader, read_line
from pbem.rulesets.diplomacy.results import (
    VOID,
    OrderResult,
    Submitted,
    as_text,
    rejected,
)
from pbem.rulesets.diplomacy.units import Unit

# Checks one order against the unit it names; returns the order as it will be tried.
Check = Callable[[Order, Unit], Order]


@dataclass(slots=True)
class Given:
    """A parsed order (`parse_all`): where it stood in the submission, whose it
    is, what it says. Treat it as read-only."""

    index: int
    power: str
    order: Order


def parse_all(board: Board, orders: Sequence[Submitted], phase: str) -> tuple[list[OrderResult | None], list[Given]]:
    """Parse every line; results hold the rejected ones, the rest come back as Given."""
    results: list[OrderResult | None] = [None] * len(orders)
    parsed = [Given(i, power, order) for i, power, order in _understood(board, orders, phase, results)]
    return results, parsed


def accept_unit_orders(
    board: Board, units: dict[str, Unit], orders: Sequence[Submitted], phase: str, check: Check
) -> tuple[list[OrderResult | None], dict[str, Order], dict[str, int]]:
    """Parse and check orders that command a unit: the results of the rejected
    ones in their places, the accepted ones as they will be tried by the
    province of their unit (whose power gave them), and where each of those
    stood in the submission.

    (Two tables rather than one of (place, order) pairs: a large phase keeps a
    pair per unit to its end, and each is one more object for the collector.)"""
    results: list[OrderResult | None] = [None] * len(orders)
    accepted: dict[str, Order] = {}
    places: dict[str, int] = {}
    # Reads each line as parse_all does (through the same memo), written out:
    # every order of every phase comes through here.
    seen, power_of = order_memo(board, phase), board.power
    powers: dict[str, str] = {}
    for i, (power, raw) in enumerate(orders):
        try:
            power = powers.get(power) or powers.setdefault(power, power_of(power))
            if isinstance(raw, str):
                order = seen.get(raw) or seen.setdefault(raw, read_line(raw, board, phase))
            else:
                order = raw
        except OrderProblem as problem:
            results[i] = rejected(power, as_text(raw), problem)
            continue
        unit = units.get(order.province)
        try:
            if unit is None or unit.power != power or unit.kind != order.kind:
                unit = own_unit(power, order, units)  # says what is wrong
            checked = check(order, unit)
        except OrderProblem as problem:
            results[i] = rejected(power, order.text, problem)
            continue
        earlier = accepted.get(checked.province)
        if earlier is not None:
            results[places[checked.province]] = OrderResult(power, earlier.text, VOID, "replaced by a later order")
        accepted[checked.province] = checked
        places[checked.province] = i
    return results, accepted, places


def _understood(
    board: Board, orders: Sequence[Submitted], phase: str, results: list[OrderResult | None]
) -> Iterator[tuple[int, str, Order]]:
    """(index, power, order) for each line that parses; the others get their result here."""
    read, power_of = order_reader(board, phase), board.power
    for i, (power, raw) in enumerate(orders):
        try:
            power = power_of(power)
            order = read(raw) if isinstance(raw, str) else raw
        except OrderProblem as problem:
            results[i] = rejected(power, as_text(raw), problem)
            continue
        yield i, power, order


def own_unit(power: str, order: Order, units: dict[str, Unit]) -> Unit:
    """The unit an order names, if it is there and belongs to the power giving it."""
    unit = units.get(order.province)
    if unit is None:
        raise IllegalOrder(f"there is no unit in {order.province}")
    if unit.power != power:
        raise IllegalOrder(f"the unit in {order.province} belongs to {unit.power}")
    order.matches(unit)
    return unit
