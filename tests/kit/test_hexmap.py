"""Hex maps: adjacency from axial coordinates, links and cuts, distance, every problem reported."""

from __future__ import annotations

import pytest

from pbem.kit.hexes import hexmap_from_dict
from pbem.kit.maps import MapError


def test_hex_neighbours_and_distance_follow_the_grid() -> None:
    tiles = {f"T{i}": {"q": q, "r": r} for i, (q, r) in enumerate([(0, 0), (1, 0), (2, 0), (0, 1), (1, -1)], 1)}
    gmap = hexmap_from_dict({"tiles": tiles})
    assert gmap.neighbours("T1") == {"T2", "T4", "T5"}
    assert gmap.distance("T1", "T3") == 2
    assert gmap.distance("T3", "T4") == 2
    assert not gmap.adjacent("T1", "T3")


def test_links_cuts_and_several_terrains() -> None:
    gmap = hexmap_from_dict({"tiles": {"A": {"q": 0, "r": 0, "terrain": ["river", "mountain"]},
                                       "B": {"q": 1, "r": 0}, "C": {"name": "Far Isle"}},
                             "links": [{"between": ["A", "C"]}], "cuts": [{"between": ["A", "B"]}]})
    assert gmap.neighbours("A") == {"C"}
    assert gmap.tiles["A"].has("mountain") and gmap.tiles["A"].terrain == "river"
    assert gmap.lookup("far isle") == "C"


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(MapError) as err:
        hexmap_from_dict({"tiles": {"A": {"q": 0, "r": 0}, "B": {"q": 0, "r": 0}, "C": {"q": 1}},
                          "links": [{"between": ["A", "Z"]}]})
    assert len(err.value.problems) == 3
