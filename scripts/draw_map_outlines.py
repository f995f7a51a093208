"""Draw the outlines of the shipped territory maps and write them into the map files (run once,
and again whenever a map's places or borders change): `python3 scripts/draw_map_outlines.py`.

Each place starts as a centre point: Rift Valley from its own plan (rings round the Rift Maw,
each listed clockwise from the north, see the map's header), the standard Diplomacy map from
an approximate longitude and latitude of each province's middle, projected flat (a few moved so
that no two straight borders between centres cross). The borders then make a plane graph, and
each place's outline is its cell in the graph's dual:

- two neighbours share the border that runs from the middle of one face they bound, through the
  midpoint between their centres, to the middle of the other face; so places touch along a line
  exactly when the map makes them neighbours;
- a face with more than three corners gets one middle point, where all its places meet at a
  point only (places that are not neighbours never share a line);
- the map's edge is a ring of extra faces just outside the outer places.

Every border is then roughened by a seeded midpoint displacement (the same for both sides, so
shared borders stay shared), less where that would make two borders cross or leave a centre
outside its place.
"""

from __future__ import annotations

import itertools
import math
import random
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem.kit.maps import load  # the checkout's own pbem, not an installed one
from pbem.pictures.planar import inside, segments_cross

MAPS = Path(__file__).resolve().parents[1] / "rules" / "maps"
HEADER = "# Outlines for the map pictures (written by scripts/draw_map_outlines.py; map units, y down)."
WIDTH = 1000.0          # map units across the map's centre points

Point = tuple[float, float]

# Rift Valley: (first id, count, radius) of each ring; T1 sits in the middle.
RIFT_RINGS = ((2, 6, 1.0), (8, 16, 2.05), (24, 32, 3.15))

# Standard map: longitude, latitude (degrees) near each province's middle.
EUROPE = {
    "ADR": (15.5, 43.0), "AEG": (25.0, 38.5), "ALB": (20.0, 41.0), "ANK": (33.0, 40.5), "APU": (16.5, 41.2),
    "ARM": (43.0, 40.0), "BAL": (18.0, 56.0), "BAR": (35.0, 72.5), "BEL": (4.5, 50.6), "BER": (13.4, 52.8),
    "BLA": (34.0, 43.5), "BOH": (14.5, 49.8), "BOT": (20.0, 62.0), "BRE": (-3.0, 48.0), "BUD": (19.5, 47.3),
    "BUL": (25.0, 42.7), "BUR": (4.8, 47.0), "CLY": (-4.8, 57.2), "CON": (28.5, 41.2), "DEN": (10.0, 56.0),
    "EAS": (32.0, 34.0), "EDI": (-2.6, 56.3), "ENG": (-2.5, 50.0), "FIN": (26.0, 63.0), "GAL": (23.0, 49.5),
    "GAS": (0.0, 44.5), "GRE": (22.0, 39.5), "HEL": (7.2, 54.6), "HOL": (5.5, 52.3), "ION": (18.0, 36.5),
    "IRI": (-6.5, 53.0), "KIE": (9.8, 53.0), "LON": (0.2, 51.6), "LVN": (25.0, 57.0), "LVP": (-3.2, 54.0),
    "LYO": (5.0, 42.2), "MAO": (-16.0, 45.0), "MAR": (5.0, 44.0), "MOS": (38.0, 55.0), "MUN": (11.0, 48.5),
    "NAF": (2.0, 33.5), "NAO": (-22.0, 57.0), "NAP": (15.8, 40.0), "NTH": (3.0, 56.0), "NWG": (5.0, 66.0),
    "NWY": (10.0, 61.0), "PAR": (2.3, 48.5), "PIC": (2.0, 50.2), "PIE": (7.8, 45.0), "POR": (-8.0, 40.0),
    "PRU": (20.0, 54.0), "ROM": (12.8, 42.0), "RUH": (7.5, 51.0), "RUM": (25.5, 45.5), "SER": (21.0, 44.0),
    "SEV": (36.0, 47.0), "SIL": (17.0, 51.0), "SKA": (10.5, 58.0), "SMY": (29.0, 38.5), "SPA": (-4.0, 40.5),
    "STP": (33.0, 62.0), "SWE": (15.0, 61.0), "SYR": (38.0, 36.0), "TRI": (15.0, 45.5), "TUN": (9.5, 35.0),
    "TUS": (11.0, 43.6), "TYR": (12.0, 47.2), "TYS": (11.5, 40.0), "UKR": (32.0, 49.0), "VEN": (12.0, 45.4),
    "VIE": (16.4, 48.0), "WAL": (-3.8, 52.0), "WAR": (21.0, 52.0), "WES": (-1.0, 38.0), "YOR": (-1.3, 54.0),
}
# Moved from their geographic middles so that straight lines between neighbours' centres never
# cross: the Adriatic reaches the Ionian east of Apulia, Finland meets Sweden north of the Gulf
# of Bothnia and Norway meets St Petersburg north of both, the Channel meets the North Sea east
# of London, the Mid-Atlantic meets the Western Mediterranean south of Iberia; and Britain is
# widened so that its small provinces are not slivers.
EUROPE_MOVED = {
    "ADR": (17.0, 43.5), "FIN": (26.5, 65.0), "SWE": (15.5, 63.0), "BOT": (20.5, 61.0),
    "NWY": (13.0, 67.5), "STP": (35.0, 65.5), "NWG": (3.0, 69.0), "BAR": (36.0, 74.0),
    "WES": (-2.0, 36.5), "MAO": (-14.0, 42.5), "POR": (-8.5, 40.5),
    "SPA": (-4.0, 41.0),
    # Britain widened, as on a board, with the Irish Sea and the Channel moved aside for it
    "CLY": (-6.0, 57.5), "EDI": (-1.8, 57.0), "LVP": (-5.0, 54.5), "YOR": (-0.8, 54.5),
    "WAL": (-5.5, 52.2), "LON": (-0.5, 51.9), "IRI": (-9.0, 53.5), "ENG": (-1.0, 49.8), "PIC": (2.2, 49.9),
}


def rift_points() -> dict[str, Point]:
    points = {"T1": (0.0, 0.0)}
    for first, count, radius in RIFT_RINGS:
        for i in range(count):
            angle = 2 * math.pi * i / count          # clockwise from the north
            points[f"T{first + i}"] = (radius * math.sin(angle), -radius * math.cos(angle))
    return points


def europe_points() -> dict[str, Point]:
    """Projected flat, then magnified towards the middle of the board (as a player's map is:
    the crowded west and centre larger, the wide east and north smaller)."""
    squash = math.cos(math.radians(50))              # a degree of longitude at 50 N
    where = EUROPE | EUROPE_MOVED
    flat = {p: ((lon - 8) * squash, 50 - lat) for p, (lon, lat) in where.items()}
    return {p: (x * _lens(x, y), y * _lens(x, y)) for p, (x, y) in flat.items()}


def _lens(x: float, y: float) -> float:
    return (math.hypot(x, y) + 1.0) ** -0.3


def scaled(points: Mapping[str, Point]) -> dict[str, Point]:
    """Shifted to start at (0, 0) and scaled to WIDTH map units across."""
    xs, ys = [p[0] for p in points.values()], [p[1] for p in points.values()]
    k = WIDTH / (max(xs) - min(xs))
    return {n: ((x - min(xs)) * k, (y - min(ys)) * k) for n, (x, y) in points.items()}


# -- the plane graph and its faces -------------------------------------------------------------
class Plane:
    """Centre points and the straight borders between them, with the faces they make."""

    def __init__(self, points: Mapping[str, Point], pairs: Sequence[tuple[str, str]]) -> None:
        self.points = dict(points)
        self.links: dict[str, set[str]] = {p: set() for p in points}
        for a, b in pairs:
            self.links[a].add(b)
            self.links[b].add(a)
        self.faces()

    def link(self, a: str, b: str) -> None:
        self.links.setdefault(a, set()).add(b)
        self.links.setdefault(b, set()).add(a)

    def faces(self) -> None:
        """Trace every face; `face_of[(u, v)]` is the face on one fixed side of u -> v."""
        self.order = {v: sorted(ns, key=lambda n, v=v: _angle(self.points[v], self.points[n]))
                      for v, ns in self.links.items()}
        self.face_of: dict[tuple[str, str], int] = {}
        self.walks: list[list[str]] = []
        for start in ((u, v) for u in self.order for v in self.order[u]):
            if start in self.face_of:
                continue
            walk, (u, v) = [], start
            while (u, v) not in self.face_of:
                self.face_of[(u, v)] = len(self.walks)
                walk.append(u)
                around = self.order[v]
                u, v = v, around[(around.index(u) - 1) % len(around)]
            self.walks.append(walk)

    def area(self, face: int) -> float:
        return _area([self.points[p] for p in self.walks[face]])


def _normal(a: Point, b: Point, side: float) -> Point:
    """The unit vector square to a -> b, on `side` (1: where a counter-clockwise face lies)."""
    length = math.dist(a, b)
    return (-(b[1] - a[1]) / length * side, (b[0] - a[0]) / length * side)


def _outside(plane: Plane, name: str, u: str, normal: Point, margin: float, v: str = "") -> str:
    """A corner `margin` outside u (or outside the middle of u-v), joined to them."""
    at = _mean([plane.points[u], plane.points[v]]) if v else plane.points[u]
    reach = min(margin, math.dist(plane.points[u], plane.points[v]) * 0.45) if v else margin
    plane.points[name] = (at[0] + normal[0] * reach, at[1] + normal[1] * reach)
    for end in (u, v) if v else (u,):
        plane.link(name, end)
    return name


def _angle(a: Point, b: Point) -> float:
    return math.atan2(b[1] - a[1], b[0] - a[0])


def _area(polygon: Sequence[Point]) -> float:
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(polygon, [*polygon[1:], polygon[0]], strict=True)) / 2


def add_edge_ring(plane: Plane, margin: float) -> None:
    """Extra corners just outside every border of the outer face, joined in a ring, so outer
    places get an edge of their own; then the faces again."""
    areas = [plane.area(f) for f in range(len(plane.walks))]
    outer = max(range(len(areas)), key=lambda f: abs(areas[f]))     # it encloses all the others
    side = 1.0 if areas[outer] < 0 else -1.0        # the side of its borders the face lies on
    walk = plane.walks[outer]
    normals = [_normal(plane.points[u], plane.points[v], side) for u, v in zip(walk, [*walk[1:], walk[0]], strict=True)]
    ring: list[str] = []
    for i, u in enumerate(walk):
        v = walk[(i + 1) % len(walk)]
        bx, by = normals[i - 1][0] + normals[i][0], normals[i - 1][1] + normals[i][1]
        corner = (bx / math.hypot(bx, by), by / math.hypot(bx, by))      # half way between the two
        ring += [_outside(plane, f"~{i}", u, corner, margin), _outside(plane, f"~{i}m", u, normals[i], margin, v)]
    for a, b in zip(ring, [*ring[1:], ring[0]], strict=True):
        plane.link(a, b)
    plane.faces()


# -- outlines ----------------------------------------------------------------------------------
def face_points(plane: Plane) -> dict[int, Point]:
    """Where the places round each face meet: a triangle's centroid, or a point inside the
    part of a larger face from which all its corners are seen."""
    out: dict[int, Point] = {}
    for face, walk in enumerate(plane.walks):
        if all(p.startswith("~") for p in walk):
            continue
        corners = [plane.points[p] for p in walk]
        if _area(corners) < 0:
            corners.reverse()
        seen = _kernel(corners)
        if not seen:
            raise SystemExit(f"face {walk}: no point sees every corner; move a centre point")
        out[face] = _mean(seen) if len(corners) > 3 else _mean(corners)
    return out


def _kernel(polygon: list[Point]) -> list[Point]:
    """The polygon's kernel (the points that see all of it), by cutting a large box by each side."""
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    big = 10 * (max(xs) - min(xs) + max(ys) - min(ys))
    region = [(min(xs) - big, min(ys) - big), (max(xs) + big, min(ys) - big),
              (max(xs) + big, max(ys) + big), (min(xs) - big, max(ys) + big)]
    for a, b in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        region = _cut(region, a, b) if region else region
    return region


def _cut(region: list[Point], a: Point, b: Point) -> list[Point]:
    def side(p: Point) -> float:
        return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])

    out: list[Point] = []
    for p, q in zip(region, [*region[1:], region[0]], strict=True):
        sp, sq = side(p), side(q)
        if sp >= 0:
            out.append(p)
        if (sp >= 0) != (sq >= 0):
            t = sp / (sp - sq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def _mean(points: Sequence[Point]) -> Point:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def borders(plane: Plane, middles: Mapping[int, Point], seed: str,
            rough: Mapping[tuple[str, str], float]) -> dict[tuple[str, str], list[Point]]:
    """Each border once, keyed (u, v) with u < v: from the middle of the face on one side,
    through the midpoint of u-v, to the middle of the face on the other, roughened (by 0.12
    unless `rough` says less)."""
    out: dict[tuple[str, str], list[Point]] = {}
    for u in plane.order:
        for v in plane.order[u]:
            if u >= v or (u.startswith("~") and v.startswith("~")):
                continue
            mid = _mean([plane.points[u], plane.points[v]])
            line = [middles[plane.face_of[(u, v)]], mid, middles[plane.face_of[(v, u)]]]
            out[(u, v)] = _roughen(line, random.Random(f"{seed}:{u}:{v}"), rough.get((u, v), 0.12))
    return out


def _roughen(line: list[Point], dice: random.Random, rough: float, levels: int = 2) -> list[Point]:
    """Midpoint displacement: each segment bent sideways by up to `rough` of its length."""
    for _ in range(levels):
        out = [line[0]]
        for p, q in itertools.pairwise(line):
            length = math.dist(p, q)
            shift = dice.uniform(-rough, rough) * length
            nx, ny = -(q[1] - p[1]) / length, (q[0] - p[0]) / length
            out += [((p[0] + q[0]) / 2 + nx * shift, (p[1] + q[1]) / 2 + ny * shift), q]
        line = out
    return [(round(x, 1), round(y, 1)) for x, y in line]


def outline(plane: Plane, lines: Mapping[tuple[str, str], list[Point]], place: str) -> list[Point]:
    """The place's borders in turn round it, each from the face before a neighbour to the face after."""
    out: list[Point] = []
    for n in plane.order[place]:
        line = lines[(n, place)] if n < place else lines[(place, n)][::-1]
        out += line[:-1]
    return out


def draw(points: Mapping[str, Point], pairs: Sequence[tuple[str, str]], seed: str) -> dict[str, list[Point]]:
    plane = Plane(points, pairs)
    crossing = _crossings(plane)
    if crossing:
        raise SystemExit(f"straight borders cross: {crossing}; move a centre point")
    add_edge_ring(plane, margin=_typical_gap(points) * 0.55)
    middles = face_points(plane)
    rough: dict[tuple[str, str], float] = {}
    for _ in range(6):                              # calm the borders that cross, until none do
        lines = borders(plane, middles, seed, rough)
        shapes = {p: outline(plane, lines, p) for p in points}
        crossing = [e for pair in _crossings_of(lines) for e in pair]
        crossing += [e for p in points if not inside(points[p], shapes[p]) for e in lines if p in e]
        if not crossing:
            return shapes
        rough |= {e: rough.get(e, 0.12) / 2 for e in crossing}
    raise SystemExit(f"roughened borders still cross: {crossing[:6]}")




def _typical_gap(points: Mapping[str, Point]) -> float:
    gaps = sorted(min(math.dist(p, q) for m, q in points.items() if m != n) for n, p in points.items())
    return gaps[len(gaps) // 2]


def _crossings(plane: Plane) -> list[tuple[str, ...]]:
    segments = {(a, b): (plane.points[a], plane.points[b]) for a in plane.links for b in plane.links[a] if a < b}
    return [(*e, *f) for (e, s), (f, t) in itertools.combinations(segments.items(), 2)
            if not set(e) & set(f) and segments_cross(*s, *t)]


def _crossings_of(lines: Mapping[tuple[str, str], list[Point]]) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """Pairs of borders whose segments cross anywhere but at shared ends."""
    found = []
    for (e, a), (f, b) in itertools.combinations(lines.items(), 2):
        if any(segments_cross(p, q, r, s) for p, q in itertools.pairwise(a) for r, s in itertools.pairwise(b)):
            found.append((e, f))
    return found




# -- writing -----------------------------------------------------------------------------------
def write(path: Path, points: Mapping[str, Point], shapes: Mapping[str, list[Point]]) -> None:
    """Replace the file's geometry tables (everything from the header down)."""
    text = path.read_text(encoding="utf-8")
    text = re.split(r"\n*" + re.escape(HEADER), text)[0]
    centres = "\n".join(f"{p} = [{x:.1f}, {y:.1f}]" for p, (x, y) in points.items())
    outlines = "\n".join(f'{p} = "{" ".join(f"{x},{y}" for x, y in shapes[p])}"' for p in points)
    note = "# points: where labels and pieces go; polygons: each place's outline, as corners \"x,y x,y ...\"."
    path.write_text(f"{text.rstrip()}\n\n{HEADER}\n{note}\n"
                    f"[geometry.points]\n{centres}\n\n[geometry.polygons]\n{outlines}\n", encoding="utf-8")


def redraw(name: str, points: Mapping[str, Point]) -> None:
    path = MAPS / f"{name}.toml"
    places = load(path)
    centres = scaled(points)
    pairs = [(e.a, e.b) for e in places.edges()]
    write(path, centres, draw(centres, pairs, seed=name))


def main() -> None:
    redraw("rift_valley", rift_points())
    redraw("standard", europe_points())


if __name__ == "__main__":
    main()
