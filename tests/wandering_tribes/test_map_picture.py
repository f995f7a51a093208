"""The map picture shows what a player moves by (WT-MAP-2, WT-MAP-3): every camp fire as its sign,
and every road that runs one way only with an arrowhead pointing the way its routes run, both in
the legend; roads both ways stay plain."""

from __future__ import annotations

import re

import pytest

from pbem.kit.scene import Scene
from pbem.pictures.svg import draw
from pbem.rulesets.wandering_tribes.squares import OPPOSITE, SIDES, load_squares, ready_made


@pytest.mark.parametrize("name", ready_made())
def test_wt_map_2_3_camp_fires_and_one_way_roads_are_drawn_and_keyed(name: str) -> None:
    gmap = load_squares(name)
    svg = draw(gmap, Scene(title=name))
    fires = [t for t in gmap.places() if gmap.tiles[t].campfire]
    assert len(re.findall(r'data-place="(T\d+)"[^>]*>[^<]*♨', svg)) == len(fires) > 0
    one_way = {(a, b) for a in gmap.places() for side in SIDES if (b := gmap.toward(a, side))
               and side in gmap.exits(a) and OPPOSITE[side] not in gmap.exits(b)}
    drawn = set(re.findall(r'class="border oneway" data-from="(T\d+)" data-to="(T\d+)"', svg))
    assert drawn == one_way
    assert "road, one way" in svg if one_way else "road, one way" not in svg
    assert ">camp fire</text>" in svg
