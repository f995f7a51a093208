"""Benchmark: pbem's Diplomacy adjudicator against the `diplomacy` package (MILA).

    python bench/adjudicate.py            # 1,000 positions; maps of 1k/10k/100k units
    python bench/adjudicate.py --quick    # 100 positions; maps of 1k/10k units

Part 1 adjudicates the same seeded random standard-map movement positions (random
legal orders for every unit) with both engines, timing each from order text to
results (order checking included; building the position is not timed for either),
checks that both end with the same units in the same places and the same units
dislodged, and prints the median time per phase and the ratio.
Part 2 adjudicates generated grid maps of growing size to show how time grows.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem.rulesets.diplomacy import Board, Unit, adjudicate_movement, standard_board
from pbem.rulesets.diplomacy.board import board_from_data, province_of

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]


# ------------------------------------------------------------ random positions


def random_units(board: Board, rng: random.Random) -> list[Unit]:
    """20 to 34 units on distinct provinces, of a type that can stand there."""
    provinces = rng.sample(sorted(board.provinces), rng.randint(20, 34))
    units = []
    for prov in provinces:
        kind = board.provinces[prov].kind
        unit_kind = "A" if kind == "land" else "F" if kind == "sea" else rng.choice("AF")
        loc = rng.choice(board.locations(prov)) if unit_kind == "F" else prov
        units.append(Unit(rng.choice(POWERS), unit_kind, loc))
    return units


def random_orders(board: Board, units: list[Unit], rng: random.Random) -> list[tuple[str, str]]:
    """A legal order for every unit: holds, moves, supports of real orders, convoys."""
    at = {u.province: u for u in units}
    plan: dict[str, tuple[str, str]] = {}
    for u in units:
        targets = sorted(board.army_adj[u.loc] if u.kind == "A" else board.fleet_adj.get(u.loc, ()))
        if targets and rng.random() < 0.6:
            plan[u.province] = ("move", rng.choice(targets))
        else:
            plan[u.province] = ("hold", "")
    _add_convoys(board, at, plan, rng)
    return [(u.power, _order_text(board, u, at, plan, rng)) for u in units]


def _add_convoys(board: Board, at: dict[str, Unit], plan: dict[str, tuple[str, str]], rng: random.Random) -> None:
    """Some fleets at sea convoy a neighbouring army to a coast it cannot walk to."""
    for fleet in [u for u in at.values() if u.kind == "F" and board.is_sea(u.province)]:
        armies = [p for p in board.fleet_reach[fleet.loc] if p in at and at[p].kind == "A"]
        coasts = [p for p in board.fleet_reach[fleet.loc] if board.provinces[p].kind == "coast"]
        if not armies or rng.random() < 0.5:
            continue
        army = rng.choice(sorted(armies))
        far = sorted(c for c in coasts if c != army and c not in board.army_adj[army])
        if far:
            dst = rng.choice(far)
            plan[army] = ("move", dst)
            plan[fleet.province] = ("convoy", f"{army}-{dst}")


def _order_text(board: Board, u: Unit, at: dict[str, Unit], plan: dict[str, tuple[str, str]], rng: random.Random) -> str:
    verb, arg = plan[u.province]
    if verb == "move":
        return f"{u.kind} {u.loc} - {arg}"
    if verb == "convoy":
        army, dst = arg.split("-")
        return f"F {u.loc} C A {army} - {dst}"
    support = _support(board, u, at, plan, rng)
    return support or f"{u.kind} {u.loc} H"


def _support(board: Board, u: Unit, at: dict[str, Unit], plan: dict[str, tuple[str, str]], rng: random.Random) -> str:
    if rng.random() < 0.3:
        return ""
    options = []
    for p, other in at.items():
        if p == u.province:
            continue
        verb, arg = plan[p]
        aim = province_of(arg) if verb == "move" else p
        if aim != u.province and board.can_reach(u.kind, u.loc, aim):
            options.append(f"{u.kind} {u.loc} S {other.kind} {other.loc}" + (f" - {province_of(arg)}" if verb == "move" else ""))
    return rng.choice(sorted(options)) if options else ""


# ------------------------------------------------------------ the two engines


def timed(run: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def series(run: Any, items: list[Any]) -> list[tuple[float, Any]]:
    """Run one engine over the whole series with the garbage collector held back
    (collected before), so neither engine pays for the other's garbage."""
    gc.collect()
    gc.disable()
    try:
        return [run(*item) for item in items]
    finally:
        gc.enable()


def time_pbem(board: Board, units: list[Unit], orders: list[tuple[str, str]]) -> tuple[float, Any]:
    return timed(lambda: adjudicate_movement(board, units, orders))


def time_mila(units: list[Unit], orders: list[tuple[str, str]]) -> tuple[float, Any]:
    from diplomacy import Game

    game = Game()
    game.clear_units()
    for power in POWERS:
        game.set_units(power.upper(), [f"{u.kind} {u.loc}" for u in units if u.power == power])
    by_power: dict[str, list[str]] = {}
    for power, text in orders:
        by_power.setdefault(power.upper(), []).append(text)

    def run() -> Any:
        for power, texts in by_power.items():
            game.set_orders(power, texts)
        game.process()
        return game

    return timed(run)


def same_outcome(result: Any, game: Any) -> bool:
    mine = sorted((u.power.upper(), f"{u.kind} {u.loc}") for u in result.units)
    theirs = sorted((p, u) for p, us in game.get_units().items() for u in us if not u.startswith("*"))
    codes = game.result_history.last_value()
    dislodged_mila = sorted(str(u) for u, c in codes.items() if "dislodged" in map(str, c))
    dislodged_mine = sorted(f"{d.unit.kind} {d.unit.loc}" for d in result.dislodged)
    return mine == theirs and dislodged_mine == dislodged_mila


def compare(n: int, seed: int) -> None:
    """Each engine runs the whole series in its own loop, then the outcomes are compared."""
    board = standard_board()
    rng = random.Random(seed)
    positions = []
    for _ in range(n):
        units = random_units(board, rng)
        positions.append((units, random_orders(board, units, rng)))
    mine = series(lambda units, orders: time_pbem(board, units, orders), positions)
    games = series(time_mila, positions)
    ours, theirs = [t for t, _ in mine], [t for t, _ in games]
    agree = sum(same_outcome(r, g) for (_, r), (_, g) in zip(mine, games))
    m_ours, m_theirs = statistics.median(ours) * 1000, statistics.median(theirs) * 1000
    print(f"Standard map, {n} random movement phases (seed {seed})")
    print(f"  {'engine':<22}{'median ms/phase':>16}")
    print(f"  {'pbem':<22}{m_ours:>16.3f}")
    print(f"  {'diplomacy (MILA)':<22}{m_theirs:>16.3f}")
    print(f"  ratio: pbem is {m_theirs / m_ours:.1f}x faster")
    print(f"  same resulting positions: {agree}/{n}")


# ------------------------------------------------------------ growth


def grid_board(side: int) -> Board:
    """A side x side grid of land provinces, each touching its four neighbours."""
    provinces: dict[str, Any] = {}
    for y in range(side):
        for x in range(side):
            near = [f"G{x + dx}x{y + dy}" for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if 0 <= x + dx < side and 0 <= y + dy < side]
            provinces[f"G{x}x{y}"] = {"name": f"G{x}x{y}", "type": "land", "army": near}
    return board_from_data({"name": "grid", "provinces": provinces, "powers": {}})


def grid_phase(board: Board, n_units: int, rng: random.Random) -> tuple[list[Unit], list[tuple[str, str]]]:
    provinces = rng.sample(sorted(board.provinces), n_units)
    units = [Unit(rng.choice(POWERS), "A", p) for p in provinces]
    plan = {u.province: ("move", rng.choice(sorted(board.army_adj[u.loc]))) if rng.random() < 0.6 else ("hold", "")
            for u in units}
    at = {u.province: u for u in units}
    orders = []
    for u in units:
        verb, arg = plan[u.province]
        text = f"A {u.loc} - {arg}" if verb == "move" else ""
        if not text:
            near = [p for p in board.army_adj[u.loc] if p in at]
            text = f"A {u.loc} H"
            if near and rng.random() < 0.7:
                p = rng.choice(sorted(near))
                v, a = plan[p]
                if v == "move" and a != u.loc and a in board.army_adj[u.loc]:
                    text = f"A {u.loc} S A {p} - {a}"
                elif v == "hold":
                    text = f"A {u.loc} S A {p}"
        orders.append((u.power, text))
    return units, orders


def growth(sizes: list[int], seed: int) -> None:
    rng = random.Random(seed)
    print("\nGenerated grid maps (about half the provinces occupied)")
    print(f"  {'units':>8}{'provinces':>11}{'ms/phase':>11}{'us/unit':>9}{'growth':>9}")
    previous: tuple[int, float] | None = None
    for n in sizes:
        side = int((2 * n) ** 0.5) + 1
        board = grid_board(side)
        units, orders = grid_phase(board, n, rng)
        [(elapsed, _)] = series(lambda u, o: time_pbem(board, u, o), [(units, orders)])
        grow = f"{elapsed / previous[1]:.1f}x" if previous else "-"
        print(f"  {n:>8}{side * side:>11}{elapsed * 1000:>11.1f}{elapsed / n * 1e6:>9.1f}{grow:>9}")
        previous = (n, elapsed)
    print("  (10x more units should cost about 10x the time: linear growth)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 positions and maps up to 10,000 units")
    parser.add_argument("--seed", type=int, default=1901)
    args = parser.parse_args()
    try:
        import diplomacy  # noqa: F401
    except ImportError:
        print("the benchmark needs the `diplomacy` package: pip install diplomacy", file=sys.stderr)
        return 2
    compare(100 if args.quick else 1000, args.seed)
    growth([1_000, 10_000] if args.quick else [1_000, 10_000, 100_000], args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
