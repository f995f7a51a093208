"""DR-MOV and DR-GEN-2..5: contests, vacated territories, swaps and dice order."""

from __future__ import annotations

import pytest

from pbem.rulesets.daemon_rift.aftermath import AdjudicationError, finish_turn_moves
from pbem.rulesets.daemon_rift.model import BattleResult

from .conftest import GRID_EDGES, build_map, build_state, rules_with
from .helpers_movement import Turn


def run(tokens: dict[str, str], orders: dict[str, str], **kw: object) -> Turn:
    control = kw.pop("control", None)
    return Turn(build_state(tokens, control=control), kw.pop("gmap", None) or build_map(), orders, **kw)  # type: ignore[arg-type]


def test_dr_mov_1_dr_mov_5_two_supports_make_three_and_win_without_battle() -> None:
    turn = run({"R-1": "T4", "R-2": "T2", "R-3": "T8", "B-1": "T5", "B-2": "T6"},
               {"R-1": "M T5", "R-2": "S R-1 T4-T5", "R-3": "S R-1 T4-T5", "B-2": "S B-1"})
    contest = turn.contest("T5")
    assert [s.strength for s in contest.sides] == [2, 3] and contest.outcome == "occupied"


@pytest.mark.parametrize("row, orders, outcome", [
    ("1v1", {"R-1": "M T5"}, "battle"),
    ("2v1", {"R-1": "M T5", "R-2": "S R-1 T4-T5"}, "occupied"),
    ("2v2", {"R-1": "M T5", "R-2": "S R-1 T4-T5", "B-2": "S B-1"}, "battle"),
    ("3v2", {"R-1": "M T5", "R-2": "S R-1 T4-T5", "R-3": "S R-1 T4-T5", "B-2": "S B-1"}, "occupied"),
])
def test_dr_mov_11_dr_mov_6_strength_table_against_defender(row: str, orders: dict[str, str], outcome: str) -> None:
    turn = run({"R-1": "T4", "R-2": "T2", "R-3": "T8", "B-1": "T5", "B-2": "T6"}, orders)
    assert turn.contest("T5").outcome == outcome, row


@pytest.mark.parametrize("extra, orders, outcome, fates", [
    ({}, {"R-1": "M T5", "B-1": "M T5"}, "standoff", {"G-1": "stays"}),
    ({"R-2": "T2"}, {"R-1": "M T5", "R-2": "S R-1 T4-T5", "B-1": "M T5"}, "occupied",
     {"G-1": "dislodged", "B-1": "failed"}),
    ({"R-2": "T2", "B-2": "T8"}, {"R-1": "M T5", "R-2": "S R-1 T4-T5", "B-1": "M T5", "B-2": "S B-1 T6-T5"},
     "battle", {"G-1": "unless-draw"}),
    ({"G-2": "T8"}, {"R-1": "M T5", "B-1": "M T5", "G-2": "S G-1"}, "held", {"R-1": "failed", "B-1": "failed"}),
])
def test_dr_mov_11_dr_mov_10_three_sided_table(extra: dict[str, str], orders: dict[str, str], outcome: str,
                                               fates: dict[str, str]) -> None:
    turn = run({"R-1": "T4", "B-1": "T6", "G-1": "T5", **extra}, orders)
    assert turn.contest("T5").outcome == outcome
    assert {t: turn.movement.fates[t] for t in fates} == fates


def test_dr_mov_11_entrant2_entrant2_defender1_battle_between_entrants_defender_dislodged() -> None:
    turn = run({"R-1": "T4", "R-2": "T2", "B-1": "T6", "B-2": "T8", "G-1": "T5"},
               {"R-1": "M T5", "R-2": "S R-1 T4-T5", "B-1": "M T5", "B-2": "S B-1 T6-T5"}, control={"T8": "G"})
    (battle,) = turn.movement.battles
    assert {s.token for s in battle.sides} == {"R-1", "B-1"}
    after = turn.results(BattleResult(1, "B"))
    assert after.fates["G-1"] == "retreat" and after.fates["B-1"] == "entered"


def test_dr_mov_8_entrant2_entrant2_draw_defender_stays() -> None:
    turn = run({"R-1": "T4", "R-2": "T2", "B-1": "T6", "B-2": "T8", "G-1": "T5"},
               {"R-1": "M T5", "R-2": "S R-1 T4-T5", "B-1": "M T5", "B-2": "S B-1 T6-T5"})
    after = turn.results(BattleResult(1, ""))
    assert after.fates == {**after.fates, "G-1": "stayed", "R-1": "returned", "B-1": "returned"}


def test_dr_mov_7_dr_mov_29_winning_entrant_occupies_losing_defender_dislodged() -> None:
    turn = run({"R-2": "T5", "B-1": "T6"}, {"R-2": "M T6"}, control={"T9": "B"})
    after = turn.results(BattleResult(1, "R"))
    assert after.fates == {"R-2": "entered", "B-1": "retreat"}
    assert after.retreats[0].options == ["T9"]


def test_dr_mov_29_dr_mov_20_massacred_entrant_leaves_start_empty_for_retreats() -> None:
    turn = run({"R-2": "T5", "B-1": "T6"}, {"R-2": "M T6"}, dice=[1])
    after = turn.results(BattleResult(1, "B", massacred=True))
    assert after.fates["R-2"] == "eliminated" and "R-2" not in turn.state.tokens
    facts = turn.finish()
    assert facts.stayed == ["B-1"]


def test_dr_mov_3_dr_mov_2_move_into_own_defender_fails_yet_start_is_vacated() -> None:
    turn = run({"R-1": "T4", "R-2": "T5", "B-1": "T1"}, {"R-1": "M T5", "B-1": "M T4"})
    assert turn.contest("T5").excluded[0].reason.startswith("own defender")
    assert turn.movement.battles == []
    after = turn.results()
    assert after.fates == {"R-1": "retreat", "R-2": "stayed", "B-1": "entered"}


def test_dr_mov_2_dr_mov_4_dr_mov_14_vacated_territory_taken_whatever_the_leaver_does() -> None:
    turn = run({"R-1": "T4", "R-2": "T5", "B-1": "T6"}, {"R-1": "M T5", "R-2": "M T6"})
    assert turn.movement.fates["R-1"] == "entered"
    after = turn.results(BattleResult(1, "B"))
    assert after.fates["R-2"] == "retreat"


def test_dr_mov_12_dr_mov_13_dr_mov_15_dr_mov_21_contested_link_draw_lets_leaver_return() -> None:
    tokens = {"R-1": "T4", "G-1": "T2", "R-2": "T5", "B-1": "T6"}
    orders = {"R-1": "M T5", "G-1": "M T5", "R-2": "M T6"}
    turn = run(tokens, orders)
    assert [b.territory for b in turn.movement.battles] == ["T5", "T6"]
    after = turn.results(BattleResult(1, ""), BattleResult(2, "B"))
    assert after.fates["R-2"] == "returned" and after.final["R-2"] == "T5"
    turn = run(tokens, orders)
    after = turn.results(BattleResult(1, "G"), BattleResult(2, "B"))
    assert after.fates["R-2"] == "retreat" and after.fates["G-1"] == "entered"


def test_dr_mov_16_circular_three_tokens_mixed_factions() -> None:
    turn = run({"R-1": "T1", "B-1": "T2", "G-1": "T5", "R-2": "T4"}, {"R-1": "M T2", "B-1": "M T5", "G-1": "M T4",
                                                                     "R-2": "M T1"})
    turn.finish()
    assert turn.where() == {"R-1": "T2", "B-1": "T5", "G-1": "T4", "R-2": "T1"}


def test_dr_mov_16_loop_contested_by_outsider() -> None:
    turn = run({"R-1": "T1", "R-2": "T2", "R-3": "T4", "B-1": "T3"},
               {"R-1": "M T2", "R-2": "M T1", "B-1": "M T2"})
    assert turn.movement.battles[0].territory == "T2"


def test_dr_mov_17_friendly_swap_both_succeed() -> None:
    turn = run({"R-1": "T4", "R-2": "T5"}, {"R-1": "M T5", "R-2": "M T4"})
    turn.finish()
    assert turn.where() == {"R-1": "T5", "R-2": "T4"}


def test_dr_mov_17_friendly_swap_forbidden_option() -> None:
    turn = run({"R-1": "T4", "R-2": "T5"}, {"R-1": "M T5", "R-2": "M T4"},
               rules=rules_with(movement={"allow_friendly_swap": False}))
    turn.finish()
    assert turn.where() == {"R-1": "T4", "R-2": "T5"}


def test_dr_mov_18_two_tokens_in_one_territory_stop_processing() -> None:
    turn = run({"R-1": "T4", "B-1": "T6"}, {"R-1": "M T5"})
    after = turn.results()
    after.final["B-1"] = "T5"
    with pytest.raises(AdjudicationError, match="DR-MOV-18"):
        finish_turn_moves(turn.state, turn.gmap, turn.rules, turn.movement, after, {})


def test_dr_mov_19_dr_sup_6_supporter_losing_battle_keeps_support() -> None:
    gmap = build_map(edges=[*GRID_EDGES, ("T8", "T3")])
    turn = run({"R-1": "T5", "R-2": "T3", "R-3": "T2", "B-1": "T6", "B-2": "T8"},
               {"R-1": "M T6", "R-2": "S R-1 T5-T6", "R-3": "S R-2", "B-1": "M T3", "B-2": "S B-1 T6-T3"}, gmap=gmap)
    kinds = {b.territory: b.kind for b in turn.movement.battles}
    assert kinds == {"T3": "tabletop"} and turn.contest("T6").outcome == "occupied"
    after = turn.results(BattleResult(1, "B"))
    assert after.fates["R-1"] == "entered" and after.fates["R-2"] == "retreat" and after.fates["B-1"] == "entered"


def test_dr_mov_22_dr_mov_23_enemy_swap_draw_both_stay() -> None:
    turn = run({"R-1": "T5", "B-1": "T6"}, {"R-1": "M T6", "B-1": "M T5"}, dice=[2])
    assert turn.movement.battles[0].swap_territories == ["T5", "T6"]
    turn.results(BattleResult(1, ""))
    facts = turn.finish()
    assert turn.where() == {"R-1": "T5", "B-1": "T6"} and sorted(facts.stayed) == ["B-1", "R-1"]


def test_dr_mov_24_dr_mov_22_swap_loser_cannot_retreat_to_winner_start() -> None:
    turn = run({"R-1": "T5", "B-1": "T6"}, {"R-1": "M T6", "B-1": "M T5"}, dice=[1])
    assert turn.movement.battles[0].terrain_die == 1
    after = turn.results(BattleResult(1, "R"))
    assert "T5" not in after.retreats[0].options


def test_dr_mov_25_swap_on_strength_follow_up_battle_in_step_a() -> None:
    turn = run({"R-1": "T5", "R-2": "T3", "B-1": "T6", "G-1": "T8", "G-2": "T7"},
               {"R-1": "M T6", "R-2": "S R-1 T5-T6", "B-1": "M T5", "G-1": "M T5"})
    swap = next(c for c in turn.movement.contests if c.kind == "swap")
    assert swap.winner == "R-1"
    turn = run({"R-1": "T5", "B-1": "T6", "B-2": "T4", "G-1": "T8"},
               {"R-1": "M T6", "B-1": "M T5", "B-2": "S B-1 T6-T5", "G-1": "M T5"})
    follow = turn.contest("T5")
    assert follow.kind == "follow-up" and follow.outcome == "occupied" and follow.winner == "B-1"
    turn = run({"R-1": "T5", "B-1": "T6", "B-2": "T2", "G-1": "T8", "G-2": "T4"},
               {"R-1": "M T6", "B-1": "M T5", "B-2": "S B-1 T6-T5", "G-1": "M T5", "G-2": "S G-1 T8-T5"})
    assert turn.contest("T5").outcome == "battle" and turn.movement.dependents == []


def test_dr_mov_26_token_in_one_battle_not_eligible_as_champion_elsewhere() -> None:
    turn = run({"R-1": "T5", "R-2": "T3", "B-1": "T6", "B-2": "T9", "B-3": "T2"},
               {"R-1": "M T6 champion R-2", "R-2": "S R-1 T5-T6", "B-2": "S B-1", "B-3": "M T3"})
    battles = {b.territory: b for b in turn.movement.battles}
    assert "T6" not in battles or battles["T6"].side_of("R").champion != "R-2"


def test_dr_mov_26_champion_used_once() -> None:
    turn = run({"R-1": "T5", "R-2": "T8", "R-3": "T3", "B-1": "T6", "B-2": "T9", "B-3": "T4", "B-D1": "T7"},
               {"R-1": "M T6 champion R-2", "R-2": "S R-1 T5-T6", "R-3": "S R-1 T5-T6",
                "B-2": "S B-1", "B-D1": "S B-1 T6-T4"})
    champions = [s.champion for b in turn.movement.battles for s in b.sides]
    assert len(champions) == len(set(champions))


def test_dr_mov_27_dr_rol_7_dependent_contest_standoff_option() -> None:
    turn = Turn(build_state({"R-1": "T5", "B-1": "T6", "G-1": "T2"}), build_map(),
                {"R-1": "M T6", "B-1": "M T5", "G-1": "M T5"}, dice=[2],
                rules=rules_with(battle={"dependent_contest": "standoff"}))
    after = turn.results(BattleResult(1, "B"))
    assert after.dependents[0].outcome == "standoff" and after.fates["G-1"] == "returned"


def test_dr_mov_28_diplomacy_vacated_entry_occupant_fails_and_defends() -> None:
    rules = rules_with(movement={"vacated_entry": "diplomacy"})
    turn = run({"R-1": "T4", "R-2": "T5", "R-3": "T3", "B-1": "T6", "B-2": "T9"},
               {"R-1": "M T5", "R-2": "M T6", "B-2": "S B-1"}, rules=rules)
    assert turn.movement.fates["R-2"] == "failed"
    assert turn.contest("T5").excluded[0].reason.startswith("own defender")
    turn.finish()
    assert turn.where()["R-1"] == "T4" and turn.where()["R-2"] == "T5"


def test_dr_mov_28_diplomacy_dependent_on_battle_and_circular() -> None:
    rules = rules_with(movement={"vacated_entry": "diplomacy"})
    turn = run({"G-1": "T4", "R-2": "T5", "B-1": "T6"}, {"G-1": "M T5", "R-2": "M T6"}, rules=rules, dice=[4])
    assert turn.movement.dependents[0].mode == "vacated"
    after = turn.results(BattleResult(1, "B"))
    assert after.dependents[0].outcome == "rolloff" and after.dependents[0].favoured == "R"
    turn = run({"R-1": "T4", "R-2": "T5", "B-1": "T2", "B-2": "T1"},
               {"R-1": "M T5", "R-2": "M T2", "B-1": "M T1", "B-2": "M T4"}, rules=rules)
    turn.finish()
    assert turn.where() == {"R-1": "T5", "R-2": "T2", "B-1": "T1", "B-2": "T4"}


def test_dr_gen_2_step_b_needs_every_tabletop_result() -> None:
    turn = run({"R-1": "T4", "B-1": "T6"}, {"R-1": "M T5", "B-1": "M T5"})
    with pytest.raises(AdjudicationError, match="no result"):
        turn.results()


def test_dr_gen_3_dr_gen_4_dr_gen_5_dice_order_and_log() -> None:
    state = build_state({"R-1": "T5", "B-1": "T6", "G-1": "T2", "R-2": "T8", "B-2": "T9"})
    from pbem.rulesets.daemon_rift.model import PairBattle
    state.battles_fought = [PairBattle(1, ["B", "R"]), PairBattle(2, ["B", "R"])]
    turn = Turn(state, build_map(), {"R-1": "M T6", "B-1": "M T5", "G-1": "M T5", "R-2": "M T9"}, dice=[5, 5, 2])
    assert [r.purpose.split(",")[0] for r in turn.dice.log] == ["roll-off", "roll-off"]
    assert [b.territory for b in turn.movement.battles] == ["T5", "T9"]
    assert all(r.sides == 6 and len(r.faces) == 1 for r in turn.dice.log)
    turn.results()
    assert turn.dice.log[-1].purpose.startswith("dependent roll-off")
