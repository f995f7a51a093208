"""The Diplomacy year as pure steps: phase order, skipped phases, centre ownership,
builds, civil disorder, solo victory, draws and eliminations."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.rulesets.diplomacy import cycle
from pbem.rulesets.diplomacy.board import standard_board
from pbem.rulesets.diplomacy.cycle import ADJUSTMENT, FALL, MOVEMENT, OVER, RETREAT, SPRING, WINTER, GameState
from pbem.rulesets.diplomacy.units import Unit

BOARD = standard_board()


def units(*texts: str) -> tuple[Unit, ...]:
    return tuple(Unit.parse(t, BOARD) for t in texts)


def home_centres() -> dict[str, str]:
    return {c: p for p, spec in BOARD.powers.items() for c in spec.home}


def state(season: str, phase: str, unit_texts: list[str], centers: dict[str, str] | None = None) -> GameState:
    return GameState(1901, season, phase, units(*unit_texts), home_centres() if centers is None else centers)


def at(step: cycle.Step) -> tuple[int, str, str]:
    s = step.after
    return s.year, s.season, s.phase


# ---------------------------------------------------------------- phase sequence


def test_opening_is_spring_1901_movement_with_22_units_on_home_centres() -> None:
    s = cycle.opening(BOARD)
    assert (s.year, s.season, s.phase, s.title) == (1901, SPRING, MOVEMENT, "Spring 1901 movement")
    assert len(s.units) == 22 and len(s.centers) == 22
    assert s.centres_of("Russia") == ["MOS", "SEV", "STP", "WAR"]


def test_quiet_year_runs_spring_fall_then_next_spring_skipping_retreats_and_winter() -> None:
    s = cycle.opening(BOARD)
    spring = cycle.advance(BOARD, s, [])
    assert at(spring) == (1901, FALL, MOVEMENT)
    fall = cycle.advance(BOARD, spring.after, [])
    assert at(fall) == (1902, SPRING, MOVEMENT)
    assert fall.skipped == ["Winter 1901 adjustments"] and fall.ownership_updated


def test_full_year_with_dislodgement_retreat_and_builds() -> None:
    s = state(SPRING, MOVEMENT, ["France: A PAR", "France: A BUR", "Germany: A MUN", "Germany: A RUH"])
    spring = cycle.advance(BOARD, s, [("Germany", "A MUN - BUR"), ("Germany", "A RUH S A MUN - BUR")])
    assert at(spring) == (1901, SPRING, RETREAT)
    assert [str(d) for d in spring.after.dislodged] == ["France: A BUR <- MUN"]
    assert cycle.owing(BOARD, spring.after) == ["France"]
    retreat = cycle.advance(BOARD, spring.after, [("France", "A BUR R PIC")])
    assert at(retreat) == (1901, FALL, MOVEMENT)
    assert "France: A PIC" in map(str, retreat.after.units)
    fall = cycle.advance(BOARD, retreat.after, [("France", "A PIC - BEL"), ("Germany", "A RUH - HOL")])
    assert at(fall) == (1901, WINTER, ADJUSTMENT)
    assert cycle.adjustments_due(BOARD, fall.after) == {
        "France": 2, "Germany": 2, **{p: 3 for p in ("Austria", "England", "Italy", "Turkey")}, "Russia": 4}
    winter = cycle.advance(BOARD, fall.after, [("France", "BUILD A PAR"), ("France", "BUILD F BRE")])
    assert at(winter) == (1902, SPRING, MOVEMENT)
    assert {"France: A PAR", "France: F BRE"} <= set(map(str, winter.after.units))


def test_retreat_phase_is_skipped_when_no_dislodged_unit_can_retreat_and_the_unit_is_disbanded() -> None:
    # A MUN is dislodged from BOH; its only retreats (BOH the attacker's origin, the rest occupied) are barred.
    s = state(SPRING, MOVEMENT, ["Germany: A MUN", "Austria: A BOH", "Austria: A TYR", "Italy: A BUR",
                                 "France: A RUH", "Russia: A SIL", "Germany: A BER", "Germany: A KIE"])
    step = cycle.advance(BOARD, s, [("Austria", "A BOH - MUN"), ("Austria", "A TYR S A BOH - MUN")])
    assert at(step) == (1901, FALL, MOVEMENT)
    assert [r.phase for r in step.results] == ["movement", "retreat"]
    assert [str(u) for u in step.results[1].disbanded] == ["Germany: A MUN"]
    assert step.skipped == ["Spring 1901 retreats"]


def test_retreat_phase_owes_only_powers_with_a_dislodged_unit_that_can_move() -> None:
    s = state(FALL, MOVEMENT, ["France: A BUR", "Germany: A MUN", "Germany: A RUH", "England: F NTH"])
    step = cycle.advance(BOARD, s, [("Germany", "A MUN - BUR"), ("Germany", "A RUH S A MUN - BUR")])
    assert step.after.phase == RETREAT
    assert cycle.owing(BOARD, step.after) == ["France"]
    assert cycle.retreat_options(BOARD, step.after, step.after.dislodged[0]) == ["BEL", "GAS", "MAR", "PAR", "PIC"]


def test_dislodged_unit_without_retreat_order_is_disbanded() -> None:
    s = state(FALL, MOVEMENT, ["France: A BUR", "Germany: A MUN", "Germany: A RUH"])
    moved = cycle.advance(BOARD, s, [("Germany", "A MUN - BUR"), ("Germany", "A RUH S A MUN - BUR")])
    step = cycle.advance(BOARD, moved.after, [])
    assert [str(u) for u in step.results[0].disbanded] == ["France: A BUR"]
    assert "France: A BUR" not in map(str, step.after.units)


# ---------------------------------------------------------------- supply centres


def test_centre_changes_owner_only_after_fall_not_in_spring() -> None:
    s = state(SPRING, MOVEMENT, ["France: A PIC"])
    spring = cycle.advance(BOARD, s, [("France", "A PIC - BEL")])
    assert "BEL" not in spring.after.centers and not spring.changes
    fall = cycle.advance(BOARD, spring.after, [])
    assert fall.after.centers["BEL"] == "France"
    assert [(c.centre, c.before, c.after) for c in fall.changes] == [("BEL", "", "France")]


def test_unit_passing_through_a_centre_in_spring_does_not_take_it() -> None:
    s = state(SPRING, MOVEMENT, ["France: A PIC"])
    spring = cycle.advance(BOARD, s, [("France", "A PIC - BEL")])
    fall = cycle.advance(BOARD, spring.after, [("France", "A BEL - RUH")])
    assert "BEL" not in fall.after.centers


def test_ownership_is_counted_after_the_fall_retreats() -> None:
    # A German army dislodged from BUR in the Fall retreats into BEL and takes it.
    s = state(FALL, MOVEMENT, ["Germany: A BUR", "France: A PAR", "France: A MAR"])
    moved = cycle.advance(BOARD, s, [("France", "A PAR - BUR"), ("France", "A MAR S A PAR - BUR")])
    assert moved.after.phase == RETREAT and not moved.ownership_updated
    step = cycle.advance(BOARD, moved.after, [("Germany", "A BUR R BEL")])
    assert step.ownership_updated and step.after.centers["BEL"] == "Germany"


def test_owned_centre_left_empty_keeps_its_owner() -> None:
    s = state(FALL, MOVEMENT, ["France: A PAR"])
    step = cycle.advance(BOARD, s, [("France", "A PAR - PIC")])
    assert step.after.centers["PAR"] == "France"


def test_captured_home_centre_changes_owner() -> None:
    s = state(FALL, MOVEMENT, ["Germany: A BUR", "France: A GAS"])
    step = cycle.advance(BOARD, s, [("Germany", "A BUR - PAR")])
    assert step.after.centers["PAR"] == "Germany"
    assert ("PAR", "France", "Germany") in [(c.centre, c.before, c.after) for c in step.changes]


# ---------------------------------------------------------------- builds and removals


def winter(unit_texts: list[str], centers: dict[str, str]) -> GameState:
    return state(WINTER, ADJUSTMENT, unit_texts, centers)


def test_builds_only_in_unoccupied_owned_home_centres() -> None:
    centers = {"PAR": "France", "MAR": "France", "BRE": "Germany", "SPA": "France", "POR": "France"}
    s = winter(["France: A PAR", "Germany: A PIC"], centers)
    assert cycle.build_sites(BOARD, s, "France") == ["MAR"]
    assert cycle.adjustments_due(BOARD, s)["France"] == 1      # 4 centres, 1 unit, but one free home centre
    step = cycle.advance(BOARD, s, [("France", "BUILD A PAR"), ("France", "BUILD F BRE"),
                                    ("France", "BUILD A SPA"), ("France", "BUILD A MAR")])
    results = [(r.order, r.result) for r in step.results[0].orders]
    assert results == [("BUILD A PAR", "invalid"), ("BUILD F BRE", "invalid"), ("BUILD A SPA", "invalid"),
                       ("BUILD A MAR", "succeeds")]
    assert "France: A MAR" in map(str, step.after.units)


def test_power_with_builds_but_no_free_home_centre_owes_nothing_and_winter_is_skipped() -> None:
    centers = {**home_centres(), "BEL": "France"}
    # every home centre is occupied by its owner; France owns BEL too but has nowhere to build
    s = state(FALL, MOVEMENT, [f"{p}: A {c}" for c, p in home_centres().items()], centers)
    assert cycle.adjustments_due(BOARD, replace(s, season=WINTER, phase=ADJUSTMENT)) == {}
    step = cycle.advance(BOARD, s, [])
    assert at(step) == (1902, SPRING, MOVEMENT) and step.skipped == ["Winter 1901 adjustments"]


def test_only_powers_with_adjustments_due_owe_winter_orders() -> None:
    s = winter(["France: A PAR", "France: A BUR", "Germany: A MUN"],
               {"PAR": "France", "BER": "Germany", "MUN": "Germany"})
    assert cycle.adjustments_due(BOARD, s) == {"France": -1, "Germany": 1}
    assert cycle.owing(BOARD, s) == ["France", "Germany"]


def test_civil_disorder_removes_the_farthest_unit_when_a_power_sends_no_removal() -> None:
    # France owns one centre but has two units and orders nothing: the unit farthest from its centres
    # goes (the DATC 6.J cases in test_datc.py pin the order of removal under both editions).
    s = winter(["France: A PAR", "France: A MUN"], {**home_centres(), "MAR": "Italy", "BRE": "England"})
    step = cycle.advance(BOARD, s, [])
    [removal] = [r for r in step.results[0].orders if r.power == "France"]
    assert (removal.order, removal.reason) == ("A MUN D", "civil disorder")
    assert [str(u) for u in step.after.units] == ["France: A PAR"] and at(step) == (1902, SPRING, MOVEMENT)


def test_unsent_builds_are_waived() -> None:
    s = winter(["France: A PAR"], home_centres())
    step = cycle.advance(BOARD, s, [])
    assert [str(u) for u in step.after.units] == ["France: A PAR"] and at(step) == (1902, SPRING, MOVEMENT)


# ---------------------------------------------------------------- the end of the game


def seventeen_for_france() -> dict[str, str]:
    mine = ["PAR", "MAR", "BRE", "SPA", "POR", "BEL", "HOL", "LON", "LVP", "EDI", "NWY", "SWE", "DEN",
            "KIE", "BER", "MUN", "TUN"]
    return {**home_centres(), **dict.fromkeys(mine, "France")}


def test_solo_victory_at_18_centres_after_fall() -> None:
    s = state(FALL, MOVEMENT, ["France: A PIE"], seventeen_for_france())
    step = cycle.advance(BOARD, s, [("France", "A PIE - VEN")])
    assert step.after.phase == OVER and step.after.winner == "France"
    assert len(step.after.centres_of("France")) == 18


def test_seventeen_centres_do_not_win() -> None:
    s = state(FALL, MOVEMENT, ["France: A PIE"], seventeen_for_france())
    step = cycle.advance(BOARD, s, [("France", "A PIE H")])
    assert step.after.phase != OVER and not step.after.winner


def test_eighteen_centres_in_spring_do_not_win_before_the_fall() -> None:
    s = state(SPRING, MOVEMENT, ["France: A PIE"], seventeen_for_france())
    step = cycle.advance(BOARD, s, [("France", "A PIE - VEN")])
    assert step.after.phase == MOVEMENT and not step.after.winner


def test_advance_refuses_a_finished_game() -> None:
    s = replace(cycle.opening(BOARD), phase=OVER, winner="France")
    with pytest.raises(ValueError, match="over"):
        cycle.advance(BOARD, s, [])


def test_draw_command_ends_the_game_among_named_surviving_powers() -> None:
    s = replace(cycle.opening(BOARD), eliminated=("Italy",))
    drawn = cycle.declare_draw(BOARD, s, ["france", "English", "Turkey"])
    assert drawn.phase == OVER and drawn.draw == ("England", "France", "Turkey")
    assert cycle.declare_draw(BOARD, s, ["ALL"]).draw == tuple(p for p in BOARD.powers if p != "Italy")


def test_draw_refuses_eliminated_powers_a_single_power_and_a_finished_game() -> None:
    s = replace(cycle.opening(BOARD), eliminated=("Italy",))
    with pytest.raises(ValueError, match="Italy is eliminated"):
        cycle.declare_draw(BOARD, s, ["France", "Italy"])
    with pytest.raises(ValueError, match="at least two"):
        cycle.declare_draw(BOARD, s, ["France", "france"])
    with pytest.raises(ValueError, match="already over"):
        cycle.declare_draw(BOARD, replace(s, phase=OVER), ["France", "England"])


def test_power_without_centres_is_eliminated_after_removing_its_last_units() -> None:
    # Italy's last centre falls in the Fall; it must remove its army in the Winter and is then out.
    centers = {"ROM": "Italy", "VEN": "Austria", "NAP": "Austria", "TRI": "Austria", "VIE": "Austria",
               "BUD": "Austria"}
    s = state(FALL, MOVEMENT, ["Italy: A TUS", "Austria: A APU", "Austria: A NAP"], centers)
    fall = cycle.advance(BOARD, s, [("Austria", "A APU - ROM"), ("Austria", "A NAP S A APU - ROM")])
    assert fall.after.centers["ROM"] == "Austria" and fall.after.phase == ADJUSTMENT
    assert "Italy" not in fall.after.eliminated                 # it still has a unit
    assert cycle.adjustments_due(BOARD, fall.after)["Italy"] == -1
    step = cycle.advance(BOARD, fall.after, [])
    assert step.eliminated == ["Italy"] and "Italy" in step.after.eliminated
    assert "Italy" not in cycle.owing(BOARD, step.after)


def test_power_with_centres_but_no_units_survives_and_may_build() -> None:
    s = state(FALL, MOVEMENT, ["Germany: A MUN", "Germany: A RUH", "France: A BUR"],
              {"PAR": "France", "MUN": "Germany", "BER": "Germany", "KIE": "Germany"})
    moved = cycle.advance(BOARD, s, [("Germany", "A MUN - BUR"), ("Germany", "A RUH S A MUN - BUR")])
    step = cycle.advance(BOARD, moved.after, [("France", "A BUR D")])
    assert not step.after.units_of("France") and "France" not in step.after.eliminated
    assert step.after.phase == ADJUSTMENT and cycle.adjustments_due(BOARD, step.after)["France"] == 1


def test_power_with_neither_units_nor_centres_is_eliminated() -> None:
    s = state(FALL, MOVEMENT, ["Germany: A MUN", "Germany: A RUH", "France: A BUR"], {"MUN": "Germany"})
    moved = cycle.advance(BOARD, s, [("Germany", "A MUN - BUR"), ("Germany", "A RUH S A MUN - BUR")])
    step = cycle.advance(BOARD, moved.after, [("France", "A BUR D")])
    assert "France" in step.eliminated
