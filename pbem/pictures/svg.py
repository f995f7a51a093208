"""A map picture as SVG: areas coloured by owner (with a pattern per side, for grey print),
borders with rivers and roads, features, place ids, clashes, move arrows, pieces with their ids,
a title and a legend. Drawn from a `PlaceMap` and a `Scene` alone.

Every element a reader (or a test) looks for carries data attributes: `data-place` and
`data-owner` on areas, `data-id` on pieces, `data-from`/`data-to` on arrows.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from pbem.kit.maps import PlaceMap, Point
from pbem.kit.scene import Clash, Move, Piece, Scene
from pbem.pictures import palette, placement, still
from pbem.pictures.layout import Layout, Shape, layout, shared_border
from pbem.pictures.legend import legend
from pbem.pictures.marks import ARROWS, BORDERS, CLASHES, FAILED_DASHES, oneway_tip
from pbem.pictures.placement import ASCENT, HALO, Box, Placed, clash_radius, font_size

WIDTH = 800
MARGIN = 12
TITLE_HEIGHT = 52
FONT = "DejaVu Sans"


@dataclass(frozen=True)
class Style:
    """Colours and patterns the scene's sides get, by side id."""

    colours: dict[str, str]
    patterns: dict[str, str]

    @classmethod
    def of(cls, scene: Scene) -> Style:
        asked = [palette.colour_of(s.colour, i) for i, s in enumerate(scene.sides)]
        colours = palette.distinct(asked)
        return cls({s.id: c for s, c in zip(scene.sides, colours, strict=True)},
                   {s.id: palette.pattern_of(i) for i, s in enumerate(scene.sides)})

    def area(self, owner: str) -> str:
        return palette.tint(self.colours[owner])


@dataclass(frozen=True)
class Base:
    """What the picture of a map draws the same whatever the scene (pbem/pictures/still.py)."""

    where: Layout
    borders: str
    """The borders group, whole."""
    outlines: dict[str, str]
    """Each area's outline, as a path's `d`."""


def draw(places: PlaceMap, scene: Scene, width: int = WIDTH) -> str:
    """The picture of `scene` on `places`, as an SVG document."""
    style = Style.of(scene)
    base = still.kept(places, width, lambda: _base(places, width))
    where = base.where
    top = TITLE_HEIGHT + where.height + MARGIN
    placed = placement.place(places, scene, where, bounds(width, top))
    key, key_height = legend(places, scene, style.colours, style.patterns, width, top)
    height = math.ceil(top + key_height + MARGIN)
    parts = [
        _head(width, height, style),
        _group("areas", _areas(places, scene, base.outlines, style)),
        base.borders,
        _group("labels", _labels(placed, where)),
        _group("clashes", (_clash(p, where) for p in placed if p.kind == "clash")),
        _group("moves", (_arrow(m, where, i) for i, m in enumerate(scene.moves)
                         if m.start in where.shapes and m.end in where.shapes)),
        _group("pieces", (_badge(p, where, style) for p in placed if p.kind == "badge")),
        _title(scene, width),
        key,
        "</svg>\n",
    ]
    return "\n".join(parts)


def _base(places: PlaceMap, width: int) -> Base:
    fitted = layout(places, width - 2 * MARGIN, TITLE_HEIGHT)
    where = Layout({k: Shape([(x + MARGIN, y) for x, y in s.polygon], (s.centre[0] + MARGIN, s.centre[1]))
                    for k, s in fitted.shapes.items()}, width, fitted.height, fitted.size)
    outlines = {place: _path(shape.polygon) for place, shape in where.shapes.items()}
    return Base(where, _group("borders", _borders(places, where)), outlines)


def _head(width: int, height: int, style: Style) -> str:
    defs = "".join(f"{_pattern(side, kind)}\n" for side, kind in style.patterns.items() if kind)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="{FONT}">\n<defs>\n{defs}{_markers()}\n</defs>\n'
            f'<rect width="{width}" height="{height}" fill="#ffffff"/>')


def _pattern(side: str, kind: str) -> str:
    ink = 'stroke="#000000" stroke-opacity="0.45" stroke-width="1.2" fill="none"'
    shapes = {
        "hatch": f'<path d="M0,8 L8,0" {ink}/>',
        "dots": '<circle cx="4" cy="4" r="1.3" fill="#000000" fill-opacity="0.45"/>',
        "cross": f'<path d="M0,8 L8,0 M0,0 L8,8" {ink}/>',
        "vertical": f'<path d="M4,0 L4,8" {ink}/>',
        "horizontal": f'<path d="M0,4 L8,4" {ink}/>',
        "rings": f'<circle cx="4" cy="4" r="2.2" {ink}/>',
        "zigzag": f'<path d="M0,6 L2,2 L4,6 L6,2 L8,6" {ink}/>',
    }
    return (f'<pattern id={quoteattr("pat-" + side)} width="8" height="8" patternUnits="userSpaceOnUse">'
            f'{shapes[kind]}</pattern>')


def _markers() -> str:
    tips = {
        "arrow": '<path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/>',
        "dot": '<circle cx="5" cy="5" r="4" fill="context-stroke"/>',
        "diamond": '<path d="M0,5 L5,0 L10,5 L5,10 z" fill="context-stroke"/>',
    }
    return "\n".join(
        f'<marker id="tip-{name}-{colour[1:]}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
        f'markerHeight="5" orient="auto-start-reverse">{tip.replace("context-stroke", colour)}</marker>'
        for name, tip in tips.items() for colour in sorted({a[0] for a in ARROWS.values()}))


def _group(name: str, items: Iterable[str]) -> str:
    return f'<g id="{name}">\n' + "\n".join(items) + "\n</g>"


def _path(points: list[Point], closed: bool = True) -> str:
    head, *rest = points
    return f"M{head[0]},{head[1]} " + " ".join(f"L{x},{y}" for x, y in rest) + (" Z" if closed else "")


def _areas(places: PlaceMap, scene: Scene, outlines: dict[str, str], style: Style) -> Iterable[str]:
    for place in places.places():
        owner = scene.owners.get(place, "")
        owner = owner if owner in style.colours else ""
        fill = style.area(owner) if owner else palette.terrain_fill(places.terrain(place))
        d = outlines[place]
        over = f'<path d="{d}" fill="url(#pat-{escape(owner)})"/>' if owner and style.patterns[owner] else ""
        yield (f'<g class="place" data-place={quoteattr(place)} data-owner={quoteattr(owner)}>'
               f'<title>{escape(places.label(place))}</title>'
               f'<path d="{d}" fill="{fill}" stroke="#6b6b6b" stroke-width="0.8"/>{over}</g>')


def _borders(places: PlaceMap, where: Layout) -> Iterable[str]:
    """Rivers along shared borders, roads and passages centre to centre, and walls where two areas
    touch without being neighbours, so the picture never shows a passage the map lacks."""
    touching: set[frozenset[str]] = set()
    for edge in places.edges():
        a, b = where.shapes[edge.a], where.shapes[edge.b]
        line = shared_border(a, b)
        if line:
            touching.add(frozenset((edge.a, edge.b)))
        yield from _edge_marks(edge.a, edge.b, edge.kinds, line, a.centre, b.centre)
    yield from _walls(places, where, touching)


def _edge_marks(a: str, b: str, kinds: frozenset[str], line: list[Point], ca: Point, cb: Point) -> Iterable[str]:
    ids = f'data-from={quoteattr(a)} data-to={quoteattr(b)}'
    if "river" in kinds:
        yield _stroke("river", line or _across(ca, cb), ids)
    if "road" in kinds:
        yield _stroke("road", [ca, cb], ids)
    if "oneway" in kinds:
        yield oneway_tip(ca, cb, ids)
    if "bridge" in kinds:
        mid = ((ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2)
        yield _stroke("bridge", _across(ca, cb, 0.18, mid, along=True), ids)
    if not line and "road" not in kinds:
        yield _stroke("link", [ca, cb], ids)


def _stroke(kind: str, points: list[Point], ids: str) -> str:
    colour, width, dashes, _ = BORDERS[kind]
    dash = f' stroke-dasharray="{dashes}"' if dashes else ""
    return (f'<path class="border {kind}" {ids} d="{_path(points, closed=False)}" fill="none" stroke="{colour}" '
            f'stroke-width="{width}"{dash} stroke-linecap="round"/>')


def _across(a: Point, b: Point, half: float = 0.22, mid: Point | None = None, along: bool = False) -> list[Point]:
    """A short line through the middle of a-b: across it, or (a bridge) along it."""
    mx, my = mid or ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    dx, dy = (b[0] - a[0]) * half, (b[1] - a[1]) * half
    if not along:
        dx, dy = -dy, dx
    return [(round(mx - dx, 1), round(my - dy, 1)), (round(mx + dx, 1), round(my + dy, 1))]


def _walls(places: PlaceMap, where: Layout, touching: set[frozenset[str]]) -> Iterable[str]:
    corners: dict[tuple[int, int], set[str]] = {}
    for place, shape in where.shapes.items():
        for x, y in shape.polygon:
            corners.setdefault((round(x), round(y)), set()).add(place)
    pairs = {frozenset((a, b)) for group in corners.values() for a in group for b in group if a < b}
    for pair in sorted(pairs, key=sorted):
        a, b = sorted(pair)
        if pair in touching or places.adjacent(a, b):
            continue
        line = shared_border(where.shapes[a], where.shapes[b])
        if line and _length(line) > where.size * 0.25:
            yield _stroke("wall", line, f'data-from={quoteattr(a)} data-to={quoteattr(b)}')


def _length(line: list[Point]) -> float:
    return sum(math.dist(p, q) for p, q in itertools.pairwise(line))


def bounds(width: int, top: float) -> Box:
    """Where texts and badges may go: below the title, above the legend, inside the margins."""
    return (2.0, TITLE_HEIGHT - 6.0, width - 4.0, top - TITLE_HEIGHT + 6.0)


def _labels(placed: Iterable[Placed], where: Layout) -> Iterable[str]:
    size = font_size(where)
    for item in placed:
        if item.kind not in ("label", "features"):
            continue
        x, y, w, _ = item.box
        edge = 1.0 if item.kind == "features" else HALO
        at = (f'x="{round(x + w / 2, 1)}" y="{round(y + edge + size * ASCENT, 1)}" font-size="{size}" '
              'text-anchor="middle"')
        if item.kind == "label":
            yield (f'<text class="label" data-place={quoteattr(item.place)} {at} fill="#1a1a1a" stroke="#ffffff" '
                   f'stroke-width="2.4" paint-order="stroke">{escape(item.text)}</text>')
        else:
            yield (f'<text class="features" data-place={quoteattr(item.place)} {at} fill="#222222">'
                   f'{escape(item.text)}</text>')


def _clash(item: Placed, where: Layout) -> str:
    clash = item.clash or Clash(item.place)
    glyph, colour, _ = CLASHES.get(clash.kind, CLASHES["battle"])
    r = clash_radius(where)
    cx, cy = item.middle[0], round(item.box[1] + r, 1)
    label = (f'<text x="{cx}" y="{round(cy + r + 9, 1)}" font-size="8" text-anchor="middle" '
             f'fill="{colour}">{escape(clash.label)}</text>') if clash.label else ""
    return (f'<g class="clash {escape(clash.kind)}" data-place={quoteattr(clash.place)}>'
            f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="#ffffff" stroke="{colour}" stroke-width="2"/>'
            f'<text x="{cx}" y="{round(cy + r * 0.45, 1)}" font-size="{round(r * 1.25, 1)}" text-anchor="middle" '
            f'fill="{colour}">{glyph}</text>{label}</g>')


def _arrow(move: Move, where: Layout, index: int) -> str:
    colour, width, dashes, tip, _ = ARROWS.get(move.kind, ARROWS["move"])
    dashes = FAILED_DASHES if not move.succeeded and not dashes else dashes
    (x1, y1), (x2, y2) = where.centre(move.start), where.centre(move.end)
    length = math.dist((x1, y1), (x2, y2)) or 1.0
    cut = min(where.size * 0.45, length / 3)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    x1, y1, x2, y2 = x1 + ux * cut, y1 + uy * cut, x2 - ux * cut, y2 - uy * cut
    bend = 0.12 * length
    qx, qy = round((x1 + x2) / 2 - uy * bend, 1), round((y1 + y2) / 2 + ux * bend, 1)
    d = f"M{round(x1, 1)},{round(y1, 1)} Q{qx},{qy} {round(x2, 1)},{round(y2, 1)}"
    state = "succeeded" if move.succeeded else "failed"
    dash = f' stroke-dasharray="{dashes}"' if dashes else ""
    return (f'<g class="move {escape(move.kind)} {state}" data-from={quoteattr(move.start)} '
            f'data-to={quoteattr(move.end)} data-piece={quoteattr(move.piece)}>'
            f'<path d="{d}" fill="none" stroke="#ffffff" stroke-width="{width + 3}" stroke-opacity="0.8"/>'
            f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{width}"{dash} '
            f'marker-end="url(#tip-{tip}-{colour[1:]})"/></g>')


def _badge(item: Placed, where: Layout, style: Style) -> str:
    piece = item.piece or Piece(item.text, item.place, "")
    size = font_size(where)
    colour = style.colours.get(piece.owner, "#777777")
    x, y, w, h = item.box
    outline = ' stroke-dasharray="3 2" stroke-width="2"' if piece.dislodged else ' stroke-width="1.2"'
    return (f'<g class="piece{" dislodged" if piece.dislodged else ""}" data-id={quoteattr(piece.id)} '
            f'data-place={quoteattr(piece.place)} data-owner={quoteattr(piece.owner)}>'
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="3" fill="{colour}" stroke="#111111"{outline}/>'
            f'<text x="{round(x + w / 2, 1)}" y="{round(y + h - 4, 1)}" font-size="{size}" text-anchor="middle" '
            f'fill="{palette.ink_on(colour)}">{escape(item.text)}</text></g>')


def _title(scene: Scene, width: int) -> str:
    stage = (f'<text x="{MARGIN}" y="42" font-size="13" fill="#333333">{escape(scene.stage)}</text>'
             if scene.stage else "")
    return (f'<g id="title"><text x="{MARGIN}" y="22" font-size="18" font-weight="bold" fill="#111111">'
            f'{escape(scene.title)}</text>{stage}</g>')
