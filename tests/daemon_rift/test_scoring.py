"""Victory points (DR-VP) and the final standings, with SC-13's exact numbers."""

from __future__ import annotations

import pytest

from pbem.kit.rulebook import RuleBook
from pbem.kit.territories import GameMap
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.daemon_rift.model import DRState
from pbem.rulesets.daemon_rift.scoring import Score, final_standings, scores
from tests.daemon_rift.conftest import build_map, build_state, rules_with

RED_LAND = ["T1", "T2", "T3", "T4", "T5", "T7", "S1", "O", "X1", "X2"]     # 10, with S1 and O
BLUE_LAND = ["T6", "T8", "T9", "S2", "X3", "X4", "X5", "X6"]               # 8, with S2


def scoring_map() -> GameMap:
    """M1 with the two specials S1, S2 and the objective O placed off the grid."""
    return build_map(extra=["S1", "S2", "O", "X1", "X2", "X3", "X4", "X5", "X6", "Y1"],
                     special=("S1", "S2"), objective="O")


def sc13_state() -> DRState:
    """SC-13 after Step C of turn 15: Red and Blue standing, Green eliminated."""
    control = {t: "R" for t in RED_LAND} | {t: "B" for t in BLUE_LAND} | {"Y1": "Y"}
    state = build_state({"R-1": "T1", "B-1": "T9", "Y-1": "Y1"}, control, turn=15,
                        homes={"R": ("T1", ["T1", "T2", "T4"]), "B": ("T9", ["T9", "T6", "T8"]),
                               "G": ("G0", ["G0"]), "Y": ("Y1", ["Y1"])})
    red, blue = state.factions["R"], state.factions["B"]
    red.defeated, red.defeated_by_rolloff, red.tokens_eliminated = ["B", "G"], ["Y"], 3
    blue.defeated, blue.tokens_eliminated = ["R"], 1
    state.factions["G"].eliminated = True
    state.phase = "over"
    return state


def by_faction(rows: list[Score]) -> dict[str, Score]:
    return {row.faction: row for row in rows}


def test_dr_vp_11_sc_13_final_scores_red_25_blue_13_green_eliminated(rules: RuleBook) -> None:
    rows = final_standings(sc13_state(), scoring_map(), rules)
    table = by_faction(rows)
    assert table["R"].total == 10 + 2 + 4 + 3 * 2 + 3 == 25
    assert table["B"].total == 8 + 2 + 2 + 1 == 13
    assert table["R"].winner and table["R"].rank == 1
    assert not table["B"].winner and table["B"].rank == 2
    assert table["G"].eliminated and table["G"].rank == 0 and not table["G"].winner
    assert [r.faction for r in rows][-1] == "G"


def test_dr_vp_11_sc_13_variant_rolloff_wins_not_counted_red_23() -> None:
    table = by_faction(final_standings(sc13_state(), scoring_map(), rules_with(vp={"rolloff_win_counts": False})))
    assert table["R"].total == 23
    assert table["R"].defeated == ["B", "G"]


def test_dr_vp_8_breakdown_shows_every_part_and_the_defeated_factions(rules: RuleBook) -> None:
    red = by_faction(scores(sc13_state(), scoring_map(), rules))["R"]
    assert (red.territories, red.territory_points) == (10, 10)
    assert (red.specials, red.special_points) == (["S1"], 2)
    assert (red.objective, red.objective_points) == (True, 4)
    assert (red.defeated, red.defeated_by_rolloff, red.defeated_points) == (["B", "G", "Y"], ["Y"], 6)
    assert (red.tokens_eliminated, red.token_points) == (3, 3)


def test_dr_vp_2_one_point_per_territory(rules: RuleBook) -> None:
    state = build_state({"R-1": "T1"}, {"T1": "R", "T3": "R", "T7": "R"})
    assert by_faction(scores(state, scoring_map(), rules))["R"].total == 3


def test_dr_vp_3_specials_add_two_on_top_of_their_territory_point(rules: RuleBook) -> None:
    state = build_state({"R-1": "T1"}, {"T1": "R", "S1": "R", "S2": "R"})
    assert by_faction(scores(state, scoring_map(), rules))["R"].total == 3 + 2 * 2
    plain = rules_with(vp={"specials_additive": False})
    assert by_faction(scores(state, scoring_map(), plain))["R"].total == 1 + 2 * 2


def test_dr_vp_4_main_objective_adds_four_on_top(rules: RuleBook) -> None:
    state = build_state({"R-1": "T1"}, {"T1": "R", "O": "R"})
    row = by_faction(scores(state, scoring_map(), rules))["R"]
    assert (row.total, row.objective_points) == (2 + 4, 4)


def test_dr_vp_5_each_defeated_faction_counts_once(rules: RuleBook) -> None:
    state = build_state({"R-1": "T1"}, {"T1": "R"})
    state.factions["R"].defeated = ["B", "B", "R"]
    state.factions["R"].defeated_by_rolloff = ["B"]
    row = by_faction(scores(state, scoring_map(), rules))["R"]
    assert (row.defeated, row.defeated_points, row.total) == (["B"], 2, 3)


def test_dr_vp_6_one_point_per_enemy_token_eliminated_in_battle(rules: RuleBook) -> None:
    state = build_state({"R-1": "T1"}, {"T1": "R"})
    state.factions["R"].tokens_eliminated = 2
    assert by_faction(scores(state, scoring_map(), rules))["R"].total == 1 + 2


def test_dr_vp_7_defeats_of_a_faction_later_eliminated_still_count(rules: RuleBook) -> None:
    state = sc13_state()
    assert state.factions["G"].eliminated
    assert "G" in by_faction(scores(state, scoring_map(), rules))["R"].defeated


def test_dr_vp_9_level_factions_share_the_place(rules: RuleBook) -> None:
    state = build_state({"R-1": "T1", "B-1": "T9", "G-1": "X1"},
                        {"T1": "R", "T2": "R", "T9": "B", "T8": "B", "X1": "G"})
    rows = final_standings(_over(state), scoring_map(), rules)
    assert [(r.faction, r.rank, r.winner) for r in rows] == [("R", 1, True), ("B", 1, True), ("G", 3, False)]


def test_dr_vp_10_eliminated_faction_has_no_rank_even_with_more_points(rules: RuleBook) -> None:
    state = build_state({"R-1": "T1"}, {"T1": "R"})
    state.factions["B"].eliminated = True
    state.factions["B"].tokens_eliminated = 9
    table = by_faction(final_standings(_over(state), scoring_map(), rules))
    assert table["B"].rank == 0 and not table["B"].winner and table["B"].eliminated
    assert table["R"].rank == 1 and table["R"].winner


def test_dr_vp_1_final_standings_only_after_the_last_step_c(rules: RuleBook) -> None:
    state = build_state({"R-1": "T1"}, {"T1": "R"}, turn=15)
    with pytest.raises(ValueError, match="not over"):
        final_standings(state, scoring_map(), rules)


def test_score_round_trips_through_toml(rules: RuleBook) -> None:
    rows = scores(sc13_state(), scoring_map(), rules)
    assert [from_data(Score, to_data(r)) for r in rows] == rows


def _over(state: DRState) -> DRState:
    state.phase = "over"
    return state
