"""Rule-book keys a campaign.toml may change, each default against its other reading with fixed
dice: the processor's own computations (supply lines, shuttles, uniques across an alliance, the
entry limit, the stop rule, stacking counts, mine re-rolls, special territories), the briefing
sentences of the rules played at the table, and the readings the loader refuses."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.rulebook import RuleBook, RulesError
from pbem.kit.texts import render
from pbem.rulesets.star_wars_miniatures import battle as bt
from pbem.rulesets.star_wars_miniatures import economics as eco
from pbem.rulesets.star_wars_miniatures import movement as mv
from pbem.rulesets.star_wars_miniatures import report, rules
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.economics import Item, Line
from pbem.rulesets.star_wars_miniatures.model import Battle
from pbem.rulesets.star_wars_miniatures.regions import map_from_dict
from pbem.rulesets.star_wars_miniatures.world import World, check_stacking
from tests.star_wars_miniatures import flow, helpers
from tests.star_wars_miniatures.helpers import chosen
from tests.star_wars_miniatures.test_battle import _sc10, _sc10_battle
from tests.star_wars_miniatures.test_economics import REINFORCE_S3, _sc7, cards
from tests.star_wars_miniatures.test_flow import in_economics


# -- readings the loader refuses -------------------------------------------------------------
@pytest.mark.clause("SWM-GEN-9")
@pytest.mark.clause("SWM-SQD-2")
@pytest.mark.clause("SWM-XP-10")
@pytest.mark.parametrize(("section", "key", "value", "why"), [
    ("campaign", "public_records", False, "= false cannot be played: the catalog defines no concealed reading"),
    ("squad", "reserves_count", True, "= true cannot be played: reserve troops are never on a roster"),
    ("xp", "lost_on_elimination", False, "= false cannot be played: an eliminated troop leaves its squad for good"),
])
def test_swm_gen_9_sqd_2_xp_10_the_readings_without_a_playable_meaning_are_refused_in_one_line(
        section: str, key: str, value: bool, why: str) -> None:
    assert rules.load()[f"{section}.{key}"] is (not value)
    with pytest.raises(RulesError) as refused:
        chosen(section, key, value)
    (line,) = refused.value.problems
    assert line.startswith(f"rules: '{section}.{key}' {why}") and line.endswith(f"leave it {str(not value).lower()}")


# -- the processor's own computations -----------------------------------------------------------
@pytest.mark.clause("SWM-ECO-12")
@pytest.mark.parametrize(("needed", "points", "treasury"), [(True, 60, 100), (False, 90, 70)])
def test_swm_eco_12_a_cut_off_squad_is_reinforced_only_when_no_supply_line_is_needed(
        cat: Catalog, needed: bool, points: int, treasury: int) -> None:
    world = _sc7(cat, chosen("economy", "reinforce_requires_supply_line", needed), a3="bob")
    eco.run_entry(world, "alice", REINFORCE_S3, ScriptedDice([]))
    assert (world.state.squads["S3"].points, world.state.players["alice"].treasury) == (points, treasury)


@pytest.mark.clause("SWM-ADV-13")
@pytest.mark.parametrize(("allowed", "place"), [(True, "A3"), (False, "C2")])
def test_swm_adv_13_a_damaged_squad_is_shuttled_only_while_damaged_squads_are_allowed(
        cat: Catalog, allowed: bool, place: str) -> None:
    world = _sc7(cat, chosen("advantages", "transport_shuttle", {"damaged_allowed": allowed}))
    eco.run_side(world, ["alice"], {"alice": [Line([Item("SHUTTLE", ("S3", "TO", "A3"))])]}, ScriptedDice([]))
    assert world.state.squads["S3"].place == place
    if not allowed:
        assert any(line.endswith("S3 is damaged, and this campaign's shuttles carry active squads only "
                                 "(SWM-ADV-13).") for line in world.state.log)


def _allied_uniques(cat: Catalog, book: RuleBook) -> World:
    """Bob and Cara allied; Cara fields Luke; Bob, in his capital, may buy troops."""
    st = helpers.state()
    st.alliances = [["bob", "cara"]]
    st.players["bob"].treasury = 200
    helpers.squad(st, cat, "R1", "bob", "B1", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "M1", "cara", "C1", ["Luke Skywalker, Jedi Knight", "Mandalorian Soldier x6"])
    return World(st, helpers.test_map(), cat, book)


@pytest.mark.clause("SWM-UNQ-6")
@pytest.mark.parametrize(("merge", "troops"), [(False, 16), (True, 15)])
def test_swm_unq_6_an_allys_unique_is_refused_only_when_alliances_merge(cat: Catalog, merge: bool, troops: int) -> None:
    world = _allied_uniques(cat, chosen("uniques", "alliances_merge", merge))
    buy = Line([Item("REINFORCE", ("R1",), cards("Luke Skywalker, Jedi Knight"))])
    eco.run_entry(world, "bob", buy, ScriptedDice([]))
    assert len(world.state.squads["R1"].troops) == troops
    if merge:
        assert "your ally cara already fields Luke Skywalker, Jedi Knight: one copy of a unique card per alliance" \
            in world.state.log[-1]


def _three_entries(cat: Catalog, book: RuleBook) -> list[str]:
    """Bob enters A2 and A3; then Cara, his ally, tries Alice's B4: a third for the alliance."""
    st = helpers.state()
    st.alliances = [["bob", "cara"]]
    st.lands["B4"].owner = "alice"
    helpers.squad(st, cat, "R1", "bob", "B2", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "R2", "bob", "B2", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "M1", "cara", "B1", ["Mandalorian Soldier x7"])
    world = World(st, helpers.test_map(), cat, book)
    done = mv.SlotMoves()
    side = ["bob", "cara"]
    return [mv.move(world, side, "R1", ["A2"], done), mv.move(world, side, "R2", ["A3"], done),
            mv.move(world, side, "M1", ["B4"], done)]


@pytest.mark.clause("SWM-ALL-8")
def test_swm_all_8_the_two_entries_are_the_alliances_or_each_members(cat: Catalog) -> None:
    shared = _three_entries(cat, chosen("alliance", "enemy_entries_shared", True))
    assert shared[2] == ("MOVE M1 B4: refused, it would be a third enemy territory this turn (at most 2, SWM-MOV-11); "
                         "M1 holds in B1")
    apart = _three_entries(cat, chosen("alliance", "enemy_entries_shared", False))
    assert apart == ["R1 moves to A2.", "R2 moves to A3.", "M1 moves to B4."]


@pytest.mark.clause("SWM-MOV-9")
@pytest.mark.parametrize(("stops", "said"), [
    (False, "M1 moves to B1."),
    (True, "M1 moves to B3 (stopped in B3, which is not yours: the rest of the path is dropped).")])
def test_swm_mov_9_an_allys_territory_stops_a_move_only_when_the_campaign_says_so(
        cat: Catalog, stops: bool, said: str) -> None:
    st = helpers.state()
    st.alliances = [["bob", "cara"]]
    helpers.squad(st, cat, "M1", "cara", "C2", ["Mandalorian Soldier x7"])
    world = World(st, helpers.test_map(), cat, chosen("movement", "allied_territory_stops", stops))
    assert mv.move(world, ["bob", "cara"], "M1", ["B3", "B1"], mv.SlotMoves()) == said


@pytest.mark.clause("SWM-STK-5")
@pytest.mark.parametrize(("counted", "left"), [(True, ["S1"]), (False, ["S1", "S3"])])
def test_swm_stk_5_a_damaged_squad_over_the_limit_is_removed_only_while_damaged_squads_count(
        cat: Catalog, counted: bool, left: list[str]) -> None:
    st = helpers.state()
    helpers.squad(st, cat, "S1", "alice", "A2", ["Stormtrooper x16"])
    helpers.squad(st, cat, "S3", "alice", "A2", ["Stormtrooper x6"], damaged=True)
    world = World(st, helpers.test_map(), cat, chosen("stacking", "damaged_count", counted))
    assert world.room("A2") is False
    assert world.room("A3") is True
    check_stacking(world, "economics")
    assert [s.id for s in st.squads_in("A2")] == left


@pytest.mark.clause("SWM-BAT-18")
def test_swm_bat_18_a_standing_mine_reroll_spends_force_only_while_rerolls_are_allowed(cat: Catalog) -> None:
    world = _sc10(cat, chosen("minefield", "reroll_with_force", True))
    battle = _sc10_battle(world)
    assert (battle.mine_hits, battle.force_spent) == (["e2", "t1"], {"vader": 1})
    world = _sc10(cat, chosen("minefield", "reroll_with_force", False))
    done = mv.SlotMoves()
    mv.move(world, ["alice"], "S1", ["B2"], done)
    dice = ScriptedDice([4, 15, 11, 10, 19, 2, 13])
    out = bt.settle(world, ["alice"], done.entered, done.attackers, dice, ["B10-1"])
    assert (out.battles[0].mine_hits, out.battles[0].force_spent, dice.unused) == (["vader", "e2", "t1"], {}, [])


@pytest.mark.clause("SWM-BAT-18")
@pytest.mark.parametrize(("allowed", "problems"), [(True, []), (False, [
    "line 1: a failed mine save stands: this campaign allows no Force re-rolls of mine saves (SWM-BAT-18)"])])
def test_swm_bat_18_the_ack_refuses_a_mine_reroll_when_the_campaign_has_none(
        allowed: bool, problems: list[str]) -> None:
    game = in_economics()
    game.resolve(ScriptedDice([]))
    game.settings = flow.settings(rules={"minefield": {"reroll_with_force": allowed}})
    parsed = game.send("alice", "MINE-REROLL t1 MAX 2")
    assert [str(p) for p in parsed.problems] == problems
    assert parsed.payload.get("orders", []) == (["MINE-REROLL t1 MAX 2"] if allowed else [])


def _special(cat: Catalog, book: RuleBook) -> World:
    """B3, Bob's, grants a Medical Officer; Alice's S1 takes it."""
    data = helpers.map_data()
    data["territory"][5]["grants"] = "medical_officer"             # B3
    st = helpers.state()
    world = World(st, map_from_dict(data), cat, book)
    helpers.squad(st, cat, "S1", "alice", "B3", ["Stormtrooper x16"])
    bt.capture(world, "B3", ["S1"], "uncontested capture")
    return world


@pytest.mark.clause("SWM-ADV-17")
@pytest.mark.parametrize(("while_held", "bob_keeps"), [(True, False), (False, True)])
def test_swm_adv_17_a_special_territorys_advantage_is_lost_with_it_or_kept(
        cat: Catalog, while_held: bool, bob_keeps: bool) -> None:
    st = _special(cat, chosen("special_territories", "grant_while_held", while_held)).state
    assert st.held("alice", "medical_officer")
    assert st.held("bob", "medical_officer") is bob_keeps
    assert ("medical_officer" in st.players["bob"].officers) is bob_keeps


@pytest.mark.clause("SWM-ADV-17")
@pytest.mark.parametrize(("counts", "treasury", "bought"), [(True, 630, False), (False, 430, True)])
def test_swm_adv_17_a_granted_officer_blocks_buying_ones_own_only_while_it_counts_toward_the_limit(
        cat: Catalog, counts: bool, treasury: int, bought: bool) -> None:
    world = _special(cat, chosen("special_territories", "counts_toward_limits", counts))
    st = world.state
    st.players["alice"].treasury = 500
    eco.run_side(world, ["alice"], {"alice": [Line([Item("BUY", ("medical_officer",))])]}, ScriptedDice([]))
    assert st.players["alice"].treasury == treasury
    assert ("medical_officer" in st.players["alice"].officers) is bought


# -- the briefing's sentences for the rules played at the table ------------------------------
def _briefing(cat: Catalog, book: RuleBook, fortified: bool) -> str:
    world = _sc10(cat, book)
    battle = Battle("B10-1", "B2", ["alice"], ["S1"], ["R1"], fortified=fortified, mined=True)
    context: dict[str, Any] = {"campaign": {"title": "Test"}, **report.briefing(world, battle, {}).context}
    return render("star_wars_miniatures", "briefing", context)


@pytest.mark.clause("SWM-BAT-12")
def test_swm_bat_12_the_briefing_says_who_chooses_the_unfortified_mapboard(cat: Catalog) -> None:
    text = _briefing(cat, chosen("battle", "unfortified", {"defender_chooses_mapboard": True}), False)
    assert "Mapboards allowed: Cantina, Hangar Bay; the defender chooses." in text
    assert "- Unfortified: normal SWM rules, but the defender chooses the mapboard." in text
    text = _briefing(cat, chosen("battle", "unfortified", {"defender_chooses_mapboard": False}), False)
    assert "Mapboards allowed: Cantina, Hangar Bay; chosen by the normal SWM rules." in text
    assert "- Unfortified: normal SWM rules, the mapboard included." in text
    assert "defender chooses" not in text


@pytest.mark.clause("SWM-BAT-13")
def test_swm_bat_13_the_fortified_briefing_follows_the_fortified_mapboard_key(cat: Catalog) -> None:
    text = _briefing(cat, rules.load(), True)
    assert "- **Fortified.** The defender chooses the mapboard and may add up to 4 tiles" in text
    text = _briefing(cat, chosen("battle", "fortified", {"defender_chooses_mapboard": False}), True)
    assert "- **Fortified.** The mapboard is chosen by the normal SWM rules; the defender may add up to 4 tiles" in text


@pytest.mark.clause("SWM-BAT-14")
def test_swm_bat_14_the_briefing_says_whether_the_defender_wins_the_first_initiative(cat: Catalog) -> None:
    text = _briefing(cat, chosen("battle", "fortified", {"defender_wins_first_initiative": True}), True)
    assert ("the defender wins the first round's initiative with no roll, so neither side brings in "
            "initiative-triggered reserves in round 1.") in text
    text = _briefing(cat, chosen("battle", "fortified", {"defender_wins_first_initiative": False}), True)
    assert ("the first round's initiative is rolled as usual, so initiative-triggered reserves may come in "
            "from round 1.") in text
    assert "with no roll" not in text


DEFAULT_MINES = ("Lightsaber Deflect and Block do not stop mine damage; Damage Reduction reduces it and "
                 "Shields apply.")


@pytest.mark.clause("SWM-BAT-17")
@pytest.mark.parametrize(("key", "value", "sentence"), [
    ("deflect_block_apply", True, "Lightsaber Deflect and Block may be used against mine damage; Damage Reduction "
                                  "reduces it and Shields apply."),
    ("damage_reduction_applies", False, "Lightsaber Deflect and Block do not stop mine damage; Damage Reduction "
                                        "does not reduce it and Shields apply."),
    ("shields_apply", False, "Lightsaber Deflect and Block do not stop mine damage; Damage Reduction reduces it "
                             "and Shields do not apply."),
])
def test_swm_bat_17_the_minefield_briefing_states_what_stops_mine_damage(
        cat: Catalog, key: str, value: bool, sentence: str) -> None:
    assert DEFAULT_MINES in _briefing(cat, chosen("minefield", key, not value), False)
    text = _briefing(cat, chosen("minefield", key, value), False)
    assert sentence in text and DEFAULT_MINES not in text
