"""The KoW core model of the quests (`[kow_core]`, ambiguity A4, MK-QST-17)."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.rulebook import RulesError
from pbem.rulesets.mighty_kingdoms import kow
from tests.mighty_kingdoms.helpers_quests import book


def test_mk_qst_17_to_hit_blast_and_damage_in_batches() -> None:
    dice = ScriptedDice([4, 3, 6, 2, 3, 5, 6, 1, 4, 2])
    struck = kow.strike(dice, book(), kow.Attack(3, 4, 1, "Piercing", blast=True), 5, "test")
    # hits 4, 6 -> Blast D3 2 and 3 -> 5 hits; damage against 5+: 5+1, 6+1, 1 (a natural 1 fails), 4+1, 2+1
    assert [r.purpose for r in dice.log] == ["test to-hit", "test blast D3", "test blast D3", "test damage"]
    assert struck.lines[1] == "test blast: D3 per hit = 2, 3: 5 hits"
    assert struck.damage == 3


def test_mk_qst_17_natural_one_always_fails_to_damage() -> None:
    dice = ScriptedDice([1, 1, 2])
    struck = kow.strike(dice, book(), kow.Attack(1, 2, 2, "Crushing Strength"), 2, "test")
    assert struck.damage == 0                       # 1 + 2 would reach 2+, but a natural 1 fails
    dice = ScriptedDice([2, 1])
    struck = kow.strike(dice, book(kow_core={"natural_one_fails": False}),
                        kow.Attack(1, 2, 2, "Crushing Strength"), 2, "test")
    assert struck.damage == 1


def test_mk_qst_17_nerve_waver_rout_fearless_and_insane_courage() -> None:
    rules = book()
    assert kow.nerve(ScriptedDice([4, 4]), rules, 2, 10, 12, "n").result == kow.WAVERED
    assert kow.nerve(ScriptedDice([5, 5]), rules, 2, 10, 12, "n").result == kow.ROUTED
    assert kow.nerve(ScriptedDice([4, 4]), rules, 2, 0, 12, "n").result == kow.STEADY     # fearless: no waver
    courage = kow.nerve(ScriptedDice([1, 1]), rules, 20, 10, 12, "n")
    assert courage.result == kow.STEADY and "double 1, insane courage" in courage.line
    plain = book(kow_core={"insane_courage_double_one": False})
    assert kow.nerve(ScriptedDice([1, 1]), plain, 20, 10, 12, "n").result == kow.ROUTED


def test_mk_qst_17_unit_rules_apply_only_when_listed() -> None:
    rules = book(kow_core={"apply_unit_special_rules": ["elite", "vicious", "headstrong"]})
    assert kow.applying(book(), ["elite", "hero"]) == frozenset()
    assert kow.applying(rules, ["elite", "hero"]) == frozenset({"elite"})
    dice = ScriptedDice([1, 4, 5, 1, 4, 4])   # to hit: 1, 4 -> re-roll the 1: 5; damage 1, 4 -> re-roll the 1: 4
    struck = kow.strike(dice, rules, kow.Attack(2, 4, rules=frozenset({"elite", "vicious"})), 4, "t")
    assert struck.damage == 2
    assert [r.purpose for r in dice.log] == ["t to-hit", "t to-hit re-roll of 1s", "t damage",
                                             "t damage re-roll of 1s"]
    held = kow.nerve(ScriptedDice([4, 4, 4]), rules, 2, 10, 12, "n", headstrong=True)
    assert held.result == kow.STEADY and "Headstrong D6 = 4: steady" in held.line


def test_mk_qst_17_unknown_unit_rule_in_the_rule_book_is_refused() -> None:
    with pytest.raises(RulesError, match="mechanics know elite, vicious, headstrong"):
        book(kow_core={"apply_unit_special_rules": ["brutal"]})
