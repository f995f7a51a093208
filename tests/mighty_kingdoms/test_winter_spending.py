"""Purchase cycles (MK-SPD-1..7), building (MK-BLD-1..9), tithes (MK-TTH-1..6); scenarios 10 and 15."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.kit.rulebook import RuleBook
from pbem.rulesets.mighty_kingdoms import gather, settlements, spending
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import MKState
from tests.mighty_kingdoms.helpers_winter import book, graph_map, item, state_of, view_of

GMAP = graph_map({"E": "land", "F": "land", "Q": "land", "S": "swamp", "M": "all_mountains", "W": "sea",
                  "V": "land", "C": "land", "K": "land", "T1": "land", "T2": "land"},
                 [("E", "F"), ("F", "Q")])


def spend(state: MKState, lists: dict[str, list[dict[str, Any]]], rules: RuleBook | None = None) -> list[str]:
    sections: list[Section] = []
    spending.run(view_of(state, GMAP, rules), lists, sections)
    return sections[0].lines


def stock(state: MKState, player: str) -> tuple[int, int]:
    return state.kingdoms[player].gold, state.kingdoms[player].food


# -- scenarios --------------------------------------------------------------------------------------
def test_mk_scenario_10_purchase_cycles_with_a_tithe() -> None:
    state = state_of("ab", {"F": ("a", "fortress"), "E": ("a", ""), "Q": ("b", "")},
                     stock={"a": (1, 0), "b": (2, 2)})
    lines = spend(state, {"a": [item("RECRUIT F"), item("BUILD village E")],
                          "b": [item("TITHE a 0g 1f"), item("BUILD village Q"), item("TITHE a 1g 0f")]})
    assert lines == [
        "Cycle 1: Albion builds a village on E for 1 gold; now 0 gold and 0 food",
        "Cycle 1: Brennia tithes 0 gold and 1 food to Albion (Brennia now 2 gold and 1 food, "
        "Albion 0 gold and 1 food)",
        "Cycle 2: Albion recruits A1 at F (100 points); now 0 gold and 0 food",
        "Cycle 2: Brennia builds a village on Q for 1 gold; now 1 gold and 1 food",
        "Cycle 3: Brennia's TITHE a 1g 0f is dropped: Brennia has already tithed Albion this winter "
        "(one tithe per recipient)",
        "Cycle 3: no purchase is made; spending ends",
    ]
    assert stock(state, "a") == (0, 0) and stock(state, "b") == (1, 1)
    assert state.tile("E").settlement == "village" and state.tile("Q").settlement == "village"
    assert state.armies["A1"].tile == "F"


def test_mk_scenario_15_razing_and_rebuilding_a_capital() -> None:
    state = state_of("a", {"T1": ("a", ""), "T2": ("a", "village")}, start={"a": "T1"})
    view = view_of(state, GMAP)
    gather.run(view, [])
    assert stock(state, "a") == (0, 1)                          # winter 1: no capital income at all
    state.kingdoms["a"].gold = 2                                # two gold from earlier winters
    lines = spend(state, {"a": [item("BUILD village T1"), item("BUILD city T1")]})
    assert lines[:2] == ["Cycle 1: Albion builds a village on T1 for 1 gold; now 1 gold and 1 food",
                         "Cycle 2: Albion builds a city on T1, replacing a village, for 1 gold and 1 food; "
                         "T1 is Albion's capital again; now 0 gold and 0 food"]
    assert state.capital_of("a") == "T1"
    gather.run(view, [])                                        # winter 2
    assert state.winter.income["a"] == [2, 1]


# -- purchase cycles --------------------------------------------------------------------------------
def test_mk_spd_1_one_purchase_per_player_per_cycle_in_player_order() -> None:
    state = state_of("ba", {"E": ("a", ""), "F": ("a", ""), "Q": ("b", "")}, stock={"a": (2, 0), "b": (1, 0)})
    lines = spend(state, {"a": [item("BUILD village E"), item("BUILD village F")], "b": [item("BUILD village Q")]})
    assert [ln.split(" builds")[0] for ln in lines[:3]] == ["Cycle 1: Brennia", "Cycle 1: Albion", "Cycle 2: Albion"]


def test_mk_spd_2_a_purchase_is_a_build_a_recruit_or_a_tithe() -> None:
    state = state_of("ab", {"E": ("a", ""), "F": ("a", "fortress")}, stock={"a": (2, 2)})
    lines = spend(state, {"a": [item("BUILD village E"), item("RECRUIT F"), item("TITHE b 1g 0f")]})
    assert [ln.split(": ", 1)[1].split(" ")[1] for ln in lines[:3]] == ["builds", "recruits", "tithes"]


def test_mk_spd_3_cycles_repeat_until_a_cycle_without_purchase() -> None:
    state = state_of("a", {"E": ("a", ""), "Q": ("a", ""), "F": ("a", "")}, stock={"a": (3, 0)})
    lines = spend(state, {"a": [item("BUILD village E"), item("BUILD village Q"), item("BUILD village F")]})
    assert lines[-1] == "Cycle 4: no purchase is made; spending ends"
    assert state.winter.cycles == 4


def test_mk_spd_4_a_player_who_passes_may_buy_in_a_later_cycle() -> None:
    state = state_of("ab", {"E": ("a", ""), "Q": ("b", ""), "F": ("b", "")}, stock={"a": (0, 0), "b": (2, 0)})
    lines = spend(state, {"a": [item("BUILD village E")], "b": [item("TITHE a 1g 0f"), item("BUILD village Q")]})
    assert "Cycle 1: Albion buys nothing yet: BUILD village E (needs 1 gold, has 0)" in lines
    assert "Cycle 2: Albion builds a village on E for 1 gold; now 0 gold and 0 food" in lines


def test_mk_spd_4_passing_is_final_under_the_other_reading() -> None:
    state = state_of("ab", {"E": ("a", ""), "Q": ("b", "")}, stock={"a": (0, 0), "b": (2, 0)})
    lines = spend(state, {"a": [item("BUILD village E")], "b": [item("TITHE a 1g 0f"), item("BUILD village Q")]},
                  book(spend={"passing_player_may_return": False}))
    assert state.tile("E").settlement == ""
    assert lines[-1] == ("Albion's BUILD village E is dropped at the end of spending: nothing was bought in cycle 1, "
                         "and passing is final under these rules")


def test_mk_spd_5_full_cost_is_needed_and_stock_never_goes_below_zero() -> None:
    state = state_of("a", {"V": ("a", "village")}, stock={"a": (1, 0)})
    lines = spend(state, {"a": [item("BUILD city V")]})
    assert stock(state, "a") == (1, 0) and state.tile("V").settlement == "village"
    assert lines == ["Cycle 1: Albion buys nothing yet: BUILD city V (needs 1 food, has 0)",
                     "Cycle 1: no purchase is made; spending ends",
                     "Albion's BUILD city V is dropped at the end of spending: needs 1 food, has 0"]


def test_mk_spd_6_gold_and_food_never_exchange_but_by_tithes() -> None:
    state = state_of("ab", {"V": ("a", "village")}, stock={"a": (5, 0), "b": (0, 1)})
    spend(state, {"a": [item("BUILD city V")]})
    assert stock(state, "a") == (5, 0)
    state = state_of("ab", {"V": ("a", "village")}, stock={"a": (5, 0), "b": (0, 1)})
    spend(state, {"b": [item("TITHE a 0g 1f")], "a": [item("BUILD city V")]})
    assert stock(state, "a") == (4, 0) and state.tile("V").settlement == "city"


def test_mk_spd_7_first_legal_affordable_item_executes_and_waiting_items_stay_in_place() -> None:
    state = state_of("a", {"V": ("a", "village"), "E": ("a", ""), "Q": ("a", "")}, stock={"a": (2, 0)})
    lines = spend(state, {"a": [item("BUILD city V"), item("BUILD village E"), item("BUILD village Q")]})
    assert lines[0] == "Cycle 1: Albion builds a village on E for 1 gold; now 1 gold and 0 food"
    assert lines[1] == "Cycle 2: Albion builds a village on Q for 1 gold; now 0 gold and 0 food"
    assert lines[-1] == "Albion's BUILD city V is dropped at the end of spending: needs 1 gold, has 0"


def test_mk_spd_7_item_not_legal_now_is_retried_after_an_earlier_build_makes_it_legal() -> None:
    state = state_of("a", {"E": ("a", "")}, stock={"a": (3, 1)})
    lines = spend(state, {"a": [item("BUILD fortress E"), item("BUILD village E")]})
    assert lines[0].startswith("Cycle 1: Albion builds a village on E")
    assert lines[1].startswith("Cycle 2: Albion builds a fortress on E, replacing a village")


def test_mk_spd_7_item_that_can_never_be_legal_is_dropped_with_its_reason() -> None:
    state = state_of("ab", {"Q": ("b", ""), "E": ("a", "")}, stock={"a": (1, 0)})
    lines = spend(state, {"a": [item("BUILD village Q"), item("BUILD village E")]})
    assert lines[0] == ("Cycle 1: Albion's BUILD village Q is dropped: Q is not yours; you build only on tiles "
                        "you control")
    assert lines[1].startswith("Cycle 1: Albion builds a village on E")


def test_mk_pbm_8_no_purchase_list_means_no_purchases() -> None:
    state = state_of("ab", {"E": ("a", "")}, stock={"a": (3, 3)})
    assert spend(state, {}) == ["Nobody sent a purchase list; nothing is bought this winter"]
    assert stock(state, "a") == (3, 3) and state.tile("E").settlement == ""


# -- building -----------------------------------------------------------------------------------------
def test_mk_bld_1_build_only_on_a_tile_the_builder_controls() -> None:
    state = state_of("ab", {"Q": ("b", ""), "E": ("", "")}, stock={"a": (3, 3)})
    state.tiles["E"].tower = True
    lines = spend(state, {"a": [item("BUILD village Q"), item("BUILD village E")]})
    assert "Q is not yours" in lines[0] and "E is a wizard's tower" in lines[1]
    assert stock(state, "a") == (3, 3)


def test_mk_bld_2_building_on_a_settlement_replaces_it() -> None:
    state = state_of("a", {"V": ("a", "village")}, stock={"a": (1, 1)})
    spend(state, {"a": [item("BUILD fortress V")]})
    assert state.tile("V").settlement == "fortress"


def test_mk_bld_3_column_is_the_terrain_class_for_swamp_mountains_sea_else_the_contents() -> None:
    rules = book()
    assert settlements.column(GMAP, rules, "village", "S") == "swamp"
    assert settlements.column(GMAP, rules, "", "M") == "all_mountains"
    assert settlements.column(GMAP, rules, "city", "W") == "sea"
    assert settlements.column(GMAP, rules, "village", "V") == "village"
    assert settlements.column(GMAP, rules, "", "E") == "empty"


def test_mk_bld_4_a_greyed_cell_cannot_be_built() -> None:
    state = state_of("a", {"S": ("a", "village"), "E": ("a", "")}, stock={"a": (3, 3)})
    lines = spend(state, {"a": [item("BUILD city S"), item("BUILD city E")]})
    assert lines[0] == "Cycle 1: Albion's BUILD city S is dropped: S is swamp; no city can be built on it"
    assert lines[-1] == ("Albion's BUILD city E is dropped at the end of spending: E is empty; a city is built on "
                         "a village or a fortress (settlement costs upgrade_chain)")


@pytest.mark.parametrize(("kind", "on", "gold", "food"), [
    ("village", "", 1, 0), ("city", "village", 1, 1), ("city", "fortress", 1, 0),
    ("fortress", "village", 1, 1), ("fortress", "city", 1, 0)])
def test_mk_bld_5_upgrade_chain_costs(kind: str, on: str, gold: int, food: int) -> None:
    state = state_of("a", {"V": ("a", on)}, stock={"a": (3, 3)})
    spend(state, {"a": [item(f"BUILD {kind} V")]})
    assert state.tile("V").settlement == kind and stock(state, "a") == (3 - gold, 3 - food)


@pytest.mark.parametrize(("kind", "on"), [("village", "village"), ("city", ""), ("city", "city"),
                                          ("fortress", ""), ("fortress", "fortress"), ("village", "city")])
def test_mk_bld_5_upgrade_chain_refuses_other_cells(kind: str, on: str) -> None:
    assert settlements.cost(book(), kind, on or "empty") is None


@pytest.mark.parametrize("terrain", ["swamp", "all_mountains", "sea"])
@pytest.mark.parametrize("preset", ["upgrade_chain", "fresh_build"])
def test_mk_bld_5_nothing_is_built_on_swamp_mountains_or_sea(terrain: str, preset: str) -> None:
    rules = book(settlement_costs={"preset": preset})
    assert all(settlements.cost(rules, kind, terrain) is None for kind in ("village", "city", "fortress"))


@pytest.mark.parametrize(("kind", "on", "gold", "food"), [
    ("village", "", 1, 0), ("city", "", 1, 1), ("city", "village", 1, 0),
    ("fortress", "", 1, 1), ("fortress", "village", 1, 0)])
def test_mk_bld_5_fresh_build_preset_costs(kind: str, on: str, gold: int, food: int) -> None:
    rules = book(settlement_costs={"preset": "fresh_build"})
    state = state_of("a", {"V": ("a", on)}, stock={"a": (3, 3)})
    spend(state, {"a": [item(f"BUILD {kind} V")]}, rules)
    assert state.tile("V").settlement == kind and stock(state, "a") == (3 - gold, 3 - food)
    assert settlements.cost(rules, "city", "fortress") is None


def test_mk_bld_6_no_demolish_purchase() -> None:
    rules = book()
    assert all(settlements.cost(rules, "village", col) is None for col in ("village", "city", "fortress"))
    state = state_of("a", {"V": ("a", "city")}, stock={"a": (3, 3)})
    spend(state, {"a": [item("BUILD village V")]})
    assert state.tile("V").settlement == "city"


def test_mk_bld_7_a_tile_may_be_built_on_again_in_a_later_cycle() -> None:
    state = state_of("a", {"E": ("a", "")}, stock={"a": (2, 1)})
    spend(state, {"a": [item("BUILD village E"), item("BUILD city E")]})
    assert state.tile("E").settlement == "city" and stock(state, "a") == (0, 0)


def test_mk_bld_8_city_on_own_starting_tile_is_the_capital_again() -> None:
    state = state_of("ab", {"T1": ("a", "village"), "T2": ("a", "village")}, start={"a": "T1", "b": "T2"},
                     stock={"a": (2, 2)})
    lines = spend(state, {"a": [item("BUILD city T1"), item("BUILD city T2")]})
    assert state.capital_of("a") == "T1" and state.capital_of("b") == ""
    assert "T1 is Albion's capital again" in lines[0] and "capital" not in lines[1]


def test_mk_bld_9_each_build_places_exactly_one_settlement() -> None:
    state = state_of("a", {"E": ("a", ""), "Q": ("a", "")}, stock={"a": (5, 5)})
    spend(state, {"a": [item("BUILD village E")]})
    assert [t for t, s in state.tiles.items() if s.settlement] == ["E"]


def test_mk_bld_3_a2_terrain_columns_option_lets_contents_decide() -> None:
    rules = book(settlement_costs={"terrain_columns": []})
    state = state_of("a", {"S": ("a", "village")}, stock={"a": (3, 3)})
    spend(state, {"a": [item("BUILD city S")]}, rules)
    assert state.tile("S").settlement == "city"


# -- tithes ----------------------------------------------------------------------------------------
def test_mk_tth_1_a_tithe_gives_up_to_one_gold_and_one_food_never_nothing() -> None:
    state = state_of("ab", stock={"a": (3, 3)})
    lines = spend(state, {"a": [item("TITHE b 0g 0f"), item("TITHE b 2g 0f"), item("TITHE b 1g 1f")]})
    assert lines[0].endswith("dropped: a tithe of 0 gold and 0 food gives nothing; give 1g, 1f or both")
    assert lines[1].endswith("dropped: a tithe gives at most 1 gold and 1 food, like TITHE <player> 1g 0f")
    assert stock(state, "b") == (1, 1) and stock(state, "a") == (2, 2)


def test_mk_tth_1_zero_tithe_allowed_when_the_option_says_so() -> None:
    state = state_of("ab", stock={"a": (3, 3)})
    lines = spend(state, {"a": [item("TITHE b 0g 0f")]}, book(tithe={"require_nonzero": False}))
    assert lines[0].startswith("Cycle 1: Albion tithes 0 gold and 0 food to Brennia")


def test_mk_tth_2_the_recipient_cannot_refuse_and_resources_move_at_once() -> None:
    state = state_of("ab", stock={"a": (1, 1)})
    spend(state, {"a": [item("TITHE b 1g 1f")], "b": []})
    assert stock(state, "a") == (0, 0) and stock(state, "b") == (1, 1)


def test_mk_tth_3_received_resources_may_be_spent_and_passed_on() -> None:
    state = state_of("abc", {"Q": ("b", "")}, stock={"a": (2, 0)})
    spend(state, {"a": [item("TITHE b 1g 0f"), item("TITHE c 1g 0f")],
                  "b": [item("BUILD village Q")], "c": [item("TITHE b 1g 0f")]})
    assert state.tile("Q").settlement == "village"
    assert stock(state, "b") == (1, 0) and stock(state, "c") == (0, 0)


def test_mk_tth_4_one_tithe_per_recipient_per_winter() -> None:
    state = state_of("ab", stock={"a": (2, 2)})
    lines = spend(state, {"a": [item("TITHE b 1g 0f"), item("TITHE b 0g 1f")]})
    assert stock(state, "b") == (1, 0)
    assert lines[1] == ("Cycle 2: Albion's TITHE b 0g 1f is dropped: Albion has already tithed Brennia this "
                        "winter (one tithe per recipient)")


def test_mk_tth_5_a_tithe_is_the_givers_purchase_for_the_cycle() -> None:
    state = state_of("ab", {"E": ("a", "")}, stock={"a": (2, 0)})
    lines = spend(state, {"a": [item("TITHE b 1g 0f"), item("BUILD village E")]})
    assert lines[0].startswith("Cycle 1: Albion tithes") and lines[1].startswith("Cycle 2: Albion builds")


def test_mk_tth_6_the_free_text_message_is_relayed_and_nothing_else() -> None:
    state = state_of("ab", stock={"a": (1, 0)})
    lines = spend(state, {"a": [item("TITHE b 1g 0f for the bridge at Q; or else")]})
    assert lines[0].endswith("; message: \u201cfor the bridge at Q; or else\u201d")
    assert stock(state, "b") == (1, 0)


def test_mk_tth_1_a_tithe_to_oneself_is_dropped() -> None:
    state = state_of("ab", stock={"a": (1, 0)})
    lines = spend(state, {"a": [item("TITHE a 1g 0f")]})
    assert lines[0] == "Cycle 1: Albion's TITHE a 1g 0f is dropped: a tithe goes to another player"
