"""Benchmark: what a map picture costs, and how large its PNG is.

    python bench/pictures.py            # 9 runs of each (a busy spell on a shared machine sways a median of 5)
    python bench/pictures.py --runs 3
    python bench/pictures.py --shipped  # the shipped maps only

For each shipped map (with every place owned by one of eight sides and a piece in every
fourth place) and for generated maps of 2,000 places (hexes; centre points, whose areas are
Voronoi cells; and, with --schematic, no geometry at all, laid out from the borders) it prints
the median time to draw the SVG, to rasterise it (resvg, raw pixels) and to reduce the pixels to an
adaptive palette of at most 256 colours written as a PNG, and the sizes: SVG, resvg's raw RGBA
pixels and the mailed indexed PNG. Each step is timed on its own, past the memo that `png` keeps. The picture
path (rasterise + palette, what a resolved stage costs once: every mail, post, `pbem render` and
the archive then share it) is timed as one step and printed as wall time and as this process's
CPU time (steadier on a busy machine) with its goal beside it: under 60 ms for each shipped map;
the last line says whether the slowest shipped map meets it. The fastest run is printed too: on a
shared machine the same work takes a third longer in a busy spell, and the fastest run is what
the code costs without one.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem.kit import maps as kitmaps
from pbem.kit.hexes import load_hexmap
from pbem.kit.maps import Edge, Geometry, PlaceMap
from pbem.kit.territories import load_map
from pbem.pictures import Piece, Scene, Side, draw
from pbem.pictures.raster import fewer_colours, rasterise
from pbem.rulesets.diplomacy.board import standard_board

MAPS = Path(__file__).resolve().parents[1] / "rules" / "maps"
GOAL_PATH_MS = 60.0


class Generated:
    """A map of n places on a square-ish hex grid; drawn from hexes, points or nothing."""

    def __init__(self, n: int, drawn_as: str) -> None:
        self.name = f"generated {n} ({drawn_as})"
        side = int(n ** 0.5) + 1
        self.cells = {f"P{i}": (i % side - (i // side) // 2, i // side) for i in range(n)}
        at = {qr: p for p, qr in self.cells.items()}
        steps = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
        self.near = {p: frozenset(at[(q + dq, r + dr)] for dq, dr in steps if (q + dq, r + dr) in at)
                     for p, (q, r) in self.cells.items()}
        jitter = random.Random(15)
        points = {p: (3 ** 0.5 * (q + r / 2) + jitter.uniform(-0.3, 0.3), 1.5 * r + jitter.uniform(-0.3, 0.3))
                  for p, (q, r) in self.cells.items()}
        self._geometry = {"hexes": Geometry(hexes=self.cells), "points": Geometry(points=points)}.get(
            drawn_as, Geometry())

    def places(self) -> Sequence[str]:
        return list(self.cells)

    def lookup(self, text: str) -> str:
        return text

    def name_of(self, place: str) -> str:
        return place

    def label(self, place: str) -> str:
        return place

    def neighbours(self, place: str) -> frozenset[str]:
        return self.near[place]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.near[a]

    def terrain(self, place: str) -> str:
        return ("clear", "woods", "hills", "swamp")[int(place[1:]) % 4]

    def features(self, place: str) -> frozenset[str]:
        return frozenset({"stronghold"}) if int(place[1:]) % 50 == 0 else frozenset()

    def edges(self) -> Iterable[Edge]:
        return [Edge(a, b, frozenset({"road"}) if (int(a[1:]) + int(b[1:])) % 9 == 0 else frozenset())
                for a in self.cells for b in self.near[a] if a < b]

    def geometry(self) -> Geometry:
        return self._geometry


def scene_for(places: PlaceMap) -> Scene:
    ids = list(places.places())
    sides = tuple(Side(f"S{i}", f"Side {i}") for i in range(8))
    owners = {p: f"S{i % 8}" for i, p in enumerate(ids)}
    pieces = tuple(Piece(f"S{i % 8}-{i}", p, f"S{i % 8}") for i, p in enumerate(ids) if i % 4 == 0)
    return Scene(f"{places.name}", "benchmark", sides, owners, pieces)


def median(step: Callable[[], object], runs: int) -> tuple[float, object, float, float]:
    """Median wall seconds, the step's result, median CPU seconds, and the fastest run's wall
    seconds (what the step costs when nothing else on the machine slows it)."""
    times, cpu, result = [], [], None
    for _ in range(runs):
        start, used = time.perf_counter(), time.process_time()
        result = step()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - used)
    return statistics.median(times), result, statistics.median(cpu), min(times)


def shipped_maps() -> list[PlaceMap]:
    """Every map pbem ships: rules/maps/ and the folders rule systems keep their own maps in."""
    out: list[PlaceMap] = [load_map(MAPS / "rift_valley.toml"), standard_board("standard")]
    out += [load_hexmap(MAPS / f"{name}.toml") for name in ("three_crowns", "four_marches", "six_thrones")]
    drawn = {"rift_valley", "standard", "three_crowns", "four_marches", "six_thrones"}
    others = [MAPS / f"{name}.toml" for name in kitmaps.ready_made() if name not in drawn]
    others += sorted((MAPS / "wandering_tribes").glob("*.toml"))
    others.append(MAPS.parent / "star_wars_miniatures" / "ten_factions.toml")
    return out + [kitmaps.load(path) for path in others]


def maps(schematic: bool) -> list[PlaceMap]:
    out = [*shipped_maps(), Generated(2000, "hexes"), Generated(2000, "points")]
    return out + ([Generated(2000, "none")] if schematic else [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--schematic", action="store_true", help="also a 2,000-place map laid out from its borders")
    parser.add_argument("--shipped", action="store_true", help="only the shipped maps (no generated 2,000-place ones)")
    args = parser.parse_args()
    draw(maps(False)[0], Scene("warm-up"))        # imports (scipy) once, outside the timings
    print(f"{'map':<32} {'places':>6} {'draw ms':>8} {'resvg ms':>8} {'palette ms':>10} {'path ms':>8} "
          f"{'path CPU ms':>11} {'fastest':>7} {'goal':>7} {'SVG KB':>7} {'RGBA KB':>7} {'PNG KB':>7}")
    shipped: list[tuple[float, float, float]] = []
    count = len(shipped_maps())
    for number, places in enumerate(shipped_maps() if args.shipped else maps(args.schematic)):
        scene = scene_for(places)
        draw_time, svg, _, _ = median(lambda p=places, s=scene: draw(p, s), args.runs)
        raster_time, pixels, _, _ = median(lambda s=svg: rasterise(str(s)), args.runs)
        palette_time, data, _, _ = median(lambda d=pixels: fewer_colours(d), args.runs)  # type: ignore[arg-type]
        path_time, _, path_cpu_time, fastest = median(lambda s=svg: fewer_colours(rasterise(str(s))), args.runs)
        path, path_cpu = path_time * 1000, path_cpu_time * 1000
        goal = f"<{GOAL_PATH_MS:.0f}" if number < count else ""
        if number < count:
            shipped.append((path, path_cpu, fastest * 1000))
        print(f"{places.name:<32} {len(places.places()):>6} {draw_time * 1000:>8.0f} {raster_time * 1000:>8.0f} "
              f"{palette_time * 1000:>10.0f} {path:>8.0f} {path_cpu:>11.0f} {fastest * 1000:>7.0f} {goal:>7} "
              f"{len(str(svg)) / 1024:>7.0f} {len(pixels.rgba) / 1024:>7.0f} "  # type: ignore[union-attr]
              f"{len(bytes(data)) / 1024:>7.0f}", flush=True)  # type: ignore[arg-type]
    worst, worst_cpu, worst_fastest = (max(column) for column in zip(*shipped, strict=True))
    verdict = {True: "met", False: "NOT met"}
    print(f"shipped maps, picture path (median of {args.runs}), the slowest: {worst:.0f} ms wall "
          f"({verdict[worst < GOAL_PATH_MS]}), {worst_cpu:.0f} ms CPU ({verdict[worst_cpu < GOAL_PATH_MS]}); "
          f"goal under {GOAL_PATH_MS:.0f} ms; {worst_fastest:.0f} ms in the slowest map's fastest run")


if __name__ == "__main__":
    main()
