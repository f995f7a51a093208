"""The rasterised map: an indexed PNG of the picture's commonest colours, smaller than an RGBA
PNG of the same pixels, and made once per SVG text in a process."""

from __future__ import annotations

import zlib

from pbem.pictures import png
from pbem.pictures.raster import KEPT, Raster, rasterise
from tests.pictures.readback import hex_colour, read_png

# 50 flat squares of distinct colours under anti-aliased text: far more than 256 colours in all
SQUARES = [(x, y, f"#{x * 25:02x}{y * 50:02x}{(x + y) * 17:02x}") for x in range(10) for y in range(5)]
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">'
       + "".join(f'<rect x="{x * 20}" y="{y * 20}" width="20" height="20" fill="{c}"/>' for x, y, c in SQUARES)
       + "".join(f'<text x="{x}" y="{y}" font-size="13">Rift Valley, turn 3</text>'
                 for x, y in ((5, 16), (70, 57), (20, 92))) + "</svg>")
TINY = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><text>{}</text></svg>'


def colour_type(data: bytes) -> int:
    return data[25]


def pixel(raster: Raster, x: int, y: int) -> tuple[int, int, int]:
    at = 4 * (y * raster.width + x)
    red, green, blue = raster.rgba[at:at + 3]
    return red, green, blue


def rgba_png_size(raster: Raster) -> int:
    """What the pixels' compressed data would take as an RGBA PNG (rows unfiltered, zlib's default)."""
    row = 4 * raster.width
    rows = b"".join(b"\0" + raster.rgba[y * row:(y + 1) * row] for y in range(raster.height))
    return len(zlib.compress(rows))


def test_the_png_is_indexed_and_keeps_each_flat_colour_exactly() -> None:
    before = rasterise(SVG)
    assert (before.width, before.height, len(before.rgba)) == (200, 100, 200 * 100 * 4)
    assert len({pixel(before, x, y) for x in range(200) for y in range(100)}) > 300
    data = png(SVG)
    assert colour_type(data) == 3
    after = read_png(data)
    flat = {colour for _, _, colour in SQUARES}
    kept = {(x, y) for x in range(200) for y in range(100) if hex_colour(pixel(before, x, y)) in flat}
    assert len(kept) > 50 * 300
    assert all(after.pixel(x, y) == pixel(before, x, y) for x, y in kept)
    assert len(data) < rgba_png_size(before)


def test_the_same_svg_is_rasterised_once() -> None:
    first = png(SVG)
    assert png(SVG) is first
    assert png(SVG.replace("turn 3", "turn 4")) is not first


def test_only_the_last_few_pngs_are_kept() -> None:
    first = png(TINY.format(0))
    for turn in range(KEPT):
        png(TINY.format(turn + 1))
    again = png(TINY.format(0))
    assert again is not first and again == first


def test_a_png_used_again_is_kept_longest() -> None:
    first = png(TINY.format("a"))
    for turn in range(KEPT - 1):
        png(TINY.format(turn + 100))
    assert png(TINY.format("a")) is first          # the most recently used now
    png(TINY.format("b"))                          # one past the limit: the oldest other goes
    assert png(TINY.format("a")) is first
