"""The GM's options for lists, losses, experience and massacres: each alternative value does
what rules/daemon_rift.toml says, and values the rules cannot take are refused at load."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.roster import Mark, Roster
from pbem.kit.rulebook import RuleBook, RulesError
from pbem.rulesets.base import GMDecisionNeeded
from pbem.rulesets.daemon_rift import options
from pbem.rulesets.daemon_rift.experience import open_choices, roll_experience
from pbem.rulesets.daemon_rift.losses import UPGRADE, start_sizes
from pbem.rulesets.daemon_rift.model import BattleResult
from pbem.rulesets.daemon_rift.movement import ROLLOFF
from tests.daemon_rift.conftest import build_map, build_state, rules_with
from tests.daemon_rift.helpers_movement import Turn
from tests.daemon_rift.helpers_rosters import give, roster, sheet, upgrades
from tests.daemon_rift.test_rosters_engine import BLUE, BOB, CAROL, GREEN, RED, campaign
from tests.support.engine_helpers import body, outbox, put, run


def experience(rules: RuleBook, r: Roster, lines: list[str], faces: list[int]) -> tuple[list[str], ScriptedDice]:
    s = sheet(r, lines)
    dice = ScriptedDice(faces)
    rolls = roll_experience(rules, r, s, start_sizes(r, s), dice, 2)
    return [f"{x.entry}:{x.result}" for x in rolls], dice


# --- experience ---------------------------------------------------------------------------------

def test_dr_exp_3_duplicate_exhausted_counts_option_uses_up_a_place_under_the_cap() -> None:
    army = "U1 infantry 20 Guard @6\nU2 infantry 20 Mob @5"
    r = roster(army)
    give(r, "U1", Mark(UPGRADE, "WS", 1))
    give(r, "U1", Mark(UPGRADE, "I", 1))
    counts = rules_with(experience={"duplicate_exhausted": "counts", "unit_cap": 1})
    out, dice = experience(counts, r, ["U1 lost 0", "U2 lost 0"], [4, 5])
    assert out == ["U1:no upgrade: every stat it offers is already taken (counts towards the limit)"]
    assert dice.unused == []                                        # the cap is reached: U2 does not roll
    r = roster(army)
    give(r, "U1", Mark(UPGRADE, "WS", 1))
    give(r, "U1", Mark(UPGRADE, "I", 1))
    default = rules_with(experience={"unit_cap": 1})
    out, _ = experience(default, r, ["U1 lost 0", "U2 lost 0"], [4, 5, 6, 6])
    assert out[1] == "U2:+1 S (default; may be changed to BS)"      # DR-EXP-3 default: not counted


def test_dr_exp_11_choice_default_random_draws_the_stat_with_a_die_and_stays_open() -> None:
    drawn = rules_with(experience={"choice_default": "random"})
    r = roster("U1 infantry 20 Guard @6")
    out, dice = experience(drawn, r, ["U1 lost 0"], [4, 5, 2])        # 9: WS or I; the die says the 2nd
    assert out == ["U1:+1 I (drawn by die 2; may be changed to WS)"]
    assert dice.log[-1].sides == 2 and dice.log[-1].purpose.startswith("experience choice")
    assert upgrades(r, "U1") == ["I"] and [m.name for _, m in open_choices(r)] == ["I"]
    r = roster("U1 infantry 20 Guard @6")
    out, dice = experience(drawn, r, ["U1 lost 0 [WS]"], [4, 5])       # a preference needs no die
    assert out == ["U1:+1 WS"] and dice.unused == []


def test_dr_exp_2_experience_dice_option_sets_the_roll() -> None:
    table = [{"min": 2, "max": 12, "result": "none"}, {"min": 13, "max": 16, "result": "stat", "options": ["T"]}]
    wide = rules_with(experience={"dice": "2d8", "unit_table": table, "character_table": table})
    r = roster("U1 infantry 20 Guard @6")
    out, dice = experience(wide, r, ["U1 lost 0"], [8, 7])
    assert out == ["U1:+1 T"] and dice.log[0].sides == 8 and dice.log[0].faces == (8, 7)


# --- massacre ------------------------------------------------------------------------------------

def test_dr_bat_11_massacre_die_option_uses_its_faces() -> None:
    eight = rules_with(massacre={"die": "1d8", "eliminate_on": [1, 2, 3, 4], "survive_on": [5, 6, 7, 8]})
    state = build_state({"R-1": "T5", "B-1": "T6"}, control={"T9": "B"})
    turn = Turn(state, build_map(), {"R-1": "M T6"}, rules=eight, dice=[4])
    after = turn.results(BattleResult(1, "R", massacred=True))
    assert after.outcomes[0].massacre_die == 4 and "B-1" not in turn.state.tokens
    assert turn.dice.log[-1].sides == 8


# --- values the rules cannot take ------------------------------------------------------------------

@pytest.mark.parametrize("overrides,message", [
    ({"massacre": {"survive_on": [5, 6]}}, "must split the faces 1-6"),
    ({"massacre": {"eliminate_on": [1, 2, 3, 4]}}, "must split the faces 1-6"),
    ({"massacre": {"die": "a die"}}, "'massacre.die': 'a die' is not a dice roll"),
    ({"experience": {"dice": "3d6"}}, "'experience.unit_table' has no row for 13, 14"),
    ({"lists": {"lists_per_side_per_battle": 2}}, "can only be 1"),
])
def test_rule_options_that_cannot_work_are_refused_with_their_key(overrides: dict[str, dict[str, object]],
                                                                  message: str) -> None:
    with pytest.raises(RulesError) as err:
        options.load(overrides)
    assert any(message in p for p in err.value.problems), err.value.problems


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(RulesError) as err:
        options.load({"massacre": {"die": "1d8"}, "lists": {"lists_per_side_per_battle": 3}})
    assert len(err.value.problems) == 2


# --- what the briefing and HELP say (DR-LST-4, DR-LST-6) --------------------------------------------

def briefing_for(tmp_path: Path, rules: dict[str, dict[str, object]]) -> tuple[str, str]:
    """Alice's battle briefing and Carol's HELP reply."""
    camp = campaign(tmp_path, rules=rules)
    put(camp, "o1", RED + "R-1 M T25\n")
    put(camp, "o2", BLUE + "B-1 M T25\n", sender=BOB)
    put(camp, "o3", GREEN + "G-1 H\nHELP\n", sender=CAROL)
    camp = run(camp)
    [brief] = [m for m in outbox(camp, "alice") if "briefing" in str(m["Subject"])]
    helped = [body(m) for m in outbox(camp, "carol") if "Your tokens" in body(m)]
    return body(brief), "".join(helped)


def test_dr_lst_6_without_reveal_on_request_magic_items_stay_concealed(tmp_path: Path) -> None:
    text, _ = briefing_for(tmp_path, {"lists": {"reveal_on_request_otherwise": False}})
    assert "this campaign has no reveal on request" in text and "may ask the other to reveal" not in text


def test_dr_lst_4_share_models_false_is_said_in_the_briefing_and_help(tmp_path: Path) -> None:
    text, helped = briefing_for(tmp_path / "a", {"lists": {"share_models": False}})
    assert "may not use the same physical models" in text and "may not use the same physical models" in helped
    text, helped = briefing_for(tmp_path / "b", {})
    assert helped and "same physical models" not in text + helped


def test_dr_lst_8_missing_list_battle_rolloff_or_asks_the_gm() -> None:
    """A token whose new list is not approved: rolled off, or with "gm" the GM says how it is fought."""
    def turn(option: str) -> Turn:
        state = build_state({"R-1": "T5", "B-1": "T6"}, lists={"R-1": {"approved": False}})
        return Turn(state, build_map(), {"R-1": "M T6"}, rules=rules_with(lists={"missing_list_battle": option}),
                    dice=[6])
    assert turn("rolloff").movement.battles[0].kind == ROLLOFF
    with pytest.raises(GMDecisionNeeded) as asked:
        turn("gm")
    assert asked.value.key == "unlisted-1" and "no approved list" in str(asked.value)
