"""A game master's map without geometry is laid out from its borders: every place an area, and
rivers, roads and bridges drawn each its own way between the right places."""

from __future__ import annotations

from pbem.kit.scene import Scene
from pbem.kit.territories import map_from_dict
from pbem.pictures.svg import draw
from tests.pictures.readback import read_svg

SVG = "{http://www.w3.org/2000/svg}"

# A ring of six with a middle: rivers along two borders, a road along two, one bridged river.
BORDERS = [
    {"between": ["P1", "P2"], "river": True},
    {"between": ["P2", "P3"], "road": True},
    {"between": ["P3", "P4"], "river": True, "bridge": True},
    {"between": ["P4", "P5"]},
    {"between": ["P5", "P6"], "road": True},
    {"between": ["P6", "P1"], "river": True},
    *({"between": ["M", f"P{i}"]} for i in range(1, 7)),
]


def drawn() -> dict[str, set[tuple[str, str]]]:
    gmap = map_from_dict({"territories": {p: {} for p in ["M", "P1", "P2", "P3", "P4", "P5", "P6"]},
                          "borders": BORDERS})
    assert gmap.geometry().empty
    root = read_svg(draw(gmap, Scene("schematic"))).root
    strokes: dict[str, set[tuple[str, str]]] = {}
    looks: dict[str, set[tuple[str | None, ...]]] = {}
    for path in root.iter(f"{SVG}path"):
        kind = path.get("class", "").removeprefix("border ")
        if kind in {"river", "road", "bridge", "link", "wall"}:
            pair = tuple(sorted((path.get("data-from", ""), path.get("data-to", ""))))
            strokes.setdefault(kind, set()).add((pair[0], pair[1]))
            looks.setdefault(kind, set()).add((path.get("stroke"), path.get("stroke-width"),
                                               path.get("stroke-dasharray")))
    assert all(len(v) == 1 for v in looks.values())                       # one look per kind
    assert len({next(iter(v)) for v in looks.values()}) == len(looks)      # and no two kinds alike
    return strokes


def test_rivers_roads_and_bridges_of_a_schematic_are_drawn_distinct_between_the_right_places() -> None:
    strokes = drawn()
    assert strokes["river"] == {("P1", "P2"), ("P3", "P4"), ("P1", "P6")}
    assert strokes["road"] == {("P2", "P3"), ("P5", "P6")}
    assert strokes["bridge"] == {("P3", "P4")}


def test_a_schematic_shows_every_place_as_an_area() -> None:
    gmap = map_from_dict({"territories": {p: {} for p in ["M", "P1", "P2", "P3", "P4", "P5", "P6"]},
                          "borders": BORDERS})
    got = read_svg(draw(gmap, Scene("schematic")))
    assert set(got.areas) == {"M", "P1", "P2", "P3", "P4", "P5", "P6"}
