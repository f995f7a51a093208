"""Each rule system's picture read back: every place with its owner's colour, every piece with its
id, every arrow between the right places, clashes where they are."""

from __future__ import annotations

import pytest

from pbem.kit.maps import PlaceMap
from pbem.kit.scene import Scene
from pbem.pictures import draw, palette
from pbem.pictures.svg import Style
from tests.pictures import scenes
from tests.pictures.readback import read_svg

SYSTEMS = {
    "daemon_rift": (scenes.rift_map, scenes.rift_scene),
    "diplomacy": (scenes.diplomacy_map, scenes.diplomacy_scene),
    "conquest": (scenes.conquest_turn_map, scenes.conquest_scene),
    "mighty_kingdoms": (scenes.mighty_kingdoms_map, scenes.mighty_kingdoms_scene),
}


def drawn(system: str) -> tuple[PlaceMap, Scene, str]:
    make_map, make_scene = SYSTEMS[system]
    places, scene = make_map(), make_scene()
    return places, scene, draw(places, scene)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_place_in_its_owners_colour(system: str) -> None:
    places, scene, svg = drawn(system)
    got = read_svg(svg)
    style = Style.of(scene)
    assert set(got.areas) == set(places.places())
    assert got.labels == set(places.places())
    for place, (owner, fill) in got.areas.items():
        expected = scene.owners.get(place, "")
        assert owner == expected, place
        want = palette.tint(style.colours[owner]) if owner else palette.terrain_fill(places.terrain(place))
        assert fill == want, place


@pytest.mark.parametrize("system", SYSTEMS)
def test_owners_colours_differ(system: str) -> None:
    _, scene, _ = drawn(system)
    colours = Style.of(scene).colours
    assert len(set(colours.values())) == len(scene.sides)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_piece_with_its_id_where_it_stands(system: str) -> None:
    _, scene, svg = drawn(system)
    got = read_svg(svg)
    assert [p[:3] for p in got.pieces] == [(p.id, p.place, p.owner) for p in scene.pieces]
    for (ident, _, _, text) in got.pieces:
        assert ident in text


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_arrow_between_the_right_places(system: str) -> None:
    _, scene, svg = drawn(system)
    got = read_svg(svg)
    want = [(m.start, m.end, f"move {m.kind} {'succeeded' if m.succeeded else 'failed'}") for m in scene.moves]
    assert got.arrows == want


def test_conquest_capitals_and_buildings_are_marked() -> None:
    """(The arrows, clashes and legend of each system's turn: test_turn_pictures.py.)"""
    got = read_svg(drawn("conquest")[2])
    features = {t.get("data-place"): t.text for t in got.root.iter("{http://www.w3.org/2000/svg}text")
                if t.get("class") == "features"}
    assert "★" in features["T3"] and "★" in features["T15"]     # capitals
    assert "♜" in features["T8"]                                 # a castle the state raised


def test_player_text_is_escaped() -> None:
    from pbem.kit.scene import Piece, Side

    places = scenes.rift_map()
    scene = Scene("<b>&title", "stage \"x\"", (Side("R", "Red <script>", "red"),), {"T1": "R"},
                  (Piece("R-1 <i>", "T1", "R"),))
    got = read_svg(draw(places, scene))          # parses: nothing unescaped
    assert got.piece("R-1 <i>")[0] == "T1"
