"""Wizard's quests (MK-QST-1..18, MK-PBM-9): parsing, eligibility, the D6 and its adjustment, the six tests."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.orders import IllegalOrder, InvalidOrder
from pbem.kit.rulebook import RulesError
from pbem.kit.tomlio import to_data
from pbem.rulesets.base import GMDecisionNeeded
from pbem.rulesets.mighty_kingdoms import quests
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import Holding, MKState, MKView
from tests.mighty_kingdoms.helpers_quests import army, book, own, player, state, tower, view

SWIFT = "Swift Captain | Hero (Inf) | 7 3+ - 4+ 5 -/13 | Individual | 80"
WINGED = "Winged Knight | Hero (Lge Cav) | 8 3+ - 5+ 5 -/14 | Fly | 150"
STOUT = "Stout Lord | Hero (Inf) | 5 3+ 4+ 5+ 4 -/13 | Crushing Strength (1) | 90"
NERVOUS = "Nervous Lord | Hero (Inf) | 5 3+ - 5+ 4 10/12 | | 70"
SPEARS = "Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100"


def board() -> MKState:
    """Towers on T3 and T9, both next to A's T6 (scenario 12); B holds T12 next to neither."""
    st = state(("a", "b"))
    tower(st, "T3", "T9")
    own(st, "a", "T6", "T7")
    own(st, "b", "T12", "T11")
    army(st, "A1", "a", "T6", SWIFT, SPEARS, WINGED)
    army(st, "A2", "a", "T7", STOUT, NERVOUS)
    army(st, "B1", "b", "T12", SWIFT)
    return st


def parse(v: MKView, line: str, who: str = "a", earlier: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return quests.parse(v, player(who), line.split()[1:], earlier or [])


def run(st: MKState, faces: list[int], subs: dict[str, list[str]], **rules: Any) -> tuple[Section, ScriptedDice]:
    v = view(st, rules=book(**rules) if rules else None)
    payloads: dict[str, dict[str, Any]] = {}
    for who, lines in subs.items():
        entries: list[dict[str, Any]] = []
        for line in lines:
            entries.append(parse(v, line, who, entries))
        payloads[who] = {"quests": entries}
    dice, sections = ScriptedDice(faces), list[Section]()
    quests.run(v, payloads, dice, sections)
    assert dice.unused == []
    return sections[0], dice


# -- scenario 12 -----------------------------------------------------------------------------------
def test_mk_scenario_12_wizards_quests() -> None:
    st = board()
    v = view(st)
    assert quests.eligible_towers(st, v.map, "a") == ["T3", "T9"]          # A gets 2 quests
    first = parse(v, "QUEST T3 A1.U1 speed")
    with pytest.raises(IllegalOrder, match=r"A1\.U1 already goes on a quest"):
        parse(v, "QUEST T9 A1.U1 agility", earlier=[first])
    # D6 = 3 -> 2 (Speed); 2D6 = 2+4 + Sp 7 = 13; D4 over the four 20-point artefacts = 2.
    # D6 = 4 -> 3 (Agility); 2D6 = 5+6 = 11, modifiers -2 = 9: failure.
    section, dice = run(st, [3, 2, 4, 2, 4, 5, 6], {"a": ["QUEST T3 A1.U1 speed", "QUEST T9 A1.U3 agility"]})
    text = "\n".join(section.lines)
    assert "D6 = 3, adjusted -1 to 2 (towards speed): Speed" in text
    assert "Speed: 2D6 = 2+4 = 6, plus Sp 7 = 13, 13 needed: success" in text
    assert "D4 = 2, Banner of the Griffin (20 points)" in text
    assert "D6 = 4, adjusted -1 to 3 (towards agility): Agility" in text
    assert "Agility: 2D6 = 5+6 = 11, modifiers Fly +1, Lge Cav -2, De 5+ -1 (-2) = 9, 10 needed: failure" in text
    assert st.artefacts["Banner of the Griffin"].owner == "a"
    assert list(st.artefacts) == ["Banner of the Griffin"]
    assert [r.purpose for r in dice.log] == ["quest type A1.U1", "speed quest A1.U1", "artefact draw",
                                             "quest type A1.U3", "agility quest A1.U3"]


def test_mk_scenario_12_chance_check_final_value_1_and_a_7_fails() -> None:
    st = board()
    section, _ = run(st, [2, 3, 4], {"a": ["QUEST T3 A1.U1 chance"]})
    assert "D6 = 2, adjusted -1 to 1 (towards chance): Chance" in section.lines[0]
    assert "Chance: 2D6 = 3+4 = 7: failure" in section.lines
    assert not st.artefacts


# -- eligibility (MK-QST-1..4) ---------------------------------------------------------------------
def test_mk_qst_1_one_quest_per_tower_next_to_own_tiles_however_many() -> None:
    st = board()
    v = view(st)
    assert quests.eligible_towers(st, v.map, "a") == ["T3", "T9"]   # T6 and T7 both touch T3: still once
    assert quests.eligible_towers(st, v.map, "b") == []
    with pytest.raises(IllegalOrder, match="next to none of your tiles"):
        parse(v, "QUEST T3 B1.U1 speed", who="b")
    with pytest.raises(IllegalOrder, match="T5 is not a wizard's tower"):
        parse(v, "QUEST T5 A1.U1 speed")


def test_mk_qst_2_hero_units_only_of_own_armies_each_once() -> None:
    v = view(board())
    with pytest.raises(IllegalOrder, match=r"A1.U2 Spearmen is not a Hero unit \(MK-QST-2\); your heroes: "
                                           r"A1.U1, A1.U3, A2.U1, A2.U2"):
        parse(v, "QUEST T3 A1.U2 speed")
    with pytest.raises(IllegalOrder, match="B1 is not one of your armies"):
        parse(v, "QUEST T3 B1.U1 speed")
    with pytest.raises(InvalidOrder, match=r"must be written <army>\.<unit>"):
        parse(v, "QUEST T3 A1 speed")
    assert parse(v, "QUEST T3 A1.winged")["unit"] == "U3"         # a unit by name will do


def test_mk_qst_3_one_quest_per_tower() -> None:
    v = view(board())
    first = parse(v, "QUEST T3 A1.U1 speed")
    with pytest.raises(IllegalOrder, match=r"one quest too many to the tower on T3; one quest per tower \(MK-QST-3\)"):
        parse(v, "QUEST T3 A2.U1 speed", earlier=[first])


def test_mk_qst_3_the_rule_book_may_allow_more_quests_per_tower_and_hero() -> None:
    v = view(board(), rules=book(quests={"per_adjacent_tower": 2, "hero_once_per_winter": False}))
    first = parse(v, "QUEST T3 A1.U1 speed")
    second = parse(v, "QUEST T3 A1.U1 speed", earlier=[first])
    with pytest.raises(IllegalOrder, match="2 quests per tower"):
        parse(v, "QUEST T3 A2.U1 speed", earlier=[first, second])


def test_mk_qst_4_quests_cost_nothing() -> None:
    st = board()
    st.kingdoms["a"].gold, st.kingdoms["a"].food = 2, 1
    run(st, [2, 3, 4], {"a": ["QUEST T3 A1.U1 chance"]})
    assert (st.kingdoms["a"].gold, st.kingdoms["a"].food) == (2, 1)


# -- the D6 and its adjustment (MK-QST-5, MK-QST-6) --------------------------------------------------
def test_mk_qst_5_adjustment_follows_the_ranked_list() -> None:
    v = view(board())
    assert quests.best_adjust(v, 5, ["combat"]) == 1
    assert quests.best_adjust(v, 6, ["combat"]) == 0
    assert quests.best_adjust(v, 1, ["chance"]) == 0
    assert quests.best_adjust(v, 2, ["chance", "speed"]) == -1
    assert quests.best_adjust(v, 1, ["courage", "speed"]) == 1      # courage out of reach: the next ranked
    assert quests.best_adjust(v, 4, ["chance"]) == 0                # nothing reachable: 0
    assert quests.best_adjust(v, 4, []) == 0                        # no list: 0


def test_mk_qst_5_fixed_adjustment_and_its_limits() -> None:
    v = view(board())
    assert parse(v, "QUEST T3 A1.U1 ADJUST +1")["adjust"] == 1
    assert parse(v, "QUEST T3 A1.U1 -1")["fixed"] is True
    with pytest.raises(IllegalOrder, match=r"the adjustment \+2 is more than 1 either way"):
        parse(v, "QUEST T3 A1.U1 +2")
    with pytest.raises(InvalidOrder, match="either a ranked list of quest types or a fixed adjustment"):
        parse(v, "QUEST T3 A1.U1 speed +1")
    with pytest.raises(InvalidOrder, match="ranked twice"):
        parse(v, "QUEST T3 A1.U1 speed, agility, speed")
    with pytest.raises(InvalidOrder, match="unknown quest type") as bad:
        parse(v, "QUEST T3 A1.U1 agilty")
    assert bad.value.suggestion == "agility"


def test_mk_qst_5_standing_ranking_is_kept_and_used_without_a_list() -> None:
    st = board()
    run(st, [2, 3, 4], {"a": ["QUEST T3 A1.U1 chance"]})
    assert st.kingdoms["a"].standing.quests == ["chance"]
    st.winter.heroes.clear()
    st.winter.towers.clear()
    section, _ = run(st, [2, 3, 4], {"a": ["QUEST T3 A1.U1"]})
    assert "D6 = 2, adjusted -1 to 1 (towards chance): Chance" in section.lines[0]


def test_mk_qst_6_final_value_picks_the_type() -> None:
    v = view(board())
    assert [quests.row_of(v, n)["type"] for n in range(8)] == [
        "chance", "chance", "speed", "agility", "courage", "endurance", "combat", "combat"]


# -- the tests (MK-QST-7..14) ------------------------------------------------------------------------
def test_mk_qst_7_chance_any_total_but_7_wins_a_5_to_15_point_artefact() -> None:
    st = board()
    # D6 = 1, no adjustment: Chance; 2D6 = 6+6; D8 over the eight artefacts of 5-15 points = 8.
    section, _ = run(st, [1, 6, 6, 8], {"a": ["QUEST T3 A1.U1 0"]})
    assert "Chance: 2D6 = 6+6 = 12: success" in section.lines
    assert list(st.artefacts) == ["Chant of Hate"]


def test_mk_qst_8_speed_needs_13_with_sp() -> None:
    st = board()
    section, _ = run(st, [2, 2, 3], {"a": ["QUEST T3 A1.U1 0"]})
    assert "Speed: 2D6 = 2+3 = 5, plus Sp 7 = 12, 13 needed: failure" in section.lines
    assert not st.artefacts


def test_mk_qst_9_agility_10_wins_a_25_point_artefact() -> None:
    st = board()
    # Swift Captain (Inf, Individual, De 4+): +1 +2 = +3; 2D6 = 3+4 = 7 -> 10; D4 = 1.
    section, _ = run(st, [3, 3, 4, 1], {"a": ["QUEST T3 A1.U1 0"]})
    assert "Agility: 2D6 = 3+4 = 7, modifiers Individual +2, Inf +1 (+3) = 10, 10 needed: success" in section.lines
    assert list(st.artefacts) == ["Wings of Honeymaze"]


def test_mk_qst_10_every_agility_modifier_counts() -> None:
    st = board()
    beast = army(st, "A3", "a", "T6", "Wyrm | Hero (Mon) | 7 3+ - 6+ 6 -/17 | Nimble, Pathfinder, Strider | 200")
    mods = dict(quests.agility_modifiers(view(st), beast.roster.entries[0]))
    assert mods == {"Mon": -3, "Nimble": 2, "Pathfinder": 1, "Strider": -1, "De 6+": -2}
    cav = army(st, "A4", "a", "T6", "Rider | Hero (Cav) | 8 3+ - 4+ 5 -/13 | | 100")
    assert dict(quests.agility_modifiers(view(st), cav.roster.entries[0])) == {"Cav": -1}


def test_mk_qst_11_worked_example_lge_cav_fly_de5() -> None:
    st = board()
    knight = st.armies["A1"].roster.entries[2]
    assert sum(v for _, v in quests.agility_modifiers(view(st), knight)) == -2


def test_mk_qst_12_courage_not_routed_wins_30_points() -> None:
    st = board()
    # D6 = 4: Courage. To hit 4+: 4 5 1 3 6 2 -> 3 hits; Blast D3 2, 1, 3 -> 6 hits; damage D6 + Piercing (1)
    # against De 4+: 4 2 1 6 5 2 -> 4, 6, 5 and 2+1 = 3 fail; a natural 1 fails: 3 damage.
    # Nerve -/13: 2D6 = 5+4 + 3 = 12: steady. D4 over the 30-point artefacts = 3.
    section, dice = run(st, [4, 4, 5, 1, 3, 6, 2, 2, 1, 3, 4, 2, 1, 6, 5, 2, 5, 4, 3],
                        {"a": ["QUEST T3 A1.U1 0"]})
    text = "\n".join(section.lines)
    assert "courage quest A1.U1 to-hit: 6D6 = 4, 5, 1, 3, 6, 2, 4+ needed: 3" in text
    assert "courage quest A1.U1 blast: D3 per hit = 2, 1, 3: 6 hits" in text
    assert "courage quest A1.U1 damage: 6D6 = 4, 2, 1, 6, 5, 2 + Piercing (1), 4+ needed: 3" in text
    assert "courage quest A1.U1 nerve (-/13): 2D6 = 5+4 + 3 damage = 12: steady" in text
    assert "Courage: the hero is steady: success" in text
    assert list(st.artefacts) == ["Gnome-Glass Shield"]
    assert [r.purpose for r in dice.log][1:4] == ["courage quest A1.U1 to-hit", "courage quest A1.U1 blast D3",
                                                  "courage quest A1.U1 blast D3"]


def test_mk_qst_12_courage_routed_fails() -> None:
    st = board()
    # 6 hits of 6 -> Blast 3 each = 18 hits, all damaging (18 x 6): 18 damage; 2D6 = 2+3 -> routed.
    section, _ = run(st, [4] + [6] * 6 + [3] * 6 + [6] * 18 + [2, 3], {"a": ["QUEST T3 A1.U1 0"]})
    assert "Courage: the hero is routed: failure" in section.lines
    assert not st.artefacts


def test_mk_qst_13_endurance_wavered_fails() -> None:
    st = board()
    # A2.U2 Nervous Lord (10/12, De 5+). D6 = 5: Endurance. Hits: 4 4 1 1 1 1 -> 2; Blast 1, 1 -> 2 hits;
    # damage D6 + Crushing Strength (2) against 5+: 3 3 -> 2 damage; nerve 2D6 = 4+4 + 2 = 10: wavered.
    section, _ = run(st, [5, 4, 4, 1, 1, 1, 1, 1, 1, 3, 3, 4, 4], {"a": ["QUEST T3 A2.U2 0"]})
    text = "\n".join(section.lines)
    assert "endurance quest A2.U2 damage: 2D6 = 3, 3 + Crushing Strength (2), 5+ needed: 2" in text
    assert "endurance quest A2.U2 nerve (10/12): 2D6 = 4+4 + 2 damage = 10: wavered" in text
    assert "Endurance: the hero is wavered: failure" in text
    assert not st.artefacts


def test_mk_qst_13_endurance_steady_wins_35_points() -> None:
    st = board()
    # No hits at all: nerve 2D6 = 2+3 = 5: steady; D4 over the 35-point artefacts = 4.
    section, _ = run(st, [5, 1, 2, 3, 1, 2, 3, 2, 3, 4], {"a": ["QUEST T3 A2.U2 0"]})
    assert "Endurance: the hero is steady: success" in section.lines
    assert list(st.artefacts) == ["Healing Brew"]


COMBAT_PASS = [1, 1, 1, 1, 1, 1, 2, 3]            # the Endurance part: no hits, nerve 2+3: steady


def test_mk_qst_14_combat_hero_routs_the_foe_and_wins_40_to_50_points() -> None:
    st = board()
    # A2.U1 Stout Lord (Att 4, Me 3+, CS 1). D6 = 6: Combat. Endurance passed. Melee: 4 attacks at 3+:
    # 3 3 5 6 -> 4 hits; damage + CS (1) against De 5+: 4 4 6 1 -> 3; foe nerve -/9: 3+3 + 3 = 9: routed.
    # D6 over the six artefacts of 40-50 points = 5.
    section, _ = run(st, [6, *COMBAT_PASS, 3, 3, 5, 6, 4, 4, 6, 1, 3, 3, 5], {"a": ["QUEST T3 A2.U1 combat"]})
    text = "\n".join(section.lines)
    assert "A2.U1 Stout Lord attacks in melee: 4 attacks at 3+" in text
    assert "combat quest A2.U1 damage: 4D6 = 4, 4, 6, 1 + Crushing Strength (1), 5+ needed: 3" in text
    assert "combat quest foe of A2.U1 nerve (-/9): 2D6 = 3+3 + 3 damage = 9: routed" in text
    assert list(st.artefacts) == ["Kaba's Arcane Scrolls"]


def test_mk_qst_14_combat_foe_holds_or_endurance_fails() -> None:
    st = board()
    section, _ = run(st, [6, *COMBAT_PASS, 1, 1, 1, 1, 3, 3], {"a": ["QUEST T3 A2.U1 combat"]})
    assert "Combat: the foe holds: failure" in section.lines
    st = board()
    # Endurance routed (18 damage) ends the quest before the hero's attack.
    section, _ = run(st, [6] + [6] * 6 + [3] * 6 + [6] * 18 + [2, 3], {"a": ["QUEST T3 A2.U1 combat"]})
    assert section.lines[-2:] == ["Endurance: the hero is routed: failure", "A2.U1 Stout Lord fails and wins nothing "
                                                                            "(MK-QST-16)"]


def test_mk_pbm_9_combat_shoots_only_when_asked_and_the_hero_has_ra() -> None:
    st = board()
    section, _ = run(st, [6, *COMBAT_PASS, 4, 4, 4, 4, 2, 2, 2, 2, 1, 1], {"a": ["QUEST T3 A2.U1 combat shooting"]})
    assert "A2.U1 Stout Lord shoots: 4 attacks at 4+" in section.lines
    assert "combat quest A2.U1 damage: 4D6 = 2, 2, 2, 2, 5+ needed: 0" in section.lines
    st = board()
    section, _ = run(st, [6, *COMBAT_PASS, 1, 1, 1, 1, 1, 3, 3], {"a": ["QUEST T3 A1.U1 combat shooting"]})
    assert "A1.U1 Swift Captain has no Ra value, so it attacks in melee (MK-PBM-9)" in section.lines


def test_mk_qst_15_the_hero_comes_back_unharmed() -> None:
    st = board()
    before = to_data(st.armies["A2"].roster)
    run(st, [5, 4, 4, 1, 1, 1, 1, 1, 1, 3, 3, 4, 4], {"a": ["QUEST T3 A2.U2 0"]})
    assert to_data(st.armies["A2"].roster) == before


def test_mk_qst_16_a_failed_quest_gives_nothing() -> None:
    st = board()
    section, _ = run(st, [2, 3, 4], {"a": ["QUEST T3 A1.U1 chance"]})
    assert section.lines[-1] == "A1.U1 Swift Captain fails and wins nothing (MK-QST-16)"
    assert not st.artefacts and not st.winter.won


def test_mk_qst_17_gm_resolution_asks_the_game_master() -> None:
    st = board()
    v = view(st, rules=book(quests={"resolution": "gm"}))
    entry = parse(v, "QUEST T3 A1.U1 0")
    with pytest.raises(GMDecisionNeeded) as asked:
        quests.run(v, {"a": {"quests": [entry]}}, ScriptedDice([4]), [])
    assert asked.value.key == "quest-a-T3"
    assert asked.value.options == ["won", "failed"]
    st = board()
    v = view(st, rules=book(quests={"resolution": "gm"}), decisions={"quest-a-T3": "won"})
    sections: list[Section] = []
    quests.run(v, {"a": {"quests": [entry]}}, ScriptedDice([4, 1]), sections)
    assert "Courage: resolved by the game master: the hero won" in sections[0].lines
    assert list(st.artefacts) == ["Inspiring Talisman"]


def test_mk_qst_18_quests_run_in_player_order_one_per_player_per_round() -> None:
    st = board()
    st.order = ["b", "a"]
    tower(st, "T8")                                  # next to B's T11 and T12... and A's T7
    _, dice = run(st, [2, 3, 4, 2, 3, 4, 2, 3, 4],
                        {"a": ["QUEST T3 A1.U1 chance", "QUEST T9 A1.U3 chance"], "b": ["QUEST T8 B1.U1 chance"]})
    assert [r.purpose for r in dice.log if r.purpose.startswith("quest type")] == [
        "quest type B1.U1", "quest type A1.U1", "quest type A1.U3"]


def test_mk_qst_18_a_quest_no_longer_possible_is_reported_not_run() -> None:
    st = board()
    v = view(st)
    entry = parse(v, "QUEST T3 A1.U1 chance")
    del st.armies["A1"]                              # disbanded in the purchase cycles
    sections: list[Section] = []
    quests.run(v, {"a": {"quests": [entry]}}, ScriptedDice([]), sections)
    assert sections[0].lines == ["A's quest by A1.U1 to T3 does not go: A1.U1 is no longer one of A's Hero units"]


def test_mk_qst_parse_reports_unknown_tower_with_a_suggestion() -> None:
    v = view(board())
    with pytest.raises(InvalidOrder) as bad:
        parse(v, "QUEST T33 A1.U1 speed")
    assert "T33" in bad.value.reason


def test_mk_qst_1_the_w1_call_offers_each_kingdom_its_towers_heroes_and_the_pool() -> None:
    st = board()
    st.artefacts["Brew of Strength"] = Holding("b")
    offered = quests.offer(view(st))
    a, b = offered["kingdoms"]
    assert a == {"name": "A", "towers": ["T3", "T9"], "example": "QUEST T3 A1.U1 speed agility",
                 "heroes": ["A1.U1 Swift Captain", "A1.U3 Winged Knight", "A2.U1 Stout Lord", "A2.U2 Nervous Lord"]}
    assert b["towers"] == [] and b["example"] == ""
    assert offered["bands"][1] == {"band": "20", "artefacts": [
        "Banner of the Griffin (20)", "Dwarven Throwing Mattock (20)", "Shroud of the Saint (20)"]}
    assert [x["band"] for x in offered["bands"]] == ["5-15", "20", "25", "30", "35", "40-50"]


def test_mk_qst_6_the_rule_book_refuses_a_table_with_gaps_or_unknown_types() -> None:
    table = [{"min": 0, "max": 1, "type": "chance", "reward_min": 5, "reward_max": 15},
             {"min": 2, "max": 6, "type": "riddles", "reward_min": 20, "reward_max": 20}]
    with pytest.raises(RulesError) as refused:
        book(quests={"table": table})
    assert refused.value.problems == [
        "rules: quests.table row 2: type 'riddles' is not one of chance, speed, agility, courage, endurance, combat",
        "rules: quests.table: no row covers the final value 7"]


def test_mk_qst_5_adjust_without_a_value_is_refused() -> None:
    with pytest.raises(InvalidOrder, match="ADJUST takes -1, 0 or \\+1"):
        parse(view(board()), "QUEST T3 A1.U1 ADJUST")
