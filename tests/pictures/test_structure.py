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
    "conquest": (scenes.conquest_map, scenes.conquest_scene),
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


def test_daemon_rift_moves_supports_retreats_and_battles() -> None:
    got = read_svg(drawn("daemon_rift")[2])
    assert ("T24", "T25", "move move succeeded") in got.arrows        # a two-step move, step by step
    assert ("T25", "T26", "move move succeeded") in got.arrows
    assert ("T28", "T27", "move move failed") in got.arrows           # B-1 did not get into T26
    assert ("T25", "T26", "move support succeeded") in got.arrows
    assert ("T29", "T30", "move retreat succeeded") in got.arrows
    assert ("T26", "clash battle") in got.clashes
    assert got.piece("R-D1")[0] == "T25"
    assert "dislodged" in next(g.get("class", "") for g in got.root.iter("{http://www.w3.org/2000/svg}g")
                               if g.get("data-id") == "B-2")


def test_diplomacy_orders_become_arrows() -> None:
    got = read_svg(drawn("diplomacy")[2])
    assert ("YOR", "NWY", "move move succeeded") in got.arrows
    assert ("NTH", "NWY", "move convoy succeeded") in got.arrows
    assert ("RUH", "BUR", "move support succeeded") in got.arrows
    assert ("UKR", "RUM", "move move failed") in got.arrows
    assert ("BUR", "PAR", "move retreat succeeded") in got.arrows
    assert ("RUM", "clash standoff") in got.clashes
    assert ("A BUR", "BUR", "France") in [p[:3] for p in got.pieces]     # dislodged, beside the German army
    assert got.piece("F STP/SC")[:2] == ("STP", "Russia")
    assert got.piece("F NTH")[2] == "Eng F NTH"          # the power's tag, for grey print
    assert got.areas["LON"][0] == "England" and got.areas["MUN"][0] == ""


def test_conquest_sieges_capitals_and_field_battles() -> None:
    _, _scene, svg = drawn("conquest")
    got = read_svg(svg)
    assert ("T10", "clash siege") in got.clashes
    features = {t.get("data-place"): t.text for t in got.root.iter("{http://www.w3.org/2000/svg}text")
                if t.get("class") == "features"}
    assert "★" in features["T1"] and "★" in features["T16"]     # capitals
    assert "♜" in features["T9"]                                 # a castle the state raised
    assert "B1 (land battle): Anna against Ben" in svg


def test_player_text_is_escaped() -> None:
    from pbem.kit.scene import Piece, Side

    places = scenes.rift_map()
    scene = Scene("<b>&title", "stage \"x\"", (Side("R", "Red <script>", "red"),), {"T1": "R"},
                  (Piece("R-1 <i>", "T1", "R"),))
    got = read_svg(draw(places, scene))          # parses: nothing unescaped
    assert got.piece("R-1 <i>")[0] == "T1"
