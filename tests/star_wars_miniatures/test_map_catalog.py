"""The region map and the miniature catalog: loading, every problem at once, the ready-made map."""

from __future__ import annotations

import copy

import pytest

from pbem.kit.maps import MapError, PlaceMap
from pbem.kit.orders import InvalidOrder
from pbem.rulesets.star_wars_miniatures.catalog import CatalogError, catalog_from_dict, load_catalog
from pbem.rulesets.star_wars_miniatures.regions import load_map, map_from_dict
from tests.star_wars_miniatures import helpers


@pytest.mark.clause("SWM-STK-1")
def test_swm_gen_1_the_test_map_reads_with_income_stacking_capitals_and_adjacency() -> None:
    places = helpers.test_map()
    assert isinstance(places, PlaceMap)
    assert places.capitals() == ["A1", "B1", "C1"]
    assert places.neighbours("B1") == {"B2", "B3", "B4"}
    assert not places.adjacent("A1", "A1") and places.adjacent("A3", "C2")
    assert {t: (places.territories[t].income, places.territories[t].stacking) for t in ("A1", "A2", "B3")} == {
        "A1": (60, 2), "A2": (30, 1), "B3": (20, 1)}
    assert places.features("A1") == {"capital"}


def test_swm_set_6_each_region_has_exactly_one_capital_and_every_problem_is_reported() -> None:
    data = helpers.map_data()
    broken = copy.deepcopy(data)
    rows = broken["territory"]
    rows[1]["stacking"] = 3
    rows[2]["income"] = "lots"
    rows[3]["adjacent"] = [*rows[3]["adjacent"], "B1", "Z9"]
    rows[4]["capital"] = True
    with pytest.raises(MapError) as refused:
        map_from_dict(broken, "broken.toml")
    assert refused.value.problems == [
        "territory.A2.stacking: 3; the stacking limit is 1 or 2 (SWM-STK-1)",
        "territory.A3.income: 'lots' is not a whole number of economic points (SWM-ECO-1)",
        "region.RB.capital: a region has exactly one capital territory, marked capital = true in it "
        "(SWM-SET-6); found B1, B2",
        "territory.B1.adjacent: a territory is never adjacent to itself (SWM-GEN-1)",
        "territory.B1.adjacent: 'Z9' is not a territory"]


def test_asymmetric_adjacency_and_a_cut_off_territory_are_refused() -> None:
    data = helpers.map_data()
    data["territory"][0]["adjacent"].append("C1")
    with pytest.raises(MapError, match="A1 lists C1 as adjacent but C1 does not list A1"):
        map_from_dict(data)
    island = helpers.map_data()
    island["territory"][8]["adjacent"] = []
    island["territory"][7]["adjacent"] = []
    island["territory"][5]["adjacent"] = ["B1", "B2"]
    island["territory"][2]["adjacent"] = ["A1", "B2"]
    with pytest.raises(MapError, match="C1, C2 cannot be reached from A1"):
        map_from_dict(island)


def test_the_loader_warns_about_income_0_and_a_capital_of_limit_1() -> None:
    data = helpers.map_data()
    data["territory"][0]["stacking"] = 1
    data["territory"][1]["income"] = 0
    assert map_from_dict(data).warnings == (
        "territory.A1: a capital should have stacking limit 2 (SWM-STK-1)",
        "territory.A2.income is 0 (A36: the map should give every territory an income)")


def test_swm_set_5_regions_touch_when_any_of_their_territories_do() -> None:
    places = helpers.test_map()
    assert places.regions_adjacent("RA", "RB") and places.regions_adjacent("RA", "RC")
    assert places.regions_adjacent("RB", "RC")


def test_the_ready_made_ten_faction_map_has_ten_regions_with_a_capital_each() -> None:
    places = load_map(helpers.TEN_FACTIONS)
    assert len(places.regions) == 10 and len(places.places()) == 40
    assert len(places.capitals()) == 10 and places.warnings == ()
    assert all(places.territories[c].stacking == 2 for c in places.capitals())
    assert set(places.geometry().hexes) == set(places.places())
    assert [t for t in places.places() if places.territories[t].grants] == ["T28"]


@pytest.mark.clause("SWM-ROS-2")
def test_swm_ros_1_the_catalog_reads_every_field_the_processor_needs() -> None:
    cat = helpers.catalog()
    vader = cat.lookup("darth vader, sith lord")
    assert (vader.cost, vader.speed, vader.force, vader.unique, vader.person) == (60, 6, 4, True, "Darth Vader")
    skiff = cat.lookup("Skiff")
    assert (skiff.carries_small, skiff.carries_large, skiff.size) == (2, 1, "huge")
    with pytest.raises(InvalidOrder) as unknown:
        cat.lookup("Stormtroper")
    assert unknown.value.suggestion == "Stormtrooper"


def test_a_catalog_with_mistakes_reports_every_one_at_once() -> None:
    rows = [{"name": "Good", "labels": ["Rebel"], "cost": 5, "speed": 6},
            {"name": "Good", "labels": ["Rebel"], "cost": 5, "speed": 6},
            {"labels": ["Jedi"], "cost": 0, "speed": 6, "flags": ["robot"], "size": "tiny"},
            {"name": "Bad", "labels": ["Rebel"], "cost": 5, "speed": 6, "character": "Bob"}]
    with pytest.raises(CatalogError) as refused:
        catalog_from_dict({"miniatures": rows}, "mine.toml")
    assert refused.value.problems == [
        "miniatures[1].name: 'Good' is listed twice",
        "miniatures[2].name: every card needs its exact name",
        "miniatures[2].labels: ['Jedi']; give one or more of Old Republic, Republic, Sith, Mandalorian, "
        "Separatist, Imperial, Rebel, New Republic, Yuuzhan Vong, Fringe",
        "miniatures[2].cost: 0 is not a whole number of at least 1",
        "miniatures[2].flags: ['robot']; each is one of droid, cyborg, wookiee, order_66",
        "miniatures[2].size: 'tiny' is not one of small, medium, large, huge",
        "miniatures[3].character: only a unique has a character name (set unique = true)"]
    with pytest.raises(CatalogError, match="no such catalog file"):
        load_catalog("nowhere.toml")
