"""Reform: stand up, occupancy, medal and scar rolls, removals, player order (MK-REF, MED, SCR, POR, PBM-6)."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.roster import Entry
from pbem.rulesets.mighty_kingdoms import reform, steps
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import MEDAL, SCAR, WINTER, Holding, MKState, TileState
from pbem.rulesets.mighty_kingdoms.model import Standing as StandingPrefs

from .helpers_reform import SPEARMEN, army, board, marks, view

ARCHERS = "Archers | Inf | 5 5+ 5+ 3+ 8 10/12 | | 100"
ANY_ARTEFACT = "Blade of Slashing"     # an artefact of the shipped pool any unit may carry
FEARLESS = "Zombies | Inf | 4 5+ - 3+ 10 -/6 | Shambling | 60"


def unit(state: MKState, key: str) -> Entry:
    army_id, unit_id = key.split(".")
    found = state.armies[army_id].roster.get(unit_id)
    assert found is not None
    return found


def reformed(state: MKState, faces: list[int], tiles: int = 6) -> list[Section]:
    sections: list[Section] = []
    dice = ScriptedDice(faces)
    reform.run(view(state, tiles), dice, sections)
    assert dice.unused == [], "every scripted die is rolled"
    return sections


def one_unit(line: str, medals: int = 0, scars: int = 0, faces: tuple[int, ...] = ()) -> tuple[MKState, Entry]:
    state = board(["a"])
    made = army(state, "A1", "a", "T1", [line])
    marks(made.roster, "U1", medals, scars)
    reformed(state, list(faces))
    return state, unit(state, "A1.U1") if "A1" in state.armies and state.armies["A1"].roster.entries else Entry(
        "gone", "gone", "inf")


# -- REF: the board ---------------------------------------------------------------------------------
@pytest.mark.clause("MK-REF-1", "MK-REF-2", "MK-REF-3")
def test_mk_ref_1_2_3_armies_stand_settlements_turn_upright_markers_cleared() -> None:
    state = board(["a"])
    made = army(state, "A1", "a", "T1", [SPEARMEN], upright=False)
    made.defend = True
    state.tiles["T1"] = TileState("a", settlement="village", razed=True)
    reformed(state, [])
    assert made.upright and not made.defend
    assert state.tiles["T1"].razed is False and state.tiles["T1"].settlement == "village"


def test_mk_ref_3_defend_marker_kept_when_the_rules_clear_it_elsewhere() -> None:
    state = board(["a"])
    army(state, "A1", "a", "T1", [SPEARMEN]).defend = True
    reform.run(view(state, overrides={"orders": {"defend_marker_cleared": "never"}}), ScriptedDice([]), [])
    assert state.armies["A1"].defend


def test_mk_ref_4_sole_occupant_takes_the_tile_and_mixed_tiles_stay() -> None:
    state = board(["a", "b"])
    army(state, "A1", "a", "T2", [SPEARMEN])
    state.tiles["T2"] = TileState("b", settlement="city")
    army(state, "A2", "a", "T3", [SPEARMEN])
    army(state, "B1", "b", "T3", [SPEARMEN])
    state.tiles["T3"] = TileState("b")
    sections = reformed(state, [])
    assert state.owner("T2") == "a" and state.tiles["T2"].settlement == "city"   # MK-GEN-6
    assert state.owner("T3") == "b"
    assert any("T2 holds only A's armies" in line for line in sections[0].lines)


def test_mk_ref_5_capital_taken_at_reform_hands_its_artefacts_to_the_taking_army() -> None:
    """MK-REF-5 with MK-ART-9 and A32: the artefact held at a capital taken at Reform goes to the
    first unit of the taking army that may carry it."""
    state = board(["a", "b"])
    state.kingdoms["b"].start_tile = "T2"
    state.tiles["T2"] = TileState("b", settlement="city")
    state.artefacts[ANY_ARTEFACT] = Holding("b")                  # held at B's capital
    army(state, "A1", "a", "T2", [SPEARMEN])
    reformed(state, [])
    assert state.owner("T2") == "a"
    assert state.artefacts[ANY_ARTEFACT] == Holding("a", "A1", "U1")


@pytest.mark.clause("MK-REF-6", "MK-REF-7")
def test_mk_ref_6_7_medals_and_scars_cancel_and_only_the_leftover_rolls() -> None:
    state = board(["a"])
    made = army(state, "A1", "a", "T1", [SPEARMEN, SPEARMEN, SPEARMEN])
    marks(made.roster, "U1", medals=3, scars=1)        # 2 medals left: D6 4 + 2 = 6
    marks(made.roster, "U2", medals=1, scars=2)        # 1 scar left: D6 4 - 1 = 3, no Inspiring: nothing
    marks(made.roster, "U3", medals=2, scars=2)        # nothing left: no roll
    sections = reformed(state, [4, 4])
    assert unit(state, "A1.U1").counters["me"] == 3
    assert "D6 = 4 + 2 = 6" in sections[0].lines[0]
    assert "D6 = 4 - 1 = 3: no effect" in sections[0].lines[1]
    assert "cancel out; no roll" in sections[0].lines[2]


@pytest.mark.clause("MK-REF-8", "MK-REF-9")
def test_mk_ref_8_9_a_scar_kills_the_unit_and_an_empty_army_leaves_the_map() -> None:
    state = board(["a"])
    made = army(state, "A1", "a", "T1", ["Captain | Hero (Inf) | 5 3+ - 2+ 5 -/13 | Individual | 80"])
    marks(made.roster, "U1", scars=3)
    state.artefacts[ANY_ARTEFACT] = Holding("a", "A1", "U1")
    reformed(state, [2])                                # 2 - 3 = -1: De 2+ -> 1+, destroyed
    assert "A1" not in state.armies
    assert ANY_ARTEFACT not in state.artefacts           # no capital: back to the pool (MK-ART-13)


def test_mk_ref_10_a_list_left_without_regiments_is_kept() -> None:
    """Composition is checked only when an army is created: a hero left alone stays in the field."""
    state = board(["a"])
    made = army(state, "A1", "a", "T1", ["Spearmen | Inf | 5 4+ - 2+ 12 13/15 | | 100",
                                          "Captain | Hero (Inf) | 5 3+ - 5+ 5 -/13 | Individual | 80"])
    marks(made.roster, "U1", scars=3)
    reformed(state, [1])
    assert [e.name for e in state.armies["A1"].roster.entries] == ["Captain"]


# -- MED --------------------------------------------------------------------------------------------
def test_mk_med_1_total_is_d6_plus_medals_and_7_or_more_uses_the_top_row() -> None:
    _, entry = one_unit("Guard | Inf | 5 4+ - 4+ 12 13/15 | | 100", medals=3, faces=(6,))   # 9 -> 7+ row
    assert entry.counters["de"] == 5


def test_mk_med_2_brutal_or_headstrong_owners_choice() -> None:
    _, entry = one_unit(SPEARMEN, medals=1, faces=(1,))
    assert entry.has("brutal")                          # default: Brutal first (MK-PBM-6)
    state = board(["a"])
    made = army(state, "A1", "a", "T1", [SPEARMEN])
    state.kingdoms["a"].standing = StandingPrefs(reform={"A1.U1": {"2": "headstrong"}})
    marks(made.roster, "U1", medals=1)
    reformed(state, [1])
    assert unit(state, "A1.U1").has("headstrong") and not unit(state, "A1.U1").has("brutal")


def test_mk_med_3_nerve_rises_and_a_fearless_unit_raises_rout_only() -> None:
    _, entry = one_unit(SPEARMEN, medals=1, faces=(2,))
    assert (entry.counters["waver"], entry.counters["rout"]) == (14, 16)
    _, fearless = one_unit(FEARLESS, medals=1, faces=(2,))
    assert (fearless.counters["waver"], fearless.counters["rout"]) == (0, 7)


def test_mk_med_4_elite_or_vicious() -> None:
    _, entry = one_unit(SPEARMEN, medals=1, faces=(3,))
    assert entry.has("elite")
    _, veteran = one_unit("Guard | Inf | 5 4+ - 4+ 12 13/15 | Elite | 100", medals=1, faces=(3,))
    assert veteran.has("vicious")                       # Elite already there: the first option that helps


def test_mk_med_5_crushing_strength_or_piercing_gained_raised_and_capped() -> None:
    _, entry = one_unit(SPEARMEN, medals=1, faces=(4,))
    assert entry.counters["crushing_strength"] == 1
    _, strong = one_unit("Guard | Inf | 5 4+ - 4+ 12 13/15 | Crushing Strength (3) | 100", medals=1, faces=(4,))
    assert strong.counters["crushing_strength"] == 3 and strong.counters["piercing"] == 1


def test_mk_med_6_me_or_ra_improves_a_step_never_past_2_and_only_a_stat_the_unit_has() -> None:
    _, entry = one_unit(ARCHERS, medals=1, faces=(5,))
    assert (entry.counters["me"], entry.counters["ra"]) == (4, 5)            # Me before Ra
    _, sharp = one_unit("Elves | Inf | 6 2+ 4+ 4+ 10 13/15 | | 100", medals=1, faces=(5,))
    assert (sharp.counters["me"], sharp.counters["ra"]) == (2, 3)           # Me at 2+: Ra instead
    _, brute = one_unit("Ogres | Lrg Inf | 6 2+ - 5+ 18 15/17 | | 200", medals=1, faces=(5,))
    assert (brute.counters["me"], brute.counters["ra"]) == (2, 0)           # nothing to improve


def test_mk_med_7_defence_improves_up_to_6() -> None:
    _, entry = one_unit("Guard | Inf | 5 4+ - 5+ 12 13/15 | | 100", medals=3, faces=(4,))
    assert entry.counters["de"] == 6


def test_mk_med_8_a_result_the_unit_cannot_use_changes_nothing() -> None:
    _, entry = one_unit("Knights | Cav | 8 3+ - 6+ 16 14/17 | | 200", medals=1, faces=(6,))
    assert entry.counters["de"] == 6


@pytest.mark.clause("MK-MED-9", "MK-SCR-7")
def test_mk_med_9_and_scr_7_medals_and_scars_are_cleared_after_the_roll() -> None:
    _, entry = one_unit(SPEARMEN, medals=2, scars=0, faces=(1,))
    assert entry.total(MEDAL) == 0 and entry.total(SCAR) == 0


def test_mk_med_10_worked_examples() -> None:
    _, one = one_unit(SPEARMEN, medals=1, faces=(1,))
    assert one.has("brutal")                            # 1 + 1 = 2
    _, two = one_unit(SPEARMEN, medals=2, faces=(5,))
    assert two.counters["de"] == 5                      # 5 + 2 = 7: De +1
    _, capped = one_unit("Knights | Cav | 8 3+ - 6+ 16 14/17 | | 200", medals=1, faces=(6,))
    assert capped.counters["de"] == 6                   # 7 on De 6+: no effect


# -- SCR --------------------------------------------------------------------------------------------
def test_mk_scr_1_total_is_d6_minus_scars_with_open_ended_rows() -> None:
    _, entry = one_unit("Guard | Inf | 5 4+ - 5+ 12 13/15 | | 100", scars=4, faces=(1,))   # -3: the -1 row
    assert entry.counters["de"] == 4
    _, calm = one_unit("Guard | Inf | 5 4+ - 5+ 12 13/15 | Very Inspiring | 100", scars=1, faces=(6,))  # 5: 3+ row
    assert calm.has("inspiring") and not calm.has("very_inspiring")


def test_mk_scr_2_defence_worsens_and_below_2_destroys() -> None:
    _, entry = one_unit(SPEARMEN, scars=2, faces=(1,))
    assert entry.counters["de"] == 3


def test_mk_scr_3_me_or_ra_worsens_and_above_6_destroys() -> None:
    _, entry = one_unit(SPEARMEN, scars=1, faces=(1,))
    assert entry.counters["me"] == 5
    state, _ = one_unit("Rabble | Inf | 5 6+ - 3+ 12 13/15 | | 50", scars=1, faces=(1,))
    assert "A1" not in state.armies


def test_mk_scr_4_nerve_drops_and_a_rout_below_6_destroys() -> None:
    _, entry = one_unit(SPEARMEN, scars=1, faces=(2,))
    assert (entry.counters["waver"], entry.counters["rout"]) == (12, 14)


def test_mk_scr_5_yellow_bellied_once() -> None:
    _, entry = one_unit(SPEARMEN, scars=1, faces=(3,))
    assert entry.tags.count("yellow_bellied") == 1
    _, again = one_unit("Guard | Inf | 5 4+ - 4+ 12 13/15 | Yellow-Bellied | 100", scars=1, faces=(3,))
    assert again.tags.count("yellow_bellied") == 1


def test_mk_scr_6_inspiring_steps_down() -> None:
    _, very = one_unit("Guard | Hero (Inf) | 5 4+ - 4+ 5 -/13 | Very Inspiring | 100", scars=1, faces=(4,))
    assert very.has("inspiring") and not very.has("very_inspiring")
    _, plain = one_unit("Guard | Hero (Inf) | 5 4+ - 4+ 5 -/13 | Inspiring | 100", scars=1, faces=(4,))
    assert not plain.has("inspiring")
    _, none = one_unit(SPEARMEN, scars=1, faces=(4,))
    assert none.tags == []


def test_mk_scr_8_worked_examples() -> None:
    state, _ = one_unit("Guard | Inf | 5 4+ - 2+ 12 13/15 | | 100", scars=3, faces=(2,))
    assert "A1" not in state.armies                      # -1: De 2+ -> 1, destroyed
    _, shaken = one_unit(SPEARMEN, scars=1, faces=(2,))
    assert (shaken.counters["waver"], shaken.counters["rout"]) == (12, 14)
    state, _ = one_unit("Skeletons | Inf | 4 5+ - 4+ 10 -/6 | | 60", scars=1, faces=(2,))
    assert "A1" not in state.armies                      # fearless -/6 -> -/5: destroyed


def test_mk_pbm_6_scar_choice_prefers_survival_then_the_worse_stat_then_ra() -> None:
    _, archers = one_unit(ARCHERS, scars=1, faces=(1,))
    assert (archers.counters["me"], archers.counters["ra"]) == (5, 6)        # equal: Ra
    _, survive = one_unit("Crossbows | Inf | 5 6+ 5+ 3+ 8 10/12 | | 90", scars=1, faces=(1,))
    assert (survive.counters["me"], survive.counters["ra"]) == (6, 6)        # Me 6+ would die: Ra
    _, worse = one_unit("Guard | Inf | 5 4+ 5+ 3+ 8 10/12 | | 90", scars=1, faces=(1,))
    assert (worse.counters["me"], worse.counters["ra"]) == (4, 6)            # Ra is the worse stat


def test_mk_reform_choice_that_cannot_help_falls_back_to_one_that_does() -> None:
    state = board(["a"])
    made = army(state, "A1", "a", "T1", ["Guard | Inf | 5 4+ - 4+ 12 13/15 | Brutal | 100"])
    state.kingdoms["a"].standing = StandingPrefs(reform={"A1.U1": {"2": "brutal"}})
    marks(made.roster, "U1", medals=1)
    reformed(state, [1])
    assert unit(state, "A1.U1").has("headstrong")


def test_mk_reform_changes_are_kept_in_the_army_story() -> None:
    state, _ = one_unit(SPEARMEN, medals=2, faces=(5,))
    story = state.armies["A1"].roster.history
    assert [c.entry for c in story] == ["U1"] and "De 4+ -> 5+" in story[0].text


# -- scenario 7 -------------------------------------------------------------------------------------
def test_mk_scenario_7_reform_medals_and_scars() -> None:
    state = board(["a"])
    a1 = army(state, "A1", "a", "T1", [
        "Spearmen | Inf | 5 4+ - 4+ 12 13/15 | | 100",         # U1
        "Guard | Inf | 5 4+ - 5+ 12 13/15 | | 100",            # U2
        "Knights | Cav | 8 3+ - 6+ 16 14/17 | | 200",          # U3
        "Archers | Inf | 5 5+ 5+ 3+ 8 10/12 | | 100",          # U4
    ])
    a7 = army(state, "A7", "a", "T1", ["Sentinels | Inf | 5 4+ - 2+ 10 13/15 | | 100"])   # U5 of the scenario
    a8 = army(state, "A8", "a", "T1", ["Zombies | Inf | 4 5+ - 3+ 10 -/6 | | 60",         # U6
                                        "Ghouls | Inf | 5 4+ - 3+ 10 12/14 | | 80"])      # U7
    marks(a1.roster, "U1", medals=2, scars=1)
    marks(a1.roster, "U2", medals=3)
    marks(a1.roster, "U3", medals=1)
    marks(a1.roster, "U4", scars=1)
    marks(a7.roster, "U1", scars=3)
    marks(a8.roster, "U1", scars=1)
    marks(a8.roster, "U2", medals=2, scars=2)
    reformed(state, [5, 4, 6, 1, 2, 2])
    assert unit(state, "A1.U1").counters["me"] == 3
    assert unit(state, "A1.U2").counters["de"] == 6
    assert unit(state, "A1.U3").counters["de"] == 6 and unit(state, "A1.U3").total(MEDAL) == 0
    assert unit(state, "A1.U4").counters["ra"] == 6
    assert "A7" not in state.armies
    assert [e.name for e in state.armies["A8"].roster.entries] == ["Ghouls"]


# -- POR --------------------------------------------------------------------------------------------
@pytest.mark.clause("MK-POR-1", "MK-POR-2", "MK-POR-5")
def test_mk_por_1_2_5_scenario_8_player_order_by_armies_with_roll_off() -> None:
    state = board(["a", "b", "c", "d"])
    for player, count in (("a", 3), ("b", 1), ("c", 3), ("d", 2)):
        for n in range(1, count + 1):
            army(state, f"{player.upper()}{n}", player, "T1", [SPEARMEN])
    state.tiles["T1"] = TileState("a")
    sections = reformed(state, [2, 5])
    assert state.order == ["c", "a", "d", "b"]
    assert "A D6 = 2, C D6 = 5" in sections[-1].lines[0]


def test_mk_por_2_players_still_tied_roll_again() -> None:
    state = board(["a", "b"])
    army(state, "A1", "a", "T1", [SPEARMEN])
    army(state, "B1", "b", "T2", [SPEARMEN])
    reformed(state, [3, 3, 1, 6])
    assert state.order == ["b", "a"]


@pytest.mark.clause("MK-POR-3", "MK-POR-4")
def test_mk_por_3_4_month_6_order_carries_into_winter_and_next_year() -> None:
    state = board(["a", "b"])
    army(state, "A1", "a", "T1", [SPEARMEN])
    state.order = ["b", "a"]
    state.calendar.month = WINTER
    v = view(state)
    steps.next_year(v)
    assert state.order == ["b", "a"] and state.calendar.month == 1 and state.calendar.year == 2


def test_mk_end_3_a_player_without_armies_sorts_last() -> None:
    state = board(["a", "b"])
    army(state, "B1", "b", "T2", [SPEARMEN])
    reformed(state, [])
    assert state.order == ["b", "a"]
