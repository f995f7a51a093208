"""The square-tile map (WT-MAP) and setup (WT-SET): loading, validation, ready-made maps for 3-8
players, seating, deployment rolls and the starting stacks."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.maps import MapError, PlaceMap
from pbem.rulesets.wandering_tribes import rules as wt_rules
from pbem.rulesets.wandering_tribes.setup import Choice, SetupProblem, deploy, prefixes
from pbem.rulesets.wandering_tribes.squares import dead_ends, load_squares, ready_made, squaremap_from_dict
from tests.wandering_tribes.helpers import faces, rules


@pytest.mark.clause("WT-MAP-1", "WT-MAP-2", "WT-MAP-4")
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_wt_map_1_a_ready_made_map_for_each_player_count_loads_with_enough_towns_and_no_dead_end(players: int) -> None:
    name = {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}[players]
    gmap = load_squares(f"wt_{name}_tribes")
    assert isinstance(gmap, PlaceMap) and gmap.players == players
    assert len(gmap.towns()) >= players and dead_ends(gmap) == []
    assert any(gmap.tiles[t].campfire for t in gmap.places())
    assert all(gmap.terrain(t) in ("hills", "woods", "towns", "desert", "plains", "villages") for t in gmap.places())
    assert len(ready_made()) == 6


@pytest.mark.clause("WT-MAP-6", "WT-MAP-3")
def test_wt_map_6_a_route_off_the_map_is_refused_and_a_dead_end_reported() -> None:
    with pytest.raises(MapError) as err:
        squaremap_from_dict({"squares": {"T1": {"x": 0, "y": 0, "terrain": "towns", "roads": ["origin>N", "W-E"]},
                                         "T2": {"x": 1, "y": 0, "terrain": "swamp"}}})
    text = str(err.value)
    assert "origin>N leaves the map by N" in text and "'W-E' is not a route" in text and "'swamp'" in text
    gmap = squaremap_from_dict({"squares": {"T1": {"x": 0, "y": 0, "terrain": "towns", "roads": ["origin>E"]},
                                            "T2": {"x": 1, "y": 0, "terrain": "plains", "roads": ["W>S"]},
                                            "T3": {"x": 1, "y": 1, "terrain": "plains", "roads": ["N>W"]},
                                            "T4": {"x": 0, "y": 1, "terrain": "plains"}}})
    assert dead_ends(gmap) == ["squares.T4: the road from T3 comes in by E and goes no further (a dead end: a "
                               "stack entering there stops)"]


@pytest.mark.clause("WT-SET-10")
def test_wt_set_10_too_few_towns_stop_setup_and_tell_the_gm() -> None:
    with pytest.raises(MapError, match="1 town tiles for 2 players"):
        squaremap_from_dict({"players": 2, "squares": {"T1": {"x": 0, "y": 0, "terrain": "towns"}}})
    gmap = squaremap_from_dict({"squares": {"T1": {"x": 0, "y": 0, "terrain": "towns"}}})
    with pytest.raises(SetupProblem, match="1 town tiles for 2 players"):
        deploy(rules(), gmap, {"Anna": Choice("empire"), "Ben": Choice("dwarfs")}, ScriptedDice())


@pytest.mark.clause("WT-SET-1", "WT-SET-2", "WT-SET-4", "WT-SET-5", "WT-SET-6", "WT-SET-7", "WT-SET-8", "WT-SET-9",
                    "WT-SET-11", "WT-SET-12", "WT-GEN-3", "WT-GEN-4")
def test_wt_set_5_deployment_in_descending_rolls_with_a_reroll_and_the_first_free_listed_town() -> None:
    gmap = load_squares("wt_three_tribes")
    towns = gmap.towns()
    book = rules(**{"players.seat_order": ["Cara", "Anna", "Ben"]})
    choices = {"Anna": Choice("empire", "Reiksguard", [towns[0], towns[1]]), "Ben": Choice("empire", "", [towns[0]]),
               "Cara": Choice("orcs_goblins")}
    # deployment rolls in seat order Cara 7, Anna 9, Ben 9; Anna and Ben reroll 4, 10; Cara's random town d3 = 2
    roll = ScriptedDice(faces(7, 9, 9, 4, 10) + [2])
    state, log = deploy(book, gmap, choices, roll)
    assert state.seats == ["Cara", "Anna", "Ben"] and not roll.unused
    assert "Deployment order: Ben, Anna, Cara" in log
    assert state.stacks["B1"].tile == towns[0] and state.stacks["A1"].tile == towns[1]
    assert state.stacks["C1"].tile == [t for t in towns if t not in towns[:2]][1]
    assert state.stacks["A1"].points == 125 + 80 + 90 + 110 + 110 + 95
    assert state.stacks["C1"].count("Goblins") == 3 and len(state.stacks["C1"].markers) == 12
    assert not state.locks and not any(p.resting for p in state.players.values())


@pytest.mark.clause("WT-SET-11")
def test_wt_set_11_without_a_seat_order_the_seating_is_drawn_and_logged() -> None:
    gmap = load_squares("wt_three_tribes")
    roll = ScriptedDice([3, 1, *faces(9, 8, 7), 1, 1])
    state, log = deploy(rules(), gmap, {p: Choice("empire", "", gmap.towns()[:1]) for p in ("Anna", "Ben", "Cara")},
                        roll)
    assert state.seats == ["Cara", "Anna", "Ben"] and "Seating (clockwise, drawn): Cara, Anna, Ben" in log


@pytest.mark.clause("WT-NAT-1", "WT-NAT-3", "WT-NAT-5", "WT-NAT-6", "WT-NAT-7", "WT-SET-3")
def test_wt_nat_1_the_eight_nation_tables_load_with_every_type_listed_and_aliases_applied() -> None:
    book = wt_rules.load()
    assert list(book.nations) == ["empire", "undead", "chaos", "orcs_goblins", "high_elves", "dwarfs",
                                  "bretonnians", "kislevites"]
    chaos = book.nations["chaos"]
    assert [o.type for o in chaos.cell("woods")] == ["Marauders", "Ogres", "Trolls", "Chaos Spawn", "Chaos Hounds"]
    assert book.nations["empire"].cell("desert") == ()
    assert book.nations["undead"].kind("Tomb King") == "general"
    assert wt_rules.warnings(book) == []
    data = book.book.as_dict()
    data["nations"]["lizardmen"] = {"name": "Lizardmen", "start": [{"type": "Slann", "n": 1}],
                                    "kinds": {"general": ["Slann"]}, "list": {}}
    with pytest.raises(ValueError, match="'Slann' has no entry"):
        wt_rules.from_data(data)


def test_army_marker_prefixes_are_the_shortest_unshared_letters() -> None:
    assert prefixes(["Anna", "Ben", "Bea"]) == {"Anna": "A", "Ben": "BEN", "Bea": "BEA"}
