"""Place outlines read from an SVG drawing: one element per place, its `id` the place's id.

A map file names the drawing in its `[geometry]` table (`svg = "valley.svg"`, beside the map
file); every path, polygon, polyline, rect, circle or ellipse whose id is a place becomes that
place's outline, with the drawing's transforms applied and curves followed by a few corners
each. Other elements (a background, a compass, lettering) are left alone.

svgelements reads the drawing: MIT licence, a pure-Python wheel with no compiled parts, and the
whole of SVG's path grammar, shapes, units and transforms, which a hand-written reader would
get wrong in the corners (arcs, relative commands, nested transforms).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from pathlib import Path

Point = tuple[float, float]   # pbem.kit.maps.Point: the map module imports this one, so the alias is not imported back

SAMPLES = 4
"""Corners along each curved piece of an outline (lines keep their own two)."""


class DrawingError(ValueError):
    """A drawing that cannot give outlines: each problem names the element and says what to do."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


def outlines(path: Path, places: Iterable[str]) -> dict[str, list[Point]]:
    """Each place's outline in the drawing at `path`; raises DrawingError listing every place
    the drawing lacks or cannot give an area, and a drawing that cannot be read."""
    elements = _elements(path)
    wanted = list(places)
    found: dict[str, list[Point]] = {}
    problems: list[str] = []
    for place in wanted:
        element = elements.get(place)
        if element is None:
            problems.append(f'no element with id="{place}" in {path.name}: draw the place as a path, polygon, '
                            f'rect, circle or ellipse with that id')
            continue
        corners, problem = _outline(element)
        if problem:
            problems.append(f'{_tag(element)} id="{place}" in {path.name}: {problem}')
        else:
            found[place] = corners
    if problems:
        raise DrawingError(problems)
    return found


def _elements(path: Path) -> Mapping[str, object]:
    """Every element of the drawing that has an id, by id (transforms applied)."""
    from svgelements import SVG  # type: ignore[import-untyped]  # svgelements ships no type hints

    try:
        drawing = SVG.parse(str(path), reify=True)
    except FileNotFoundError as exc:
        raise DrawingError([f"no such drawing {path}: put the SVG file beside the map file, or fix "
                            f"geometry.svg"]) from exc
    except (OSError, ET.ParseError, ValueError) as exc:
        raise DrawingError([f"{path.name} cannot be read as SVG: {exc}"]) from exc
    return {str(e.id): e for e in drawing.elements() if getattr(e, "id", None)}


def _outline(element: object) -> tuple[list[Point], str]:
    """The corners of an element's largest closed piece, or what is wrong with it."""
    from svgelements import Close, Line, Move, Path, Shape

    if not isinstance(element, Shape):
        return [], "is not a shape; give the id to the path, polygon, rect, circle or ellipse that draws the place"
    pieces: list[list[Point]] = []
    for segment in Path(element):
        if isinstance(segment, Move) or not pieces:
            pieces.append([])
        if isinstance(segment, Move):
            pieces[-1].append((round(float(segment.end.x), 3), round(float(segment.end.y), 3)))
        if isinstance(segment, Close | Move):
            continue
        steps = [1.0] if isinstance(segment, Line) else [k / SAMPLES for k in range(1, SAMPLES + 1)]
        pieces[-1] += [(round(float(p.x), 3), round(float(p.y), 3)) for p in (segment.point(t) for t in steps)]
    pieces = [_without_repeats(p) for p in pieces]
    best = max(pieces, key=_area, default=[])
    if len(best) < 3 or _area(best) <= 0:
        return [], "draws no area (it needs at least three corners not on one line); check its d or points"
    return best, ""


def _without_repeats(corners: list[Point]) -> list[Point]:
    out = [p for i, p in enumerate(corners) if i == 0 or p != corners[i - 1]]
    return out[:-1] if len(out) > 1 and out[0] == out[-1] else out


def _area(corners: list[Point]) -> float:
    if len(corners) < 3:
        return 0.0
    ring = zip(corners, [*corners[1:], corners[0]], strict=True)
    return abs(math.fsum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in ring)) / 2


def _tag(element: object) -> str:
    return f"<{type(element).__name__.lower()}>"
