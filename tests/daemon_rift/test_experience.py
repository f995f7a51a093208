"""Combat experience (DR-EXP), with scripted 2d6 reproducing each table row."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.roster import Mark, Roster
from pbem.kit.rulebook import RuleBook
from pbem.kit.territories import GameMap
from pbem.rulesets.daemon_rift.experience import (
    choose,
    close_choices,
    open_choices,
    roll_experience,
    settle_choices,
)
from pbem.rulesets.daemon_rift.losses import (
    CHOICE,
    DEATHS,
    TRAUMA,
    clear_pending,
    roll_losses,
    start_sizes,
)
from pbem.rulesets.daemon_rift.model import DRState, FactionOrders
from tests.daemon_rift.conftest import build_state, rules_with
from tests.daemon_rift.helpers_rosters import SC11, give, roster, sheet, upgrades


def experience(rules: RuleBook, r: Roster, lines: list[str], faces: list[int], priority: str = "",
               ) -> tuple[list[str], ScriptedDice]:
    s = sheet(r, lines, priority=priority)
    dice = ScriptedDice(faces)
    rolls = roll_experience(rules, r, s, start_sizes(r, s), dice, 2)
    return [f"{x.entry}:{x.result}" for x in rolls], dice


def two(total: int) -> list[int]:
    """Two faces adding up to `total`."""
    return [min(6, total - 1), total - min(6, total - 1)]


# --- who rolls --------------------------------------------------------------------------------

def test_dr_exp_1_survivors_with_under_half_casualties_roll_killed_and_halved_do_not(rules: RuleBook) -> None:
    r = roster("U1 infantry 20 Guard @6\nU2 infantry 20 Mob @5\nM1 monster Dragon @300 W6\nM2 monster Beast @90 W4"
               "\nM3 machine Cannon @100 W3")
    out, dice = experience(rules, r, ["U1 lost 9", "U2 lost 10", "M1 lost 2", "M2 lost 2", "M3 killed"],
                           two(7) + two(7))
    assert [o.split(":")[0] for o in out] == ["U1", "M1"] and dice.unused == []


def test_dr_exp_1_fled_units_survive_and_are_judged_on_real_casualties(rules: RuleBook) -> None:
    r = roster("U1 infantry 20 Guard @6\nU2 infantry 20 Mob @5")
    out, _ = experience(rules, r, ["U1 fled lost 3", "U2 fled lost 12"], two(8))
    assert [o.split(":")[0] for o in out] == ["U1"]
    off = rules_with(experience={"fled_units_eligible": False})
    assert experience(off, roster("U1 infantry 20 Guard @6"), ["U1 fled lost 3"], [])[0] == []


def test_dr_exp_5_characters_roll_only_unwounded(rules: RuleBook) -> None:
    r = roster("C1 character Hero @60 W2\nC2 character Captain @50 W2\nC3 character Priest @80 W2")
    out, _ = experience(rules, r, ["C1 wounds 0", "C2 wounds 1", "C3 killed"], two(5))
    assert [o.split(":")[0] for o in out] == ["C1"]


def test_dr_exp_13_no_unit_both_takes_losses_and_rolls_experience(rules: RuleBook) -> None:
    r = roster("U1 infantry 10 Guard @6\nU2 infantry 10 Swords @8")
    s = sheet(r, ["U1 lost 5", "U2 lost 4"])
    dice = ScriptedDice([1] + two(9))
    sizes = start_sizes(r, s)
    clear_pending(r, 2, 1)
    lost = roll_losses(rules, r, s, sizes, dice, 2)
    gained = roll_experience(rules, r, s, sizes, dice, 2)
    assert [x.entry for x in lost] == ["U1"] and [x.entry for x in gained] == ["U2"]


# --- the unit table ----------------------------------------------------------------------------

@pytest.mark.parametrize("total,expected", [(2, []), (5, []), (8, []), (9, ["WS"]), (10, ["Ld"]), (11, ["T"]),
                                            (12, ["S"])])
def test_dr_exp_2_unit_table(rules: RuleBook, total: int, expected: list[str]) -> None:
    r = roster("U1 infantry 10 Guard @6")
    experience(rules, r, ["U1 lost 0"], two(total))
    assert upgrades(r, "U1") == expected


def test_dr_exp_2_choice_follows_the_sheet_preference(rules: RuleBook) -> None:
    r = roster("U1 infantry 10 Guard @6")
    experience(rules, r, ["U1 lost 0 [I, WS]"], two(9))
    assert upgrades(r, "U1") == ["I"] and not open_choices(r)


def test_dr_exp_2_eleven_reads_as_twelve_when_toughness_is_taken(rules: RuleBook) -> None:
    r = roster("U1 infantry 10 Guard @6")
    give(r, "U1", Mark("upgrade", "T", 1))
    out, _ = experience(rules, r, ["U1 lost 0 [BS]"], two(11))
    assert upgrades(r, "U1") == ["T", "BS"] and "read as 12" in out[0]


def test_dr_exp_3_no_repeat_choice_takes_the_other_stat_or_gives_nothing(rules: RuleBook) -> None:
    r = roster("U1 infantry 10 Guard @6\nU2 infantry 10 Swords @8")
    give(r, "U1", Mark("upgrade", "WS", 1))
    for stat in ("WS", "I"):
        give(r, "U2", Mark("upgrade", stat, 1))
    out, _ = experience(rules, r, ["U1 lost 0 [WS]", "U2 lost 0"], two(9) + two(9))
    assert upgrades(r, "U1") == ["WS", "I"]
    assert upgrades(r, "U2") == ["WS", "I"] and "already taken" in out[1]


def test_dr_exp_4_three_units_at_most_in_priority_order_exhausted_rolls_do_not_count(rules: RuleBook) -> None:
    r = roster("\n".join(f"U{n} infantry 10 Band {n} @6" for n in range(1, 7)))
    for stat in ("WS", "I"):
        give(r, "U6", Mark("upgrade", stat, 1))
    lines = [f"U{n} lost 0" for n in range(1, 7)]
    out, dice = experience(rules, r, lines, two(9) + two(3) + two(9) + two(10) + two(12), priority="U6 U5 U4 U3")
    assert [o.split(":")[0] for o in out] == ["U6", "U5", "U4", "U3", "U1"]
    assert [bool(upgrades(r, f"U{n}")) for n in (5, 4, 3, 1, 2)] == [False, True, True, True, False]
    assert dice.unused == []                                       # U2 never rolls: the cap is reached


@pytest.mark.parametrize("total,expected", [(2, []), (3, []), (7, []), (8, ["WS"]), (9, ["S"]), (10, ["Ld"]),
                                            (11, ["T"])])
def test_dr_exp_6_character_table(rules: RuleBook, total: int, expected: list[str]) -> None:
    r = roster("C1 character Hero @60 W2")
    experience(rules, r, ["C1 wounds 0"], two(total))
    assert upgrades(r, "C1") == expected


def test_dr_exp_7_trauma_is_minus_one_leadership_each_time_and_not_an_upgrade(rules: RuleBook) -> None:
    r = roster("C1 character Hero @60 W2\nC2 character Priest @80 W2\nC3 character Captain @50 W2")
    experience(rules, r, ["C1 wounds 0"], [1, 1])
    experience(rules, r, ["C1 wounds 0", "C2 wounds 0", "C3 wounds 0"], [1, 1] + two(8) + two(10))
    c1 = r.get("C1")
    assert c1 is not None and [(m.name, m.value) for m in c1.marks_of(TRAUMA)] == [("Ld", -1), ("Ld", -1)]
    assert upgrades(r, "C2") == ["WS"] and upgrades(r, "C3") == ["Ld"]   # trauma did not use up the cap of 2


def test_dr_exp_8_twelve_for_wizard_general_and_others(rules: RuleBook) -> None:
    r = roster("C1 character Wizard Lord @200 W3 wizard general\nC2 character General @120 W3 general"
               "\nC3 character Hero @60 W2")
    give(r, "C3", Mark("upgrade", "WS", 1))
    experience(rules, r, ["C1 wounds 0 [dispel]", "C2 wounds 0"], [6, 6, 6, 6])
    experience(rules, r, ["C3 wounds 0"], [6, 6])
    assert upgrades(r, "C1") == ["dispel_die"] and upgrades(r, "C2") == ["leadership_range_plus_6in"]
    assert upgrades(r, "C3") == ["WS", "I"]
    experience(rules, r, ["C1 wounds 0 [dispel]"], [6, 6])              # the wizard's dice may repeat
    assert upgrades(r, "C1") == ["dispel_die", "dispel_die"]
    once = rules_with(experience={"wizard_dice_repeatable": False})
    experience(once, r, ["C1 wounds 0 [dispel]"], [6, 6])
    assert upgrades(r, "C1") == ["dispel_die", "dispel_die", "power_die"]


def test_dr_exp_9_two_characters_at_most(rules: RuleBook) -> None:
    r = roster("\n".join(f"C{n} character Hero {n} @60 W2" for n in range(1, 4)))
    out, dice = experience(rules, r, [f"C{n} wounds 0" for n in range(1, 4)], two(8) + two(9), priority="C3 C2")
    assert [o.split(":")[0] for o in out] == ["C3", "C2"] and not upgrades(r, "C1") and dice.unused == []


def test_dr_exp_10_upgrades_are_permanent_and_lost_only_when_the_character_really_dies(rules: RuleBook) -> None:
    r = roster("C1 character Hero @60 W2\nU1 infantry 10 Guard @6")
    experience(rules, r, ["C1 wounds 0", "U1 lost 0"], two(9) + two(8))     # units roll first
    clear_pending(r, 3, 2)                                           # the next battle clears only losses
    assert upgrades(r, "C1") == ["WS"] and upgrades(r, "U1") == ["WS"]
    s = sheet(r, ["C1 killed"])
    roll_losses(rules, r, s, start_sizes(r, s), ScriptedDice([1]), 3)
    assert upgrades(r, "C1") == [] and upgrades(r, "U1") == ["WS"]


# --- stat choices (DR-EXP-11) ------------------------------------------------------------------------

def test_dr_exp_11_default_first_allowed_stat_then_choose_with_next_orders(rules: RuleBook) -> None:
    r = roster("U1 infantry 10 Guard @6\nC1 character Wizard @100 W2 wizard")
    out, _ = experience(rules, r, ["U1 lost 0", "C1 wounds 0"], two(10) + two(12))
    assert upgrades(r, "U1") == ["Ld"] and upgrades(r, "C1") == ["power_die"]
    assert "may be changed to Move" in out[0]
    state = _state_with(r)
    orders = FactionOrders(choices={"R-1": {"U1": "M"}})
    assert settle_choices(state, rules, {"R": orders}) == ["R-1 U1: +1 Move"]
    assert upgrades(r, "U1") == ["M"] and upgrades(r, "C1") == ["power_die"]
    assert not open_choices(r)                                     # fixed before the next briefing
    with pytest.raises(ValueError, match="no open experience choice"):
        choose(rules, r, "C1", "dispel_die", 3)


def test_dr_exp_11_a_choice_may_not_repeat_an_upgrade(rules: RuleBook) -> None:
    r = roster("U1 infantry 10 Guard @6")
    give(r, "U1", Mark("upgrade", "I", 1))
    experience(rules, r, ["U1 lost 0"], two(9))
    assert upgrades(r, "U1") == ["I", "WS"] and not r.get("U1").marks_of(CHOICE)   # type: ignore[union-attr]
    close_choices(r)


def test_dr_exp_12_and_dr_los_2_no_rolls_for_an_eliminated_list() -> None:
    """A list eliminated by its massacre die (the hook runs after it) rolls nothing."""
    from pbem.kit.tomlio import to_data
    from pbem.rulesets.daemon_rift.model import LIST_ELIMINATED, BattleResult
    from pbem.rulesets.daemon_rift.movement import Battle, BattleSide
    from pbem.rulesets.daemon_rift.postbattle import PostBattle
    state = build_state({"R-1": "T4", "B-1": "T6"})
    r = roster("U1 infantry 10 Guard @6", "R-1")
    state.lists["R-1"].roster = r
    state.lists["R-1"].status = LIST_ELIMINATED
    s = sheet(r, ["U1 lost 0"])
    hook = PostBattle(state, rules_with(), {"1": {"R": to_data(s)}})
    battle = Battle(1, "T5", sides=[BattleSide("R", "R-1", "entrant", 1, champion="R-1"),
                                    BattleSide("B", "B-1", "entrant", 1, champion="B-1")])
    dice = ScriptedDice([])
    hook(battle, BattleResult(1, "B", massacred=True), dice)
    assert dice.log == [] and "eliminated" in hook.ledgers[0].notes[0] and not upgrades(r, "U1")


# --- SC-11 (experience part) ---------------------------------------------------------------------

def test_sc_11_experience_dice_and_caps(rules: RuleBook) -> None:
    """DR-EXP-1 to DR-EXP-11 together: the catalog's SC-11 after its loss dice."""
    from tests.daemon_rift.test_losses import SC11_SHEET
    r = roster(SC11)
    give(r, "U5", Mark("upgrade", "T", 1))
    r.get("C1").counters[DEATHS] = 1                                # type: ignore[union-attr]
    s = sheet(r, SC11_SHEET, priority="U3 U4 U5 U6 C3 C4 C5")
    dice = ScriptedDice([5, 2, 3, 2, 5, 2, 4] + [4, 5, 6, 6, 5, 6, 1, 1, 6, 6, 5, 5])
    sizes = start_sizes(r, s)
    clear_pending(r, 2, 1)
    roll_losses(rules, r, s, sizes, dice, 2)
    rolls = roll_experience(rules, r, s, sizes, dice, 2)
    assert dice.unused == []
    assert [x.entry for x in rolls] == ["U3", "U4", "U5", "C3", "C4", "C5"]          # U6 never rolls
    assert upgrades(r, "U3") == ["WS"] and upgrades(r, "U4") == ["S"] and upgrades(r, "U5") == ["T", "S"]
    assert [(m.name, m.value) for m in r.get("C3").marks_of(TRAUMA)] == [("Ld", -1)]  # type: ignore[union-attr]
    assert upgrades(r, "C4") == ["power_die"] and upgrades(r, "C5") == ["Ld"]
    assert upgrades(r, "C1") == []                                  # the green Captain has none


def _state_with(r: Roster) -> DRState:
    state = build_state({"R-1": "T4"})
    state.lists["R-1"].roster = r
    return state


def test_dr_exp_12_and_dr_los_2_a_roll_off_makes_no_loss_or_experience_roll(m1: GameMap, rules: RuleBook) -> None:
    from pbem.kit.tomlio import to_data
    from pbem.rulesets.daemon_rift.aftermath import step_b
    from pbem.rulesets.daemon_rift.postbattle import PostBattle
    from tests.daemon_rift.helpers_movement import Turn
    state = build_state({"R-1": "T5", "B-D1": "T6"}, control={"T6": "B"})
    r = roster("U1 infantry 10 Guard @6", "R-1")
    state.lists["R-1"].roster = r
    turn = Turn(state, m1, {"R-1": "M T6"}, rules, dice=[4])       # defensive token: rolled off in Step A
    assert [b.kind for b in turn.movement.battles] == ["rolloff"]
    hook = PostBattle(state, rules, {"1": {"R": to_data(sheet(r, ["U1 lost 0"]))}})
    step_b(state, m1, rules, turn.movement, {}, turn.dice, turn.submitted, battle_hook=hook)
    assert hook.ledgers == [] and len(turn.dice.log) == 1 and not upgrades(r, "U1")
