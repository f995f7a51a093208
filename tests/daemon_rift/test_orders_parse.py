"""Parsing order mails (DR-ORD, DR-TRN-2) and retreat answers, and formatting them back."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.kit.orders import AmbiguousOrder, IllegalOrder, InvalidOrder
from pbem.kit.rulebook import RuleBook, load_rules
from pbem.kit.territories import GameMap, load_map
from pbem.rulesets.daemon_rift.model import DRState, FactionOrders, Order
from pbem.rulesets.daemon_rift.parse import (
    DISBAND,
    Parsed,
    format_faction_orders,
    parse_orders,
    parse_retreats,
)
from tests.daemon_rift.conftest import build_map, build_state, rules_with

RULES = load_rules("daemon_rift")
M1 = build_map()
RIFT = load_map(Path(__file__).resolve().parents[2] / "rules" / "maps" / "rift_valley.toml")
ROADS = build_map(roads=[("T1", "T2"), ("T2", "T3"), ("T3", "T6")])


def red_state() -> DRState:
    return build_state({"R-1": "T1", "R-2": "T2", "R-3": "T4", "R-D1": "T7", "B-1": "T6", "B-2": "T9"},
                       control={"T1": "R", "T2": "R", "T4": "R", "T7": "R", "T6": "B", "T8": "B", "T9": "B"})


def parse(*lines: str, state: DRState | None = None, gmap: GameMap = M1, rules: RuleBook = RULES,
          faction: str = "R") -> Parsed:
    return parse_orders(state or red_state(), gmap, rules, faction, list(enumerate(lines, start=1)))


def only_problem(parsed: Parsed) -> InvalidOrder | IllegalOrder | AmbiguousOrder:
    assert len(parsed.problems) == 1, parsed.problems
    problem = parsed.problems[0]
    assert isinstance(problem, (InvalidOrder, IllegalOrder, AmbiguousOrder))
    return problem


# --- DR-ORD-1: the four orders and their spellings -------------------------------------

def test_dr_ord_1_hold_move_support_move_and_support_hold() -> None:
    parsed = parse("R-1 H", "R-2 M T5", "R-3 S R-2 T2-T5", "R-D1 S R-3")
    assert parsed.problems == []
    assert parsed.orders.orders == {
        "R-1": Order("R-1", "H"),
        "R-2": Order("R-2", "M", ("T5",)),
        "R-3": Order("R-3", "S", ("T2", "T5"), target="R-2"),
        "R-D1": Order("R-D1", "S", target="R-3"),
    }
    assert parsed.accepted == [(1, "R-1 H"), (2, "R-2 M T5"), (3, "R-3 S R-2 T2-T5"), (4, "R-D1 S R-3")]


@pytest.mark.parametrize("line", ["R-2 M T5", "r-2 move t5", "R2 -> T5", "R-2 - T5", "R-2->T5", "r2 MOVE t5"])
def test_dr_ord_1_move_spellings(line: str) -> None:
    assert parse(line).orders.orders == {"R-2": Order("R-2", "M", ("T5",))}


@pytest.mark.parametrize("line", ["R-3 S R-2 T2-T5", "R-3 SUPPORT R-2 -> T5", "r3 s r2 T5", "R-3 S R-2 T2 T5",
                                  "R-3 S R-2 T2 -> T5"])
def test_dr_ord_1_support_move_spellings_fill_the_origin(line: str) -> None:
    assert parse(line).orders.orders == {"R-3": Order("R-3", "S", ("T2", "T5"), target="R-2")}


@pytest.mark.parametrize("line", ["R-1 S R-2", "R-1 support r2 hold", "R-1 S R-2 H"])
def test_dr_ord_1_support_hold_spellings(line: str) -> None:
    assert parse(line).orders.orders == {"R-1": Order("R-1", "S", target="R-2")}


@pytest.mark.parametrize("line", ["R-1 H", "R-1 HOLD", "r1 hold", "R-D1 H"])
def test_dr_ord_1_hold_spellings(line: str) -> None:
    parsed = parse(line)
    assert parsed.problems == [] and len(parsed.orders.orders) == 1


# --- DR-ORD-3 / DR-TRN-2: checks before the deadline -------------------------------------

def test_dr_ord_3_invalid_order_reported_with_reason_and_left_out() -> None:
    parsed = parse("R-1 M T9", "R-2 H")
    problem = only_problem(parsed)
    assert isinstance(problem, IllegalOrder)
    assert (problem.line_no, problem.line) == (1, "R-1 M T9")
    assert "not next to" in problem.reason
    assert set(parsed.orders.orders) == {"R-2"}
    assert parsed.orders.explicit == ["R-1", "R-2"]      # the deadline knows R-1's order was rejected


def test_dr_trn_2_token_of_another_faction_rejected() -> None:
    problem = only_problem(parse("B-1 H"))
    assert isinstance(problem, IllegalOrder) and problem.reason == "B-1 is not yours"


def test_dr_trn_2_unknown_token_rejected() -> None:
    problem = only_problem(parse("R-4 H"))
    assert isinstance(problem, IllegalOrder) and "R-4" in problem.reason
    assert "R-1" in problem.suggestion


def test_dr_trn_2_canonical_form_keyed_by_token() -> None:
    parsed = parse("r2 move t5 champion=r3")
    assert parsed.accepted == [(1, "R-2 M T5 champion R-3")]


def test_parse_error_unknown_territory_with_suggestion() -> None:
    problem = only_problem(parse("R-2 M T55"))
    assert isinstance(problem, InvalidOrder)
    assert problem.suggestion == "T5" and "T55" in problem.reason


def test_parse_error_territory_typo_by_name_suggests_it() -> None:
    state = build_state({"R-1": "T24"})
    problem = only_problem(parse("R-1 M Crowfeld", state=state, gmap=RIFT))
    assert isinstance(problem, InvalidOrder) and problem.suggestion == "T8 Crowfield"


def test_parse_error_ambiguous_prefix() -> None:
    state = build_state({"R-1": "T24"})
    problem = only_problem(parse("R-1 M Salt", state=state, gmap=RIFT))
    assert isinstance(problem, AmbiguousOrder)
    assert "T16" in problem.suggestion and "T36" in problem.suggestion


def test_parse_error_non_adjacent_move() -> None:
    problem = only_problem(parse("R-2 M T8"))
    assert isinstance(problem, IllegalOrder) and problem.reason == "T8 is not next to T2"


@pytest.mark.parametrize("line", ["Attack everything!", "R-1 dance", "R-1 M", "R-1 H now", "R-1 S"])
def test_parse_error_garbage_line(line: str) -> None:
    problem = only_problem(parse(line))
    assert isinstance(problem, InvalidOrder) and problem.line == line


def test_names_ids_and_unique_prefixes_resolve_on_the_rift_valley_map() -> None:
    state = build_state({"R-1": "T24"})
    parsed = parse("R-1 M crow", state=state, gmap=RIFT)
    assert parsed.orders.orders["R-1"].path == ("T8",)
    parsed = parse("R-1 M Crowfield - Fallow Vale", state=state, gmap=RIFT)
    assert parsed.orders.orders["R-1"].path == ("T8", "T23")


def test_envelope_commands_pass_through_verbatim() -> None:
    lines = ["CLEAR", "status", "HELP", "PASSWORD hunter2", "RESULT 1 Red massacred", "R-1 H"]
    parsed = parse(*lines)
    assert parsed.problems == []
    assert parsed.commands == lines[:5]
    assert parsed.accepted == [(6, "R-1 H")]


def test_two_orders_for_one_token_later_wins_with_note() -> None:
    parsed = parse("R-2 M T5", "R-1 H", "R-2 H")
    problem = only_problem(parsed)
    assert (problem.line_no, problem.line) == (1, "R-2 M T5")
    assert "line 3" in problem.reason
    assert parsed.orders.orders["R-2"] == Order("R-2", "H")
    assert parsed.accepted == [(2, "R-1 H"), (3, "R-2 H")]


def test_problems_listed_in_line_order() -> None:
    parsed = parse("R-2 M T5", "B-1 H", "R-2 M T9")
    assert [p.line_no for p in parsed.problems] == [1, 2, 3]


# --- DR-ORD-4: paths ---------------------------------------------------------------------

def test_dr_ord_4_path_lists_every_territory_and_may_start_with_the_start() -> None:
    state = build_state({"R-1": "T1"})
    for line in ("R-1 M T2-T3", "R-1 M T1-T2-T3", "R-1 M T2 T3", "R-1 M T2 -> T3"):
        assert parse(line, state=state, gmap=ROADS).orders.orders["R-1"].path == ("T2", "T3")


@pytest.mark.parametrize("line, reason", [
    ("R-1 M T2-T1", "returns to T1"),
    ("R-1 M T2-T3-T2", "enters T2 twice"),
    ("R-1 M T2-T6", "T6 is not next to T2"),
])
def test_dr_ord_4_path_rules(line: str, reason: str) -> None:
    state = build_state({"R-1": "T1"})
    problem = only_problem(parse(line, state=state, gmap=ROADS))
    assert isinstance(problem, IllegalOrder) and reason in problem.reason


def test_dr_spd_4_parse_rejects_two_spaces_off_road() -> None:
    problem = only_problem(parse("R-1 M T4-T5", state=build_state({"R-1": "T1"})))
    assert "roads" in problem.reason


# --- DR-ORD-5/6/7, DR-SPD-11, DR-SUP-2: support checks by position ------------------------

def test_dr_ord_7_cannot_support_itself() -> None:
    problem = only_problem(parse("R-2 S R-2"))
    assert isinstance(problem, IllegalOrder) and "itself" in problem.reason


def test_dr_ord_7_cannot_both_move_and_support() -> None:
    parsed = parse("R-1 M T4", "R-1 S R-2")
    assert parsed.orders.orders == {"R-1": Order("R-1", "S", target="R-2")}
    assert len(parsed.problems) == 1


def test_dr_ord_5_support_of_foreign_token_rejected_unless_allowed() -> None:
    problem = only_problem(parse("R-3 S B-1 T6-T5"))
    assert "own faction" in problem.reason
    parsed = parse("R-3 S B-1 T6-T5", rules=rules_with(support={"allow_foreign": True}))
    assert parsed.problems == [] and parsed.orders.orders["R-3"].target == "B-1"


def test_dr_spd_11_supporter_must_be_next_to_the_destination() -> None:
    problem = only_problem(parse("R-1 S R-2 T2-T5"))
    assert problem.reason == "R-1 in T1 is not next to T5, the destination"


def test_dr_ord_6_support_hold_needs_adjacency() -> None:
    problem = only_problem(parse("R-D1 S R-2"))
    assert "not next to T2" in problem.reason


def test_g7_support_naming_the_wrong_origin_rejected() -> None:
    problem = only_problem(parse("R-3 S R-2 T1-T5"))
    assert problem.reason == "R-2 starts in T2, not T1"


def test_dr_ord_8_defensive_token_move_outside_its_territory_rejected() -> None:
    problem = only_problem(parse("R-D1 M T8"))
    assert "defensive" in problem.reason
    assert parse("R-D1 M T4", state=build_state({"R-D1": "T7"}, control={"T4": "R", "T7": "R"})).problems == []


# --- DR-ORD-9: conditional fields -----------------------------------------------------------

def test_dr_ord_9_champion_on_any_order() -> None:
    parsed = parse("R-2 M T5 CHAMPION R-3", "R-1 H champion=R-2", "R-3 S R-2 T5 champion r1")
    assert parsed.problems == []
    assert [o.champion for o in parsed.orders.orders.values()] == ["R-3", "R-2", "R-1"]


def test_dr_ord_9_champion_must_be_own_token() -> None:
    parsed = parse("R-2 M T5 champion B-1")
    assert "champion B-1" in only_problem(parsed).reason
    assert parsed.orders.orders == {}


def test_dr_ord_9_retreat_ranking() -> None:
    parsed = parse("RETREAT R-1 T4 T2", "retreat r2 T3, T1")
    assert parsed.orders.retreats == {"R-1": ["T4", "T2"], "R-2": ["T3", "T1"]}
    assert parsed.accepted == [(1, "RETREAT R-1 T4 T2"), (2, "RETREAT R-2 T3 T1")]


def test_dr_ord_9_rolloff_requests_by_id_or_name() -> None:
    state = build_state({"R-1": "T1", "B-1": "T9", "G-1": "T5"})
    parsed = parse("ROLLOFF Blue", "rolloff g", "ROLLOFF blue", state=state)
    assert parsed.orders.rolloff_against == ["B", "G"]
    assert "opposing" in only_problem(parse("ROLLOFF Red", state=state)).reason


def test_dr_ord_9_placement_ranking_of_home_territories() -> None:
    parsed = parse("PLACE T2 T4")
    assert parsed.orders.placement == ["T2", "T4"]
    assert "home territories" in only_problem(parse("PLACE T5")).reason


def test_dr_ord_9_removal_ranking() -> None:
    parsed = parse("REMOVE R-3 R2")
    assert parsed.orders.removal == ["R-3", "R-2"]
    assert only_problem(parse("REMOVE B-1")).reason == "B-1 is not yours"


def test_format_faction_orders_round_trips() -> None:
    state = build_state({"R-1": "T1", "R-2": "T2", "R-3": "T4", "R-D1": "T7", "B-1": "T9"},
                        control={"T1": "R", "T2": "R", "T4": "R", "T7": "R"})
    parsed = parse("R-D1 H", "r3 s r2 T5", "R-2 -> T5 champion=R-3", "r1 hold", "REMOVE R-3", "PLACE T1 T4",
                   "ROLLOFF Blue", "RETREAT R-2 T3 T1", state=state)
    lines = format_faction_orders(parsed.orders)
    assert lines == ["R-1 H", "R-2 M T5 champion R-3", "R-3 S R-2 T2-T5", "R-D1 H",
                     "RETREAT R-2 T3 T1", "ROLLOFF B", "PLACE T1 T4", "REMOVE R-3"]
    again = parse(*lines, state=state)
    assert again.problems == [] and again.orders == _same_explicit(parsed.orders, again.orders)


def _same_explicit(original: FactionOrders, reparsed: FactionOrders) -> FactionOrders:
    original.explicit = list(reparsed.explicit)
    return original


# --- window 3 --------------------------------------------------------------------------------

def test_dr_ret_9_retreat_window_answers() -> None:
    state = build_state({"R-1": "T5", "R-2": "T2", "B-1": "T6"})
    options = {"R-1": ["T4", "T8"], "R-2": ["T1", "T3"]}
    chosen, accepted, problems = parse_retreats(state, M1, "R", [(1, "R-1 R T4"), (2, "r2 Disband")], options)
    assert chosen == {"R-1": "T4", "R-2": DISBAND}
    assert accepted == [(1, "R-1 R T4"), (2, "R-2 DISBAND")] and problems == []
    chosen, _, _ = parse_retreats(state, M1, "R", [(1, "R-1 T8")], options)
    assert chosen == {"R-1": "T8"}


def test_dr_ret_9_retreat_window_rejects_what_is_not_allowed() -> None:
    state = build_state({"R-1": "T5", "R-2": "T2", "B-1": "T6"})
    options = {"R-1": ["T4", "T8"]}
    lines = [(1, "R-1 R T6"), (2, "R-2 T1"), (3, "B-1 T9"), (4, "STATUS")]
    chosen, accepted, problems = parse_retreats(state, M1, "R", lines, options)
    assert chosen == {} and accepted == []
    assert [(p.line_no, type(p)) for p in problems] == [(1, IllegalOrder), (2, IllegalOrder), (3, IllegalOrder)]
    assert problems[0].suggestion == "T4, T8"


def test_dr_spd_12_retreat_is_never_multi_space() -> None:
    state = build_state({"R-1": "T5"})
    _, _, problems = parse_retreats(state, M1, "R", [(1, "R-1 R T4 T7")], {"R-1": ["T4"]})
    assert isinstance(problems[0], InvalidOrder)


def test_a_place_written_as_reports_and_suggestions_write_it_is_one_territory() -> None:
    """`did you mean T25 Northmarch?` is followed as written: the id and its name are one place,
    not a path into T25 twice."""
    from pbem.rulesets.daemon_rift.parse import territories
    from pbem.rulesets.daemon_rift.ruleset import campaign_map

    gmap = campaign_map("rift_valley")
    assert territories(gmap, "T25 Northmarch") == ["T25"]
    assert territories(gmap, "t24 highkeep - T25 Northmarch") == ["T24", "T25"]
    assert territories(gmap, "T25 T25") == ["T25", "T25"]          # written twice: still refused later
