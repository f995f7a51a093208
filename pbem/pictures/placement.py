"""Where each text and badge of a map picture goes: a box per place id, feature glyphs, piece
badge and clash sign, none over another and none past the map's edge.

Each item wants a spot by its place's centre; the first free spot on rings of offsets around
it is kept (labels first, then glyphs, badges and clashes), and a spot past the edge is pushed
back inside before it is tried. Text widths come from the bundled DejaVu Sans itself, the font
the PNG is drawn with, so the boxes are the drawn ones.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.kit.maps import PlaceMap, Point
from pbem.kit.scene import Clash, Piece, Scene
from pbem.pictures import marks, palette
from pbem.pictures.layout import Layout
from pbem.pictures.marks import FEATURES

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont

Box = tuple[float, float, float, float]        # left, top, width, height
ASCENT = 0.76                                  # DejaVu Sans: cap height and a little, in ems
HALO = 1.2                                     # half the white stroke round a label
GAP = 1.0                                      # kept free between two boxes
CELL = 48.0                                    # the side of a square of the look-up grid


@dataclass(frozen=True)
class Placed:
    kind: str                  # "label", "features", "badge", "clash"
    place: str
    text: str
    box: Box
    piece: Piece | None = None
    clash: Clash | None = None

    @property
    def middle(self) -> Point:
        x, y, w, h = self.box
        return (round(x + w / 2, 1), round(y + h / 2, 1))


@functools.cache
def _font() -> FreeTypeFont:
    """DejaVu Sans at 100 pixels (Pillow, already loaded for the PNG): widths scale with the size."""
    from PIL import ImageFont

    from pbem.pictures.raster import FONT_FILES

    return ImageFont.truetype(FONT_FILES[0], 100)


def text_width(text: str, size: float) -> float:
    """The drawn width of `text` at `size` pixels in DejaVu Sans."""
    return _length(text) * size / 100


@functools.lru_cache(maxsize=4096)
def _length(text: str) -> float:
    return float(_font().getlength(text))


def font_size(where: Layout) -> float:
    return round(max(8.0, min(13.0, where.size * 0.42)), 1)


class Board:
    """The boxes placed so far, by square of a grid, and the area they must stay in."""

    def __init__(self, bounds: Box) -> None:
        self.bounds = bounds
        self.squares: dict[tuple[int, int], list[Box]] = {}

    def free(self, box: Box) -> bool:
        return not any(overlap(box, other) for other in self._near(box))

    def take(self, box: Box) -> None:
        for square in _squares(box):
            self.squares.setdefault(square, []).append(box)

    def inside(self, box: Box) -> Box:
        """`box` moved the least that puts it within the bounds (its left top edge when too big)."""
        x, y, w, h = box
        left, top, width, height = self.bounds
        x = max(left, min(x, left + width - w))
        y = max(top, min(y, top + height - h))
        return (round(x, 1), round(y, 1), w, h)

    def put(self, wanted: Box, step: float, rings: int) -> Box:
        """The first free spot on rings round `wanted` (itself first); `wanted` if none is."""
        for box in _around(wanted, step, rings):
            box = self.inside(box)
            if self.free(box):
                self.take(box)
                return box
        box = self.inside(wanted)
        self.take(box)
        return box

    def _near(self, box: Box) -> Iterator[Box]:
        for square in _squares(box):
            yield from self.squares.get(square, ())


def overlap(a: Box, b: Box) -> bool:
    """Whether two boxes come closer than GAP."""
    return (a[0] < b[0] + b[2] + GAP and b[0] < a[0] + a[2] + GAP
            and a[1] < b[1] + b[3] + GAP and b[1] < a[1] + a[3] + GAP)


def within(box: Box, bounds: Box) -> bool:
    return (box[0] >= bounds[0] - 0.05 and box[1] >= bounds[1] - 0.05
            and box[0] + box[2] <= bounds[0] + bounds[2] + 0.05 and box[1] + box[3] <= bounds[1] + bounds[3] + 0.05)


def _squares(box: Box) -> Iterable[tuple[int, int]]:
    x, y, w, h = box
    for i in range(math.floor((x - GAP) / CELL), math.floor((x + w + GAP) / CELL) + 1):
        for j in range(math.floor((y - GAP) / CELL), math.floor((y + h + GAP) / CELL) + 1):
            yield (i, j)


def _around(box: Box, step: float, rings: int) -> Iterator[Box]:
    """`box`, then boxes moved by `step` times 1, 2, ... `rings`, eight more directions each ring,
    starting straight down and turning both ways (a badge below its place reads best)."""
    x, y, w, h = box
    yield box
    for ring in range(1, rings + 1):
        count = 8 * ring
        for k in range(count):
            turn = (k + 1) // 2 * (1 if k % 2 else -1)
            angle = math.pi / 2 + 2 * math.pi * turn / count
            yield (round(x + math.cos(angle) * step * ring * 1.6, 1), round(y + math.sin(angle) * step * ring, 1), w, h)


def place(places: PlaceMap, scene: Scene, where: Layout, bounds: Box) -> list[Placed]:
    """Every label, glyph line, badge and clash sign of `scene` on `places`, placed."""
    board = Board(bounds)
    size = font_size(where)
    out = list(_labels(places, where, board, size))
    out += _features(places, scene, where, board, size)
    out += _badges(scene, where, board, size)
    out += _clashes(scene, where, board, size)
    return out


def _labels(places: PlaceMap, where: Layout, board: Board, size: float) -> Iterator[Placed]:
    for place in places.places():
        x, y = where.centre(place)
        w, h = text_width(place, size) + 2 * HALO, size + 2 * HALO
        box = board.put((x - w / 2, y - size * 0.35 - size * ASCENT - HALO, w, h), size * 0.35, 3)
        yield Placed("label", place, place, box)


def _features(places: PlaceMap, scene: Scene, where: Layout, board: Board, size: float) -> Iterator[Placed]:
    marked: dict[str, set[str]] = {}
    for m in scene.markers:
        marked.setdefault(m.place, set()).add(m.kind)
    for place in places.places():
        features = set(places.features(place)) | marked.get(place, set())
        text = palette.TERRAIN_MARK.get(places.terrain(place), "") + "".join(
            FEATURES[f][0] for f in marks.shown(features))
        if text:
            x, y = where.centre(place)
            w, h = text_width(text, size) + 2, size + 2
            box = board.put((x - w / 2, y - size * 1.45 - size * ASCENT - 1, w, h), size * 0.35, 4)
            yield Placed("features", place, text, box)


def badge_text(piece: Piece, scene: Scene) -> str:
    side = scene.side(piece.owner)
    tag = side.tag if side and side.tag and not piece.id.startswith(side.tag) else ""
    return f"{tag} {piece.id}" if tag else piece.id


def _badges(scene: Scene, where: Layout, board: Board, size: float) -> Iterator[Placed]:
    stacks: dict[str, int] = {}
    for piece in scene.pieces:
        if piece.place not in where.shapes:
            continue
        slot = stacks[piece.place] = stacks.get(piece.place, -1) + 1
        text = badge_text(piece, scene)
        x, y = where.centre(piece.place)
        w, h = round(text_width(text, size) + 8, 1), round(size + 5, 1)
        shift = h * 0.6 if piece.dislodged else 0.0
        wanted = (x - w / 2 + shift, y + 2 + slot * (h + 2) + shift * 0.7, w, h)
        yield Placed("badge", piece.place, text, board.put(wanted, h * 0.5, 12), piece=piece)


def clash_radius(where: Layout) -> float:
    return round(max(7.0, where.size * 0.42), 1)


def _clashes(scene: Scene, where: Layout, board: Board, size: float) -> Iterator[Placed]:
    r = clash_radius(where)
    for clash in dict.fromkeys(c for c in scene.clashes if c.place in where.shapes):
        x, y = where.centre(clash.place)
        cx, cy = x + max(where.size * 0.75, r + 12), y - where.size * 0.5     # clear of the id
        below = 11.0 if clash.label else 0.0
        w = max(2 * r, text_width(clash.label, 8) if clash.label else 0.0)
        yield Placed("clash", clash.place, clash.label, board.put((cx - w / 2, cy - r, w, 2 * r + below), r * 0.9, 16),
                     clash=clash)
