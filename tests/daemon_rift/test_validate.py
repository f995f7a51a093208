"""The deadline step: validation, artillery dice, interception and void supports (DR-ORD, DR-SPD, DR-ART)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.rulebook import RuleBook, load_rules
from pbem.kit.territories import GameMap
from pbem.rulesets.daemon_rift.model import DRState, Effective, FactionOrders, Order
from pbem.rulesets.daemon_rift.validate import effective_orders
from tests.daemon_rift.conftest import build_map, build_state, rules_with

RULES = load_rules("daemon_rift")
M1 = build_map()
INTERCEPT = rules_with(movement={"path_crossing": "intercept"})

# SC-8's map M2: a road chain T1-T2-T3-T4 (T2 woods, T3 hills) and off-road borders.
M2 = build_map(
    edges=[("T1", "T2"), ("T2", "T3"), ("T3", "T4"), ("T5", "T2"), ("T6", "T3"), ("T7", "T3"), ("T6", "T7")],
    terrain={"T2": "woods", "T3": "hills"},
    roads=[("T1", "T2"), ("T2", "T3"), ("T3", "T4")],
    extra=["T8", "T9"],
)
# DR-SPD-14's map: the same road chain, plus T5 (woods) next to T1 and T6 (clear) next to T5.
SPD14 = build_map(
    edges=[("T1", "T2"), ("T2", "T3"), ("T3", "T4"), ("T1", "T5"), ("T5", "T6")],
    terrain={"T2": "woods", "T3": "hills", "T5": "woods"},
    roads=[("T1", "T2"), ("T2", "T3"), ("T3", "T4")],
    extra=["T8", "T9"],
)


def H(token: str, champion: str = "") -> Order:
    return Order(token, "H", champion=champion)


def M(token: str, *path: str) -> Order:
    return Order(token, "M", tuple(path))


def S(token: str, target: str, *path: str) -> Order:
    return Order(token, "S", tuple(path), target=target)


def submit(*orders: Order) -> dict[str, FactionOrders]:
    out: dict[str, FactionOrders] = {}
    for order in orders:
        fo = out.setdefault(order.token.split("-")[0], FactionOrders())
        fo.orders[order.token] = order
        fo.explicit.append(order.token)
    return out


def run(state: DRState, *orders: Order, gmap: GameMap = M1, rules: RuleBook = RULES,
        dice: Iterable[int] = ()) -> Effective:
    """Effective orders; every scripted die must be used, and no other die rolled."""
    scripted = ScriptedDice(dice)
    eff = effective_orders(state, gmap, rules, submit(*orders), scripted)
    assert scripted.unused == []
    return eff


def state_of(tokens: Mapping[str, str], control: Mapping[str, str] | None = None,
             artillery: Iterable[str] = (), fast: Iterable[str] = ()) -> DRState:
    lists = {t: {"artillery": True} for t in artillery}
    for t in fast:
        lists.setdefault(t, {})["fast"] = True
    return build_state(tokens, control=control, lists=lists)


# --- DR-ORD -------------------------------------------------------------------------------

def test_dr_ord_1_every_token_gets_exactly_one_effective_order() -> None:
    eff = run(state_of({"R-1": "T4", "R-2": "T2", "B-1": "T6"}), M("R-1", "T5"))
    assert eff.orders == {"R-1": M("R-1", "T5"), "R-2": H("R-2"), "B-1": H("B-1")}


def test_dr_ord_2_arrival_order_never_affects_the_result() -> None:
    state = state_of({"R-1": "T4", "R-2": "T2", "B-1": "T6", "B-2": "T9"}, artillery=["R-1", "B-1"])
    gmap = build_map(terrain={"T1": "hills", "T3": "woods"})
    orders = [M("R-1", "T1"), S("R-2", "R-1", "T4", "T1"), M("B-1", "T3"), S("B-2", "B-1")]
    first = effective_orders(state, gmap, RULES, submit(*orders), ScriptedDice([3, 1]))
    backwards = submit(*reversed(orders))
    backwards = dict(reversed(list(backwards.items())))
    dice = ScriptedDice([3, 1])
    second = effective_orders(state, gmap, RULES, backwards, dice)
    assert first == second
    assert [r.purpose for r in dice.log] == ["artillery R-1 T4-T1", "artillery B-1 T6-T3"]
    assert second.stopped == ["B-1"] and second.void_supports == {}


def test_dr_ord_3_token_without_order_holds_without_complaint() -> None:
    eff = run(state_of({"R-1": "T4"}))
    assert eff.orders == {"R-1": H("R-1")} and eff.invalid == {} and eff.submitted == {}


def test_dr_ord_3_invalid_order_holds_with_reason() -> None:
    eff = run(state_of({"R-1": "T4"}), M("R-1", "T9"))
    assert eff.orders["R-1"] == H("R-1")
    assert eff.invalid == {"R-1": "T9 is not next to T4"}
    assert eff.submitted["R-1"] == M("R-1", "T9")


def test_dr_ord_3_order_rejected_on_receipt_is_invalid_at_the_deadline() -> None:
    sent = {"R": FactionOrders(explicit=["R-1"])}
    eff = effective_orders(state_of({"R-1": "T4"}), M1, RULES, sent, ScriptedDice())
    assert eff.orders["R-1"] == H("R-1") and "rejected" in eff.invalid["R-1"]


def test_dr_ord_3_checks_rerun_against_the_state_at_the_deadline() -> None:
    state = state_of({"R-1": "T4", "R-2": "T8"})
    orders = submit(M("R-1", "T5"))
    state.tokens["R-1"].territory = "T1"
    eff = effective_orders(state, M1, RULES, orders, ScriptedDice())
    assert eff.invalid == {"R-1": "T5 is not next to T1"}


def test_dr_ord_4_path_may_not_repeat_or_return_to_start() -> None:
    roads = build_map(roads=[("T1", "T2"), ("T2", "T3")])
    eff = run(state_of({"R-1": "T1", "R-2": "T3"}, fast=["R-1"]), M("R-1", "T2", "T1"), M("R-2", "T2", "T2"),
              gmap=roads)
    assert "returns to T1" in eff.invalid["R-1"] and "twice" in eff.invalid["R-2"]


def test_dr_ord_5_support_of_the_matching_move_is_valid() -> None:
    eff = run(state_of({"R-1": "T4", "R-2": "T2"}), M("R-1", "T5"), S("R-2", "R-1", "T4", "T5"))
    assert eff.void_supports == {} and eff.orders["R-2"] == S("R-2", "R-1", "T4", "T5")


def test_dr_ord_5_support_of_a_move_elsewhere_is_void() -> None:
    eff = run(state_of({"R-1": "T4", "R-2": "T2"}), M("R-1", "T7"), S("R-2", "R-1", "T4", "T5"))
    assert eff.void_supports == {"R-2": "R-1 moves to T7, not T5"}
    assert eff.orders["R-2"].kind == "S"


def test_dr_ord_5_support_of_a_move_by_a_token_that_holds_is_void() -> None:
    eff = run(state_of({"R-1": "T4", "R-2": "T2"}), S("R-2", "R-1", "T4", "T5"))
    assert eff.void_supports == {"R-2": "R-1 is not moving"}


def test_dr_ord_5_support_of_a_foreign_token_invalid_unless_allowed() -> None:
    state = state_of({"R-2": "T2", "B-1": "T6"})
    eff = run(state, M("B-1", "T5"), S("R-2", "B-1", "T6", "T5"))
    assert "own faction" in eff.invalid["R-2"]
    eff = run(state, M("B-1", "T5"), S("R-2", "B-1", "T6", "T5"), rules=rules_with(support={"allow_foreign": True}))
    assert eff.invalid == {} and eff.void_supports == {}


def test_dr_ord_5_g7_support_naming_the_wrong_origin_is_void() -> None:
    eff = run(state_of({"R-1": "T4", "R-2": "T2"}), M("R-1", "T5"), S("R-2", "R-1", "T6", "T5"))
    assert eff.void_supports == {"R-2": "R-1 starts in T4, not T6"}


def test_dr_ord_5_supporter_must_be_next_to_the_destination() -> None:
    eff = run(state_of({"R-1": "T4", "R-2": "T9"}), M("R-1", "T5"), S("R-2", "R-1", "T4", "T5"))
    assert "not next to T5" in eff.invalid["R-2"] and eff.orders["R-2"] == H("R-2")


def test_dr_ord_6_support_hold_of_a_staying_token_is_valid() -> None:
    state = state_of({"R-1": "T5", "R-2": "T2", "R-3": "T4"})
    eff = run(state, S("R-2", "R-1"), S("R-1", "R-3"))
    assert eff.void_supports == {} and eff.invalid == {}


def test_dr_ord_6_support_hold_of_a_moving_token_is_void() -> None:
    eff = run(state_of({"R-1": "T5", "R-2": "T2"}), M("R-1", "T6"), S("R-2", "R-1"))
    assert "moving" in eff.void_supports["R-2"]


def test_dr_ord_6_support_hold_needs_adjacency_and_own_faction() -> None:
    eff = run(state_of({"R-1": "T5", "R-2": "T1", "R-3": "T8", "B-1": "T9"}), S("R-2", "R-1"), S("R-3", "B-1"))
    assert "not next to T5" in eff.invalid["R-2"] and "own faction" in eff.invalid["R-3"]


def test_dr_ord_7_a_token_cannot_support_itself() -> None:
    eff = run(state_of({"R-1": "T5"}), S("R-1", "R-1"))
    assert "itself" in eff.invalid["R-1"]


def test_dr_ord_8_defensive_token_moves_only_into_controlled_territory() -> None:
    state = state_of({"R-D1": "T4"}, control={"T4": "R", "T1": "R"})
    assert "defensive" in run(state, M("R-D1", "T5")).invalid["R-D1"]
    assert run(state, M("R-D1", "T1")).invalid == {}


def test_dr_ord_8_defensive_road_move_needs_every_territory_controlled() -> None:
    roads = build_map(roads=[("T1", "T2"), ("T2", "T3")])
    state = state_of({"R-D1": "T1"}, control={"T1": "R", "T3": "R"})
    assert "T2 is not yours" in run(state, M("R-D1", "T2", "T3"), gmap=roads).invalid["R-D1"]
    state.control["T2"] = "R"
    assert run(state, M("R-D1", "T2", "T3"), gmap=roads).invalid == {}


def test_dr_ord_9_champion_must_be_own_token_at_the_deadline() -> None:
    state = state_of({"R-1": "T4", "B-1": "T6"})
    eff = run(state, Order("R-1", "M", ("T5",), champion="B-1"))
    assert "champion" in eff.invalid["R-1"]


def test_dr_ord_10_effective_orders_after_validation_artillery_and_interception() -> None:
    state = state_of({"B-1": "T1", "G-1": "T5", "R-1": "T6", "R-2": "T7", "B-2": "T4"}, fast=["B-1"],
                     artillery=["R-1"])
    eff = run(state, M("B-1", "T2", "T3", "T4"), M("G-1", "T2"), M("R-1", "T3"), S("R-2", "R-1", "T6", "T3"),
              M("B-2", "T9"), gmap=M2, rules=INTERCEPT, dice=[5])
    assert eff.orders["B-2"] == H("B-2") and "not next to" in eff.invalid["B-2"]   # validation
    assert eff.orders["R-1"] == M("R-1", "T3")                 # artillery 5: goes ahead
    assert eff.orders["B-1"] == M("B-1", "T2")                 # interception
    assert eff.void_supports == {}


# --- DR-SPD ---------------------------------------------------------------------------------

def test_dr_spd_1_one_step_anywhere_but_two_steps_off_road_invalid() -> None:
    state = state_of({"R-1": "T1", "R-2": "T9"})
    eff = run(state, M("R-1", "T2"), M("R-2", "T8", "T7"))
    assert eff.orders["R-1"] == M("R-1", "T2") and "roads" in eff.invalid["R-2"]


def test_dr_spd_2_fast_army_moves_two_over_open_terrain() -> None:
    eff = run(state_of({"R-1": "T1"}, fast=["R-1"]), M("R-1", "T2", "T3"))
    assert eff.orders["R-1"] == M("R-1", "T2", "T3")


@pytest.mark.parametrize("gmap, reason", [
    (build_map(terrain={"T3": "woods"}), "T3 is woods"),
    (build_map(terrain={"T2": "swamp"}), "T2 is swamp"),
    (build_map(rivers=[("T2", "T3")]), "river without a bridge"),
])
def test_dr_spd_2_open_means_clear_and_no_unbridged_river(gmap: GameMap, reason: str) -> None:
    eff = run(state_of({"R-1": "T1"}, fast=["R-1"]), M("R-1", "T2", "T3"), gmap=gmap)
    assert reason in eff.invalid["R-1"]


def test_dr_spd_2_open_terrain_is_configurable() -> None:
    rules = rules_with(movement={"open_terrain": ["clear", "woods"]})
    eff = run(state_of({"R-1": "T1"}, fast=["R-1"]), M("R-1", "T2", "T3"), gmap=build_map(terrain={"T3": "woods"}),
              rules=rules)
    assert eff.invalid == {}


def test_dr_spd_2_only_fast_armies_move_two_over_open_terrain() -> None:
    eff = run(state_of({"R-1": "T1"}), M("R-1", "T2", "T3"))
    assert "fast army" in eff.invalid["R-1"]


def test_dr_spd_3_road_move_two_for_any_token_three_for_a_fast_army() -> None:
    roads = build_map(roads=[("T1", "T2"), ("T2", "T3"), ("T3", "T6")])
    state = state_of({"R-1": "T1", "B-1": "T9"})
    assert run(state, M("R-1", "T2", "T3"), gmap=roads).invalid == {}
    assert "at most 2" in run(state, M("R-1", "T2", "T3", "T6"), gmap=roads).invalid["R-1"]
    fast = state_of({"R-1": "T1"}, fast=["R-1"])
    assert run(fast, M("R-1", "T2", "T3", "T6"), gmap=roads).invalid == {}


def test_dr_spd_4_three_spaces_off_road_invalid_even_for_a_fast_army() -> None:
    eff = run(state_of({"R-1": "T1"}, fast=["R-1"]), M("R-1", "T2", "T3", "T6"))
    assert "at most 2" in eff.invalid["R-1"]


def test_dr_spd_4_mixed_road_and_off_road_two_spaces_invalid_for_infantry() -> None:
    roads = build_map(roads=[("T1", "T2")])
    eff = run(state_of({"R-1": "T1"}), M("R-1", "T2", "T3"), gmap=roads)
    assert "roads" in eff.invalid["R-1"]


def test_dr_spd_4_shorter_than_allowance_always_allowed() -> None:
    roads = build_map(roads=[("T1", "T2"), ("T2", "T3")])
    eff = run(state_of({"R-1": "T1"}, fast=["R-1"]), M("R-1", "T2"), gmap=roads)
    assert eff.invalid == {}


def test_dr_spd_5_road_step_never_difficult_and_road_crosses_river_as_bridge() -> None:
    gmap = build_map(terrain={"T2": "woods"}, rivers=[("T2", "T3")], roads=[("T1", "T2"), ("T2", "T3")])
    state = state_of({"R-1": "T1"}, artillery=["R-1"])
    eff = run(state, M("R-1", "T2", "T3"), gmap=gmap)          # no die scripted: none may be rolled
    assert eff.invalid == {} and eff.artillery == []


def test_dr_spd_6_foreign_token_on_the_path_makes_the_move_invalid() -> None:
    roads = build_map(roads=[("T1", "T2"), ("T2", "T3")])
    eff = run(state_of({"R-1": "T1", "B-1": "T2"}), M("R-1", "T2", "T3"), gmap=roads)
    assert eff.invalid == {"R-1": "cannot pass through T2: B-1 stands there"}
    assert run(state_of({"R-1": "T1", "R-2": "T2"}), M("R-1", "T2", "T3"), gmap=roads).invalid == {}


def test_dr_spd_6_pass_through_foreign_option() -> None:
    roads = build_map(roads=[("T1", "T2"), ("T2", "T3")])
    rules = rules_with(movement={"pass_through_foreign": True})
    assert run(state_of({"R-1": "T1", "B-1": "T2"}), M("R-1", "T2", "T3"), gmap=roads, rules=rules).invalid == {}


def test_dr_spd_7_multi_space_move_counts_only_at_its_destination() -> None:
    roads = build_map(roads=[("T1", "T2"), ("T2", "T3")])
    state = state_of({"R-1": "T1", "R-2": "T5", "R-3": "T6"})
    eff = run(state, M("R-1", "T2", "T3"), S("R-2", "R-1", "T1", "T2"), S("R-3", "R-1", "T1", "T3"), gmap=roads)
    assert eff.orders["R-1"].destination == "T3"
    assert eff.void_supports == {"R-2": "R-1 moves to T3, not T2"}


def test_dr_spd_8_endpoints_crossing_paths_do_not_interact() -> None:
    state = state_of({"B-1": "T1", "G-1": "T5"}, fast=["B-1"])
    eff = run(state, M("B-1", "T2", "T3", "T4"), M("G-1", "T2"), gmap=M2)
    assert eff.orders["B-1"] == M("B-1", "T2", "T3", "T4") and eff.intercepted == {}


def test_dr_spd_9_moves_meeting_only_at_the_destination_are_unchanged() -> None:
    gmap = build_map(roads=[("T1", "T2"), ("T2", "T3"), ("T9", "T6"), ("T6", "T3")])
    state = state_of({"R-1": "T1", "R-2": "T5", "B-1": "T9"})
    eff = run(state, M("R-1", "T2", "T3"), S("R-2", "R-1", "T1", "T3"), M("B-1", "T6", "T3"), gmap=gmap,
              rules=INTERCEPT)
    assert eff.orders["R-1"] == M("R-1", "T2", "T3") and eff.orders["B-1"] == M("B-1", "T6", "T3")
    eff = run(state, M("R-1", "T2", "T3"), S("R-2", "R-1", "T1", "T3"), M("B-1", "T6"), gmap=gmap, rules=INTERCEPT)
    assert eff.intercepted == {}


def test_dr_spd_9_intercept_repeats_until_no_hostile_paths_share_a_territory() -> None:
    gmap = build_map(roads=[("T1", "T2"), ("T2", "T3"), ("T3", "T6"), ("T9", "T6")])
    state = state_of({"R-1": "T1", "G-1": "T9", "B-1": "T5"}, fast=["R-1"])
    eff = run(state, M("R-1", "T2", "T3", "T6"), M("G-1", "T6", "T3"), M("B-1", "T2"), gmap=gmap, rules=INTERCEPT)
    assert eff.orders["R-1"] == M("R-1", "T2")
    assert eff.orders["G-1"] == M("G-1", "T6")               # R-1's path crossed T6 in the same round
    assert eff.orders["B-1"] == M("B-1", "T2")
    assert eff.intercepted == {"R-1": ["T2", "T3", "T6"], "G-1": ["T6", "T3"]}


def test_dr_spd_9_supports_naming_the_old_destination_become_void() -> None:
    gmap = build_map(roads=[("T1", "T2"), ("T2", "T3")])
    state = state_of({"R-1": "T1", "R-2": "T6", "B-1": "T5"})
    eff = run(state, M("R-1", "T2", "T3"), S("R-2", "R-1", "T1", "T3"), M("B-1", "T2"), gmap=gmap, rules=INTERCEPT)
    assert eff.orders["R-1"] == M("R-1", "T2")
    assert eff.void_supports == {"R-2": "R-1 moves to T2, not T3"}


def test_dr_spd_9_friendly_paths_are_not_intercepted() -> None:
    gmap = build_map(roads=[("T1", "T2"), ("T2", "T3")])
    eff = run(state_of({"R-1": "T1", "R-2": "T5"}), M("R-1", "T2", "T3"), M("R-2", "T2"), gmap=gmap, rules=INTERCEPT)
    assert eff.intercepted == {} and eff.orders["R-1"] == M("R-1", "T2", "T3")


def test_dr_spd_10_stopped_multi_space_move_stays_at_its_start() -> None:
    rules = rules_with(movement={"open_terrain": ["clear", "woods"]})
    gmap = build_map(terrain={"T2": "woods", "T3": "woods"})
    state = state_of({"R-1": "T1"}, fast=["R-1"], artillery=["R-1"])
    eff = run(state, M("R-1", "T2", "T3"), gmap=gmap, rules=rules, dice=[1])
    assert eff.orders["R-1"] == H("R-1") and eff.stopped == ["R-1"]
    assert state.tokens["R-1"].territory == "T1"


def test_dr_spd_11_supporter_next_to_the_final_destination_only() -> None:
    gmap = build_map(roads=[("T1", "T2"), ("T2", "T3")])
    state = state_of({"R-1": "T1", "R-2": "T6"})
    eff = run(state, M("R-1", "T2", "T3"), S("R-2", "R-1", "T1", "T3"), gmap=gmap)
    assert eff.invalid == {} and eff.void_supports == {}
    state = state_of({"R-1": "T1", "R-2": "T4"})
    eff = run(state, M("R-1", "T2", "T3"), S("R-2", "R-1", "T1", "T3"), gmap=gmap)
    assert "not next to T3" in eff.invalid["R-2"]


def test_dr_spd_13_defensive_token_is_never_fast_but_may_use_roads() -> None:
    state = state_of({"R-D1": "T1"}, control={t: "R" for t in ("T1", "T2", "T3", "T6")})
    roads = build_map(roads=[("T1", "T2"), ("T2", "T3"), ("T3", "T6")])
    assert run(state, M("R-D1", "T2", "T3"), gmap=roads).invalid == {}
    assert "at most 2" in run(state, M("R-D1", "T2", "T3", "T6"), gmap=roads).invalid["R-D1"]
    assert "fast army" in run(state, M("R-D1", "T2", "T3")).invalid["R-D1"]
    no_roads = rules_with(movement={"defensive_road_moves": False})
    assert "road moves" in run(state, M("R-D1", "T2", "T3"), gmap=roads, rules=no_roads).invalid["R-D1"]


def test_dr_spd_14_fast_army_three_road_steps_legal() -> None:
    eff = run(state_of({"R-1": "T1"}, fast=["R-1"], artillery=["R-1"]), M("R-1", "T2", "T3", "T4"), gmap=SPD14)
    assert eff.orders["R-1"] == M("R-1", "T2", "T3", "T4") and eff.artillery == []


def test_dr_spd_14_infantry_two_road_steps_legal_without_artillery_die() -> None:
    eff = run(state_of({"R-1": "T1"}, artillery=["R-1"]), M("R-1", "T2", "T3"), gmap=SPD14)
    assert eff.orders["R-1"] == M("R-1", "T2", "T3") and eff.artillery == []


def test_dr_spd_14_fast_army_off_road_through_woods_invalid() -> None:
    eff = run(state_of({"R-1": "T1"}, fast=["R-1"]), M("R-1", "T5", "T6"), gmap=SPD14)
    assert eff.orders["R-1"] == H("R-1") and "T5 is woods" in eff.invalid["R-1"]


# --- DR-ART -----------------------------------------------------------------------------------

@pytest.mark.parametrize("terrain", ["woods", "swamp", "hills", "mountain"])
def test_dr_art_1_difficult_territories_roll(terrain: str) -> None:
    eff = run(state_of({"R-1": "T4"}, artillery=["R-1"]), M("R-1", "T5"),
              gmap=build_map(terrain={"T5": terrain}), dice=[4])
    assert [(r.token, r.die, r.failed) for r in eff.artillery] == [("R-1", 4, False)]


def test_dr_art_1_unbridged_river_rolls_but_clear_and_bridged_do_not() -> None:
    state = state_of({"R-1": "T4"}, artillery=["R-1"])
    assert len(run(state, M("R-1", "T5"), gmap=build_map(rivers=[("T4", "T5")]), dice=[2]).artillery) == 1
    assert run(state, M("R-1", "T5")).artillery == []
    bridged = build_map(rivers=[("T4", "T5")], roads=[("T4", "T5")])
    assert run(state, M("R-1", "T5"), gmap=bridged).artillery == []


def test_dr_art_2_only_lists_with_artillery_roll() -> None:
    hills = build_map(terrain={"T5": "hills"})
    assert run(state_of({"R-1": "T4"}), M("R-1", "T5"), gmap=hills).artillery == []
    assert len(run(state_of({"R-1": "T4"}, artillery=["R-1"]), M("R-1", "T5"), gmap=hills, dice=[6]).artillery) == 1


def test_dr_art_3_one_die_per_move_however_many_difficult_steps() -> None:
    rules = rules_with(movement={"open_terrain": ["clear", "woods"]})
    gmap = build_map(terrain={"T2": "woods", "T3": "woods"})
    state = state_of({"R-1": "T1"}, fast=["R-1"], artillery=["R-1"])
    eff = run(state, M("R-1", "T2", "T3"), gmap=gmap, rules=rules, dice=[3])
    assert len(eff.artillery) == 1 and eff.orders["R-1"] == M("R-1", "T2", "T3")


def test_dr_art_3_roll_per_step_option_fails_on_the_first_one() -> None:
    rules = rules_with(movement={"open_terrain": ["clear", "woods"]}, artillery={"roll_per": "step"})
    gmap = build_map(terrain={"T2": "woods", "T3": "woods"})
    state = state_of({"R-1": "T1"}, fast=["R-1"], artillery=["R-1"])
    dice = ScriptedDice([1, 6])
    eff = effective_orders(state, gmap, rules, submit(M("R-1", "T2", "T3")), dice)
    assert [r.die for r in eff.artillery] == [1] and dice.unused == [6]
    assert eff.stopped == ["R-1"]
    eff = run(state, M("R-1", "T2", "T3"), gmap=gmap, rules=rules, dice=[2, 5])
    assert [r.die for r in eff.artillery] == [2, 5] and eff.stopped == []


def test_dr_art_4_stopped_move_holds_and_its_support_is_void() -> None:
    hills = build_map(terrain={"T6": "hills"})
    state = state_of({"R-1": "T5", "R-2": "T3", "B-1": "T6"}, artillery=["R-1"])
    eff = run(state, M("R-1", "T6"), S("R-2", "R-1", "T5", "T6"), gmap=hills, dice=[1])
    assert eff.orders["R-1"] == H("R-1") and eff.stopped == ["R-1"]
    assert eff.void_supports == {"R-2": "R-1's move was stopped by its artillery die"}


def test_dr_art_4_stopped_token_may_receive_hold_support() -> None:
    hills = build_map(terrain={"T6": "hills"})
    state = state_of({"R-1": "T5", "R-2": "T2"}, artillery=["R-1"])
    eff = run(state, M("R-1", "T6"), S("R-2", "R-1"), gmap=hills, dice=[1])
    assert eff.void_supports == {}


def test_dr_art_5_two_to_six_the_move_goes_ahead() -> None:
    hills = build_map(terrain={"T6": "hills"})
    for die in range(2, 7):
        eff = run(state_of({"R-1": "T5"}, artillery=["R-1"]), M("R-1", "T6"), gmap=hills, dice=[die])
        assert eff.orders["R-1"] == M("R-1", "T6") and eff.stopped == []


def test_dr_art_6_no_die_for_holds_supports_road_moves_or_defensive_tokens() -> None:
    gmap = build_map(terrain={t: "hills" for t in ("T1", "T2", "T3", "T5", "T6")}, roads=[("T4", "T5")])
    state = state_of({"R-1": "T1", "R-2": "T2", "R-3": "T4", "R-D1": "T9"}, artillery=["R-1", "R-2", "R-3"],
                     control={"T6": "R", "T9": "R"})
    eff = run(state, H("R-1"), S("R-2", "R-3", "T4", "T5"), M("R-3", "T5"), M("R-D1", "T6"), gmap=gmap)
    assert eff.artillery == [] and eff.invalid == {}


def test_dr_art_7_die_rolled_even_when_the_move_would_fail_anyway() -> None:
    hills = build_map(terrain={"T5": "hills"})
    state = state_of({"R-1": "T4", "R-2": "T5"}, artillery=["R-1"])
    eff = run(state, M("R-1", "T5"), H("R-2"), gmap=hills, dice=[5])
    assert len(eff.artillery) == 1


def test_dr_art_8_stopped_token_was_not_given_a_hold_order() -> None:
    hills = build_map(terrain={"T6": "hills"})
    eff = run(state_of({"R-1": "T5"}, artillery=["R-1"]), M("R-1", "T6"), gmap=hills, dice=[1])
    assert eff.stopped == ["R-1"] and eff.submitted["R-1"] == M("R-1", "T6")
    assert "R-1" not in eff.invalid


def test_dr_art_9_worked_check() -> None:
    hills = build_map(terrain={"T4": "hills"})
    state = state_of({"R-2": "T5", "R-3": "T7"}, artillery=["R-2"])
    orders = (M("R-2", "T4"), S("R-3", "R-2", "T5", "T4"))
    eff = run(state, *orders, gmap=hills, dice=[1])
    assert eff.orders["R-2"] == H("R-2") and "R-3" in eff.void_supports
    eff = run(state, *orders, gmap=hills, dice=[4])
    assert eff.orders["R-2"] == M("R-2", "T4") and eff.void_supports == {}
    road = build_map(terrain={"T4": "hills"}, roads=[("T5", "T4")])
    assert run(state, *orders, gmap=road).artillery == []


def test_dr_gen_4_artillery_dice_in_faction_then_token_order() -> None:
    hills = build_map(terrain={t: "hills" for t in ("T1", "T3", "T7", "T9")})
    state = state_of({"B-1": "T6", "R-2": "T4", "R-1": "T2"}, artillery=["B-1", "R-1", "R-2"])
    dice = ScriptedDice([2, 3, 4])
    effective_orders(state, hills, RULES, submit(M("B-1", "T9"), M("R-2", "T7"), M("R-1", "T1")), dice)
    assert [r.purpose for r in dice.log] == ["artillery R-1 T2-T1", "artillery R-2 T4-T7", "artillery B-1 T6-T9"]


# --- SC-8 and SC-10 ----------------------------------------------------------------------------

def sc8_state(**extra: str) -> DRState:
    tokens = {"B-1": "T1", "G-1": "T5", "R-1": "T6", "R-2": "T7", **extra}
    return state_of(tokens, fast=["B-1"], artillery=["R-1"])


SC8_ORDERS = (M("B-1", "T2", "T3", "T4"), M("G-1", "T2"), M("R-1", "T3"), S("R-2", "R-1", "T6", "T3"))


def test_sc_8_endpoints_artillery_one_stops_r1_and_voids_r2() -> None:
    eff = run(sc8_state(), *SC8_ORDERS, gmap=M2, dice=[1])
    assert eff.orders["R-1"] == H("R-1") and eff.stopped == ["R-1"]
    assert eff.void_supports == {"R-2": "R-1's move was stopped by its artillery die"}
    assert eff.orders["B-1"] == M("B-1", "T2", "T3", "T4") and eff.orders["G-1"] == M("G-1", "T2")
    assert eff.invalid == {} and [(r.token, r.die, r.failed) for r in eff.artillery] == [("R-1", 1, True)]


def test_sc_8_artillery_four_r1_moves_with_support() -> None:
    eff = run(sc8_state(), *SC8_ORDERS, gmap=M2, dice=[4])
    assert eff.orders["R-1"] == M("R-1", "T3") and eff.void_supports == {}
    assert eff.orders["B-1"] == M("B-1", "T2", "T3", "T4")


def test_sc_8_intercept_cuts_b1_back_to_t2() -> None:
    eff = run(sc8_state(), *SC8_ORDERS, gmap=M2, rules=INTERCEPT, dice=[1])
    assert eff.orders["B-1"] == M("B-1", "T2") and eff.orders["G-1"] == M("G-1", "T2")
    assert eff.intercepted == {"B-1": ["T2", "T3", "T4"]}


def test_sc_8_green_token_in_t3_makes_b1_hold() -> None:
    eff = run(sc8_state(**{"G-2": "T3"}), *SC8_ORDERS, gmap=M2, dice=[4])
    assert eff.orders["B-1"] == H("B-1") and "G-2" in eff.invalid["B-1"]


def test_sc_8_infantry_road_move_two_steps_no_artillery_die() -> None:
    state = state_of({"R-3": "T1"}, artillery=["R-3"])
    eff = run(state, M("R-3", "T2", "T3"), gmap=M2)
    assert eff.orders["R-3"] == M("R-3", "T2", "T3") and eff.artillery == []


def sc10_state() -> DRState:
    control = {t: "B" for t in ("T6", "T8", "T9")}
    return build_state({"B-1": "T9", "B-2": "T8", "B-D1": "T6", "R-1": "T5"}, control=control)


def test_sc_10_defensive_move_into_unclaimed_t5_invalid_and_holds() -> None:
    eff = run(sc10_state(), M("B-D1", "T5"), M("R-1", "T6"))
    assert eff.orders["B-D1"] == H("B-D1") and "T5 is not yours" in eff.invalid["B-D1"]
    assert eff.orders["R-1"] == M("R-1", "T6")


def test_sc_10_defensive_hold_is_valid() -> None:
    eff = run(sc10_state(), H("B-D1"), M("R-1", "T6"))
    assert eff.invalid == {} and eff.orders["B-D1"] == H("B-D1")


def test_dr_sup_12_sc_10_defensive_token_supports_an_attack_outside_its_empire() -> None:
    eff = run(sc10_state(), S("B-D1", "B-2", "T8", "T5"), M("B-2", "T5"))
    assert eff.invalid == {} and eff.void_supports == {}
