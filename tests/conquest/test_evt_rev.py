"""Step A.1 and A.2: events in ascending order and mine revenue (COC-EVT, COC-REV, SC-2, SC-3)."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.conquest import events, revenue
from pbem.rulesets.conquest.events import EventEntry
from pbem.rulesets.conquest.model import Placement

from .helpers import book, graph_map, line, state_of

RULES = book()
TERRAIN = {f"T{i}": "countryside" for i in range(1, 21)} | {"T6": "river", "T7": "river", "T8": "mountain",
                                                            "T9": "river", "T12": "mountain", "T13": "marsh"}
GMAP = graph_map(TERRAIN, line(*TERRAIN))
E = EventEntry


def sc2_state():  # type: ignore[no-untyped-def]
    return state_of(GMAP, ["anna", "ben", "cara", "dan"], {"T5": "ben", "T6": "ben"},
                    {"T5": "castle", "T6": "mine"}, order=["ben", "anna", "dan", "cara"])


SC2_LISTS = {"ben": [E("land_grab"), E("scouts")],
             "anna": [E("land_grab"), E("diplomacy", "cara"), E("elite_army")],
             "dan": [E("diplomacy", "cara"), E("scouts")],
             "cara": [E("scouts"), E("disaster", "ben")]}


@pytest.mark.clause("COC-EVT-1", "COC-EVT-2", "COC-EVT-3", "COC-EVT-5", "COC-EVT-7", "COC-EVT-8", "COC-EVT-12",
                    "COC-EVT-19")
def test_sc2_event_picks_uniqueness_and_disaster() -> None:
    state = sc2_state()
    dice = ScriptedDice([1, 4])
    events.run_events(state, GMAP, RULES, SC2_LISTS, dice)
    assert [(e.player, e.event, e.target) for e in state.round.events] == [
        ("ben", "land_grab", ""), ("anna", "diplomacy", "cara"), ("dan", "scouts", ""), ("cara", "disaster", "ben")]
    assert state.tiles["T5"].building == "" and state.tiles["T6"].building == "mine"
    assert state.tiles["T5"].owner == state.tiles["T6"].owner == "ben"
    assert [(d.tile, d.building, d.die, d.destroyed) for d in state.round.disaster] == [
        ("T5", "castle", 1, True), ("T6", "mine", 4, False)]


@pytest.mark.clause("COC-EVT-6")
def test_sc2_variant_silent_dan_gets_no_event_and_cara_gets_scouts() -> None:
    state = sc2_state()
    lists = {k: v for k, v in SC2_LISTS.items() if k != "dan"}
    events.run_events(state, GMAP, RULES, lists, ScriptedDice([]))
    assert [(e.player, e.event) for e in state.round.events] == [
        ("ben", "land_grab"), ("anna", "diplomacy"), ("cara", "scouts")]
    assert "Dan takes no event" in state.round.log


@pytest.mark.clause("COC-EVT-6")
def test_lowest_available_fallback_targets_the_largest_other_empire() -> None:
    state = sc2_state()
    rules = book(events={"fallback": "lowest_available"})
    events.run_events(state, GMAP, rules, {"ben": [E("fools_gold", "anna")]}, ScriptedDice([]))
    picks = [(e.player, e.event, e.target) for e in state.round.events]
    assert picks == [("ben", "fools_gold", "anna"), ("anna", "building_boom", ""), ("dan", "disaster", "cara"),
                     ("cara", "all_or_nothing", "")]
    assert "fallback" in state.round.events[1].note


@pytest.mark.clause("COC-EVT-4")
def test_ninth_pick_is_free_once_all_eight_were_taken() -> None:
    players = [f"p{i}" for i in range(1, 10)]
    state = state_of(GMAP, players)
    keys = ["fools_gold", "building_boom", "disaster", "all_or_nothing", "scouts", "diplomacy", "land_grab",
            "elite_army"]
    lists = {p: [E(k, "p9" if k in ("fools_gold", "disaster", "diplomacy") else "")]
             for p, k in zip(players, keys, strict=False)}
    lists["p9"] = [E("scouts")]
    events.run_events(state, GMAP, RULES, lists, ScriptedDice([]))
    assert state.round.events[-1].player == "p9" and state.round.events[-1].event == "scouts"


@pytest.mark.clause("COC-EVT-3")
def test_campaign_scope_blocks_events_others_took_in_earlier_rounds_but_not_your_own() -> None:
    rules = book(events={"unique_scope": "campaign"})
    state = state_of(GMAP, ["a", "b"])
    state.events_taken = ["a:scouts", "b:elite_army"]
    events.run_events(state, GMAP, rules, {"a": [E("elite_army"), E("scouts")], "b": [E("scouts"), E("land_grab")]},
                      ScriptedDice([]))
    assert [(e.player, e.event) for e in state.round.events] == [("a", "scouts"), ("b", "land_grab")]
    assert "b:land_grab" in state.events_taken


@pytest.mark.clause("COC-EVT-7")
def test_targets_must_be_another_active_player() -> None:
    state = sc2_state()
    state.empires["dan"].eliminated = True
    lists = {"ben": [E("disaster"), E("fools_gold", "ben"), E("diplomacy", "dan"), E("fools_gold", "cara")]}
    events.run_events(state, GMAP, RULES, lists, ScriptedDice([]))
    assert [(e.player, e.event, e.target) for e in state.round.events] == [("ben", "fools_gold", "cara")]
    assert events.entry_reason(state, RULES, "ben", E("disaster")) == "Disaster needs a target player"
    assert "yourself" in events.entry_reason(state, RULES, "ben", E("disaster", "ben"))
    assert events.entry_reason(state, book(events={"allow_self_target": True}), "ben", E("disaster", "ben")) == ""


@pytest.mark.clause("COC-EVT-10", "COC-EVT-11", "COC-BLD-7")
def test_building_boom_places_the_first_legal_building() -> None:
    state = state_of(GMAP, ["a", "b"], {"T1": "a", "T12": "a", "T13": "a", "T2": "a"},
                     {"T12": "castle", "T2": "castle"})
    boom = E("building_boom", placements=[Placement("mine", "T1"), Placement("city", "T12"), Placement("castle", "T13"),
                                          Placement("city", "T2")])
    events.run_events(state, GMAP, RULES, {"a": [boom]}, ScriptedDice([]))
    pick = state.round.events[0]
    assert (pick.placement.building, pick.placement.tile) == ("city", "T2")
    assert state.tiles["T2"].building == "city" and state.tiles["T12"].building == "castle"


@pytest.mark.clause("COC-EVT-11")
def test_building_boom_with_nothing_legal_is_used_up() -> None:
    state = state_of(GMAP, ["a", "b"], {"T1": "a"})
    events.run_events(state, GMAP, RULES, {"a": [E("building_boom", placements=[Placement("mine", "T1")])],
                                           "b": [E("building_boom")]}, ScriptedDice([]))
    assert [e.player for e in state.round.events] == ["a"]
    assert state.round.events[0].note.startswith("no legal placement")


@pytest.mark.clause("COC-EVT-12")
def test_disaster_city_result_castle_option() -> None:
    state = state_of(GMAP, ["a", "b"], {"T1": "a", "T2": "a"}, {"T1": "city", "T2": "port"})
    events.disaster(state, book(events={"disaster_city_result": "castle"}), "a", ScriptedDice([1, 1]))
    assert state.tiles["T1"].building == "castle" and state.tiles["T2"].building == ""


@pytest.mark.clause("COC-EVT-8", "COC-EVT-9", "COC-EVT-10", "COC-REV-1", "COC-REV-2", "COC-REV-3", "COC-REV-4",
                    "COC-REV-5", "COC-REV-9", "COC-GEN-6")
def test_sc3_building_boom_before_disaster_revenue_exhaustion_and_fools_gold() -> None:
    state = state_of(GMAP, ["anna", "ben", "cara", "dan"],
                     {"T6": "ben", "T7": "dan", "T8": "dan", "T9": "anna"},
                     {"T7": "mine", "T8": "mine", "T9": "mine", "T6": ""},
                     order=["ben", "dan", "anna", "cara"], treasury={"dan": 40, "anna": 80})
    lists = {"ben": [E("building_boom", placements=[Placement("mine", "T6")])], "dan": [E("fools_gold", "anna")],
             "anna": [E("elite_army")], "cara": [E("disaster", "ben")]}
    dice = ScriptedDice([1, 3, 3, 2, 5, 6])
    events.run_events(state, GMAP, RULES, lists, dice)
    assert state.round.events[0].placement == Placement("mine", "T6")
    assert state.tiles["T6"].building == ""
    revenue.collect(state, GMAP, RULES, dice)
    assert state.empires["ben"].treasury == 0
    assert state.empires["dan"].treasury == 230
    assert state.tiles["T7"].building == "" and state.tiles["T7"].owner == "dan"
    assert state.tiles["T8"].building == "mine"
    assert state.empires["anna"].treasury == 80 and state.tiles["T9"].building == "mine"
    assert [(r.tile, r.faces, r.gold, r.exhausted, r.skipped) for r in state.round.revenue] == [
        ("T7", [3, 3], 60, True, ""), ("T8", [2, 5, 6], 130, False, ""), ("T9", [], 0, False, "fools_gold")]
    assert [r.purpose for r in dice.log][1:] == ["Mine at T7 (dan, river)", "Mine at T8 (dan, mountain)"]


@pytest.mark.clause("COC-REV-6")
@pytest.mark.parametrize("terrain,faces,gold,exhausted", [
    ("T6", [1, 1], 20, True), ("T8", [5, 5, 5], 150, True), ("T6", [3, 4], 70, False), ("T8", [5, 5, 2], 120, False)])
def test_coc_rev_6_worked_checks(terrain: str, faces: list[int], gold: int, exhausted: bool) -> None:
    state = state_of(GMAP, ["a", "b"], {terrain: "a"}, {terrain: "mine"})
    revenue.collect(state, GMAP, RULES, ScriptedDice(faces))
    assert state.empires["a"].treasury == gold
    assert (state.tiles[terrain].building == "") is exhausted


@pytest.mark.clause("COC-REV-7", "COC-REV-8", "COC-REV-10")
def test_only_mines_pay_other_terrain_uses_river_rate_and_exhausted_tile_can_be_rebuilt() -> None:
    state = state_of(GMAP, ["a", "b"], {"T1": "a", "T2": "a", "T3": "a", "T6": "a"},
                     {"T1": "mine", "T2": "castle", "T3": "city", "T6": "port"})
    dice = ScriptedDice([2, 2])
    revenue.collect(state, GMAP, RULES, dice)
    assert state.empires["a"].treasury == 40 and len(dice.log) == 1 and len(dice.log[0].faces) == 2
    assert state.tiles["T1"].building == ""
    from pbem.rulesets.conquest.spending import Action, run_spending
    state.empires["a"].carried_ep = 1
    run_spending(state, GMAP, RULES, {"a": [[Action("build", "T1", "castle")]]}, ScriptedDice([]))
    assert state.tiles["T1"].building == "castle"


@pytest.mark.clause("COC-REV-9")
def test_fools_gold_rolls_mines_option_can_exhaust_without_paying() -> None:
    state = state_of(GMAP, ["a", "b"], {"T6": "a"}, {"T6": "mine"})
    events.run_events(state, GMAP, RULES, {"b": [E("fools_gold", "a")]}, ScriptedDice([]))
    revenue.collect(state, GMAP, book(events={"fools_gold_rolls_mines": True}), ScriptedDice([4, 4]))
    assert state.empires["a"].treasury == 0 and state.tiles["T6"].building == ""
