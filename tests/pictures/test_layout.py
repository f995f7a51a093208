"""Geometry: hexes from axial coordinates, areas from centre points, a schematic for a map with
none, carried points in the shipped maps, and borders drawn as the map has them."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import replace

from pbem.kit import maps
from pbem.kit.maps import Edge, Geometry, geometry_of
from pbem.kit.territories import map_from_dict
from pbem.pictures import Scene, draw
from pbem.pictures.layout import hex_shape, layout, shared_border
from tests.pictures import scenes
from tests.pictures.readback import read_svg

SVG = "{http://www.w3.org/2000/svg}"


class Ring:
    """A PlaceMap of n places in a ring, with the geometry given (none by default)."""

    name = "Ring"

    def __init__(self, n: int, geometry: Geometry | None = None, kinds: frozenset[str] = frozenset()) -> None:
        self.ids = [f"P{i}" for i in range(n)]
        self._geometry = geometry or Geometry()
        self.kinds = kinds

    def places(self) -> Sequence[str]:
        return self.ids

    def lookup(self, text: str) -> str:
        return text

    def name_of(self, place: str) -> str:
        return place

    def label(self, place: str) -> str:
        return place

    def neighbours(self, place: str) -> frozenset[str]:
        i, n = self.ids.index(place), len(self.ids)
        return frozenset({self.ids[(i + 1) % n], self.ids[(i - 1) % n]})

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours(a)

    def terrain(self, place: str) -> str:
        return "clear"

    def features(self, place: str) -> frozenset[str]:
        return frozenset()

    def edges(self) -> Iterable[Edge]:
        n = len(self.ids)
        return [Edge(self.ids[i], self.ids[(i + 1) % n], self.kinds) for i in range(n)]

    def geometry(self) -> Geometry:
        return self._geometry


def test_hexes_share_the_edge_between_neighbours() -> None:
    a, b = hex_shape(0, 0), hex_shape(1, 0)
    assert math.dist(a.centre, b.centre) == math.sqrt(3)
    assert len(shared_border(a, b, tolerance=1e-6)) == 2
    assert shared_border(hex_shape(0, 0), hex_shape(2, 0), tolerance=1e-6) == []


def test_hex_map_is_drawn_from_its_coordinates() -> None:
    places = scenes.conquest_map()
    where = layout(places, 776)
    t1, t2 = where.centre("T1"), where.centre("T2")
    assert abs(t1[1] - where.centre("S4")[1]) < 1           # same row r = ...: same height
    assert t2[1] > t1[1]                                      # the next row is lower down
    assert max(x for s in where.shapes.values() for x, _ in s.polygon) <= 776.5


def test_a_map_without_geometry_gets_a_schematic_with_every_place() -> None:
    ring = Ring(12)
    where = layout(ring, 600)
    assert set(where.shapes) == set(ring.ids)
    centres = [where.centre(p) for p in ring.ids]
    assert len({(round(x), round(y)) for x, y in centres}) == 12        # no two places on top of each other
    # neighbours on the ring are drawn nearer than places across it
    assert math.dist(centres[0], centres[1]) < math.dist(centres[0], centres[6])
    got = read_svg(draw(ring, Scene("ring")))
    assert set(got.areas) == set(ring.ids)


def test_areas_of_points_tile_the_map_and_touch_their_neighbours() -> None:
    points = {f"P{i}": (math.cos(i * math.pi / 4), math.sin(i * math.pi / 4)) for i in range(8)}
    ring = Ring(8, Geometry(points=points))
    where = layout(ring, 400)
    for i in range(8):
        a, b = where.shapes[f"P{i}"], where.shapes[f"P{(i + 1) % 8}"]
        assert shared_border(a, b), (a, b)


def test_rivers_roads_and_walls_are_distinct_strokes() -> None:
    svg = draw(scenes.rift_map(), Scene("t"))
    root = read_svg(svg).root
    kinds = {}
    for path in root.iter(f"{SVG}path"):
        cls = path.get("class", "")
        if cls.startswith("border "):
            look = (path.get("stroke"), path.get("stroke-width"), path.get("stroke-dasharray"))
            kinds.setdefault(cls.split()[1], set()).add(look)
    assert {"river", "road", "bridge"} <= set(kinds)
    assert len({next(iter(v)) for v in kinds.values()}) == len(kinds)     # each its own colour, width and dashes
    # the Emberflow runs between T10 and T2 with no bridge: a river border there, no road
    rivers = {(p.get("data-from"), p.get("data-to")) for p in root.iter(f"{SVG}path")
              if p.get("class") == "border river"}
    assert ("T2", "T10") in rivers or ("T10", "T2") in rivers


def test_the_shipped_territory_maps_carry_centre_points() -> None:
    for name in ("rift_valley", "standard"):
        geometry = maps.load(name).geometry()
        assert geometry.points, name
    rift = maps.load("rift_valley").geometry().points
    assert rift["T24"][1] < rift["T8"][1] < rift["T2"][1] < rift["T1"][1]                   # north is up
    assert rift["T1"] == (500.0, 500.0)                                                      # the Maw in the middle
    standard = maps.load("standard").geometry().points
    assert standard["LON"][0] < standard["BER"][0] < standard["MOS"][0]                          # west to east
    assert standard["STP"][1] < standard["ROM"][1]                                               # north to south


def test_geometry_table_is_read_and_bad_entries_left_out() -> None:
    data = {"geometry": {"points": {"T1": [0, 1], "T2": "nowhere", "T3": [1, 2, 3]},
                         "polygons": {"T4": [[0, 0], [1, 0], [0, 1]], "T5": [[0, 0]]}}}
    geometry = geometry_of(data)
    assert geometry.points == {"T1": (0.0, 1.0)}
    assert list(geometry.polygons) == ["T4"]
    assert geometry_of({}).empty


def test_a_map_with_polygons_uses_them() -> None:
    gmap = map_from_dict({"territories": {"A": {}, "B": {}}, "borders": [{"between": ["A", "B"], "river": True}]})
    squares = {"A": [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)],
               "B": [(1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0)]}
    places = replace(gmap, drawing=Geometry(polygons=squares))
    where = layout(places, 400)
    assert where.centre("A")[0] < where.centre("B")[0]
    assert len(where.shapes["A"].polygon) == 4
    root = read_svg(draw(places, Scene("two"))).root
    river = [p for p in root.iter(f"{SVG}path") if p.get("class") == "border river"]
    assert len(river) == 1 and river[0].get("d", "").count("L") == 1      # along the shared side
