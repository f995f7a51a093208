"""The rule book: every table of the catalog, every ambiguity key, and the checks on overrides."""

from __future__ import annotations

import pytest

from pbem.kit.rulebook import RuleBook, RulesError
from pbem.rulesets.star_wars_miniatures import rules

FACTIONS = {
    "old_republic": ("Old Republic", {"Old Republic": ("min", 50), "Fringe": ("max", 50)}),
    "republic": ("Republic", {"Republic": ("min", 65), "Fringe": ("max", 35)}),
    "sith": ("Sith", {"Sith": ("min", 65), "Fringe": ("max", 35), "Mandalorian": ("max", 35)}),
    "mandalorian": ("Mandalorian", {"Mandalorian": ("min", 100)}),
    "separatist": ("Separatist", {"Separatist": ("min", 70), "Fringe": ("max", 30), "Imperial": ("max", 30)}),
    "imperial": ("Imperial", {"Imperial": ("min", 65), "Fringe": ("max", 35), "New Republic": ("max", 20),
                              "Separatist": ("max", 20), "Republic": ("max", 20)}),
    "rebel": ("Rebel", {"Rebel": ("min", 65), "Fringe": ("max", 35)}),
    "new_republic": ("New Republic", {"New Republic": ("min", 50), "Fringe": ("max", 50), "Imperial": ("max", 30),
                                      "Rebel": ("max", 30)}),
    "yuuzhan_vong": ("Yuuzhan Vong", {"Yuuzhan Vong": ("min", 70), "Fringe": ("max", 30)}),
    "fringe": ("Fringe", {"Fringe": ("min", 50), "Rebel": ("max", 20), "New Republic": ("max", 20),
                          "Separatist": ("max", 20), "Republic": ("max", 20), "Old Republic": ("max", 20),
                          "Sith": ("max", 20)}),
}


def _table(book: RuleBook, key: str) -> dict[str, tuple[str, int]]:
    return {r["label"]: ("min", r["min_pct"]) if "min_pct" in r else ("max", r["max_pct"])
            for r in book[f"factions.{key}.limits"]}


@pytest.mark.clause("SWM-GEN-3")
@pytest.mark.clause("SWM-FAC-3")
@pytest.mark.clause("SWM-FAC-4")
@pytest.mark.clause("SWM-FAC-5")
@pytest.mark.clause("SWM-FAC-6")
@pytest.mark.clause("SWM-FAC-7")
@pytest.mark.clause("SWM-FAC-8")
@pytest.mark.clause("SWM-FAC-9")
@pytest.mark.clause("SWM-FAC-10")
@pytest.mark.clause("SWM-FAC-11")
@pytest.mark.clause("SWM-FAC-12")
def test_swm_gen_3_the_ten_factions_and_their_composition_tables(book: RuleBook) -> None:
    assert list(book.section("factions")) == list(FACTIONS)
    for key, (name, limits) in FACTIONS.items():
        assert book[f"factions.{key}.name"] == name
        assert _table(book, key) == limits, key


def test_swm_fac_22_special_characters_are_matched_by_catalog_name_from_config(book: RuleBook) -> None:
    specials = book.section("faction_specials")
    assert {k: (s["faction"], s["character"], s["effect"]) for k, s in specials.items()} == {
        "yoda_wookiees": ("republic", "Yoda, Jedi Master", "count_as"),
        "ulic_mandalorians": ("sith", "Ulic Qel-Droma", "exempt"),
        "exar_kun_savages": ("sith", "Exar Kun", "exempt"),
        "palpatine_order66": ("imperial", "Palpatine, Sith Lord", "exempt")}
    renamed = rules.load({"faction_specials": {"yoda_wookiees": {"character": "Yoda (Revenge of the Sith)"}}})
    assert renamed["faction_specials.yoda_wookiees.character"] == "Yoda (Revenge of the Sith)"


@pytest.mark.clause("SWM-ADV-4")
@pytest.mark.clause("SWM-ADV-9")
@pytest.mark.clause("SWM-ADV-11")
def test_swm_adv_strategic_advantage_costs_and_limits(book: RuleBook) -> None:
    got = {k: (v["cost"], v["limit"], v["uses"]) for k, v in book.section("advantages").items()}
    assert got == {
        "intelligence_officer": (200, "one_per_faction", "permanent"),
        "special_operative": (100, "one_per_faction_per_turn", "once"),
        "fortify": (200, "one_per_territory", "permanent"),
        "logistics_officer": (200, "one_per_faction", "permanent"),
        "minefield": (200, "one_per_territory", "permanent"),
        "training_officer": (200, "one_per_faction", "permanent"),
        "transport_shuttle": (100, "none", "once"),
        "medical_officer": (200, "one_per_faction", "permanent")}
    assert book["advantages.intelligence_officer.initiative"] == 2
    assert book["advantages.logistics_officer.income"] == 50
    assert book["advantages.training_officer.xp_per_turn"] == 50
    assert book["advantages.medical_officer.post_battle_bonus"] == 1


def test_swm_upg_2_stat_upgrade_costs(book: RuleBook) -> None:
    rows = {r["name"]: (r["bonus"], r["cost"], r["repeatable"]) for r in book["upgrades.stats"]}
    assert rows == {"Hit Points": ("+10", 100, True), "Defense": ("+1", 50, True), "Attack": ("+1", 50, True),
                    "Damage": ("+10", 150, False), "Speed": ("+2", 100, True), "Force": ("1", 150, False)}


def test_swm_upg_6_force_upgrade_table_for_force_users_only(book: RuleBook) -> None:
    rows = book["upgrades.force"]
    assert len(rows) == 18
    assert {r["restriction"] for r in rows} == {"force_user"}
    costs = {r["name"]: r["cost"] for r in rows}
    assert (costs["Anticipation"], costs["Force Renewal +1"], costs["Master of the Force +1"], costs["Master Speed"]) \
        == (50, 250, 350, 150)
    assert sorted(r["name"] for r in rows if r.get("repeatable")) == [
        "Force +1", "Force Heal +10", "Force Renewal +1", "Master of the Force +1"]


@pytest.mark.clause("SWM-UPG-12")
@pytest.mark.clause("SWM-UPG-8")
@pytest.mark.clause("SWM-UPG-9")
def test_swm_upg_7_the_68_abilities_with_restrictions_and_yuuzhan_vong_prices(book: RuleBook) -> None:
    rows = {r["name"]: r for r in book["upgrades.abilities"]}
    assert len(rows) == 68
    assert {n: (r["cost"], r["yv_cost"]) for n, r in rows.items() if "yv_cost" in r} == {
        "Paralysis": (150, 50), "Poison +10": (100, 50), "Regeneration 10": (150, 50)}
    assert {n: r["restriction"] for n, r in rows.items() if r.get("restriction", "").startswith("faction:")} == {
        "Black Sun": "faction:fringe", "Mercenary": "faction:fringe", "Fringe Reinforcements +10": "faction:fringe",
        "Dark Armor": "faction:imperial", "Separatist Reinforcements +10": "faction:separatist"}
    assert rows["Ambush"]["restriction"] == "savage" and rows["Draw Fire"]["restriction"] == "droid"
    assert rows["Damage Reduction 10"]["restriction"] == "base_2x2_plus"
    assert rows["Triple Attack"]["restriction"] == "requires:Double Attack"
    assert not any(r.get("repeatable") for r in rows.values())


@pytest.mark.clause("SWM-GEN-13")
def test_swm_upg_18_the_gm_adds_upgrade_rows_without_copying_the_tables() -> None:
    book = rules.load({"upgrades": {"extra_force": [{"name": "Force Lightning", "cost": 200,
                                                     "restriction": "force_user"}]}})
    assert [r["name"] for r in rules.upgrade_rows(book, "force")][-1] == "Force Lightning"
    with pytest.raises(RulesError) as refused:
        rules.load({"upgrades": {"extra_abilities": [{"name": "Recon", "cost": -5, "restriction": "tall"}]}})
    assert refused.value.problems == [
        "rules: upgrades.abilities[68]: 'Recon' is listed twice",
        "rules: upgrades.abilities[68].cost is -5; it must be a whole number of XP",
        "rules: upgrades.abilities[68].restriction: 'tall' is not one of force_user, non_force_user, savage, "
        "droid, not_droid_or_cyborg, base_2x2_plus, no_lightsaber, names_unique, requires:<ability>, faction:<key>"]


AMBIGUITY_KEYS = {
    "initiative.choose_order": "highest_first", "initiative.rolloff_die": "1d20", "setup.pick_order_die": "1d20",
    "alliance.initiative_pick": "highest", "alliance.stance_source": "picked_member", "squad.min_inclusive": False,
    "movement.max_rate_multiplier": 2, "movement.force_user_rate_mode": "flat", "movement.rounding": "half_up",
    "movement.min_territories": 1, "setup.start_location_unit": "region", "capture.timing": "battle_step",
    "capture.uncontested_counts_as_entry": True, "movement.enemy_entries_per_turn": 2,
    "movement.entries_count": "distinct_territories", "stacking.attackers_max": "territory_limit",
    "battle.no_winner_control": "unchanged", "battle.damaged_codefender": "retreat",
    "alliance.formation": "identical_sets", "alliance.strategic_moves": 1, "alliance.capture_owner": "most_points",
    "alliance.breakup_timing": "after_declarations_before_rolls", "alliance.nmr_renews": False,
    "advantages.special_operative.use_window": "on_purchase", "advantages.special_operative.may_target_allies": False,
    "advantages.special_operative.disrupt_blocks_forced_retreat": False,
    "advantages.fortify.on_capture": "stay", "advantages.minefield.on_capture": "stay",
    "advantages.fortify.own_territory_only": True, "advantages.logistics_officer.first_income": "next_turn",
    "minefield.reroll_force_cost": 1, "minefield.affects_uncontested": False,
    "advantages.medical_officer.scope": "all_chart_rolls", "xp.award_if_victim_restored": True,
    "xp.reserve_killer_keeps_xp": False, "xp.double_starting_xp": False,
    "upgrades.army_rules.faction_restriction_scope": "player", "factions.yuuzhan_vong.forbid_scope": "army",
    "squad.composition_basis": "points", "economy.max_new_squads_per_turn": 2, "economy.build_requires_room": True,
    "economy.capital_lost_can_build": False, "player.eliminated_when": "no_territories",
    "victory.capitals_check": "end_of_phase", "victory.simultaneous": "gm", "initiative.disruptive_range":
    "adjacent_or_same", "initiative.disruptive_requires_active": False, "stacking.nmr_elimination": "last_arrived",
    "economy.voluntary_elimination": "any", "squad.allow_transfers": False, "setup.starting_squad_exact": False,
    "setup.unassigned_starting_xp": "lost", "setup.starting_treasury": 0, "economy.supply_line_through": "friendly",
    "battle.single_report": "accept", "battle.gm_grace_hours": 24, "action.revise_until_slot": True,
}


def test_every_ambiguity_key_ships_with_the_catalogs_recommended_default(book: RuleBook) -> None:
    assert {k: book[k] for k in AMBIGUITY_KEYS} == AMBIGUITY_KEYS


def test_an_override_outside_a_keys_readings_and_bad_numbers_are_all_reported_at_once() -> None:
    with pytest.raises(RulesError) as refused:
        rules.load({"initiative": {"rolloff_die": "d1"}, "squad": {"max_points": 0},
                    "factions": {"rebel": {"limits": [{"label": "Rebel", "min_pct": 120}]}}})
    assert refused.value.problems == [
        "rules: 'squad.max_points' is 0; it must be a whole number of at least 1",
        "rules: 'initiative.rolloff_die': 'd1': a die has at least 2 sides, like \"d6\"",
        "rules: factions.rebel.limits[0].min_pct is 120; it must be a percentage from 0 to 100"]
    with pytest.raises(RulesError, match=r"'initiative\.choose_order' cannot be 'random'"):
        rules.load({"initiative": {"choose_order": "random"}})
