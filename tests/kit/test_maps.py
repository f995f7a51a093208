"""Every kind of map is one `PlaceMap`, read by one loader that reports every problem in one
`MapError` (pbem.kit.maps)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pbem.errors import UserError
from pbem.kit import maps
from pbem.kit.hexes import AXIAL_STEPS, HexMap, load_hexmap
from pbem.kit.maps import MapError, PlaceMap
from pbem.kit.orders import OrderProblem
from pbem.kit.territories import GameMap, load_map
from pbem.rulesets.diplomacy.board import Board, load_board

SHIPPED = sorted(p.stem for p in maps.MAPS_DIR.glob("*.toml"))
KINDS = {"rift_valley": GameMap, "standard": Board, "three_crowns": HexMap, "four_marches": HexMap,
         "six_thrones": HexMap, "mk_three_realms": HexMap, "mk_four_kingdoms": HexMap, "mk_five_crowns": HexMap,
         "mk_six_banners": HexMap}


def test_every_shipped_map_is_known_here() -> None:
    assert SHIPPED == sorted(KINDS)


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_map_loads_by_name_as_its_own_kind_and_is_a_place_map(name: str) -> None:
    gmap = maps.load(name)
    assert type(gmap) is KINDS[name] and isinstance(gmap, PlaceMap)
    assert gmap.name and gmap.name != name


@pytest.mark.parametrize("name", SHIPPED)
def test_every_place_has_a_name_a_label_a_terrain_and_is_found_by_id_and_name(name: str) -> None:
    gmap = maps.load(name)
    places = gmap.places()
    assert len(places) == len(set(places)) > 20
    for place in places:
        title = gmap.name_of(place)
        assert title and place in gmap.label(place) and title in gmap.label(place)
        assert gmap.terrain(place)
        assert gmap.lookup(place) == place
        assert gmap.lookup(title.upper()) == place
    with pytest.raises(OrderProblem) as err:
        gmap.lookup("Xyzzy Nowhere")
    assert "Xyzzy Nowhere" in err.value.reason


@pytest.mark.parametrize("name", SHIPPED)
def test_borders_are_symmetric_and_edges_list_each_once(name: str) -> None:
    gmap = maps.load(name)
    pairs = set()
    for place in gmap.places():
        assert gmap.neighbours(place), f"{place} touches nothing"
        assert place not in gmap.neighbours(place)
        for other in gmap.neighbours(place):
            assert place in gmap.neighbours(other) and gmap.adjacent(place, other)
            pairs.add(frozenset((place, other)))
    edges = [frozenset((e.a, e.b)) for e in gmap.edges()]
    assert len(edges) == len(set(edges)) and set(edges) == pairs
    assert not gmap.adjacent(gmap.places()[0], "NOWHERE")


def test_territory_features_mark_strongholds_homes_and_scoring_ground() -> None:
    gmap = load_map("rift_valley")
    strongholds = [t for t in gmap.places() if "stronghold" in gmap.features(t)]
    assert sorted(strongholds) == sorted(h.stronghold for h in gmap.homes.values())
    assert [t for t in gmap.places() if "objective" in gmap.features(t)] == [gmap.objective]
    assert {t for t in gmap.places() if "special" in gmap.features(t)} == set(gmap.special)
    assert all("home" in gmap.features(t) for h in gmap.homes.values() for t in h.originals)
    kinds = {kind for edge in gmap.edges() for kind in edge.kinds}
    assert {"road", "river", "bridge"} <= kinds
    assert set(gmap.geometry().points) == set(gmap.places())      # the map file's [geometry] centre points


def test_diplomacy_features_mark_supply_centres_homes_and_seas() -> None:
    board = load_board(maps.MAPS_DIR / "standard.toml")
    centres = [p for p in board.places() if "supply_centre" in board.features(p)]
    assert len(centres) == 34 and sorted(centres) == sorted(board.supply_centres)
    assert len([p for p in board.places() if "home" in board.features(p)]) == 22
    assert "sea" in board.features("NTH") and board.terrain("NTH") == "sea" and board.terrain("PAR") == "land"
    assert board.adjacent("SPA", "MAO") and board.adjacent("STP", "BAR")     # fleets reach them by a coast
    edges = {frozenset((e.a, e.b)): e.kinds for e in board.edges()}
    assert edges[frozenset(("PAR", "BUR"))] == {"army"}
    assert edges[frozenset(("NTH", "ENG"))] == {"fleet"}
    assert edges[frozenset(("BRE", "PIC"))] == {"army", "fleet"}
    assert board.label("SPA") == "SPA (Spain)"
    assert set(board.geometry().points) == set(board.places())    # the board file's [geometry] centre points


@pytest.mark.parametrize("name", ["three_crowns", "four_marches", "six_thrones"])
def test_hex_maps_carry_their_grid_and_their_buildings(name: str) -> None:
    gmap = load_hexmap(name)
    hexes = gmap.geometry().hexes
    assert set(hexes) == set(gmap.places())
    at = {qr: t for t, qr in hexes.items()}
    for tile, (q, r) in hexes.items():
        grid = {at[(q + dq, r + dr)] for dq, dr in AXIAL_STEPS if (q + dq, r + dr) in at}
        assert gmap.neighbours(tile) == grid
    cities = [t for t in gmap.places() if "city" in gmap.features(t)]
    assert len(cities) >= gmap.players
    assert [t for t in gmap.places() if "objective" in gmap.features(t)]
    assert {"mage_tower", "dwarf_brewery", "orc_idol"} <= {f for t in gmap.places() for f in gmap.features(t)}


def test_the_loader_finds_the_diplomacy_kind_without_anyone_importing_diplomacy_first() -> None:
    code = ("import sys; from pbem.kit.maps import load; board = load('standard'); "
            "print(type(board).__name__, 'pbem.rulesets.diplomacy.board' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.split() == ["Board", "True"]


# -- one error, every problem, each with file and key ------------------------------------------
def _error(tmp_path: Path, text: str, kind: str = "") -> MapError:
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MapError) as err:
        maps.load(path, kind)
    assert isinstance(err.value, UserError) and "\n" not in str(err.value)
    assert str(err.value).startswith(f"{path}: ") and err.value.source == str(path)
    return err.value


def test_a_territory_map_reports_every_problem_with_its_key(tmp_path: Path) -> None:
    err = _error(tmp_path, """
special = ["T9"]
[territories]
T1 = { name = "Ashford", terrain = "lava" }
T2 = { name = "Brook" }
T3 = "Castle"
[[borders]]
between = ["T1", "T7"]
[[borders]]
between = ["T1", "T2"]
[[borders]]
between = ["T2", "T1"]
[homes.1]
stronghold = "T2"
originals = ["T1"]
""")
    assert err.problems == [
        "territories.T1.terrain: 'lava' is not one of clear, woods, hills, swamp, mountain",
        "territories.T3: expected a table like { name = \"Ashford\", terrain = \"clear\" }",
        "borders[0].between: ['T1', 'T7'] needs two different known territories",
        "borders[2].between: border T2-T1 is listed twice",
        "homes.1.stronghold: the stronghold must be one of its originals",
        "special: scoring territory 'T9' is not a territory",
    ]


def test_a_hex_map_reports_every_problem_with_its_key(tmp_path: Path) -> None:
    err = _error(tmp_path, """
[tiles]
A = { q = 0, r = 0 }
B = { q = 0, r = 0 }
C = { q = 1 }
D = { terrain = [] }
[[links]]
between = ["A", "Z"]
[[cuts]]
between = ["A", "A"]
""")
    assert err.problems == [
        "tiles.C: give both q and r as whole numbers, or neither",
        "tiles.D.terrain: empty; give at least one terrain",
        "tiles.B: A and B are both at q=0, r=0",
        "links[0].between: ['A', 'Z'] needs two different known tiles",
        "cuts[0].between: ['A', 'A'] needs two different known tiles",
    ]


def test_a_diplomacy_board_reports_every_problem_with_its_key(tmp_path: Path) -> None:
    err = _error(tmp_path, """
[provinces.PAR]
type = "mud"
army = ["BUR", "XXX"]
[provinces.BUR]
type = "land"
[provinces.SPA]
type = "coast"
coasts = { NC = ["GAS"] }
[powers.France]
home = ["PAR"]
""")
    assert err.problems == [
        "provinces.PAR.type must be one of land, coast, sea",
        "provinces.PAR.army: army adjacency PAR -> BUR is not listed back",
        "provinces.PAR.army: army adjacency to unknown 'XXX'",
        "provinces.SPA.coasts.NC: fleet adjacency to unknown 'GAS'",
        "powers.France.home: 'PAR' is not a supply centre",
    ]


def test_a_file_that_is_no_map_says_which_tables_a_map_has(tmp_path: Path) -> None:
    err = _error(tmp_path, 'name = "Nothing"\n')
    assert "[territories] (territories)" in str(err) and "[tiles] (hexes)" in str(err)
    assert "[provinces] (diplomacy)" in str(err) and "this one has none" in str(err)
    both = _error(tmp_path, "[territories]\nT1 = {}\n[tiles]\nT1 = {}\n")
    assert "this one has more than one" in str(both)


def test_unreadable_unknown_and_mis_kinded_maps_are_one_line_each(tmp_path: Path) -> None:
    assert "cannot be read" in str(_error(tmp_path, "name = \n"))
    assert "unknown kind of map 'octagons'" in str(_error(tmp_path, "[tiles]\n", kind="octagons"))
    with pytest.raises(MapError) as err:
        maps.load("atlantis")
    assert str(err.value).startswith(str(maps.MAPS_DIR / "atlantis.toml"))
    assert ("the ready-made maps are four_marches, mk_five_crowns, mk_four_kingdoms, mk_six_banners, mk_three_realms, "
            "rift_valley, six_thrones, standard, three_crowns") in str(err.value)


def test_a_map_read_as_another_kind_is_refused_by_that_kind() -> None:
    with pytest.raises(MapError) as err:
        load_map("three_crowns")
    assert "territories: missing" in str(err.value)


def test_natural_order_breaks_ties() -> None:
    gmap = maps.build({"territories": {"T10": {}, "T2": {}, "T1": {}},
                       "borders": [{"between": ["T1", "T2"]}, {"between": ["T2", "T10"]}]}, "inline")
    assert gmap.places() == ["T1", "T2", "T10"]
    assert [(e.a, e.b) for e in gmap.edges()] == [("T1", "T2"), ("T2", "T10")]
