"""Keys of rules/mighty_kingdoms.toml that are not options of the processor: the defend marker's
house rule is played at the table and stated in the briefing (A7); the readings the processor
plays only as shipped are refused at load, naming key, shipped value and why."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.rulebook import RulesError
from pbem.kit.texts import render
from pbem.rulesets.mighty_kingdoms import rules as rulesmod
from pbem.rulesets.mighty_kingdoms import steps
from pbem.state.schedule import Schedule
from tests.mighty_kingdoms.helpers_battle import NOW, army, board, state_of, view_of


def briefing(**rules: Any) -> str:
    """The briefing of A1 (Red) against B1 (Blue, with a defend marker) in T."""
    state = state_of(["a", "b"], {"T": "b", "P": "a", "R": "b"}, {"T": "village"})
    army(state, "A1", "T")
    army(state, "B1", "T")
    state.armies["B1"].defend = True
    view = view_of(state, board([("T", "P"), ("T", "R"), ("P", "R")]), NOW, NOW, **rules)
    steps.month_goes_on(view, ScriptedDice([]), [])
    (brief,) = [r for r in steps.outcome(view, 1, "orders", [], "k").reports if r.kind == "briefing"]
    context = {"campaign": {"title": "Mighty Test"}, "schedule": Schedule.from_settings({}),
               "next_deadline": NOW} | brief.context
    return render("mighty_kingdoms", "briefing", context)


@pytest.mark.clause("MK-RES-11")
def test_a7_defend_effect_none_says_markers_have_no_effect_and_a_house_rule_is_stated() -> None:
    assert "Defend markers have no effect on the game." in briefing()
    text = briefing(orders={"defend_effect": "the choice of table side"})
    assert "In this campaign a defend marker gives its army: the choice of table side." in text
    assert "no effect on the game" not in text


@pytest.mark.parametrize("key, value", [("player_order.resort_after_winter", True),
                                        ("army_list.loosening.apply_to_initial_army", True),
                                        ("kow_core.nerve_test", "2d6"), ("artefacts.capital_holder", "loser")])
def test_shipped_only_keys_refuse_an_override_naming_key_value_and_reason(key: str, value: object) -> None:
    *path, leaf = key.split(".")
    override: dict[str, Any] = {leaf: value}
    for part in reversed(path):
        override = {part: override}
    with pytest.raises(RulesError) as err:
        rulesmod.load(override)
    [problem] = err.value.problems
    assert problem.startswith(f"rules: {key} = ") and "is not played: pbem plays only the shipped reading" in problem
    assert key in rulesmod.SHIPPED_ONLY and rulesmod.SHIPPED_ONLY[key] in problem
