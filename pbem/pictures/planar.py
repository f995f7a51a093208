"""Two tests of plane geometry that drawing outlines and checking them both ask."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.kit.maps import Point


def segments_cross(p: Point, q: Point, r: Point, s: Point) -> bool:
    """Segments pq and rs cross at a point inside both (touching ends do not count)."""
    def turn(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    return turn(p, q, r) * turn(p, q, s) < 0 and turn(r, s, p) * turn(r, s, q) < 0


def inside(point: Point, polygon: Sequence[Point]) -> bool:
    """The point lies inside the polygon (even-odd rule)."""
    x, y = point
    found = False
    for (x0, y0), (x1, y1) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            found = not found
    return found
