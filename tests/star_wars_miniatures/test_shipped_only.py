"""Rule-book keys with one playable reading are refused when a campaign.toml changes them, all in
one report with each key's reason; xp.double_applies_to chooses which XP awards the Mandalorian
double rate doubles; a flag set by a bought upgrade is the printed Cyborg row's only."""

from __future__ import annotations

import pytest

from pbem.kit.rulebook import RuleBook, RulesError
from pbem.rulesets.star_wars_miniatures import cleanup as cu
from pbem.rulesets.star_wars_miniatures import rules
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from tests.star_wars_miniatures.test_cleanup import _sc13

OVERRIDES = {
    "campaign": {"action_steps": ["battle", "movement", "strategic_movement"]},
    "uniques": {"per_squad": "none"},
    "xp": {"credit_at": "action"},
    "victory": {"simultaneous": "shared"},
    "factions": {"yuuzhan_vong": {"chart_bonus_non_unique": 3}},
    "battle": {"fortified": {"defender_flee_edge": "any"}},
    "upgrades": {"army_rules": {"yv_cost_applies_to": "army"}},
}


@pytest.mark.clause("SWM-UNQ-1")
@pytest.mark.clause("SWM-XP-3")
@pytest.mark.clause("SWM-WIN-7")
def test_shipped_only_overrides_are_all_refused_at_once_each_with_its_reason() -> None:
    with pytest.raises(RulesError) as refused:
        rules.load(OVERRIDES)
    assert refused.value.problems == [
        'rules: campaign.action_steps = ["battle", "movement", "strategic_movement"] is not played: pbem plays only '
        'the shipped reading (["movement", "battle", "strategic_movement"]) because the Action Phase runs movement, '
        "then battles, then strategic moves in the catalog's order (SWM-MOV-1, SWM-STR-1); remove the override",
        'rules: factions.yuuzhan_vong.chart_bonus_non_unique = 3 is not played: pbem plays only the shipped reading '
        "(2) because the chart bonus is post_battle.modifiers.non_unique_yuuzhan_vong (SWM-PBC-4): change that key; "
        "remove the override",
        'rules: uniques.per_squad = "none" is not played: pbem plays only the shipped reading '
        '("one_per_character_name") because a squad never holds two troops of one character name (SWM-UNQ-1); '
        "remove the override",
        'rules: battle.fortified.defender_flee_edge = "any" is not played: pbem plays only the shipped reading '
        '("opposite_attacker_entry") because the briefing states the flee edges of SWM-BAT-13; remove the override',
        'rules: xp.credit_at = "action" is not played: pbem plays only the shipped reading ("cleanup") because XP '
        "earned in the Action Phase is credited in Cleanup (SWM-XP-3); remove the override",
        'rules: victory.simultaneous = "shared" is not played: pbem plays only the shipped reading ("gm") because '
        "victories at one check go to the GM (A29, SWM-WIN-7); remove the override",
        'rules: upgrades.army_rules.yv_cost_applies_to = "army" is not played: pbem plays only the shipped reading '
        '("troop_label") because the Yuuzhan Vong prices are for troops fielded under that label (SWM-UPG-12); '
        "remove the override"]


def test_a_shipped_only_key_set_to_its_shipped_value_loads() -> None:
    assert rules.load({"xp": {"credit_at": "cleanup"}, "uniques": {"per_squad": "one_per_character_name"}})


def _doubled(cat: Catalog, book: RuleBook) -> list[str]:
    world = _sc13(cat, book)
    cu.run(world, {"cara": ("m7", [])})
    return [line for line in world.state.log if line.startswith(("m7 ", "Training Officer: m7"))]


@pytest.mark.clause("SWM-XP-4")
def test_swm_xp_4_double_applies_to_doubles_only_the_awards_it_lists(cat: Catalog, book: RuleBook) -> None:
    assert _doubled(cat, book) == ["m7 Mandalorian Soldier is credited 168 XP (188 banked).",
                                   "Training Officer: m7 Mandalorian Soldier gains 100 XP (288 banked)."]
    assert _doubled(cat, rules.load({"xp": {"double_applies_to": ["kills"]}})) == [
        "m7 Mandalorian Soldier is credited 168 XP (188 banked).",
        "Training Officer: m7 Mandalorian Soldier gains 50 XP (238 banked)."]
    assert _doubled(cat, rules.load({"xp": {"double_applies_to": ["training_officer"]}})) == [
        "m7 Mandalorian Soldier is credited 84 XP (104 banked).",
        "Training Officer: m7 Mandalorian Soldier gains 100 XP (204 banked)."]


def test_double_applies_to_names_only_the_doubled_awards() -> None:
    with pytest.raises(RulesError) as refused:
        rules.load({"xp": {"double_applies_to": ["kills", "starting"]}})
    assert refused.value.problems == [
        "rules: 'xp.double_applies_to' is ['kills', 'starting']; list some of kills, training_officer"]


@pytest.mark.clause("SWM-UPG-18")
def test_only_the_printed_cyborg_row_sets_a_flag(book: RuleBook) -> None:
    assert next(r for r in book["upgrades.abilities"] if r["name"] == "Cyborg")["sets_flag"] == "cyborg"
    with pytest.raises(RulesError) as refused:
        rules.load({"upgrades": {"extra_abilities": [{"name": "Wookiee Kin", "cost": 50, "sets_flag": "wookiee"}]}})
    assert refused.value.problems == [
        "rules: upgrades.abilities[68].sets_flag: only the printed Cyborg row sets a flag (cyborg, SWM-UPG-14); "
        "pbem gives a bought upgrade no other flag; remove it"]
