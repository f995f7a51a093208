"""Areas around centre points: Voronoi cells (scipy) cut to the points' hull, widened by a margin,
so a map given only as centre points (or laid out from its borders) still shows places as areas."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from pbem.kit.maps import Point

Polygon = list[Point]


def cells(points: Mapping[str, Point], margin: float) -> dict[str, Polygon]:
    """One convex cell per point; together they tile the hull of the points grown by `margin`."""
    from scipy.spatial import Voronoi  # type: ignore[import-untyped]  # only maps given as points need it

    names = list(points)
    if len(names) == 1:
        x, y = points[names[0]]
        return {names[0]: _circle((x, y), margin)}
    hull = _grown_hull(list(points.values()), margin)
    far = _far_ring(list(points.values()), margin)
    diagram = Voronoi([*points.values(), *far])
    out: dict[str, Polygon] = {}
    for i, name in enumerate(names):
        region = diagram.regions[diagram.point_region[i]]
        polygon = [(float(diagram.vertices[v][0]), float(diagram.vertices[v][1])) for v in region if v >= 0]
        out[name] = clip(_ordered(polygon), hull)
    return out


def clip(subject: Polygon, window: Polygon) -> Polygon:
    """Sutherland-Hodgman: `subject` cut to the convex, counter-clockwise `window`."""
    out = subject
    for a, b in zip(window, [*window[1:], window[0]], strict=True):
        if not out:
            break
        src, out = out, []
        for p, q in zip(src, [*src[1:], src[0]], strict=True):
            p_in, q_in = _left(a, b, p) >= 0, _left(a, b, q) >= 0
            if p_in:
                out.append(p)
            if p_in != q_in:
                out.append(_cross(a, b, p, q))
    return out


def _left(a: Point, b: Point, p: Point) -> float:
    return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])


def _cross(a: Point, b: Point, p: Point, q: Point) -> Point:
    da, db = _left(a, b, p), _left(a, b, q)
    t = da / (da - db)
    return (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))


def _ordered(polygon: Polygon) -> Polygon:
    """Counter-clockwise around the centre (Voronoi regions come in either order)."""
    cx = sum(p[0] for p in polygon) / len(polygon)
    cy = sum(p[1] for p in polygon) / len(polygon)
    return sorted(polygon, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))


def _grown_hull(points: Sequence[Point], margin: float) -> Polygon:
    """The convex hull of circles of radius `margin` round the points (as a 16-gon per point)."""
    ring = [(x + margin * math.cos(k * math.pi / 8), y + margin * math.sin(k * math.pi / 8))
            for x, y in points for k in range(16)]
    return hull(ring)


def hull(points: Sequence[Point]) -> Polygon:
    """Andrew's monotone chain, counter-clockwise."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return list(pts)
    lower: Polygon = []
    upper: Polygon = []
    for p in pts:
        while len(lower) >= 2 and _left(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and _left(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _far_ring(points: Sequence[Point], margin: float) -> list[Point]:
    """Points far outside, so that every real point's Voronoi region is bounded."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    radius = max(max(xs) - min(xs), max(ys) - min(ys), margin) * 4 + margin * 4
    return [(cx + radius * math.cos(k * math.pi / 8), cy + radius * math.sin(k * math.pi / 8)) for k in range(16)]


def _circle(centre: Point, radius: float) -> Polygon:
    return [(centre[0] + radius * math.cos(k * math.pi / 8), centre[1] + radius * math.sin(k * math.pi / 8))
            for k in range(16)]
