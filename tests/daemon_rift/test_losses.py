"""Combat losses, wear and tear (DR-LOS), with scripted dice reproducing each table row."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.orders import OrderProblem
from pbem.kit.roster import Mark, Roster
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.daemon_rift.losses import (
    DEATHS,
    GREEN,
    LOST_ITEM,
    MISSING,
    WOUNDS,
    clear_pending,
    roll_losses,
    start_sizes,
)
from pbem.rulesets.daemon_rift.sheets import parse_line
from tests.daemon_rift.conftest import rules_with
from tests.daemon_rift.helpers_rosters import SC11, roster, sheet


def losses(rules: RuleBook, r: Roster, lines: list[str], faces: list[int]) -> tuple[list[str], ScriptedDice]:
    s = sheet(r, lines)
    dice = ScriptedDice(faces)
    sizes = start_sizes(r, s)                     # read before the battle's sheet clears the ledger
    clear_pending(r, 2, s.battle)
    rolls = roll_losses(rules, r, s, sizes, dice, 2)
    return [f"{x.entry}:{x.result}" for x in rolls], dice


def entry(r: Roster, ident: str):  # type: ignore[no-untyped-def]
    e = r.get(ident)
    assert e is not None
    return e


# --- DR-LOS-1, DR-LOS-3: the sheet ---------------------------------------------------------

def test_dr_los_1_sheet_line_gives_kind_size_killed_fled_half_wounds_and_casualties() -> None:
    r = roster(SC11)
    line = parse_line(r, "Spearmen lost 11 half start 18 [I, WS]")
    assert (line.entry, line.lost, line.half, line.start, line.prefer) == ("U1", 11, True, 18, ["I", "WS"])
    assert parse_line(r, "M1 left 1").left == 1
    assert parse_line(r, "C2 wounds 1").lost == 1
    assert parse_line(r, "C1 killed").killed
    assert str(parse_line(r, "U1 lost 11 half")) == "U1 lost 11 half"


def test_dr_los_1_sheet_line_that_cannot_be_true_is_refused() -> None:
    r = roster(SC11)
    for text, reason in [("U9 lost 1", "unknown entry"), ("U1 lost 30", "more than"), ("U1 left 1", "`left`"),
                         ("C1 half", "single model"), ("U1 lost two", "needs a number"),
                         ("U1 smashed", "unknown word")]:
        with pytest.raises(OrderProblem, match=reason):
            parse_line(r, text)


def test_dr_los_3_fled_is_not_dead_and_makes_no_loss_roll(rules: RuleBook) -> None:
    r = roster(SC11)
    line = parse_line(r, "U1 fled killed lost 4")
    assert line.fled and not line.killed
    out, dice = losses(rules, r, ["M1 fled", "C2 fled", "U1 fled lost 4"], [])
    assert out == [] and dice.log == []
    out, _ = losses(rules, roster(SC11), ["U1 killed"], [1])        # run down: dead, and rolls
    assert out == ["U1:1 model fewer next battle"]


# --- DR-LOS-2: only after tabletop battles, never for an eliminated list ----------------------
# (DR-LOS-2 through the engine and Step B: test_rosters_engine.py)

# --- monsters and machines ------------------------------------------------------------------

@pytest.mark.parametrize("die,wound", [(1, True), (2, True), (3, True), (4, False), (5, False), (6, False)])
def test_dr_los_4_killed_monster_comes_back_one_wound_down_on_1_to_3(rules: RuleBook, die: int, wound: bool) -> None:
    r = roster(SC11)
    out, _ = losses(rules, r, ["M1 killed"], [die])
    assert entry(r, "M1").total(WOUNDS) == (1 if wound else 0)
    assert out == ["M1:" + ("starts the next battle one wound down" if wound else "no effect")]


def test_dr_los_5_monster_of_4_wounds_left_on_1_wound_rolls_but_3_wounds_does_not(rules: RuleBook) -> None:
    r = roster("M1 monster Dragon @300 W6\nM2 monster Ogre Beast @60 W3")
    out, dice = losses(rules, r, ["M1 left 1", "M2 left 1"], [2])
    assert out == ["M1:starts the next battle one wound down"] and dice.unused == []
    out, dice = losses(rules, roster("M1 monster Dragon @300 W6"), ["M1 left 2"], [])
    assert out == []


def test_dr_los_4_each_monster_of_a_unit_rolls_its_own_die(rules: RuleBook) -> None:
    """"Alone or in a unit": every monster killed makes the roll, not the unit once."""
    r = roster("M4 monster 3 Stone Trolls @50 W3")
    out, dice = losses(rules, r, ["M4 lost 2"], [2, 5])
    assert out == ["M4:one of them starts the next battle one wound down", "M4:no effect"]
    assert [x.purpose.split(",")[0] for x in dice.log] == [
        "combat loss (monster 1 of 2)", "combat loss (monster 2 of 2)"
    ]
    assert entry(r, "M4").total(WOUNDS) == 1
    r = roster("M4 monster 3 Stone Trolls @50 W3")
    out, dice = losses(rules, r, ["M4 killed"], [1, 3, 6])
    assert len(out) == 3 and dice.unused == [] and entry(r, "M4").total(WOUNDS) == 2
    out, dice = losses(rules, roster("M4 monster 3 Stone Trolls @50 W3"), ["M4 lost 0"], [])
    assert out == [] and dice.log == []


def test_dr_los_5_in_a_unit_a_monster_left_on_1_wound_rolls_besides_the_killed(rules: RuleBook) -> None:
    r = roster("M5 monster 2 Great Beasts @90 W4")
    out, dice = losses(rules, r, ["M5 lost 1 left 1"], [4, 1])
    assert len(dice.log) == 2 and out[1] == "M5:one of them starts the next battle one wound down"
    out, dice = losses(rules, roster("M5 monster 2 Great Beasts @90 W4"), ["M5 lost 2 left 1"], [3, 3])
    assert len(dice.log) == 2                     # both killed: no third monster to be left on 1 wound


def test_dr_los_6_war_machines_and_chariots_are_treated_as_monsters(rules: RuleBook) -> None:
    r = roster("M1 machine Cannon @100 W3\nM2 chariot Chariot @80 W4")
    out, _ = losses(rules, r, ["M1 killed", "M2 left 1"], [3, 4])
    assert out[0].startswith("M1:starts the next battle one wound down (placed at random")
    assert out[1] == "M2:no effect"
    assert entry(r, "M1").total(WOUNDS) == 1
    off = rules_with(losses={"machine_as_monster": False})
    assert losses(off, roster("M1 machine Cannon @100 W3"), ["M1 killed"], [])[0] == []


# --- characters --------------------------------------------------------------------------------

@pytest.mark.parametrize("deaths,die,outcome", [
    (0, 1, "dies"), (0, 2, "wound"), (0, 5, "wound"), (0, 6, "none"),
    (1, 2, "dies"), (1, 3, "wound"), (1, 6, "none"),
    (2, 3, "dies"), (2, 4, "wound"), (2, 5, "wound"), (2, 6, "none"),
    (5, 3, "dies"), (5, 4, "wound"),
])
def test_dr_los_7_and_dr_los_8_death_table_by_death_count(rules: RuleBook, deaths: int, die: int, outcome: str) -> None:
    r = roster("C1 character Captain @50 W2")
    entry(r, "C1").counters[DEATHS] = deaths
    losses(rules, r, ["C1 killed"], [die])
    c = entry(r, "C1")
    assert bool(c.marks_of(GREEN)) == (outcome == "dies")
    assert c.total(WOUNDS) == (1 if outcome == "wound" else 0)
    assert c.counters[DEATHS] == (0 if outcome == "dies" else deaths + 1)


def test_dr_los_10_green_replacement_loses_a_random_item_rerolling_above_the_count(rules: RuleBook) -> None:
    r = roster(SC11)
    give_upgrade = Mark("upgrade", "WS", 1)
    entry(r, "C1").add_mark(give_upgrade)
    entry(r, "C1").counters[DEATHS] = 1
    out, dice = losses(rules, r, ["C1 killed"], [2, 5, 2])
    c = entry(r, "C1")
    assert [i.name for i in c.items] == ["Sword", "Talisman"]
    assert [(m.name, m.value) for m in c.marks_of(LOST_ITEM)] == [("Shield", 10)]
    assert c.marks_of(GREEN) and not c.marks_of("upgrade") and c.counters[DEATHS] == 0
    assert out[1:] == ["C1:re-rolled: only 3 items", "C1:loses Shield (10 points)"] and dice.unused == []


def test_dr_los_10_character_without_items_loses_nothing_and_player_choice_option(rules: RuleBook) -> None:
    r = roster("C1 character Hero @60 W2")
    _out, dice = losses(rules, r, ["C1 killed"], [1])
    assert len(dice.log) == 1 and not entry(r, "C1").marks_of(LOST_ITEM)
    chosen = rules_with(losses={"item_lost": "player_choice"})
    r = roster(SC11)
    losses(chosen, r, ["C1 killed item Talisman"], [1])
    assert [m.name for m in entry(r, "C1").marks_of(LOST_ITEM)] == ["Talisman"]


# --- infantry, cavalry, 2-wound units -------------------------------------------------------------

@pytest.mark.parametrize("die,fewer", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_dr_los_9_one_die_d3_for_20_plus_models(rules: RuleBook, die: int, fewer: int) -> None:
    r = roster("U1 infantry 20 Spearmen @6")
    losses(rules, r, ["U1 lost 10"], [die])
    assert entry(r, "U1").total(MISSING) == fewer


@pytest.mark.parametrize("die,fewer", [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 2)])
def test_dr_los_9_one_die_d2_for_10_to_19_models(rules: RuleBook, die: int, fewer: int) -> None:
    r = roster("U1 infantry 19 Spearmen @6")
    losses(rules, r, ["U1 lost 10"], [die])
    assert entry(r, "U1").total(MISSING) == fewer


def test_dr_los_11_half_losses_trigger_and_bands(rules: RuleBook) -> None:
    r = roster("U1 infantry 10 Guard @6\nU2 infantry 9 Guard @6\nU3 cavalry 12 Riders @20\nU4 infantry 20 Mob @5")
    out, dice = losses(rules, r, ["U1 lost 5", "U2 lost 4 half", "U3 lost 5", "U4 lost 9"], [6])
    assert out == ["U1:2 models fewer next battle", "U2:1 model fewer next battle (under 10, no die)"]
    assert dice.unused == [] and len(dice.log) == 1        # U2 needs no die; U3 and U4 lost under half


def test_dr_los_12_size_band_counts_the_models_fielded_with_carried_losses(rules: RuleBook) -> None:
    r = roster("U1 infantry 20 Spearmen @6")
    entry(r, "U1").add_mark(Mark(MISSING, "", 2, permanent=False))
    _out, dice = losses(rules, r, ["U1 lost 9"], [6])      # 18 fielded: D2, and 9 is half of 18
    assert "D2, 18 models" in dice.log[0].purpose and entry(r, "U1").total(MISSING) == 2


def test_dr_los_13_and_dr_los_14_flesh_hounds_lose_d2_wounds_in_the_10_to_19_band(rules: RuleBook) -> None:
    r = roster("U2 twowound 6 Flesh Hounds @35")
    out, dice = losses(rules, r, ["U2 lost 3"], [5])
    assert "D2, 12 wounds" in dice.log[0].purpose
    assert entry(r, "U2").total(WOUNDS) == 2 and out == ["U2:2 wounds fewer next battle"]
    r = roster("U2 twowound 6 Flesh Hounds @35")
    assert losses(rules, r, ["U2 lost 2"], [])[0] == []           # 2 of 6 models: under half


def test_dr_los_15_warhawk_riders_lose_one_wound_only_after_two_models(rules: RuleBook) -> None:
    r = roster("U4 twowound 3 Warhawk Riders @40")
    assert losses(rules, r, ["U4 lost 1"], [])[0] == []
    out, dice = losses(rules, r, ["U4 lost 2"], [])
    assert out == ["U4:1 wound fewer next battle (under 10, no die)"] and dice.log == []


# --- pending losses --------------------------------------------------------------------------------

def test_dr_los_17_losses_do_not_add_up_new_results_replace_the_old() -> None:
    r = roster(SC11)
    entry(r, "U1").add_mark(Mark(MISSING, "", 3, permanent=False))
    entry(r, "C1").add_mark(Mark(LOST_ITEM, "Shield", 10, permanent=True))
    entry(r, "C1").add_mark(Mark(GREEN, "", 0, permanent=True))
    clear_pending(r, 4, 1)
    assert entry(r, "U1").total(MISSING) == 0
    assert entry(r, "C1").marks_of(LOST_ITEM) and entry(r, "C1").marks_of(GREEN)


def test_dr_los_18_pending_losses_stay_until_the_next_battle_however_many_turns() -> None:
    from pbem.kit.roster import roster_from_toml, roster_to_toml
    r = roster(SC11)
    entry(r, "U1").add_mark(Mark(MISSING, "", 3, permanent=False, turn=2))
    for _ in range(5):                                   # turns pass: the ledger is stored and read back
        r = roster_from_toml(roster_to_toml(r))
    assert entry(r, "U1").total(MISSING) == 3


# --- SC-11 (losses part) -------------------------------------------------------------------------

SC11_SHEET = ["U1 lost 11", "U2 lost 3", "U3 lost 0", "U4 lost 1", "U5 lost 2", "U6 lost 0", "M1 left 1",
              "C1 killed", "C2 killed", "C3 wounds 0", "C4 wounds 0", "C5 wounds 0"]


def test_sc_11_loss_dice_in_sheet_order(rules: RuleBook) -> None:
    """DR-LOS-4 to DR-LOS-15 together: the catalog's SC-11 loss dice."""
    r = roster(SC11)
    entry(r, "C1").counters[DEATHS] = 1
    _out, dice = losses(rules, r, SC11_SHEET, [5, 2, 3, 2, 5, 2, 4])
    assert [roll.purpose.split(",")[0] for roll in dice.log] == [
        "combat loss (D3", "combat loss (D2", "combat loss (monster)", "character death 2 (dies on 2 or less)",
        "lost item (1-3 in list order)", "lost item (1-3 in list order)", "character death 1 (dies on 1 or less)"]
    assert dice.unused == []
    assert entry(r, "U1").models - entry(r, "U1").total(MISSING) == 17
    assert entry(r, "U2").total(WOUNDS) == 1 and entry(r, "M1").total(WOUNDS) == 1
    assert entry(r, "C1").marks_of(GREEN) and [m.name for m in entry(r, "C1").marks_of(LOST_ITEM)] == ["Shield"]
    assert entry(r, "C2").total(WOUNDS) == 1
    assert all(not entry(r, u).marks for u in ("U3", "U4", "U5", "U6"))
