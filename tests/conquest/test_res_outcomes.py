"""COC-RES: sorting a land battle's facts into categories, EP per battle and per round."""

from __future__ import annotations

import pytest

from pbem.rulesets.conquest import rules as rulesmod
from pbem.rulesets.conquest.model import DRAW, HIGHER_VP, LOSE, MAJOR, MASSACRE, MINOR
from pbem.rulesets.conquest.outcomes import (
    ResultRules,
    SideFacts,
    average_ep,
    battle_ep,
    classify,
    member_ep,
    round_ep,
)

RULES = ResultRules.from_book(rulesmod.load())


def fight(cara: SideFacts, ben: SideFacts, teams: tuple[str, ...] = ()) -> tuple[str, str, int, int]:
    out = classify({"attacker": cara, "defender": ben}, RULES, teams)
    return out.categories["attacker"], out.categories["defender"], out.base_ep["attacker"], out.base_ep["defender"]


def cara_ben(lost: int, cara_vp: int = 620, ben_vp: int = 310, withdrew: str = "ben") -> tuple[str, str, int, int]:
    return fight(SideFacts(cara_vp, 8, lost, withdrew == "cara"), SideFacts(ben_vp, 9, 4, withdrew == "ben"))


def test_coc_res_1_ep_table() -> None:
    assert RULES.ep == {LOSE: 1, DRAW: 2, MINOR: 3, MAJOR: 4, MASSACRE: 5}


@pytest.mark.clause("COC-RES-7")
@pytest.mark.clause("COC-RES-8")
@pytest.mark.clause("COC-RES-9")
def test_sc_6_cases_a_to_c_and_coc_res_10_worked_check() -> None:
    assert cara_ben(2) == (MASSACRE, LOSE, 5, 1)
    assert cara_ben(3) == (MAJOR, LOSE, 4, 1)
    assert cara_ben(5) == (MINOR, LOSE, 3, 1)
    assert [cara_ben(n)[0] for n in range(9)] == [MASSACRE] * 3 + [MAJOR] * 2 + [MINOR] * 4


def test_coc_res_5_sc_6_case_d_withdrawing_side_with_more_vp_draws() -> None:
    assert cara_ben(0, 620, 700) == (DRAW, DRAW, 2, 2)


def test_coc_res_2_withdrawing_side_with_fewer_vp_loses() -> None:
    cat_cara, cat_ben, _, ep_ben = cara_ben(5)
    assert cat_ben == LOSE and ep_ben == 1 and cat_cara == MINOR


def test_coc_res_3_coc_res_6_sc_6_case_e_no_withdrawal() -> None:
    assert cara_ben(0, 500, 450, withdrew="") == (HIGHER_VP, LOSE, 2, 1)
    out = classify({"attacker": SideFacts(500, 8), "defender": SideFacts(450, 9)}, RULES)
    assert not out.won["attacker"] and out.winner() == ""              # may not conquer or plunder Ben


def test_coc_res_4_surrender_scored_as_withdrawal_with_fewer_vp() -> None:
    out = classify({"attacker": SideFacts(100, 8, 1), "defender": SideFacts(900, 9, 0, surrendered=True)}, RULES)
    assert out.categories == {"attacker": MASSACRE, "defender": LOSE} and out.won["attacker"]


def test_coc_res_11_equal_vp_is_a_draw() -> None:
    assert cara_ben(0, 400, 400) == (DRAW, DRAW, 2, 2)
    assert cara_ben(0, 400, 400, withdrew="") == (DRAW, DRAW, 2, 2)


@pytest.mark.clause("COC-RES-14")
def test_coc_res_12_coc_res_13_sc_6_team_case() -> None:
    team = SideFacts(800, 10, 2)
    out = classify({"attacker": team, "defender": SideFacts(300, 9, 6, withdrew=True)}, RULES, ("attacker",))
    assert out.categories["attacker"] == MASSACRE                         # 2 <= 2.5 on the combined break point
    ep = battle_ep(out, {"attacker": ["andy", "phil"], "defender": ["bob"]}, RULES)
    assert ep == {"andy": 4, "phil": 4, "bob": 1}
    killed = SideFacts(800, 10, 2, general_killed=True)
    out = classify({"attacker": killed, "defender": SideFacts(300, 9, 6, withdrew=True)}, RULES, ("attacker",))
    assert out.categories == {"attacker": DRAW, "defender": DRAW}
    assert battle_ep(out, {"attacker": ["andy", "phil"], "defender": ["bob"]}, RULES) == {
        "andy": 1, "phil": 1, "bob": 2}
    # a loss stands when the team was losing anyway
    out = classify({"attacker": SideFacts(100, 10, 9, withdrew=True, general_killed=True),
                    "defender": SideFacts(300, 9)}, RULES, ("attacker",))
    assert out.categories["attacker"] == LOSE


def test_coc_res_12_team_loss_floor_is_zero() -> None:
    assert member_ep(1, True, RULES) == 0 and member_ep(3, True, RULES) == 2 and member_ep(3, False, RULES) == 3


def test_coc_res_15_average_rounded_down() -> None:
    assert average_ep([1, 4]) == 2 and average_ep([]) == 0 and average_ep([3, 3, 4]) == 3


@pytest.mark.clause("COC-EVT-13")
@pytest.mark.clause("COC-EVT-14")
def test_coc_res_16_coc_res_18_sc_7() -> None:
    cara = round_ep([1, 4], [LOSE, MAJOR], carried=1, all_or_nothing=False, rules=RULES)
    assert (cara.average, cara.earned, cara.available) == (2, 2, 3)
    phil = round_ep([2], [MINOR], carried=0, all_or_nothing=True, rules=RULES)
    assert (phil.all_or_nothing, phil.available) == ("bonus", 4)
    anna = round_ep([2], [DRAW], carried=1, all_or_nothing=True, rules=RULES)
    assert (anna.all_or_nothing, anna.earned, anna.available) == ("lost", 0, 1)
    idle = round_ep([], [], carried=0, all_or_nothing=True, rules=RULES)
    assert idle.available == 2
    assert round_ep([], [], carried=1, all_or_nothing=False, rules=RULES).available == 1
    edge = round_ep([2], [HIGHER_VP], carried=0, all_or_nothing=True, rules=RULES)
    assert edge.all_or_nothing == "lost"                                  # the 2-EP result counts as a draw
