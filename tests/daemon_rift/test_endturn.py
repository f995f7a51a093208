"""Step C, the end of a turn: control (DR-CTL), token counts (DR-TOK), the replacement
raise (DR-REP-9), provisional scores and the turn counter (DR-GEN-1).

Map M1 is extended with off-grid territories where a scenario needs more land; the
specials S1, S2 and the objective O lie off the grid so that scores match the catalog.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from typing import Any

import pytest
import tomli_w

from pbem.kit.rulebook import RuleBook
from pbem.kit.territories import GameMap
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.daemon_rift.endturn import (
    ControlChange,
    EndOfTurn,
    Placement,
    Removal,
    end_turn,
    entitlement,
)
from pbem.rulesets.daemon_rift.model import (
    LIST_ELIMINATED,
    LIST_SHELVED,
    ArmyList,
    DRState,
    Elimination,
    FactionOrders,
    TurnFacts,
    token_id,
)
from pbem.rulesets.daemon_rift.setup import approve_list
from tests.daemon_rift.conftest import GRID_EDGES, build_map, build_state, rules_with

SCORING = ["S1", "S2", "O"]


def extra(prefix: str, count: int, start: int = 1) -> list[str]:
    return [f"{prefix}{i}" for i in range(start, start + count)]


OFF_GRID = [*extra("X", 20), *extra("B", 20), *extra("R", 5), *extra("G", 3), "Y0", "Y1", "Y2"]


def grid() -> GameMap:
    """M1 plus unconnected off-grid land and the scoring territories S1, S2, O."""
    return build_map(extra=[*OFF_GRID, *SCORING], special=("S1", "S2"), objective="O")


def land(faction: str, *groups: Iterable[str]) -> dict[str, str]:
    return {t: faction for group in groups for t in group}


def run(state: DRState, rules: RuleBook, facts: TurnFacts | None = None,
        prefs: Mapping[str, FactionOrders] | None = None, gmap: GameMap | None = None) -> EndOfTurn:
    return end_turn(state, gmap or grid(), rules, facts or TurnFacts(), dict(prefs or {}))


def counts(report: EndOfTurn) -> dict[str, tuple[int, int, int]]:
    """faction -> (territories, list tokens, defensive tokens) after Step C."""
    return {c.faction: (c.territories, c.list_tokens, c.defensive_tokens) for c in report.counts}


def positions(state: DRState, faction: str) -> dict[str, str]:
    return {t.id: t.territory for t in state.tokens_of(faction)}


def place(territories: list[str]) -> FactionOrders:
    return FactionOrders(placement=territories)


BLUE_HOME = ["T6", "T8", "T9"]
RED_HOME = ["T1", "T2", "T4"]
HOMES = {"R": ("T1", RED_HOME), "B": ("T9", BLUE_HOME)}


def rb_state(tokens: Mapping[str, str], control: Mapping[str, str], *,
             homes: Mapping[str, tuple[str, list[str]]] = HOMES,
             lists: Mapping[str, Mapping[str, Any]] | None = None, turn: int = 3) -> DRState:
    """build_state with only the factions of `homes` in play (Red and Blue by default)."""
    return build_state(tokens, control, homes=homes, lists=lists, turn=turn)


# --- control ------------------------------------------------------------------------

def test_dr_ctl_2_a_token_that_enters_gives_the_territory_to_its_faction(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T5", "B-1": "T9"}, land("R", RED_HOME) | land("B", BLUE_HOME))
    report = run(state, rules, TurnFacts(entered={"R-1": "T5"}))
    assert state.control["T5"] == "R"
    assert report.control_changes == [ControlChange("T5", "", "R", "entered", "R-1")]


def test_dr_ctl_1_dr_ctl_3_enemy_arrival_takes_the_flag_and_empty_land_keeps_it(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T5", "B-1": "T9"}, land("R", RED_HOME) | land("B", BLUE_HOME, ["T5", "T3"]))
    run(state, rules, TurnFacts(entered={"R-1": "T5"}))
    assert state.control["T5"] == "R" and state.control["T3"] == "B"


def test_dr_ctl_4_dr_ctl_11_fast_move_t1_t2_t3_claims_only_t3(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T3", "B-1": "T9"}, land("R", RED_HOME, extra("X", 2)) | land("B", BLUE_HOME))
    del state.control["T2"]
    run(state, rules, TurnFacts(entered={"R-1": "T3"}))
    assert state.control["T3"] == "R" and "T2" not in state.control
    state = rb_state({"R-1": "T3", "B-1": "T9"}, land("R", RED_HOME) | land("B", BLUE_HOME, ["T2"]))
    run(state, rules, TurnFacts(entered={"R-1": "T3"}))
    assert state.control["T3"] == "R" and state.control["T2"] == "B"


def test_dr_ctl_5_dr_ctl_6_dr_ctl_11_retreat_into_t7_claims_nothing_holding_next_turn_does(
        rules: RuleBook) -> None:
    state = rb_state({"R-1": "T1", "B-1": "T7"}, land("R", RED_HOME) | land("B", BLUE_HOME), turn=4)
    run(state, rules, TurnFacts(retreated={"B-1": "T7"}, stayed=["R-1"]))
    assert "T7" not in state.control and state.turn == 5
    run(state, rules, TurnFacts(stayed=["R-1", "B-1"], held=["R-1", "B-1"]))
    assert state.control["T7"] == "B"


def test_dr_ctl_5_retreat_never_claims_even_if_also_reported_as_entering(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T1", "B-1": "T5"}, land("R", RED_HOME) | land("B", BLUE_HOME))
    run(state, rules, TurnFacts(entered={"B-1": "T5"}, retreated={"B-1": "T5"}))
    assert "T5" not in state.control


def test_dr_ctl_6_staying_claims_unless_claim_on_stay_is_off(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T5", "B-1": "T9"}, land("R", RED_HOME) | land("B", BLUE_HOME, ["T5"]))
    report = run(state, rules, TurnFacts(stayed=["R-1"]))
    assert state.control["T5"] == "R" and report.control_changes[0].cause == "stayed"
    state = rb_state({"R-1": "T5", "B-1": "T9"}, land("R", RED_HOME) | land("B", BLUE_HOME, ["T5"]))
    run(state, rules_with(control={"claim_on_stay": False}), TurnFacts(stayed=["R-1"]))
    assert state.control["T5"] == "B"


def test_dr_ctl_7_placing_a_new_token_does_not_change_control(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T1", "B-1": "T9", "B-2": "T4"},
                        land("R", ["T1"], extra("X", 4)) | land("B", ["T2", "T4", "T6", "T8", "T9"]))
    report = run(state, rules)
    assert report.placements == [Placement("R-2", "R", "T2", "new", 2250)]
    assert state.control["T2"] == "B"


def test_dr_ctl_8_control_follows_final_positions_and_empty_land_never_changes(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T5", "B-1": "T3"}, land("R", RED_HOME) | land("B", BLUE_HOME))
    before = dict(state.control)
    run(state, rules, TurnFacts(entered={"R-1": "T5"}, retreated={"B-1": "T3"}))
    assert state.control == before | {"T5": "R"}


def test_dr_ctl_9_territory_where_a_token_was_eliminated_keeps_its_controller(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T5", "B-2": "T9"}, land("R", RED_HOME) | land("B", BLUE_HOME))
    gone = Elimination("B-1", "B", "massacre", "R", "T6")
    report = run(state, rules, TurnFacts(stayed=["R-1"], eliminated=[gone]))
    assert state.control["T6"] == "B"
    assert report.destroyed == [gone]


def test_dr_ctl_10_dr_tok_12_faction_without_originals_is_out_and_its_land_unclaimed(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T6", "B-1": "T3"}, land("R", RED_HOME) | land("B", ["T9", "T3", "X1"]))
    report = run(state, rules, TurnFacts(entered={"R-1": "T6"}))
    assert report.eliminated_factions == []
    state = rb_state({"R-1": "T9", "B-1": "T3"}, land("R", RED_HOME) | land("B", ["T9", "T3", "X1"]))
    report = run(state, rules, TurnFacts(entered={"R-1": "T9"}))
    assert report.eliminated_factions == ["B"] and state.factions["B"].eliminated
    assert state.control == land("R", RED_HOME, ["T9"])
    assert positions(state, "B") == {} and state.lists["B-1"].status == LIST_ELIMINATED
    assert Removal("B-1", "B", "T3", LIST_ELIMINATED, "faction eliminated") in report.removals
    assert {(c.territory, c.cause) for c in report.control_changes} >= {("T3", "faction eliminated"),
                                                                        ("X1", "faction eliminated")}
    assert "B" not in counts(report)


def test_dr_tok_12_option_no_territories_keeps_a_faction_that_holds_other_land() -> None:
    rules = rules_with(elimination={"trigger": "no_territories"})
    state = rb_state({"R-1": "T9", "B-1": "T3"}, land("R", RED_HOME) | land("B", ["T9", "T3"]))
    assert run(state, rules, TurnFacts(entered={"R-1": "T9"})).eliminated_factions == []
    state = rb_state({"R-1": "T9", "B-1": "T3"}, land("R", RED_HOME) | land("B", ["T9"]))
    assert run(state, rules, TurnFacts(entered={"R-1": "T9"})).eliminated_factions == ["B"]


def test_dr_tok_12_an_eliminated_faction_stays_out_in_later_turns(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T1"}, land("R", RED_HOME))
    run(state, rules)
    report = run(state, rules)
    assert state.factions["B"].eliminated and report.eliminated_factions == []
    assert list(counts(report)) == ["R"]


# --- counts and entitlements -----------------------------------------------------------

@pytest.mark.parametrize(("territories", "due"), [
    (0, (0, 0)), (1, (1, 0)), (4, (1, 0)), (5, (2, 0)), (8, (2, 0)), (9, (3, 0)),
    (13, (3, 0)), (14, (3, 1)), (19, (3, 1)), (20, (3, 2)), (40, (3, 2)),
])
def test_dr_tok_2_dr_tok_3_entitlement_by_territory_count(rules: RuleBook, territories: int,
                                                         due: tuple[int, int]) -> None:
    assert entitlement(rules, territories) == due


def test_dr_tok_1_count_is_taken_after_the_control_update(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T5", "B-1": "T9"}, land("R", RED_HOME, ["X1"]) | land("B", BLUE_HOME))
    report = run(state, rules, TurnFacts(entered={"R-1": "T5"}))
    assert counts(report)["R"] == (5, 2, 0)
    assert report.placements == [Placement("R-2", "R", "T1", "new", 2250)]


def test_dr_tok_4_list_and_defensive_tokens_are_topped_up_separately(rules: RuleBook) -> None:
    state = rb_state({"B-1": "T9", "B-2": "B1", "R-1": "T1"},
                        land("B", BLUE_HOME, extra("B", 11)) | land("R", RED_HOME))
    report = run(state, rules)
    assert counts(report)["B"] == (14, 3, 1)
    assert [(p.token, p.territory, p.source) for p in report.placements] == [
        ("B-3", "T6", "new"), ("B-D1", "T8", "defensive")]


# --- removals ---------------------------------------------------------------------------

def test_dr_tok_5_ranked_removal_preference_comes_first_then_the_default(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T1", "R-2": "T2", "R-3": "X1"}, land("R", ["T1", "T2", "T4", "X1"]))
    report = run(state, rules, prefs={"R": FactionOrders(removal=["B-1", "R-1"])})
    assert [(r.token, r.by_preference) for r in report.removals] == [("R-1", True), ("R-3", False)]
    assert positions(state, "R") == {"R-2": "T2"}


def test_dr_tok_5_default_removes_the_farthest_list_token_ties_to_the_higher_slot(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T2", "R-2": "T4", "R-3": "T1"}, land("R", RED_HOME, ["X1", "X2"]))
    report = run(state, rules)
    assert [r.token for r in report.removals] == ["R-2"]


def test_dr_tok_5_defensive_tokens_go_first_highest_number_first(rules: RuleBook) -> None:
    tokens = {"B-1": "T9", "B-2": "T8", "B-3": "T6", "B-D1": "B1", "B-D2": "B2"}
    state = rb_state(tokens, land("B", BLUE_HOME, extra("B", 11)))
    report = run(state, rules, prefs={"B": FactionOrders(removal=["B-3"])})
    assert [r.token for r in report.removals] == ["B-D2"]
    assert counts(report)["B"] == (14, 3, 1)


def test_dr_tok_6_removed_list_is_shelved_with_its_record_and_its_slot_kept(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T1", "R-2": "X1"}, land("R", RED_HOME, ["X1"]),
                        lists={"R-2": {"battles": 3, "declared": ["Grimgor"]}})
    state.factions["B"].tokens_eliminated = 0
    report = run(state, rules)
    shelved = state.lists["R-2"]
    assert report.removals == [Removal("R-2", "R", "X1", LIST_SHELVED, "count")]
    assert (shelved.status, shelved.battles, shelved.declared, shelved.approved) == (
        LIST_SHELVED, 3, ["Grimgor"], True)
    assert state.factions["B"].tokens_eliminated == 0
    state.control["X2"] = "R"
    report = run(state, rules)
    assert report.placements == [Placement("R-2", "R", "T2", "shelved", 2250)]
    assert state.lists["R-2"].battles == 3 and report.lists_requested == []
    assert "R-3" not in state.lists


# --- additions ----------------------------------------------------------------------------

def test_dr_tok_7_list_tokens_take_the_room_before_defensive_tokens(rules: RuleBook) -> None:
    state = rb_state({"B-1": "T9", "B-2": "B1", "R-1": "T8"},
                        land("B", BLUE_HOME, extra("B", 11)) | land("R", RED_HOME))
    report = run(state, rules)
    assert [p.token for p in report.placements] == ["B-3"]
    assert [(d.token, d.source) for d in report.deferred] == [("B-D1", "defensive")]
    assert state.factions["B"].owed_defensive_tokens == 1


def test_dr_tok_8_dr_lst_7_shelved_list_first_then_fresh_replacement_placed_in_slot_order(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T4"}, land("R", RED_HOME, extra("X", 6)))
    state.lists["R-2"] = _list(state, "R", 2, LIST_ELIMINATED)
    state.lists["R-3"] = _list(state, "R", 3, LIST_SHELVED, battles=2)
    report = run(state, rules)
    assert report.placements == [Placement("R-2", "R", "T1", "replacement", 2200),
                                 Placement("R-3", "R", "T2", "shelved", 2250)]
    assert state.lists["R-2"].replacement and state.lists["R-2"].battles == 0
    assert state.lists["R-3"].battles == 2


def test_dr_tok_8_only_the_shelved_list_returns_when_one_token_is_due(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T4"}, land("R", RED_HOME, extra("X", 2)))
    state.lists["R-2"] = _list(state, "R", 2, LIST_ELIMINATED)
    state.lists["R-3"] = _list(state, "R", 3, LIST_SHELVED)
    report = run(state, rules)
    assert [(p.token, p.source) for p in report.placements] == [("R-3", "shelved")]
    assert state.lists["R-2"].status == LIST_ELIMINATED


def test_dr_tok_8_dr_lst_2_eliminated_slot_2200_before_a_lower_unused_slot_2250(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T4"}, land("R", RED_HOME, extra("X", 2)))
    state.lists["R-3"] = _list(state, "R", 3, LIST_ELIMINATED)
    report = run(state, rules)
    assert report.placements == [Placement("R-3", "R", "T1", "replacement", 2200)]
    state.control |= land("R", extra("X", 4, start=3))
    report = run(state, rules)
    assert report.placements == [Placement("R-2", "R", "T2", "new", 2250)]


def test_dr_tok_9_growth_goes_by_preference_else_stronghold_then_lowest_id(rules: RuleBook) -> None:
    def placed(prefs: list[str], tokens: dict[str, str]) -> str:
        state = rb_state(tokens, land("R", RED_HOME, extra("X", 2)) | land("B", BLUE_HOME))
        return run(state, rules, prefs={"R": place(prefs)}).placements[0].territory

    assert placed([], {"R-1": "X1"}) == "T1"
    assert placed(["T4", "T2"], {"R-1": "X1"}) == "T4"
    assert placed(["T4", "T9"], {"R-1": "X1", "B-1": "T4"}) == "T1"
    assert placed([], {"R-1": "T1", "B-1": "T9"}) == "T2"


def test_dr_tok_9_replacement_takes_the_free_stronghold_whatever_the_preference(rules: RuleBook) -> None:
    state = rb_state({"R-1": "X1"}, land("R", RED_HOME))
    state.lists["R-1"].status = LIST_ELIMINATED
    del state.tokens["R-1"]
    report = run(state, rules, prefs={"R": place(["T2"])})
    assert report.placements == [Placement("R-1", "R", "T1", "replacement", 2200)]


def test_dr_tok_9_occupied_stronghold_sends_the_replacement_to_an_adjacent_original(rules: RuleBook) -> None:
    def placed(prefs: list[str]) -> str:
        state = rb_state({"R-1": "T1"}, land("R", RED_HOME, extra("X", 2)))
        state.lists["R-2"] = _list(state, "R", 2, LIST_ELIMINATED)
        return run(state, rules, prefs={"R": place(prefs)}).placements[0].territory

    assert placed(["T4"]) == "T4"
    assert placed([]) == "T2"


def test_dr_tok_9_replacement_never_goes_to_an_original_not_next_to_the_stronghold(rules: RuleBook) -> None:
    homes = {"R": ("T1", ["T1", "T2", "T3"]), "B": ("T9", BLUE_HOME)}
    state = rb_state({"B-1": "T1", "B-2": "T2", "B-3": "T9"}, land("R", ["T1", "T2", "T3"]) |
                        land("B", BLUE_HOME, extra("B", 6)), homes=homes)
    state.lists["R-1"] = _list(state, "R", 1, LIST_ELIMINATED)
    report = run(state, rules, prefs={"R": place(["T3"])})
    assert report.placements == [] and [d.token for d in report.deferred] == ["R-1"]
    assert state.factions["R"].owed_list_tokens == 1


def test_dr_tok_9_control_is_not_required_unless_the_option_says_so(rules: RuleBook) -> None:
    def placed(book: RuleBook) -> str:
        control = land("R", ["T2", "T4"], extra("X", 3)) | land("B", BLUE_HOME, ["T1"])
        state = rb_state({"R-1": "X1", "B-1": "T9"}, control)
        return run(state, book).placements[0].territory

    assert placed(rules) == "T1"
    assert placed(rules_with(placement={"require_control": True})) == "T2"


def test_dr_tok_11_owed_token_is_retried_every_later_step_c(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T1", "B-1": "T2", "B-2": "T4"},
                        land("R", ["T1"], extra("X", 4)) | land("B", BLUE_HOME, extra("B", 2)))
    report = run(state, rules)
    assert report.placements == [] and counts(report)["R"] == (5, 1, 0)
    assert report.counts[0].owed_list == state.factions["R"].owed_list_tokens == 1
    run(state, rules)
    assert state.factions["R"].owed_list_tokens == 1
    state.tokens["B-2"].territory = "T8"
    report = run(state, rules)
    assert report.placements == [Placement("R-2", "R", "T4", "new", 2250)]
    assert state.factions["R"].owed_list_tokens == 0


def test_dr_tok_11_owed_token_lapses_when_the_entitlement_does(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T1", "B-1": "T2", "B-2": "T4"},
                        land("R", ["T1"], extra("X", 4)) | land("B", BLUE_HOME, extra("B", 2)))
    run(state, rules)
    del state.control["X4"]
    state.tokens["B-2"].territory = "T8"
    report = run(state, rules)
    assert report.placements == [] and state.factions["R"].owed_list_tokens == 0


def test_dr_tok_13_defensive_token_is_placed_without_a_list(rules: RuleBook) -> None:
    state = rb_state({"B-1": "T9", "B-2": "B1", "B-3": "B2"}, land("B", BLUE_HOME, extra("B", 11)))
    report = run(state, rules)
    assert report.placements == [Placement("B-D1", "B", "T6", "defensive", 0)]
    assert state.list_of(state.tokens["B-D1"]) is None and "B-D1" not in state.lists


def test_dr_tok_14_added_token_takes_orders_from_the_next_turn(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T1"}, land("R", RED_HOME, extra("X", 2)), turn=6)
    report = run(state, rules)
    assert state.tokens["R-2"].territory == "T2"
    assert state.lists["R-2"].arrival_turn == report.next_turn == state.turn == 7


def test_dr_tok_15_dr_lst_8_new_list_is_requested_then_reminded_until_approved(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T1"}, land("R", RED_HOME, extra("X", 2)))
    first = run(state, rules)
    assert [(r.token, r.points, r.replacement, r.new) for r in first.lists_requested] == [("R-2", 2250, False, True)]
    second = run(state, rules)
    assert [(r.token, r.new) for r in second.lists_requested] == [("R-2", False)]
    approve_list(state, "R-2", name="Second host", artillery=False, fast=False, declared=[])
    assert run(state, rules).lists_requested == []


# --- DR-TOK-16: the four worked checks -------------------------------------------------------

def tok16() -> tuple[DRState, EndOfTurn]:
    """Red grows to 9, Blue drops to 13, Green's G-1 was massacred, Yellow holds no original."""
    homes = {"R": ("T1", ["T1", "T2", "T3"]), "B": ("T9", ["T9", "T6", "B1"]),
             "G": ("T7", ["T7", "T4", "T8"]), "Y": ("Y0", ["Y0", "Y1", "Y2"])}
    control = (land("R", ["T1", "T2", "T3"], extra("R", 5)) | land("B", ["T4", "T6", "T9"], extra("B", 11))
               | land("G", ["T7", "T8"], extra("G", 3)) | land("Y", ["B12"]))
    tokens = {"R-1": "T7", "R-2": "T3", "B-1": "T4", "B-2": "T9", "B-3": "T6", "B-D1": "B1", "Y-1": "B11"}
    state = rb_state(tokens, control, homes=homes)
    state.lists["G-1"] = _list(state, "G", 1, LIST_ELIMINATED)
    gmap = grid()
    facts = TurnFacts(entered={"R-1": "T7", "Y-1": "B11"}, stayed=["R-2", "B-1", "B-2", "B-3", "B-D1"],
                      eliminated=[Elimination("G-1", "G", "massacre", "B", "G1")])
    prefs = {"R": place(["T2"]), "G": place([])}
    return state, run(state, load(), facts, prefs, gmap)


def load() -> RuleBook:
    """The shipped rules, for helpers that run outside a fixture."""
    return rules_with()


def test_dr_tok_16_red_at_9_territories_gets_r3_with_a_new_list_placed_by_preference_in_t2() -> None:
    _, report = tok16()
    assert counts(report)["R"] == (9, 3, 0)
    assert Placement("R-3", "R", "T2", "new", 2250) in report.placements
    assert [(r.token, r.points, r.new) for r in report.lists_requested if r.faction == "R"] == [("R-3", 2250, True)]


def test_dr_tok_16_blue_drops_to_13_and_b_d1_is_removed() -> None:
    state, report = tok16()
    assert counts(report)["B"] == (13, 3, 0)
    assert [r.token for r in report.removals if r.faction == "B"] == ["B-D1"]
    assert "B-D1" not in state.tokens


def test_dr_tok_16_green_replacement_skips_the_red_held_stronghold_and_blue_held_t4_for_t8() -> None:
    state, report = tok16()
    assert counts(report)["G"] == (4, 1, 0)
    assert Placement("G-1", "G", "T8", "replacement", 2200) in report.placements
    assert state.lists["G-1"].points == 2200 and state.lists["G-1"].replacement


def test_dr_tok_16_yellow_with_2_territories_and_no_original_is_eliminated() -> None:
    state, report = tok16()
    assert report.eliminated_factions == ["Y"]
    assert "Y-1" not in state.tokens and "B11" not in state.control and "B12" not in state.control
    assert next(s for s in report.scores if s.faction == "Y").eliminated


def test_end_of_turn_round_trips_through_toml() -> None:
    _, report = tok16()
    assert from_data(EndOfTurn, tomllib.loads(tomli_w.dumps(to_data(report)))) == report


# --- the catalog's scenarios, Step C ------------------------------------------------------------

def sc1(facts: TurnFacts) -> tuple[DRState, EndOfTurn]:
    state = rb_state({"R-1": "T5" if "R-1" in facts.entered else "T4", "B-1": "T6"},
                        land("R", RED_HOME) | land("B", BLUE_HOME),
                        lists={"R-1": {"battles": 1}, "B-1": {"battles": 1}})
    if "R-1" in facts.entered:
        state.factions["R"].defeated = ["B"]
    return state, run(state, load(), facts)


def test_sc_1_dr_ctl_2_dr_vp_8_red_takes_t5_counts_4_and_3_scores_6_and_3() -> None:
    state, report = sc1(TurnFacts(entered={"R-1": "T5"}, stayed=["B-1"]))
    assert state.control["T5"] == "R" and positions(state, "B") == {"B-1": "T6"}
    assert counts(report) == {"R": (4, 1, 0), "B": (3, 1, 0)}
    table = {s.faction: s for s in report.scores}
    assert (table["R"].total, table["B"].total) == (4 + 2, 3)
    assert table["R"].defeated == ["B"] and table["R"].tokens_eliminated == 0


def test_sc_1_variant_draw_t5_stays_unclaimed_and_nobody_scores_a_defeat() -> None:
    state, report = sc1(TurnFacts(stayed=["R-1", "B-1"]))
    assert "T5" not in state.control
    assert counts(report) == {"R": (3, 1, 0), "B": (3, 1, 0)}
    assert [s.total for s in report.scores] == [3, 3]


def sc2(b2: str, blue_tokens: dict[str, str], eliminated: list[Elimination]) -> tuple[DRState, EndOfTurn]:
    gmap = build_map(edges=[*GRID_EDGES, ("T9", "X")], extra=SCORING, special=("S1", "S2"), objective="O")
    state = rb_state({"R-1": "T6", "R-2": "T3", **blue_tokens, "B-2": b2},
                        land("R", ["T1", "T2", "T3", "T4", "T5"]) | land("B", ["T6", "T7", "T8", "T9", "X"]))
    if eliminated:
        state.lists["B-1"] = _list(state, "B", 1, LIST_ELIMINATED)
    facts = TurnFacts(entered={"R-1": "T6"}, stayed=["R-2", "B-2"],
                      retreated={t: w for t, w in blue_tokens.items()}, eliminated=eliminated)
    return state, run(state, load(), facts, gmap=gmap)


def test_sc_2_dr_tok_5_dr_tok_6_blue_at_4_removes_the_farther_b2_and_shelves_list_2() -> None:
    state, report = sc2("T8", {"B-1": "T9"}, [])
    assert state.control["T6"] == "R"
    assert counts(report) == {"R": (6, 2, 0), "B": (4, 1, 0)}
    assert report.removals == [Removal("B-2", "B", "T8", LIST_SHELVED, "count")]
    assert state.lists["B-2"].status == LIST_SHELVED and positions(state, "B") == {"B-1": "T9"}


def test_sc_2_variant_b1_destroyed_blue_keeps_b2_owes_no_replacement_red_scores_no_point() -> None:
    gone = Elimination("B-1", "B", "no-retreat", "", "T6")
    state, report = sc2("T9", {}, [gone])
    assert counts(report)["B"] == (4, 1, 0)
    assert report.placements == [] and report.removals == []
    assert state.lists["B-1"].status == LIST_ELIMINATED and state.factions["B"].owed_list_tokens == 0
    assert next(s for s in report.scores if s.faction == "R").tokens_eliminated == 0


def sc5(massacred: bool) -> tuple[DRState, EndOfTurn]:
    tokens = {"R-1": "T5", "B-1": "T6", "B-2": "T9"} | ({} if massacred else {"R-2": "T3"})
    state = rb_state(tokens, land("R", ["T1", "T2", "T3", "T4", "T5"]) | land("B", BLUE_HOME, ["T7", "X1"]))
    facts = TurnFacts(stayed=list(tokens), held=["B-1"])
    if massacred:
        state.lists["R-2"] = _list(state, "R", 2, LIST_ELIMINATED)
        state.factions["B"].defeated, state.factions["B"].tokens_eliminated = ["R"], 1
        facts.eliminated = [Elimination("R-2", "R", "massacre", "B", "T3")]
    return state, run(state, load(), facts)


def test_sc_5_dr_tok_10_r2_comes_back_at_2200_in_the_empty_stronghold_t1() -> None:
    state, report = sc5(massacred=True)
    assert state.control["T3"] == "R"
    assert counts(report)["R"] == (5, 2, 0)
    assert report.placements == [Placement("R-2", "R", "T1", "replacement", 2200)]
    assert [(r.token, r.points, r.replacement) for r in report.lists_requested] == [("R-2", 2200, True)]
    blue = next(s for s in report.scores if s.faction == "B")
    assert (blue.defeated_points, blue.token_points) == (2, 1)


def test_sc_5_dr_rep_9_next_turn_r2_holds_unattacked_in_t1_and_is_raised_to_2250() -> None:
    state, _ = sc5(massacred=True)
    report = run(state, load(), TurnFacts(stayed=["R-1", "R-2", "B-1", "B-2"], held=["R-1", "R-2"]))
    assert [(r.token, r.from_points, r.to_points) for r in report.raises] == [("R-2", 2200, 2250)]
    assert state.lists["R-2"].points == 2250 and not state.lists["R-2"].replacement


def test_sc_5_variant_massacre_die_5_r2_keeps_its_list_and_nothing_is_added() -> None:
    state, report = sc5(massacred=False)
    assert report.placements == [] and positions(state, "R") == {"R-1": "T5", "R-2": "T3"}


@pytest.mark.parametrize(("label", "facts", "book"), [
    ("attacked", TurnFacts(stayed=["R-2"], held=["R-2"], attacked=["T1"]), {}),
    ("supported instead", TurnFacts(stayed=["R-2"]), {}),
    ("default hold not counted", TurnFacts(stayed=["R-2"], held=["R-2"], default_held=["R-2"]),
     {"repair": {"default_hold_qualifies": False}}),
])
def test_dr_rep_9_no_raise_when_attacked_or_not_holding(label: str, facts: TurnFacts,
                                                        book: dict[str, dict[str, bool]]) -> None:
    state, _ = sc5(massacred=True)
    assert run(state, rules_with(**book), facts).raises == [], label
    assert state.lists["R-2"].points == 2200


def test_dr_rep_9_default_hold_counts_by_default() -> None:
    state, _ = sc5(massacred=True)
    facts = TurnFacts(stayed=["R-2"], held=["R-2"], default_held=["R-2"])
    assert [r.token for r in run(state, load(), facts).raises] == ["R-2"]


def test_dr_rep_9_no_raise_outside_the_stronghold() -> None:
    state, _ = sc5(massacred=True)
    state.tokens["R-2"].territory = "T2"
    assert run(state, load(), TurnFacts(stayed=["R-2"], held=["R-2"])).raises == []


def test_dr_rep_9_arrival_turn_only_unless_first_qualifying_hold_is_chosen() -> None:
    state, _ = sc5(massacred=True)
    run(state, load(), TurnFacts(stayed=["R-2"], attacked=["T1"]))
    late = TurnFacts(stayed=["R-2"], held=["R-2"])
    assert run(state, load(), late).raises == []
    state, _ = sc5(massacred=True)
    book = rules_with(repair={"replacement_raise_when": "first_qualifying_stronghold_hold"})
    run(state, book, TurnFacts(stayed=["R-2"], attacked=["T1"]))
    assert [r.token for r in run(state, book, late).raises] == ["R-2"]


def test_sc_6_dr_ctl_3_chain_t5_stays_red_and_the_retreat_to_t4_claims_nothing() -> None:
    state = rb_state({"R-1": "T5", "R-2": "T4", "R-3": "T2", "B-1": "T6"},
                        land("R", ["T1", "T2", "T4", "T5"], extra("X", 6)) | land("B", BLUE_HOME))
    facts = TurnFacts(entered={"R-1": "T5"}, retreated={"R-2": "T4"}, stayed=["R-3", "B-1"])
    report = run(state, load(), facts)
    assert state.control == land("R", ["T1", "T2", "T4", "T5"], extra("X", 6)) | land("B", BLUE_HOME)
    assert report.control_changes == []


def test_sc_6_variant_circular_moves_t4_becomes_blue() -> None:
    state = rb_state({"R-1": "T5", "R-2": "T2", "R-3": "T1", "B-1": "T4"},
                        land("R", ["T1", "T2", "T4", "T5"], extra("X", 6)) | land("B", BLUE_HOME))
    facts = TurnFacts(entered={"R-1": "T5", "R-2": "T2", "R-3": "T1", "B-1": "T4"})
    report = run(state, load(), facts)
    assert state.control["T4"] == "B"
    assert all(state.control[t] == "R" for t in ("T1", "T2", "T5"))
    assert report.control_changes == [ControlChange("T4", "R", "B", "entered", "B-1")]


def sc10(blue_land: int) -> tuple[DRState, EndOfTurn]:
    tokens = {"B-1": "T9", "B-2": "B2", "B-3": "B1", "B-D1": "T6", "R-1": "T5"}
    state = rb_state(tokens, land("B", BLUE_HOME, extra("B", blue_land - 3)) | land("R", RED_HOME))
    return state, run(state, load(), TurnFacts(stayed=list(tokens)))


def test_sc_10_dr_tok_4_blue_at_13_loses_b_d1() -> None:
    _, report = sc10(13)
    assert counts(report)["B"] == (13, 3, 0)
    assert report.removals == [Removal("B-D1", "B", "T6", "", "count")]


def test_sc_10_variant_blue_at_20_keeps_b_d1_and_places_b_d2_in_empty_t8() -> None:
    state, report = sc10(20)
    assert counts(report)["B"] == (20, 3, 2)
    assert report.placements == [Placement("B-D2", "B", "T8", "defensive", 0)]
    assert state.tokens["B-D1"].territory == "T6"


# --- the turn counter ------------------------------------------------------------------------

def test_dr_gen_1_step_c_opens_the_next_turns_orders_window(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T1"}, land("R", RED_HOME), turn=14)
    state.phase = "retreats"
    report = run(state, rules)
    assert (state.turn, state.phase, report.turn, report.next_turn, report.final) == (15, "orders", 14, 15, False)


def test_dr_gen_1_dr_vp_1_after_turn_15_the_campaign_is_over_with_final_standings(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T1", "B-1": "T9"}, land("R", RED_HOME, ["X1"]) | land("B", BLUE_HOME), turn=15)
    report = run(state, rules)
    assert (state.phase, state.turn, report.final, report.next_turn, report.phase) == ("over", 15, True, 0, "over")
    assert [(s.faction, s.rank, s.winner) for s in report.scores] == [("R", 1, True), ("B", 2, False)]
    with pytest.raises(ValueError, match="over"):
        run(state, rules)


def test_dr_set_5_no_step_c_before_every_list_1_is_approved(rules: RuleBook) -> None:
    state = rb_state({"R-1": "T1"}, land("R", RED_HOME), turn=1)
    state.phase = "lists"
    with pytest.raises(ValueError, match="lists"):
        run(state, rules)


def test_dr_gen_1_campaign_length_comes_from_campaign_turns() -> None:
    state = rb_state({"R-1": "T1"}, land("R", RED_HOME), turn=3)
    run(state, rules_with(campaign={"turns": 3}))
    assert state.phase == "over"


# --- helpers ------------------------------------------------------------------------------------

def _list(state: DRState, faction: str, slot: int, status: str, battles: int = 1) -> ArmyList:
    """An approved list in a slot with no token on the map (shelved or eliminated)."""
    assert token_id(faction, slot) not in state.tokens
    return ArmyList(faction, slot, status=status, name=f"{faction} list {slot}", approved=True, battles=battles)
