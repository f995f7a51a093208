"""Every text and badge of a map picture stands clear: on the standard Diplomacy map and every
shipped map, no two placed boxes (place ids, feature glyphs, piece badges, clash signs)
intersect and none reaches past the map's part of the picture. The boxes come from the layout
code (`pbem.pictures.placement`), and the drawing is checked to put its badges in them. No side's
land passes for sea, and every colour the areas are filled with has its swatch in the legend."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections.abc import Sequence

import pytest

from pbem.kit import maps
from pbem.kit.maps import PlaceMap
from pbem.kit.scene import Clash, Marker, Piece, Scene, Side
from pbem.pictures import palette, placement
from pbem.pictures.layout import Layout, Shape, layout
from pbem.pictures.placement import Placed
from pbem.pictures.svg import MARGIN, TITLE_HEIGHT, WIDTH, Style, bounds, draw
from tests.pictures import scenes
from tests.pictures.readback import SVG

SHIPPED = [*maps.ready_made(), *(str(p) for p in sorted((maps.MAPS_DIR / "wandering_tribes").glob("*.toml"))),
           str(maps.MAPS_DIR.parent / "star_wars_miniatures" / "ten_factions.toml")]
"""The ready-made maps of rules/maps/, and those rule systems keep in folders of their own."""


def where_of(places: PlaceMap) -> Layout:
    """The layout `draw` uses: the map fitted inside the margins, below the title."""
    found = layout(places, WIDTH - 2 * MARGIN, TITLE_HEIGHT)
    return Layout({k: Shape([(x + MARGIN, y) for x, y in s.polygon], (s.centre[0] + MARGIN, s.centre[1]))
                   for k, s in found.shapes.items()}, WIDTH, found.height, found.size)


def placed_on(places: PlaceMap, scene: Scene) -> tuple[list[Placed], tuple[float, float, float, float]]:
    where = where_of(places)
    area = bounds(WIDTH, TITLE_HEIGHT + where.height + MARGIN)
    return placement.place(places, scene, where, area), area


def crowded(places: PlaceMap) -> Scene:
    """Four sides, a piece on every other place, a labelled battle on every seventh, a capital
    and a castle marked on every fifth: more than a game puts on a map at once."""
    ids = list(places.places())
    sides = tuple(Side(f"s{i}", f"Side {i}", tag=f"S{i}") for i in range(4))
    return Scene("crowded", sides=sides,
                 pieces=tuple(Piece(f"X-{i}", p, f"s{i % 4}", dislodged=i % 9 == 0) for i, p in enumerate(ids[::2])),
                 clashes=tuple(Clash(p, label=f"B{i}") for i, p in enumerate(ids[::7])),
                 markers=tuple(Marker(p, k) for p in ids[::5] for k in ("capital", "castle")))


def every_centre_held(board: PlaceMap) -> Scene:
    """The standard board with a unit of its tag on each of the 34 supply centres, fleets named
    by coast where the province has coasts, and the dislodged unit of a retreat phase beside one."""
    powers = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
    centres = [p for p in board.places() if "supply_centre" in board.features(p)]
    coasts = {"STP": "F STP/SC", "SPA": "F SPA/NC", "BUL": "F BUL/EC"}
    pieces = [Piece(coasts.get(p, f"A {p}"), p, powers[i % 7]) for i, p in enumerate(centres)]
    pieces.append(Piece("A MUN", "MUN", "Austria", dislodged=True))
    return Scene("every centre held", sides=tuple(Side(p, p, "", p[:3]) for p in powers),
                 owners={p: powers[i % 7] for i, p in enumerate(centres)}, pieces=tuple(pieces),
                 clashes=(Clash("BUR", "standoff"), Clash("BLA", "standoff")))


def clashing(placed: Sequence[Placed]) -> list[tuple[str, str]]:
    return [(f"{a.kind} {a.text or a.place}", f"{b.kind} {b.text or b.place}")
            for a, b in itertools.combinations(placed, 2) if placement.overlap(a.box, b.box)]


def assert_clear(places: PlaceMap, scene: Scene) -> list[Placed]:
    placed, area = placed_on(places, scene)
    assert clashing(placed) == []
    assert [p.text or p.place for p in placed if not placement.within(p.box, area)] == []
    return placed


@pytest.mark.parametrize("name", SHIPPED)
def test_no_label_or_badge_of_a_shipped_map_hides_another_or_leaves_the_picture(name: str) -> None:
    places = maps.load(name)
    placed = assert_clear(places, crowded(places))
    assert {p.place for p in placed if p.kind == "label"} == set(places.places())


def test_every_unit_and_province_name_of_the_standard_diplomacy_map_stands_clear() -> None:
    board = scenes.diplomacy_map()
    placed = assert_clear(board, every_centre_held(board))
    assert len([p for p in placed if p.kind == "badge"]) == 35
    assert_clear(board, scenes.diplomacy_scene())


def test_the_played_turn_of_each_rule_system_places_everything_clear() -> None:
    assert_clear(scenes.rift_map(), scenes.rift_scene())
    assert_clear(scenes.conquest_turn_map(), scenes.conquest_scene())
    assert_clear(scenes.mighty_kingdoms_map(), scenes.mighty_kingdoms_scene())


def test_the_drawn_badges_stand_in_their_placed_boxes() -> None:
    board = scenes.diplomacy_map()
    scene = every_centre_held(board)
    placed, _ = placed_on(board, scene)
    root = ET.fromstring(draw(board, scene))
    drawn = [tuple(float(r.get(k, "0")) for k in ("x", "y", "width", "height"))
             for g in root.iter(f"{SVG}g") if g.get("class", "").startswith("piece")
             for r in g.findall(f"{SVG}rect")]
    assert drawn == [p.box for p in placed if p.kind == "badge"]


def test_no_power_of_the_diplomacy_map_is_coloured_like_the_sea() -> None:
    colours = Style.of(scenes.diplomacy_scene()).colours
    assert [power for power, colour in colours.items() if palette.like_water(colour)] == []
    assert colours["France"] != colours["England"]


@pytest.mark.parametrize("pair", ["diplomacy", "mighty_kingdoms", "rift", "conquest"])
def test_every_fill_of_a_map_has_its_swatch_in_the_legend(pair: str) -> None:
    places = scenes.conquest_turn_map() if pair == "conquest" else getattr(scenes, f"{pair}_map")()
    root = ET.fromstring(draw(places, getattr(scenes, f"{pair}_scene")()))
    fills = {p.get("fill") for g in root.iter(f"{SVG}g") if g.get("class") == "place"
             for p in g.findall(f"{SVG}path") if not (p.get("fill") or "").startswith("url(")}
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "legend")
    keyed = {r.get("fill") for r in legend.iter(f"{SVG}rect")}
    assert fills - keyed == set()
