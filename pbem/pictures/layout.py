"""Where each place is drawn: an area (polygon) and a centre, fitted into the picture's map box.

A map's own geometry wins: hex coordinates, polygons (centred on the map's points when it
gives them, else on their centroids), or centre points alone (whose areas are their Voronoi
cells). A map with none is laid out from its borders (`schematic`), so a game master's own map
still gets a picture.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from pbem.kit.maps import PlaceMap, Point
from pbem.pictures.cells import Polygon, cells

SQRT3 = math.sqrt(3)


@dataclass(frozen=True)
class Shape:
    polygon: Polygon
    centre: Point

    @cached_property
    def grids(self) -> dict[float, dict[tuple[int, int], list[Point]]]:
        """The corners by square, one grid per tolerance asked for (see `shared_border`); drawn
        outlines have dozens of corners, and every border of a picture compares two of them."""
        return {}

    def grid(self, cell: float) -> Mapping[tuple[int, int], list[Point]]:
        if cell not in self.grids:
            self.grids[cell] = _grid(self.polygon, cell)
        return self.grids[cell]


@dataclass(frozen=True)
class Layout:
    shapes: Mapping[str, Shape]
    width: float
    height: float
    size: float                    # a typical place's radius in pixels: scales labels and pieces

    def centre(self, place: str) -> Point:
        return self.shapes[place].centre


def layout(places: PlaceMap, width: float, top: float = 0.0) -> Layout:
    """The map's places fitted into `width` pixels, starting `top` pixels down."""
    shapes = raw_shapes(places)
    return fit(shapes, width, top)


def raw_shapes(places: PlaceMap) -> dict[str, Shape]:
    geometry = places.geometry()
    ids = list(places.places())
    if geometry.hexes and all(p in geometry.hexes for p in ids):
        return {p: hex_shape(*geometry.hexes[p]) for p in ids}
    if geometry.polygons and all(p in geometry.polygons for p in ids):
        return {p: Shape(list(geometry.polygons[p]), geometry.points.get(p) or centroid(geometry.polygons[p]))
                for p in ids}
    points = geometry.points if geometry.points and all(p in geometry.points for p in ids) else schematic(places)
    return point_shapes({p: points[p] for p in ids})


def hex_shape(q: int, r: int) -> Shape:
    """A pointy-top hex of radius 1 at axial (q, r)."""
    cx, cy = SQRT3 * (q + r / 2), 1.5 * r
    corners = [(cx + math.cos(math.radians(60 * k - 30)), cy + math.sin(math.radians(60 * k - 30)))
               for k in range(6)]
    return Shape(corners, (cx, cy))


def point_shapes(points: Mapping[str, Point]) -> dict[str, Shape]:
    margin = typical_gap(list(points.values())) * 0.6
    areas = cells(points, margin)
    return {p: Shape(areas[p], points[p]) for p in points}


def typical_gap(points: Sequence[Point]) -> float:
    """The median distance from a point to its nearest other point (1.0 for a single point).
    A few hundred points are compared pair by pair; past that a k-d tree (scipy, whose import
    alone costs more than the pairs of a shipped map) finds the nearest."""
    if len(points) < 2:
        return 1.0
    if len(points) <= 400:
        gaps = sorted(min(math.dist(p, q) for j, q in enumerate(points) if j != i) for i, p in enumerate(points))
    else:
        from scipy.spatial import cKDTree  # type: ignore[import-untyped]  # scipy ships no type hints

        distances, _ = cKDTree(points).query(points, k=2)
        gaps = sorted(float(d[1]) for d in distances)
    return gaps[len(gaps) // 2] or 1.0


def schematic(places: PlaceMap) -> dict[str, Point]:
    """Centre points laid out from the borders alone. Kamada-Kawai (networkx) keeps graph
    distances as drawn distances, which reads like a map; past 400 places its quadratic cost
    tells, and a force-directed layout (Fruchterman-Reingold, vectorised here: networkx's own
    steps node by node in Python, minutes for 2,000 places) takes over. Both are deterministic."""
    ids = list(places.places())
    pairs = [(e.a, e.b) for e in places.edges()]
    if len(ids) > 400:
        return force_layout(ids, pairs)
    import networkx as nx  # type: ignore[import-untyped]  # networkx ships no type hints

    graph = nx.Graph()
    graph.add_nodes_from(ids)
    graph.add_edges_from(pairs)
    found = nx.kamada_kawai_layout(graph)
    return {str(p): (float(x), float(y)) for p, (x, y) in found.items()}


def force_layout(ids: Sequence[str], pairs: Sequence[tuple[str, str]], steps: int = 60) -> dict[str, Point]:
    """A spectral start (networkx, sparse) refined by Fruchterman-Reingold with numpy, where a
    place is pushed only by its 24 nearest (a k-d tree each round): borders pull neighbours
    together, the step shrinks each round. Deterministic."""
    import networkx as nx
    import numpy as np
    from scipy.spatial import cKDTree

    graph = nx.Graph()
    graph.add_nodes_from(ids)
    graph.add_edges_from(pairs)
    start = nx.spectral_layout(graph)
    index = {p: i for i, p in enumerate(ids)}
    pos = np.array([start[p] for p in ids], dtype=float)
    pos = (pos - pos.min(axis=0)) / max(float(np.ptp(pos)), 1e-9)
    ends = np.array([[index[a], index[b]] for a, b in pairs], dtype=np.intp).reshape(-1, 2)
    near = min(len(ids), 25)
    k, step = 1.0 / np.sqrt(len(ids)), 0.05
    for _ in range(steps):
        _, idx = cKDTree(pos).query(pos, k=near)
        delta = pos[:, None, :] - pos[idx]
        dist2 = np.maximum((delta ** 2).sum(axis=-1), 1e-9)
        push = (delta * (k * k / dist2)[:, :, None]).sum(axis=1)
        pull = pos[ends[:, 0]] - pos[ends[:, 1]]
        pull *= np.sqrt((pull ** 2).sum(axis=1))[:, None] / k
        np.add.at(push, ends[:, 0], -pull)
        np.add.at(push, ends[:, 1], pull)
        length = np.maximum(np.sqrt((push ** 2).sum(axis=1)), 1e-9)
        pos += push * (np.minimum(length, step) / length)[:, None]
        step *= 0.95
    return {p: (float(pos[i, 0]), float(pos[i, 1])) for p, i in index.items()}


def centroid(polygon: Sequence[Point]) -> Point:
    """The area centroid (the mean of the corners for a degenerate polygon)."""
    area = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        w = x0 * y1 - x1 * y0
        area += w
        cx += (x0 + x1) * w
        cy += (y0 + y1) * w
    if abs(area) < 1e-12:
        return (sum(p[0] for p in polygon) / len(polygon), sum(p[1] for p in polygon) / len(polygon))
    return (cx / (3 * area), cy / (3 * area))


def fit(shapes: Mapping[str, Shape], width: float, top: float) -> Layout:
    """Scale and shift map units to pixels: `width` wide, at most as tall as wide."""
    xs = [x for s in shapes.values() for x, _ in s.polygon]
    ys = [y for s in shapes.values() for _, y in s.polygon]
    span_x, span_y = max(xs) - min(xs) or 1.0, max(ys) - min(ys) or 1.0
    scale = min(width / span_x, width / span_y)
    dx = (width - span_x * scale) / 2 - min(xs) * scale
    dy = top - min(ys) * scale

    def move(p: Point) -> Point:
        return (round(p[0] * scale + dx, 1), round(p[1] * scale + dy, 1))

    out = {k: Shape([move(p) for p in s.polygon], move(s.centre)) for k, s in shapes.items()}
    size = typical_gap([s.centre for s in out.values()]) / 2
    return Layout(out, width, span_y * scale, size)


def shared_border(a: Shape, b: Shape, tolerance: float = 0.6) -> list[Point]:
    """The corners two areas share, in `a`'s order: the border drawn between them ([] if none)."""
    cell = max(tolerance, 1e-9)
    near = b.grid(cell)
    common = [p for p in a.polygon if _close(p, near, cell)]
    if len(common) < 2:
        return []
    idx = [a.polygon.index(p) for p in common]
    n = len(a.polygon)
    # rotate so a run that wraps past the last corner stays in one piece
    gaps = [(idx[(i + 1) % len(idx)] - idx[i]) % n for i in range(len(idx))]
    start = (gaps.index(max(gaps)) + 1) % len(idx)
    return common[start:] + common[:start]


def _grid(points: Sequence[Point], tolerance: float) -> dict[tuple[int, int], list[Point]]:
    """Points by square of side twice the tolerance, each point in every square its circle of
    radius `tolerance` reaches (four, a few more where rounding widens the span): the points
    near another are then in its own square, found by one look-up instead of a look at every
    corner of a drawn outline."""
    cell = 2 * tolerance
    grid: dict[tuple[int, int], list[Point]] = {}
    for p in points:
        xs = range(math.floor((p[0] - tolerance) / cell), math.floor((p[0] + tolerance) / cell) + 1)
        ys = range(math.floor((p[1] - tolerance) / cell), math.floor((p[1] + tolerance) / cell) + 1)
        for square in itertools.product(xs, ys):     # a range, not the two ends: rounding may skip one
            grid.setdefault(square, []).append(p)
    return grid


def _close(p: Point, grid: Mapping[tuple[int, int], list[Point]], tolerance: float) -> bool:
    near = grid.get((math.floor(p[0] / (2 * tolerance)), math.floor(p[1] / (2 * tolerance))), ())
    return any(math.dist(p, q) <= tolerance for q in near)
