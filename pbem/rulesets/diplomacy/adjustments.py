"""Winter adjustments: builds, removals, and civil disorder.

Each power may build as many units as it owns more centres than it has units, in
its own unoccupied home centres, or must remove the difference. Orders are taken
one by one (DATC 4.D.6): once the count is reached, further ones are void. A
power that removes too few loses units by the civil disorder rule: farthest
first (edition 3.0: from any owned centre, over land and sea alike; edition 2.4:
from a home centre, fleets along their own routes), fleets before armies, then
alphabetically by province name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from pbem.kit.orders import IllegalOrder, OrderProblem
from pbem.rulesets.diplomacy.accept import own_unit, parse_all
from pbem.rulesets.diplomacy.board import Board, province_of
from pbem.rulesets.diplomacy.orders import Build, Disband, Order, Waive
from pbem.rulesets.diplomacy.results import (
    SUCCEEDS,
    VOID,
    OrderResult,
    PhaseResult,
    Submitted,
    check_edition,
    rejected,
    sort_units,
)
from pbem.rulesets.diplomacy.units import Unit, placed


def adjudicate_adjustments(
    board: Board,
    units: Sequence[Unit],
    centers: Mapping[str, str],
    orders: Sequence[Submitted],
    edition: str = "3.0",
) -> PhaseResult:
    """Resolve a winter phase; `centers` maps each owned supply centre to its owner."""
    check_edition(edition)
    results, parsed = parse_all(board, orders, "adjustment")
    at = {u.province: u for u in units}
    owned = _count(centers.values())
    present = _count(u.power for u in units)
    done = dict.fromkeys({*owned, *present, *(g.power for g in parsed)}, 0)
    built: list[Unit] = []
    removed: list[Unit] = []
    for g in parsed:
        change = owned.get(g.power, 0) - present.get(g.power, 0)
        try:
            unit = _apply(board, g.power, g.order, change, done[g.power], at, centers)
        except OrderProblem as problem:
            results[g.index] = _refused(g.power, g.order, problem)
            continue
        done[g.power] += 1
        results[g.index] = OrderResult(g.power, str(g.order), SUCCEEDS)
        if isinstance(g.order, Build) and unit is not None:
            built.append(unit)
            at[unit.province] = unit
        elif unit is not None:
            removed.append(unit)
            del at[unit.province]
    final = [r for r in results if r is not None]
    for power, count in present.items():
        missing = count - owned.get(power, 0) - done[power]
        if missing > 0:
            for unit in civil_disorder(board, power, list(at.values()), centers, missing, edition):
                final.append(OrderResult(power, f"{unit.kind} {unit.loc} D", SUCCEEDS, "civil disorder"))
                removed.append(unit)
                del at[unit.province]
    return PhaseResult("adjustment", final, sort_units(at.values()), [], sort_units(removed), [])


def _count(powers: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for p in powers:
        out[p] = out.get(p, 0) + 1
    return out


def _refused(power: str, order: Order, problem: OrderProblem) -> OrderResult:
    if isinstance(problem, _Void):
        return OrderResult(power, str(order), VOID, problem.reason)
    return rejected(power, str(order), problem)


class _Void(IllegalOrder):
    """Legal in itself, but the power has no adjustment left to make."""


def _apply(
    board: Board, power: str, order: Order, change: int, done: int, at: dict[str, Unit], centers: Mapping[str, str]
) -> Unit | None:
    """Check one adjustment order; returns the unit built or removed (None for a waive)."""
    if isinstance(order, (Build, Waive)):
        if change <= 0:
            raise _Void(f"{power} has no builds" if change == 0 else f"{power} must remove units, not build")
        if done >= change:
            raise _Void(f"{power} has no builds left")
        return None if isinstance(order, Waive) else _build(board, power, order, at, centers)
    if isinstance(order, Disband):
        unit = own_unit(power, order, at)
        if change >= 0:
            raise _Void(f"{power} need not remove any unit")
        if done >= -change:
            raise _Void(f"{power} has removed enough units")
        return unit
    raise IllegalOrder(f"{order.verb} orders are not allowed in the adjustment phase")


def _build(board: Board, power: str, order: Order, at: dict[str, Unit], centers: Mapping[str, str]) -> Unit:
    prov = province_of(order.loc)
    if prov not in board.powers[power].home:
        raise IllegalOrder(f"{prov} is not a home centre of {power}")
    if centers.get(prov) != power:
        raise IllegalOrder(f"{power} does not own {prov}")
    if prov in at:
        raise IllegalOrder(f"{prov} is occupied")
    try:
        loc = placed(order.kind, order.loc, board)
    except OrderProblem as problem:
        raise IllegalOrder(problem.reason, suggestion=problem.suggestion) from None
    return Unit(power, order.kind, loc)


def civil_disorder(
    board: Board, power: str, units: Sequence[Unit], centers: Mapping[str, str], n: int, edition: str
) -> list[Unit]:
    """The `n` units a power loses when it orders too few removals."""
    own = [u for u in units if u.power == power]
    if edition == "2.4":
        targets = set(board.powers[power].home)
    else:
        targets = {c for c, owner in centers.items() if owner == power}
    land = _distances(board, targets, lambda p: _all_neighbours(board, p))
    sea = _fleet_distances(board, targets) if edition == "2.4" else {}
    far = 10**6

    def rank(u: Unit) -> tuple[int, int, str]:
        dist = sea.get(u.loc, far) if edition == "2.4" and u.kind == "F" else land.get(u.province, far)
        return (-dist, 0 if u.kind == "F" else 1, board.provinces[u.province].name)

    return sorted(own, key=rank)[:n]


def _all_neighbours(board: Board, prov: str) -> set[str]:
    out = set(board.army_adj.get(prov, ()))
    for loc in board.locations(prov):
        out |= board.fleet_reach.get(loc, frozenset())
    return out


def _distances(board: Board, sources: Iterable[str], neighbours: Callable[[str], Iterable[str]]) -> dict[str, int]:
    dist = {s: 0 for s in sources}
    frontier = list(dist)
    while frontier:
        nxt = []
        for p in frontier:
            for q in neighbours(p):
                if q not in dist:
                    dist[q] = dist[p] + 1
                    nxt.append(q)
        frontier = nxt
    return dist


def _fleet_distances(board: Board, targets: set[str]) -> dict[str, int]:
    """Distance for fleets along fleet routes, from every coast of the target centres."""
    sources = [loc for p in targets for loc in board.locations(p) if loc in board.fleet_adj]
    return _distances(board, sources, lambda loc: board.fleet_adj.get(loc, ()))
