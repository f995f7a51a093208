"""The PNG of each rule system's picture read back: its size, that it is not blank, and each
owner's colour at the places they own."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from pbem.pictures import PictureError, draw, png
from pbem.pictures.svg import Style
from tests.pictures.readback import centres, hex_colour, read_png
from tests.pictures.test_structure import SYSTEMS

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("system", SYSTEMS)
def test_png_has_the_svg_size_and_owner_colours_at_the_places(system: str) -> None:
    make_map, make_scene = SYSTEMS[system]
    places, scene = make_map(), make_scene()
    svg = draw(places, scene)
    image = read_png(png(svg))
    assert image.width == 800
    assert 500 < image.height < 1200
    colours = {hex_colour(image.pixel(x, y)) for y in range(0, image.height, 7) for x in range(0, image.width, 7)}
    assert len(colours) > 20                               # not blank
    areas = Style.of(scene)
    outlines = corners(svg)
    for place, owner in scene.owners.items():
        x, y = centres(svg)[place]
        # pixels beside the place's id (pieces stand below it) and half way out to each corner of a
        # small place, where the area shows through its pattern: most are the owner's colour, some
        # blend with the pattern's anti-aliased lines
        seen = [image.pixel(round(x) + dx, round(y) - 4 + dy) for dx in (-20, -17, 17, 20) for dy in (-2, 0, 2)]
        seen += [image.pixel(round((x + cx) / 2), round((y + cy) / 2)) for cx, cy in outlines[place]]
        assert any(near(rgb, areas.area(owner)) for rgb in seen), (place, owner, [hex_colour(c) for c in seen])


def corners(svg: str) -> dict[str, list[tuple[float, float]]]:
    """Each place's outline, read from its area's first path (`M x,y L x,y ... Z`)."""
    found = {}
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        path = g.find(f"{SVG}path")
        if g.get("class") == "place" and path is not None:
            pairs = re.findall(r"([-\d.]+),([-\d.]+)", path.get("d", ""))
            found[g.get("data-place", "")] = [(float(x), float(y)) for x, y in pairs]
    return found


def near(rgb: tuple[int, int, int], colour: str, within: int = 10) -> bool:
    want = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return all(abs(a - b) <= within for a, b in zip(rgb, want, strict=True))


def test_a_broken_svg_is_one_plain_error() -> None:
    with pytest.raises(PictureError, match="could not be rasterised"):
        png("<svg")
