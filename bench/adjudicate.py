"""Benchmark: pbem's Diplomacy adjudicator against the `diplomacy` package (MILA).

    python bench/adjudicate.py            # 1,000 positions; maps of 1k/10k/100k units; 500 files
    python bench/adjudicate.py --quick    # 100 positions; maps of 1k/10k units; 100 files

Part 1 adjudicates the same seeded random standard-map movement positions (random
legal orders for every unit) with both engines, each from order text to results
(order checking included; building the position is timed for neither; both in
processor time, with the garbage collector held back during each series), checks
that both end with the same units in the same places and the same units
dislodged, explains every difference, and prints the median time per phase and
the ratio (the median over five rounds of each round's ratio). pbem reads each
distinct order line once per map and then remembers it (the same lines recur
from phase to phase); it is timed first with the memo emptied before every phase
(cold: what a `pbem tick` process pays, the ratio with a goal), then as a
long-running judge's: with the memo filling up over the series (as in one
`pbem adjudicate` call over many files) and with every line seen before.
Part 2 adjudicates generated grid maps of growing size to show how time grows
(cold, the garbage collector on, each size five times, the sizes in turn),
next to a bare dictionary of the same units for the machine's own growth, and
how much data each size holds, to set against the processor's last-level cache.
Part 3 runs `pbem adjudicate --json` over hundreds of position files in one call
and times the command's start on one file.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import tomli_w

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# bench/ is run as a script, so the project root must be on sys.path before pbem is imported.
from pbem.rulesets.diplomacy import (  # noqa: E402
    Board,
    PhaseResult,
    Unit,
    adjudicate_movement,
    standard_board,
)
from pbem.rulesets.diplomacy.board import board_from_data, province_of  # noqa: E402
from pbem.rulesets.diplomacy.orders import Order, Support  # noqa: E402

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
Phase = tuple[list[Unit], list[tuple[str, str]]]


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


def _order_text(
    board: Board, u: Unit, at: dict[str, Unit], plan: dict[str, tuple[str, str]], rng: random.Random
) -> str:
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
            options.append(
                f"{u.kind} {u.loc} S {other.kind} {other.loc}" + (f" - {province_of(arg)}" if verb == "move" else "")
            )
    return rng.choice(sorted(options)) if options else ""


# ------------------------------------------------------------ the two engines


def timed(run: Any) -> tuple[float, Any]:
    """Seconds of processor time the call takes: the machine's other work does
    not count, so the figures hold on a busy machine too."""
    start = time.process_time()
    result = run()
    return time.process_time() - start, result


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


def time_pbem_cold(board: Board, units: list[Unit], orders: list[tuple[str, str]]) -> tuple[float, Any]:
    board.forget_readings()
    return time_pbem(board, units, orders)


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


def mila_units(game: Any) -> list[tuple[str, str]]:
    return sorted((p, u) for p, us in game.get_units().items() for u in us if not u.startswith("*"))


def mila_codes(game: Any) -> dict[str, list[str]]:
    return {str(u): [str(c) for c in codes] for u, codes in game.result_history.last_value().items()}


def same_outcome(result: PhaseResult, game: Any) -> bool:
    mine = sorted((u.power.upper(), f"{u.kind} {u.loc}") for u in result.units)
    dislodged_mila = sorted(u for u, codes in mila_codes(game).items() if "dislodged" in codes)
    dislodged_mine = sorted(f"{d.unit.kind} {d.unit.loc}" for d in result.dislodged)
    return mine == mila_units(game) and dislodged_mine == dislodged_mila


def explain(board: Board, phase: Phase, result: PhaseResult, game: Any) -> str:
    """Name the known ruling behind a difference, or say it is unexplained.

    Known: MILA treats a convoying fleet as disrupted when an attack on it is
    supported by the fleet's own power, although such support cannot help
    dislodge it (DATC 6.E.12, 6.D.13: support never dislodges one's own unit);
    the fleet stays, and by the rulebook only a dislodged fleet fails to convoy,
    so pbem lets the convoy through (DATC 6.F: convoy disruption is dislodgement).
    """
    units, orders = phase
    at = {u.province: u for u in units}
    dislodged = {d.unit.province for d in result.dislodged}
    for fleet_text, codes in mila_codes(game).items():
        fleet = at[province_of(fleet_text.split()[1])]
        if "disrupted" not in codes or fleet.province in dislodged:
            continue
        own_help = [text for power, text in orders if power == fleet.power
                    and isinstance(o := Order.parse(text, board), Support) and o.dst == fleet.province]
        if own_help:
            return (f"MILA disrupts the convoy of {fleet} because {fleet.power} backs an attack on"
                    f" it ({own_help[0]}); support cannot help dislodge one's own unit (DATC 6.E.12),"
                    " so the fleet stays and, not dislodged, still convoys (pbem)")
    return "UNEXPLAINED"


RATIOS = (("cold", "pbem as cron runs it: every line read afresh (memo emptied)", ">= 20x (the fair one)"),
          ("filling", "a long-running judge's: order memo filling over the series", ""),
          ("warm", "a long-running judge's: every line read before (memo warm)", ""))
"""The cold figure is what a `pbem tick` process pays, so it comes first, with its goal."""
GROWTH_GOAL = 12.0
"""At most this much more time per tenfold more units (the collector on, as in a real run)."""


def compare(n: int, seed: int, rounds: int = 5) -> list[Phase]:
    """Each engine runs the whole series in its own loop, `rounds` times in turn;
    each ratio is the median of the rounds' ratios, so a busy spell on the
    machine during one round sways neither. Then the outcomes are compared."""
    board = standard_board()
    rng = random.Random(seed)
    phases: list[Phase] = []
    for _ in range(n):
        units = random_units(board, rng)
        phases.append((units, random_orders(board, units, rng)))

    def pbem(units: list[Unit], orders: list[tuple[str, str]]) -> tuple[float, Any]:
        return time_pbem(board, units, orders)

    medians: dict[str, list[float]] = {"cold": [], "filling": [], "warm": [], "mila": []}
    for _ in range(rounds):
        cold = series(lambda units, orders: time_pbem_cold(board, units, orders), phases)
        board.forget_readings()
        filling = series(pbem, phases)
        warm = series(pbem, phases)
        games = series(time_mila, phases)
        for key, runs in (("cold", cold), ("filling", filling), ("warm", warm), ("mila", games)):
            medians[key].append(statistics.median(t for t, _ in runs) * 1000)
    differ = [i for i, ((_, r), (_, g)) in enumerate(zip(warm, games, strict=True)) if not same_outcome(r, g)]
    print(f"Standard map, {n} random movement phases (seed {seed}), 20-34 units each; per round the median"
          f" ms/phase of each engine, and the median over {rounds} rounds of each round's ratio")
    print(f"  {'engine':<62}{'ms/phase':>10}{'x MILA':>9}   goal")
    for key, label, goal in RATIOS:
        ratio = statistics.median(m / p for m, p in zip(medians["mila"], medians[key], strict=True))
        print(f"  {label:<62}{statistics.median(medians[key]):>10.3f}{ratio:>8.1f}x   {goal}")
    print(f"  {'diplomacy (MILA)':<62}{statistics.median(medians['mila']):>10.3f}")
    print(f"  same resulting positions: {n - len(differ)}/{n}")
    for i in differ:
        print(f"  phase {i}: {explain(board, phases[i], warm[i][1], games[i][1])}")
    return phases


# ------------------------------------------------------------ growth


def grid_board(side: int) -> Board:
    """A side x side grid of land provinces, each touching its four neighbours,
    held by the seven powers of the standard map."""
    provinces: dict[str, Any] = {}
    for y in range(side):
        for x in range(side):
            near = [f"X{x + dx}Y{y + dy}" for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if 0 <= x + dx < side and 0 <= y + dy < side]
            provinces[f"X{x}Y{y}"] = {"name": f"X{x}Y{y}", "type": "land", "army": near}
    powers = {name: {"adjective": name} for name in POWERS}
    return board_from_data({"name": "grid", "provinces": provinces, "powers": powers})


def grid_phase(board: Board, n_units: int, rng: random.Random) -> Phase:
    """Armies on random provinces: 60% move, the others hold or support a neighbour."""
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


def bare_dictionary(units: list[Unit]) -> float:
    """The machine's own growth: index the units by province and look each up."""
    def run() -> None:
        at = {u.province: u for u in units}
        for u in units:
            at[u.province]
    return series(lambda: timed(run), [()])[0][0]


TIMES = 5


def growth(sizes: list[int], seed: int) -> None:
    """Every size timed TIMES times cold (memo emptied before each run, as a
    cron process meets the phase), the sizes taken in turn within each round so
    a busy spell on the machine falls on all of them; growth is the median of
    each round's ratio to the size below."""
    rng = random.Random(seed)
    built = [(n, *data_size(lambda n=n: grid_case(n, rng))) for n in sizes]
    maps = [(n, board, phase) for n, (board, phase), _ in built]
    footprint = {n: size for n, _, size in built}
    times, bare = time_sizes(maps)
    print(f"\nGenerated grid maps (about half the provinces occupied), one phase each, cold, median of {TIMES}"
          " rounds with the garbage collector on")
    print(f"  {'units':>8}{'provinces':>11}{'data MB':>9}{'ms/phase':>11}{'us/unit':>9}{'growth':>9}"
          f"{'bare dict growth':>18}   goal")
    for i, (n, board, phase) in enumerate(maps):
        elapsed = statistics.median(times[n])
        grow = bare_grow = "-"
        if i:
            grow = f"{_median_ratio(times[n], times[sizes[i - 1]]):.1f}x"
            bare_grow = f"{_median_ratio(bare[n], bare[sizes[i - 1]]):.1f}x"
        goal = f"<= {GROWTH_GOAL:g}x per tenfold" if i else ""
        megabytes = (footprint[n] + data_size(lambda b=board, p=phase: time_pbem_cold(b, *p))[1]) / 1e6
        print(f"  {n:>8}{len(board.provinces):>11}{megabytes:>9.0f}{elapsed * 1000:>11.1f}"
              f"{elapsed / n * 1e6:>9.1f}{grow:>9}{bare_grow:>18}   {goal}")
    print("  (10x more units should cost about 10x the time; the bare dictionary shows how much of")
    print("  any excess is the memory hierarchy: larger tables miss the processor's caches more often;")
    print("  data MB is the map and phase as built plus what adjudicating adds at its peak, to set")
    print(f"  against this processor's last-level cache: {last_level_cache()})")


def data_size(build: Any) -> tuple[Any, int]:
    """What `build` returns, and the bytes it allocated that were still held at its peak."""
    tracemalloc.start()
    try:
        result = build()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def last_level_cache() -> str:
    """The size of the largest cache Linux reports for the first processor, as it reports it."""
    caches = sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*/size"))
    return caches[-1].read_text().strip() if caches else "not reported"


def time_sizes(maps: list[tuple[int, Board, Phase]]) -> tuple[dict[int, list[float]], dict[int, list[float]]]:
    """Seconds per run of each size, cold, and of the bare dictionary of its units."""
    times: dict[int, list[float]] = {n: [] for n, _, _ in maps}
    bare: dict[int, list[float]] = {n: [] for n, _, _ in maps}
    for _ in range(TIMES):
        for n, board, (units, orders) in maps:
            elapsed, result = time_pbem_cold(board, units, orders)   # the collector on, as in a tick
            assert not any(r.result == "invalid" for r in result.orders), "the grid orders must all be legal"
            times[n].append(elapsed)
            bare[n].append(bare_dictionary(units))
    return times, bare


def grid_case(n: int, rng: random.Random) -> tuple[Board, Phase]:
    """A grid with about twice as many provinces as units, and one phase on it."""
    board = grid_board(int((2 * n) ** 0.5) + 1)
    return board, grid_phase(board, n, rng)


def _median_ratio(upper: list[float], lower: list[float]) -> float:
    return statistics.median(a / b for a, b in zip(upper, lower, strict=True))


# ------------------------------------------------------------ the command


def position_file(path: Path, phase: Phase) -> None:
    units, orders = phase
    by_power: dict[str, list[str]] = {}
    for power, text in orders:
        by_power.setdefault(power, []).append(text)
    data = {"variant": "standard", "phase": "movement", "units": [str(u) for u in units], "orders": by_power}
    path.write_text(tomli_w.dumps(data), encoding="utf-8")


def command(phases: list[Phase]) -> None:
    """`pbem adjudicate --json` over every position in one call, and on one file."""
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i, phase in enumerate(phases):
            files.append(Path(tmp) / f"position-{i:04}.toml")
            position_file(files[-1], phase)
        # Bytecode goes to a scratch folder, as an installed package would have it.
        env = {**os.environ, "PYTHONPYCACHEPREFIX": str(Path(tmp) / "pycache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        run = [sys.executable, "-m", "pbem", "adjudicate", "--json"]

        def call(paths: list[Path]) -> tuple[float, str]:
            start = time.perf_counter()
            out = subprocess.run([*run, *map(str, paths)], cwd=ROOT, env=env, check=True,
                                 capture_output=True, text=True).stdout
            return time.perf_counter() - start, out

        call(files[:1])
        one = statistics.median(call(files[:1])[0] for _ in range(5))
        bare = statistics.median(call_bare(env) for _ in range(5))
        elapsed, out = call(files)
    lines = out.splitlines()
    assert len(lines) == len(files) and all(json.loads(line)["units"] for line in lines)
    print(f"\n`pbem adjudicate --json` on {len(files)} position files in one call")
    print(f"  {elapsed:.2f} s: {len(files) / elapsed:.0f} files/s including the start,"
          f" {len(files) / (elapsed - one):.0f} files/s after it")
    print(f"  start (one file): {one * 1000:.0f} ms, of which {bare * 1000:.0f} ms is Python's own start")


def call_bare(env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 positions, maps up to 10,000 units, 100 files")
    parser.add_argument("--seed", type=int, default=1901)
    args = parser.parse_args()
    try:
        import diplomacy  # noqa: F401
    except ImportError:
        print("the benchmark needs the `diplomacy` package: pip install diplomacy", file=sys.stderr)
        return 2
    phases = compare(100 if args.quick else 1000, args.seed)
    growth([1_000, 10_000] if args.quick else [1_000, 10_000, 100_000], args.seed)
    command(phases[: 100 if args.quick else 500])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
