"""Repairs by holding (DR-REP), with the catalog's SC-12 and its variants."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pbem.kit.orders import OrderProblem
from pbem.kit.roster import Mark, Roster
from pbem.kit.rulebook import RuleBook
from pbem.kit.territories import GameMap
from pbem.rulesets.daemon_rift.losses import GREEN, LOST_ITEM, MISSING, WOUNDS
from pbem.rulesets.daemon_rift.model import (
    DRState,
    FactionOrders,
    RepairItem,
    TurnFacts,
)
from pbem.rulesets.daemon_rift.parse import parse_orders, repair_item
from pbem.rulesets.daemon_rift.repairs import repair_lists, show, wound_cost
from tests.daemon_rift.conftest import build_state, rules_with
from tests.daemon_rift.helpers_movement import Turn
from tests.daemon_rift.helpers_rosters import give, roster

SC12 = """\
U1 infantry 20 Spearmen @10
C1 character Captain @50 W2 | Sword 25
M1 monster Dragon @300 W6
C2 character Hero @60 W2"""


def ledger() -> Roster:
    """SC-12: 3 missing Spearmen, a green Captain whose predecessor lost a 15-point item, a Dragon one wound down."""
    r = roster(SC12)
    give(r, "U1", Mark(MISSING, "", 3, permanent=False))
    give(r, "C1", Mark(GREEN, "", 0))
    give(r, "C1", Mark(LOST_ITEM, "Talisman", 15))
    give(r, "M1", Mark(WOUNDS, "", 1, permanent=False))
    return r


def state_with(r: Roster, tokens: dict[str, str] | None = None) -> DRState:
    state = build_state(tokens or {"R-1": "T5"}, control={"T5": "R"})
    state.lists["R-1"].roster = r
    return state


def plan(r: Roster, text: str) -> list[RepairItem]:
    return [repair_item(r, part) for part in text.split(";")]


def repair(state: DRState, rules: RuleBook, text: str = "", facts: TurnFacts | None = None) -> list[str]:
    r = state.lists["R-1"].roster
    orders = FactionOrders(repairs={"R-1": plan(r, text)} if text else {})
    logs = repair_lists(state, rules, facts or TurnFacts(held=["R-1"]), {"R": orders})
    return [f"{log.token}: spent {log.spent}, lost {log.lost}" for log in logs]


def left(r: Roster, entry: str, kind: str) -> int:
    e = r.get(entry)
    assert e is not None
    return e.total(kind)


# --- SC-12 ------------------------------------------------------------------------------------

def test_sc_12_dr_rep_6_three_models_and_a_15_point_item_use_all_75(rules: RuleBook) -> None:
    state = state_with(ledger())
    assert repair(state, rules, "3 model U1 @10; item C1 @15 Talisman") == ["R-1: spent 75, lost 0"]
    r = state.lists["R-1"].roster
    assert left(r, "U1", MISSING) == 0 and left(r, "C1", LOST_ITEM) == 0 and left(r, "M1", WOUNDS) == 1
    assert [i.name for i in r.get("C1").items] == ["Sword", "Talisman"]      # type: ignore[union-attr]


def test_sc_12_variant_a_dr_rep_10_entry_not_matching_the_ledger_is_skipped(rules: RuleBook) -> None:
    state = state_with(ledger())
    assert repair(state, rules, "4 model U1; item C1 @15") == ["R-1: spent 45, lost 30"]
    assert left(state.lists["R-1"].roster, "U1", MISSING) == 3


def test_sc_12_variant_b_dr_rep_3_dragon_wound_costs_points_over_wounds(rules: RuleBook) -> None:
    state = state_with(ledger())
    assert repair(state, rules, "1 wound M1 @50; 2 model U1") == ["R-1: spent 70, lost 5"]
    r = state.lists["R-1"].roster
    assert left(r, "M1", WOUNDS) == 0 and left(r, "U1", MISSING) == 1


def test_sc_12_variant_c_and_dr_rep_13_a_failed_attack_still_stops_repairs(m1: GameMap, rules: RuleBook) -> None:
    state = state_with(ledger(), {"R-1": "T5", "R-2": "T2", "B-1": "T6"})
    turn = Turn(state, m1, {"R-1": "H", "R-2": "S R-1", "B-1": "M T5"}, rules)
    facts = turn.finish()
    assert state.tokens["R-1"].territory == "T5" and "T5" in facts.attacked
    assert repair(state, rules, "3 model U1", facts) == []


def test_sc_12_variant_d_and_dr_rep_13_artillery_stopped_move_is_no_attack(m1: GameMap, rules: RuleBook) -> None:
    state = state_with(ledger(), {"R-1": "T5", "B-1": "T6"})
    facts = Turn(state, m1, {"R-1": "H", "B-1": "M T5"}, rules, stopped=["B-1"]).finish()
    assert repair(state, rules, "3 model U1", facts) == ["R-1: spent 30, lost 45"]


# --- DR-REP-1: who earns repair points ------------------------------------------------------------

@pytest.mark.parametrize("label,facts,repairs", [
    ("explicit hold", TurnFacts(held=["R-1"]), True),
    ("default hold", TurnFacts(held=["R-1"], default_held=["R-1"]), True),
    ("supported or moved", TurnFacts(stayed=["R-1"]), False),
    ("attacked", TurnFacts(held=["R-1"], attacked=["T5"]), False),
    ("dislodged and retreated", TurnFacts(held=["R-1"], retreated={"R-1": "T4"}), False),
])
def test_dr_rep_1_a_list_token_that_held_and_was_not_attacked_earns_75(rules: RuleBook, label: str,
                                                                       facts: TurnFacts, repairs: bool) -> None:
    state = state_with(ledger())
    assert bool(repair(state, rules, "", facts)) == repairs, label


def test_dr_rep_1_default_hold_option_and_defensive_tokens(rules: RuleBook) -> None:
    state = state_with(ledger())
    strict = rules_with(repair={"default_hold_qualifies": False})
    assert repair(state, strict, "", TurnFacts(held=["R-1"], default_held=["R-1"])) == []
    state = state_with(ledger(), {"R-1": "T5", "R-D1": "T4"})
    assert [log.token for log in repair_lists(state, rules, TurnFacts(held=["R-1", "R-D1"]), {})] == ["R-1"]


def test_dr_ord_9_dr_rep_10_repair_plan_is_read_with_the_orders_and_written_back(m1: GameMap, rules: RuleBook) -> None:
    state = state_with(ledger())
    parsed = parse_orders(state, m1, rules, "R", [(1, "R-1 H"),
                                                  (2, "REPAIR R-1 3 models Spearmen @10; item C1 15 Talisman"),
                                                  (3, "REPAIR R-1 2 model U9")])
    assert parsed.accepted[1] == (2, "REPAIR R-1 3 model U1 @10; item C1 @15 Talisman")
    assert parsed.problems[0].line_no == 3 and "U9" in parsed.problems[0].reason
    from pbem.rulesets.daemon_rift.parse import format_faction_orders
    lines = format_faction_orders(parsed.orders)
    again = parse_orders(state, m1, rules, "R", list(enumerate(lines, start=1)))
    assert again.orders == parsed.orders


def test_dr_ord_9_repair_plan_for_a_defensive_token_is_refused(m1: GameMap, rules: RuleBook) -> None:
    state = state_with(ledger(), {"R-1": "T5", "R-D1": "T4"})
    parsed = parse_orders(state, m1, rules, "R", [(1, "REPAIR R-D1 1 model U1")])
    assert "defensive" in parsed.problems[0].reason


# --- costs and limits ---------------------------------------------------------------------------

def test_dr_rep_2_repairs_act_on_pending_models_wounds_and_lost_items_only(rules: RuleBook) -> None:
    state = state_with(ledger())
    r = state.lists["R-1"].roster
    repair(state, rules, "1 wound C2; 1 model U1")
    assert left(r, "U1", MISSING) == 2                             # C2 has no wound to repair: skipped


def test_dr_rep_3_wound_cost_includes_items_and_stays_an_exact_fraction(rules: RuleBook) -> None:
    r = roster("C1 character Captain @85 W3 | Sword 25")
    assert wound_cost(r.get("C1")) == Fraction(110, 3) and show(Fraction(110, 3)) == "36 2/3"   # type: ignore[arg-type]
    give(r, "C1", Mark(WOUNDS, "", 1, permanent=False))
    state = state_with(r)
    assert repair(state, rules, "1 wound C1 @36 2/3") == ["R-1: spent 36 2/3, lost 38 1/3"]


def test_dr_rep_4_a_wound_over_75_points_can_never_be_repaired(rules: RuleBook) -> None:
    r = roster("M1 monster Great Dragon @480 W6")
    give(r, "M1", Mark(WOUNDS, "", 1, permanent=False))
    state = state_with(r)
    assert repair(state, rules, "1 wound M1") == ["R-1: spent 0, lost 75"]
    assert repair(state, rules) == ["R-1: spent 0, lost 75"]       # automatic allocation skips it too
    assert left(r, "M1", WOUNDS) == 1


def test_dr_rep_5_lost_item_at_three_times_its_points_only_up_to_what_was_lost(rules: RuleBook) -> None:
    state = state_with(ledger())
    r = state.lists["R-1"].roster
    assert repair(state, rules, "item C1 @20 Big Charm") == ["R-1: spent 0, lost 75"]     # worth more than lost
    assert repair(state, rules, "item C1 @10 Charm; item C1 @5 Ring") == ["R-1: spent 45, lost 30"]
    assert [i.name for i in r.get("C1").items] == ["Sword", "Charm", "Ring"]            # type: ignore[union-attr]
    assert left(r, "C1", LOST_ITEM) == 0


def test_dr_rep_7_points_never_carry_over_and_dr_rep_8_every_qualifying_turn_repairs(rules: RuleBook) -> None:
    r = roster("U1 infantry 20 Knights @30")
    give(r, "U1", Mark(MISSING, "", 5, permanent=False))
    state = state_with(r)
    assert repair(state, rules) == ["R-1: spent 60, lost 15"]
    assert repair(state, rules) == ["R-1: spent 60, lost 15"]      # not 75 + 15
    assert left(r, "U1", MISSING) == 1


def test_dr_rep_11_automatic_allocation_in_ledger_order_never_buys_items(rules: RuleBook) -> None:
    state = state_with(ledger())
    r = state.lists["R-1"].roster
    assert repair(state, rules) == ["R-1: spent 30, lost 45"]      # 3 Spearmen; the Dragon's 50 no longer fits
    assert left(r, "C1", LOST_ITEM) == 15 and left(r, "M1", WOUNDS) == 1
    off = rules_with(repair={"auto_allocate": False})
    assert repair(state_with(ledger()), off) == ["R-1: spent 0, lost 75"]     # earned, reported, not spent


def test_dr_rep_1_points_earned_and_not_spent_are_reported_with_the_ledger_still_open() -> None:
    off = rules_with(repair={"auto_allocate": False})
    [log] = repair_lists(state_with(ledger()), off, TurnFacts(held=["R-1"]), {})
    assert (log.token, log.points, log.spent, log.lost, log.applied) == ("R-1", 75, "0", "75", [])
    assert repair_lists(state_with(roster("U1 infantry 20 Knights @30")), off, TurnFacts(held=["R-1"]), {}) == []


def test_dr_rep_12_repairs_change_only_the_ledger_never_the_list_points(rules: RuleBook) -> None:
    state = state_with(ledger())
    before = state.lists["R-1"].points
    repair(state, rules, "3 model U1; item C1 @15")
    assert state.lists["R-1"].points == before == 2250


def test_repair_item_syntax_errors_are_clear() -> None:
    with pytest.raises(OrderProblem, match="a repair entry reads"):
        repair_item(ledger(), "mend the dragon")


# --- options: repair.carry_over, repair.repeatable, repair.wound_cost_rounding ------------------

def repair_kept(state: DRState, rules: RuleBook, facts: TurnFacts | None = None) -> list[str]:
    logs = repair_lists(state, rules, facts or TurnFacts(held=["R-1"]), {})
    return [f"saved {log.saved}, spent {log.spent}, lost {log.lost}, kept {log.kept}" for log in logs]


def test_dr_rep_7_carry_over_option_keeps_unspent_points_for_a_later_hold() -> None:
    carry = rules_with(repair={"carry_over": True})
    r = roster("U1 infantry 20 Knights @30")
    give(r, "U1", Mark(MISSING, "", 5, permanent=False))
    state = state_with(r)
    assert repair_kept(state, carry) == ["saved 0, spent 60, lost 0, kept 15"]
    assert state.lists["R-1"].repair_saved == "15"
    assert repair_kept(state, carry, TurnFacts(held=["R-1"], attacked=["T5"])) == []    # no Hold: nothing lost
    assert repair_kept(state, carry) == ["saved 15, spent 90, lost 0, kept 0"]          # 75 + 15 buy 3 Knights
    assert left(r, "U1", MISSING) == 0 and state.lists["R-1"].repair_saved == "0"


def test_dr_rep_4_with_carry_over_a_wound_over_75_is_repaired_from_saved_points() -> None:
    carry = rules_with(repair={"carry_over": True})
    r = roster("M1 monster Great Dragon @480 W6")
    give(r, "M1", Mark(WOUNDS, "", 1, permanent=False))
    state = state_with(r)
    assert repair_kept(state, carry) == ["saved 0, spent 0, lost 0, kept 75"]
    assert repair_kept(state, carry) == ["saved 75, spent 80, lost 0, kept 70"]
    assert left(r, "M1", WOUNDS) == 0


def test_dr_rep_7_without_carry_over_saved_points_from_an_earlier_setting_are_not_used(rules: RuleBook) -> None:
    state = state_with(ledger())
    state.lists["R-1"].repair_saved = "50"
    assert repair(state, rules) == ["R-1: spent 30, lost 45"]


def test_dr_rep_8_repeatable_false_a_list_repairs_in_one_turn_only() -> None:
    once = rules_with(repair={"repeatable": False})
    r = roster("U1 infantry 20 Knights @30")
    state = state_with(r)
    assert repair_kept(state, once) == []                       # nothing to mend: the one repair is not used up
    give(r, "U1", Mark(MISSING, "", 5, permanent=False))
    state.turn = 4
    assert repair_kept(state, once) == ["saved 0, spent 60, lost 15, kept 0"]
    assert state.lists["R-1"].repaired_turn == 4
    state.turn = 5
    assert repair_kept(state, once) == [] and left(r, "U1", MISSING) == 3
    state.turn = 6
    assert repair_kept(state, rules_with()) == ["saved 0, spent 60, lost 15, kept 0"]    # default: every turn


@pytest.mark.parametrize("rounding,entry,cost", [
    ("none", "C1 character Captain @85 W3 | Sword 25", Fraction(110, 3)),
    ("up", "C1 character Captain @85 W3 | Sword 25", Fraction(37)),
    ("down", "C1 character Captain @85 W3 | Sword 25", Fraction(36)),
    ("nearest", "C1 character Captain @85 W3 | Sword 25", Fraction(37)),
    ("nearest", "C1 character Captain @75 W2", Fraction(38)),            # halves go up
    ("down", "C1 character Captain @75 W2", Fraction(37)),
])
def test_dr_rep_3_wound_cost_rounding_options(rounding: str, entry: str, cost: Fraction) -> None:
    r = roster(entry)
    e = r.get("C1")
    assert e is not None and wound_cost(e, rounding) == cost
    give(r, "C1", Mark(WOUNDS, "", 1, permanent=False))
    state = state_with(r)
    spent = repair_kept(state, rules_with(repair={"wound_cost_rounding": rounding}))
    assert spent == [f"saved 0, spent {show(cost)}, lost {show(75 - cost)}, kept 0"]
