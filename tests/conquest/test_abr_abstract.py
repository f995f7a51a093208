"""COC-ABR: abstract battle resolution, its strategy bonuses and the 2D6 table."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.conquest import rules as rulesmod
from pbem.rulesets.conquest.abstract import (
    Strategy,
    gold_steps,
    read_table,
    resolve,
    side_bonuses,
)

RULES = rulesmod.load()
CARA = Strategy("cara", elite_army=True, largest_empire=True, gold=200)
BEN = Strategy("ben", scouts=True, gold=150)


@pytest.mark.clause("COC-ABR-2")
@pytest.mark.clause("COC-ABR-5")
@pytest.mark.clause("COC-ABR-7")
@pytest.mark.parametrize(("faces", "total", "result", "cats", "ep"), [
    ((3, 4), 9, "attacker_minor_victory", ("minor_victory", "lose"), (3, 1)),
    ((1, 1), 4, "defender_minor_victory", ("lose", "minor_victory"), (1, 3)),
    ((6, 5), 13, "attacker_major_victory", ("major_victory", "lose"), (4, 1)),
])
def test_sc_14_and_coc_abr_8_worked_check(faces: tuple[int, int], total: int, result: str,
                                          cats: tuple[str, str], ep: tuple[int, int]) -> None:
    verdict = resolve("B1", [CARA], [BEN], RULES, ScriptedDice(faces))
    assert verdict.net == 2 and verdict.total == total and verdict.result == result
    assert (verdict.outcome.categories["attacker"], verdict.outcome.categories["defender"]) == cats
    assert (verdict.outcome.base_ep["attacker"], verdict.outcome.base_ep["defender"]) == ep
    assert verdict.roll.purpose == "Abstract resolution B1" and verdict.roll.faces == faces


def test_sc_14_case_d_no_bonuses_draw() -> None:
    verdict = resolve("B1", [Strategy("cara")], [Strategy("ben")], RULES, ScriptedDice([2, 4]))
    assert verdict.total == 6 and verdict.result == "draw"
    assert dict(verdict.outcome.base_ep) == {"attacker": 2, "defender": 2}
    assert verdict.outcome.winner() == ""


def test_coc_abr_3_coc_abr_4_bonus_values() -> None:
    assert gold_steps(150, 100, 200) == 1 and gold_steps(200, 100, 200) == 2 and gold_steps(400, 100, 200) == 2
    attack = side_bonuses("attacker", [CARA], RULES)
    assert sum(b.value for b in attack) == 4
    defend = side_bonuses("defender", [BEN], RULES)
    assert sum(b.value for b in defend) == -2


def test_coc_abr_6_table_boundaries() -> None:
    table = RULES["abstract.results"]
    expected = {-3: "defender_major_victory", 2: "defender_major_victory", 3: "defender_minor_victory",
                5: "defender_minor_victory", 6: "draw", 8: "draw", 9: "attacker_minor_victory",
                11: "attacker_minor_victory", 12: "attacker_major_victory", 16: "attacker_major_victory"}
    assert {t: read_table(t, table) for t in expected} == expected


def test_coc_abr_7_never_a_massacre() -> None:
    verdict = resolve("B1", [CARA], [Strategy("ben")], RULES, ScriptedDice([6, 6]))
    assert verdict.outcome.categories["attacker"] == "major_victory"


def test_coc_abr_9_team_bonus_once_per_side() -> None:
    andy = Strategy("andy", elite_army=True, gold=150)
    phil = Strategy("phil", elite_army=True, gold=60)
    once = side_bonuses("attacker", [andy, phil], RULES)
    assert sum(b.value for b in once) == 1 + 2                           # one Elite Army, 210 gp pooled
    summed = side_bonuses("attacker", [andy, phil], rulesmod.load({"abstract": {"team_bonus_mode": "sum"}}))
    assert sum(b.value for b in summed) == 2 + 1                          # two Elite Armies, 150 gp + 60 gp


@pytest.mark.clause("COC-OBJ-6")
def test_coc_abr_6_objectives_play_no_part() -> None:
    fields = set(Strategy.__dataclass_fields__)
    assert fields == {"player", "elite_army", "scouts", "largest_empire", "gold"}
