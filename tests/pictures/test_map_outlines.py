"""The shipped territory maps carry drawn outlines (scripts/draw_map_outlines.py): on them, as on
the hex maps, places touch along a border exactly when the map makes them neighbours, every outline is a simple polygon,
and pictures of them are drawn from the stored polygons with no Voronoi cells at run time."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest

from pbem.kit import maps
from pbem.kit.maps import PlaceMap, Point
from pbem.kit.scene import Scene
from pbem.pictures import layout as layout_module
from pbem.pictures.layout import Shape, raw_shapes, shared_border
from pbem.pictures.planar import inside, segments_cross
from pbem.pictures.svg import draw
from tests.pictures.readback import read_svg

OUTLINED = [name for name in maps.ready_made() if not maps.load(name).geometry().hexes]
EXCEPTIONS: dict[str, set[frozenset[str]]] = {}
"""Pairs of places a shipped map lets touch without being neighbours (none today): kept here,
named, so that the rule below stays a rule."""


def test_the_territory_maps_are_the_ones_outlined() -> None:
    assert OUTLINED == ["rift_valley", "standard"]


@pytest.mark.parametrize("name", OUTLINED)
def test_every_place_of_a_shipped_territory_map_has_an_outline_and_a_centre(name: str) -> None:
    places = maps.load(name)
    geometry = places.geometry()
    assert set(geometry.polygons) == set(places.places()) == set(geometry.points)


@pytest.mark.parametrize("name", maps.ready_made())
def test_neighbours_share_a_border_and_other_places_do_not(name: str) -> None:
    """On every shipped map, hex maps too (drawn from their coordinates)."""
    places = maps.load(name)
    shapes = raw_shapes(places)
    touching = {pair for pair in _pairs(places) if _border(shapes, *sorted(pair))}
    borders = {frozenset((e.a, e.b)) for e in places.edges()}
    assert borders - touching == set(), "neighbours without a shared border"
    assert touching - borders == EXCEPTIONS.get(name, set()), "places touching without being neighbours"


@pytest.mark.parametrize("name", OUTLINED)
def test_every_outline_is_a_simple_polygon_inside_which_its_centre_lies(name: str) -> None:
    places = maps.load(name)
    for place, shape in raw_shapes(places).items():
        assert not _self_crossing(shape.polygon), place
        assert inside(shape.centre, shape.polygon), place


@pytest.mark.parametrize("name", OUTLINED)
def test_pictures_of_shipped_maps_use_the_stored_outlines_without_voronoi(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("Voronoi cells computed for a map that carries its outlines")

    monkeypatch.setattr(layout_module, "cells", refuse)
    places = maps.load(name)
    got = read_svg(draw(places, Scene(name)))
    assert set(got.areas) == set(places.places())


def test_sea_and_land_are_told_apart_on_the_standard_map() -> None:
    board = maps.load("standard")
    root = read_svg(draw(board, Scene("standard"))).root
    fills = {g.get("data-place"): g.find("{http://www.w3.org/2000/svg}path").get("fill")   # type: ignore[union-attr]
             for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "place"}
    assert fills["NTH"] == fills["MAO"] != fills["LON"] == fills["PAR"]


def _pairs(places: PlaceMap) -> list[frozenset[str]]:
    return [frozenset(pair) for pair in itertools.combinations(places.places(), 2)]


def _border(shapes: dict[str, Shape], a: str, b: str) -> bool:
    """A shared line, not a shared corner: the tolerance is well under the rounding of 0.1."""
    return len(shared_border(shapes[a], shapes[b], tolerance=0.01)) >= 2


def _self_crossing(polygon: Sequence[Point]) -> bool:
    sides = list(zip(polygon, [*polygon[1:], polygon[0]], strict=True))
    return any(segments_cross(*s, *t) for (i, s), (j, t) in itertools.combinations(enumerate(sides), 2)
               if j - i > 1 and (i, j) != (0, len(sides) - 1))






def test_polygons_may_be_written_as_svg_writes_points() -> None:
    data = {"geometry": {"polygons": {"A": "0,0 1,0 1,1", "B": [[0, 0], [1, 0], [0, 1]], "C": "0,0 1,x 1,1",
                                      "D": "0,0 1,0 1"}}}
    polygons = maps.geometry_of(data).polygons
    assert polygons == {"A": [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)], "B": [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]}
