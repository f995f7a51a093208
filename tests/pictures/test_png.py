"""The PNG of each rule system's picture read back: its size, that it is not blank, and each
owner's colour at the places they own."""

from __future__ import annotations

import pytest

from pbem.pictures import PictureError, draw, png
from pbem.pictures.svg import Style
from tests.pictures.readback import centres, hex_colour, read_png
from tests.pictures.test_structure import SYSTEMS


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
    for place, owner in scene.owners.items():
        x, y = centres(svg)[place]
        # pixels beside the place's id (pieces stand below it), where the area shows through its
        # pattern: most are the owner's colour, some blend with the pattern's anti-aliased lines
        seen = [image.pixel(round(x) + dx, round(y) - 4 + dy) for dx in (-20, -17, 17, 20) for dy in (-2, 0, 2)]
        assert any(near(rgb, areas.area(owner)) for rgb in seen), (place, owner, [hex_colour(c) for c in seen])


def near(rgb: tuple[int, int, int], colour: str, within: int = 10) -> bool:
    want = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return all(abs(a - b) <= within for a, b in zip(rgb, want, strict=True))


def test_a_broken_svg_is_one_plain_error() -> None:
    with pytest.raises(PictureError, match="could not be rasterised"):
        png("<svg")
