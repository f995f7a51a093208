"""Step 0 (sizes, tie-breaks, order) and window S (capitals): COC-ORD, COC-SET, SC-1, SC-15."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.conquest import order, setup
from pbem.rulesets.conquest.model import Siege
from pbem.rulesets.conquest.setup import CapitalWish

from .helpers import book, graph_map, line, state_of

RULES = book()
TILES = [f"T{i}" for i in range(1, 31)]
PLAIN = graph_map({t: "countryside" for t in TILES}, line(*TILES))


def sc1_state():  # type: ignore[no-untyped-def]
    owners = {"T1": "anna", "T2": "anna", "T3": "anna", "T4": "anna",
              "T5": "ben", "T6": "ben", "T7": "ben", "T8": "ben", "T9": "ben",
              "T10": "cara", "T11": "cara", "T12": "cara", "T13": "cara",
              "T14": "dan", "T15": "dan", "T16": "dan", "T17": "dan"}
    buildings = {"T1": "city", "T5": "castle", "T10": "city", "T11": "castle", "T14": "city"}
    return state_of(PLAIN, ["anna", "ben", "cara", "dan"], owners, buildings)


@pytest.mark.clause("COC-ORD-1", "COC-ORD-2", "COC-ORD-3", "COC-ORD-4", "COC-ORD-5", "COC-ORD-6", "COC-ORD-8",
                    "COC-ORD-9", "COC-ORD-11", "COC-GEN-6")
def test_sc1_size_order_with_every_tie_break() -> None:
    state = sc1_state()
    dice = ScriptedDice([4, 4, 2, 5])
    order.open_round(state, RULES, dice, 1)
    assert [e.size for e in state.round.sizes] == [5, 5, 5, 5]
    assert state.round.order == ["ben", "anna", "dan", "cara"]
    assert state.round.largest == "cara"
    tb = {e.player: e.tiebreak for e in state.round.sizes}
    assert tb == {"cara": [], "dan": [4, 5], "anna": [4, 2], "ben": []}
    assert [e.rank for e in state.round.sizes] == [1, 2, 3, 4]
    assert [r.purpose for r in dice.log] == ["Round 1 size tie-break: anna", "Round 1 size tie-break: dan"] * 2


@pytest.mark.clause("COC-ORD-7")
def test_sc1_order_holds_for_the_round_and_changes_next_round() -> None:
    state = sc1_state()
    order.open_round(state, RULES, ScriptedDice([4, 4, 2, 5]), 1)
    for t in ("T18", "T19", "T20"):
        state.tiles[t].owner = "ben"
    assert state.round.order == ["ben", "anna", "dan", "cara"]     # nothing recomputes within the round
    order.open_round(state, RULES, ScriptedDice([3, 6]), 2)
    assert state.round.largest == "ben"
    assert state.round.sizes[0].size == 8


@pytest.mark.clause("COC-ORD-10")
def test_coc_ord_10_capital_plus_three_beats_five_plain_tiles_on_cities() -> None:
    owners = {"T1": "a", "T2": "a", "T3": "a", "T4": "a", **{f"T{i}": "b" for i in range(5, 10)}}
    state = state_of(PLAIN, ["a", "b"], owners, {"T1": "city"})
    order.open_round(state, RULES, ScriptedDice([]), 1)
    assert [(e.player, e.size) for e in state.round.sizes] == [("a", 5), ("b", 5)]


@pytest.mark.clause("COC-SIE-6", "COC-SIE-15")
def test_besieged_tile_counts_half_to_each_and_its_castle_to_the_defender() -> None:
    owners = {"T1": "a", "T2": "a", "T3": "b", "T4": "a"}
    state = state_of(PLAIN, ["a", "b"], owners, {"T1": "city", "T4": "castle", "T3": "city"})
    state.sieges.append(Siege("T4", "a", "b", 1))
    order.open_round(state, RULES, ScriptedDice([]), 1)
    sizes = {e.player: (e.size, e.cities, e.castles) for e in state.round.sizes}
    assert sizes == {"a": (3.5, 1, 1), "b": (2.5, 1, 2)}


THREE_CITIES = graph_map({f"T{i}": "countryside" for i in range(1, 13)},
                         [("T1", "T2"), ("T1", "T3"), ("T3", "T4"), ("T4", "T9"), ("T9", "T10"), ("T10", "T11"),
                          ("T11", "T12"), ("T2", "T5"), ("T5", "T6"), ("T6", "T7"), ("T7", "T8")])


@pytest.mark.clause("COC-SET-4", "COC-SET-5", "COC-SET-6", "COC-SET-7", "COC-SET-8", "COC-SET-9", "COC-SET-10",
                    "COC-SET-12")
def test_sc15_capital_setup() -> None:
    rules = book(campaign={"min_tiles_per_player": 4})
    state = setup.new_state(THREE_CITIES, rules, [("anna", "Anna", "red"), ("ben", "Ben", "blue"),
                                                  ("cara", "Cara", "green")])
    for t in ("T1", "T2", "T9"):
        state.tiles[t].building = "city"
    dice = ScriptedDice([6, 3, 3, 5, 2])
    pick = setup.pick_order(state, rules, dice)
    assert pick == ["anna", "ben", "cara"]
    assert state.capital_rolls == {"anna": [6], "ben": [3, 5], "cara": [3, 2]}
    wishes = {"anna": CapitalWish(["T1"]), "ben": CapitalWish(["T2", "T9"]), "cara": CapitalWish(["T9"], ["T12"])}
    setup.assign_capitals(state, THREE_CITIES, rules, pick, wishes, dice)
    assert {p: e.capital for p, e in state.empires.items()} == {"anna": "T1", "ben": "T9", "cara": "T12"}
    assert state.tiles["T12"].building == "city"
    assert sorted(t for t, s in state.tiles.items() if s.owner) == ["T1", "T12", "T9"]
    order.open_round(state, rules, ScriptedDice([1, 2, 3]), 1)
    assert {e.player: e.size for e in state.round.sizes} == {"anna": 2, "ben": 2, "cara": 2}
    assert all(e.treasury == 0 and e.carried_ep == 0 for e in state.empires.values())


@pytest.mark.clause("COC-SET-4", "COC-SET-8")
def test_gm_pick_order_and_a_random_legal_city_for_a_silent_player() -> None:
    rules = book(campaign={"min_tiles_per_player": 4}, setup={"capital_order": ["cara", "anna"]})
    state = setup.new_state(THREE_CITIES, rules, [("anna", "A", ""), ("ben", "B", ""), ("cara", "C", "")])
    for t in ("T1", "T8", "T12"):
        state.tiles[t].building = "city"
    pick = setup.pick_order(state, rules, ScriptedDice([]))
    assert pick == ["cara", "anna", "ben"]
    dice = ScriptedDice([2, 1])
    setup.assign_capitals(state, THREE_CITIES, rules, pick, {"cara": CapitalWish(["T1"])}, dice)
    assert state.empires["anna"].capital == "T12" and state.empires["ben"].capital == "T8"
    assert dice.log[0].purpose == "Capital for anna: random legal city"


@pytest.mark.clause("COC-SET-1", "COC-GEN-1")
def test_map_too_small_or_too_few_players_is_refused() -> None:
    with pytest.raises(ValueError, match="need at least 35"):
        setup.new_state(PLAIN, RULES, [(p, p, "") for p in "abcde"])
    with pytest.raises(ValueError, match="at least 2 players"):
        setup.new_state(PLAIN, RULES, [("a", "a", "")])


@pytest.mark.clause("COC-SET-2", "COC-SET-3", "COC-SET-11", "COC-GEN-8")
def test_ready_made_maps_have_room_terrain_markers_and_objectives() -> None:
    from pbem.rulesets.conquest.tiles import campaign_map, cities, land_tiles
    for name, players in (("three_crowns", 3), ("four_marches", 4), ("six_thrones", 6)):
        gmap = campaign_map(name)
        assert len(land_tiles(gmap)) >= 7 * players
        assert len(cities(gmap)) >= players
        objectives = {t.objective for t in gmap.tiles.values() if t.objective}
        assert objectives == {"mage_tower", "dwarf_brewery", "orc_idol"}
        terrains = {x for t in gmap.tiles.values() for x in t.terrains}
        assert {"countryside", "wood", "river", "mountain", "shore", "sea"} <= terrains


@pytest.mark.clause("COC-SET-13")
def test_capital_is_an_ordinary_city_tile() -> None:
    state = sc1_state()
    state.empires["anna"].capital = "T1"
    from pbem.rulesets.conquest.events import disaster
    disaster(state, RULES, "anna", ScriptedDice([1]))
    assert state.tiles["T1"].building == "" and state.tiles["T1"].owner == "anna"
