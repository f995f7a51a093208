"""Applying a result (MK-BRS-1..13, MK-BAT-8, MK-BAT-13..19, MK-PBM-4, MK-ART-6..9, MK-ART-12)."""

from __future__ import annotations

import pytest

from pbem.rulesets.mighty_kingdoms import battle_results, battles
from pbem.rulesets.mighty_kingdoms.battle_state import Battle, BattleReport
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import DRAW, MEDAL, SCAR, Holding, Kingdom, MKState, MKView
from tests.mighty_kingdoms.helpers_battle import army, board, state_of, view_of


def field() -> tuple[MKState, MKView]:
    """T is B's and holds A1 (upright) and B1, B2 (B2 on its side). Around T: P (A's), Q and R (B's,
    R with a village, Q holding A9), S (B's, empty, lowest id after P)."""
    gmap = board([("T", "P"), ("T", "Q"), ("T", "R"), ("T", "S")])
    state = state_of(["a", "b"], {"T": "b", "P": "a", "Q": "b", "R": "b", "S": "b"}, {"R": "village", "T": "city"})
    army(state, "A1", "T")
    army(state, "B1", "T")
    army(state, "B2", "T", upright=False)
    army(state, "A9", "Q")
    return state, view_of(state, gmap)


def fought(view: MKView, report: BattleReport, chooser: str = "a", opponent: str = "b") -> tuple[Battle, Section]:
    view.state.battle.month = "Y1M1"
    battles.fight(view, chooser, battles.Pick("T", opponent), Section("selection"))
    battle = view.state.battle.pending()[0]
    section = Section("results")
    battle_results.apply(view, battle, report, section)
    return battle, section


@pytest.mark.clause("MK-BRS-1", "MK-BRS-2")
def test_mk_brs_1_2_every_losing_army_moves_to_an_own_adjacent_tile_and_lies_on_its_side() -> None:
    state, view = field()
    battle, _ = fought(view, BattleReport("a", moves={"B1": "S"}))
    assert (state.armies["B1"].tile, state.armies["B1"].upright) == ("S", False)
    assert (state.armies["B2"].tile, state.armies["B2"].upright) == ("R", False)   # MK-BAT-8: on-side B2 too
    assert battle.moves == {"B1": "S", "B2": "R"}


def test_mk_brs_3_a_loser_with_no_own_adjacent_tile_is_destroyed() -> None:
    state, view = field()
    for tile in ("Q", "R", "S"):
        state.tiles[tile].owner = "a"
    state.artefacts["Shroud of the Saint"] = Holding("b", "B2", "U1")
    battle, section = fought(view, BattleReport("a"))
    assert "B1" not in state.armies and "B2" not in state.armies
    assert battle.moves == {"B1": "", "B2": ""}
    assert "Shroud of the Saint" not in state.artefacts       # B holds no capital: back to the pool (MK-ART-13)
    assert "B1 has no adjacent tile of its kingdom to move to and is destroyed." in section.lines


def test_mk_brs_4_a_win_hands_the_tile_and_its_settlement_to_the_winner() -> None:
    state, view = field()
    _, section = fought(view, BattleReport("a"))
    assert state.owner("T") == "a" and state.tile("T").settlement == "city"
    assert "T with its city passes to Red." in section.lines


def test_mk_brs_5_the_winner_may_move_one_army_keeping_its_status() -> None:
    state, view = field()
    army(state, "A2", "T", upright=False)
    _battle, section = fought(view, BattleReport("a", win_moves=["A2 P", "A1 P"]))
    assert (state.armies["A2"].tile, state.armies["A2"].upright) == ("P", False)
    assert state.armies["A1"].tile == "T"                   # one move only (battle.win_free_moves = 1)
    assert "The win move A1 P cannot be made now and is left out." in section.lines


def test_mk_pbm_4_the_default_win_move_is_none_and_the_standing_one_applies() -> None:
    state, view = field()
    _, section = fought(view, BattleReport("a"))
    assert state.armies["A1"].tile == "T" and "Red makes no win move." in section.lines
    state, view = field()
    state.kingdoms["a"].standing.win_move = "A1 P"
    fought(view, BattleReport("a"))
    assert state.armies["A1"].tile == "P"


@pytest.mark.clause("MK-BRS-6", "MK-BRS-7", "MK-BRS-9")
def test_mk_brs_6_7_9_draw_controller_stays_others_leave_upright() -> None:
    state, view = field()
    battle, _ = fought(view, BattleReport(DRAW))
    assert state.owner("T") == "b"
    assert state.armies["B1"].tile == "T" and state.armies["B2"].tile == "T"
    assert (state.armies["A1"].tile, state.armies["A1"].upright) == ("P", True)   # A13
    assert battle.moves == {"A1": "P"}


def test_mk_brs_9_a13_option_lays_draw_movers_on_their_side() -> None:
    state, _ = field()
    view = view_of(state, board([("T", "P"), ("T", "Q"), ("T", "R"), ("T", "S")]),
                   battle={"draw_movers_on_side": True})
    fought(view, BattleReport(DRAW))
    assert not state.armies["A1"].upright


def test_mk_brs_8_draw_in_a_third_kingdoms_tile_moves_both_sides() -> None:
    state, view = field()
    state.tiles["T"].owner = "c"
    state.kingdoms["c"] = Kingdom("c", "Green")
    battle, _ = fought(view, BattleReport(DRAW))
    assert state.armies["A1"].tile == "P" and state.armies["B1"].tile == "R" and state.armies["B2"].tile == "R"
    assert set(battle.moves) == {"A1", "B1", "B2"}


def test_mk_brs_10_control_changes_before_the_forced_moves() -> None:
    """B's armies cannot stay in (or retreat into) T: by step 2 it is A's."""
    _state, view = field()
    _battle, section = fought(view, BattleReport("a", medals=["A1.U1"], scars=["B1.U2"]))
    passes = section.lines.index("T with its city passes to Red.")
    moves = next(i for i, line in enumerate(section.lines) if line.startswith("B1 moves"))
    medals = section.lines.index("Medals: A1.U1.")
    assert passes < moves < medals


def test_mk_brs_11_a_move_may_end_in_an_own_tile_holding_enemies_which_becomes_contested() -> None:
    state, view = field()
    fought(view, BattleReport("a", moves={"B1": "Q"}))
    assert state.armies["B1"].tile == "Q" and "Q" in battles.contested(state)
    state, _ = field()
    closed = view_of(state, board([("T", "P"), ("T", "Q"), ("T", "R"), ("T", "S")]),
                     battle={"allow_move_into_contested": False})
    fought(closed, BattleReport("a", moves={"B1": "Q"}))
    assert state.armies["B1"].tile == "R"


def test_mk_brs_12_an_army_on_its_side_stays_so_whatever_later_battles_bring() -> None:
    state, view = field()
    fought(view, BattleReport(DRAW))
    assert not state.armies["B2"].upright                  # it stayed in T after the draw, still on its side


def test_mk_brs_13_default_retreat_no_enemy_then_own_settlement_then_lowest_id() -> None:
    state, view = field()
    retreating = state.armies["B1"]
    assert battle_results.destinations(view, retreating) == ["Q", "R", "S"]
    assert battle_results.default_destination(view, retreating, ["Q", "R", "S"]) == "R"
    assert battle_results.default_destination(view, retreating, ["Q", "S"]) == "S"
    assert battle_results.default_destination(view, retreating, ["Q"]) == "Q"


def test_mk_brs_13_standing_retreat_ranking_before_the_default() -> None:
    state, view = field()
    state.kingdoms["b"].standing.retreats = {"B2": ["P", "S"], "*": ["Q"]}
    fought(view, BattleReport("a"))
    assert state.armies["B2"].tile == "S"                  # P is not B's: the next entry
    assert state.armies["B1"].tile == "Q"                  # the ranking for every army


@pytest.mark.clause("MK-BAT-13", "MK-BAT-14", "MK-BAT-15")
def test_mk_bat_13_14_15_medals_and_scars_are_temporary_marks_one_each_per_battle() -> None:
    state, view = field()
    fought(view, BattleReport("a", medals=["A1.U1", "A1.U1", "B1.U2"], scars=["A1.U1", "B1.U1"]))
    u1 = state.armies["A1"].roster.get("U1")
    assert u1 is not None
    assert (u1.total(MEDAL), u1.total(SCAR)) == (1, 1)
    assert all(not m.permanent for m in u1.marks)
    b1 = state.armies["B1"].roster
    assert [e.total(MEDAL) for e in b1.entries] == [0, 1] and [e.total(SCAR) for e in b1.entries] == [1, 0]


@pytest.mark.clause("MK-BAT-17", "MK-BAT-18")
def test_mk_bat_17_18_marks_gather_over_the_month_and_routed_units_stay_on_the_list() -> None:
    state, view = field()
    fought(view, BattleReport(DRAW, scars=["A1.U1"]))
    state.armies["A1"].tile = "T"
    state.battle.battles[0].result = DRAW
    fought(view, BattleReport(DRAW, scars=["A1.U1"]))
    u1 = state.armies["A1"].roster.get("U1")
    assert u1 is not None and u1.total(SCAR) == 2
    assert len(state.armies["A1"].roster.entries) == 2


def test_mk_bat_19_a_result_is_a_win_for_one_kingdom_or_a_draw() -> None:
    state, view = field()
    battle, section = fought(view, BattleReport("b"))
    assert battle.result == "b" and battle_results.loser(battle) == "a"
    assert section.lines[0] == "Y1M1-B1 at T: Blue wins against Red."
    assert state.armies["A1"].tile == "P" and not state.armies["A1"].upright


@pytest.mark.clause("MK-ART-6", "MK-ART-12")
def test_mk_art_6_12_only_routed_carriers_of_the_losing_side_lose_their_artefacts() -> None:
    state, view = field()
    state.artefacts.update({"Blade of Slashing": Holding("b", "B1", "U2"),
                            "Blessing of the Gods": Holding("b", "B1", "U1"),
                            "Brew of Strength": Holding("a", "A1", "U2"), "Brew of Haste": Holding("b", "B2", "U1")})
    fought(view, BattleReport("a", scars=["B1.U2", "A1.U2", "B2.U1"], allot={"Blade of Slashing": "A1.U1"}))
    assert state.artefacts["Blade of Slashing"] == Holding("a", "A1", "U1")       # routed loser: captured, allotted
    assert state.artefacts["Blessing of the Gods"] == Holding("b", "B1", "U1")      # not routed
    assert state.artefacts["Brew of Strength"] == Holding("a", "A1", "U2")      # the winner's own routed unit
    assert state.artefacts["Brew of Haste"] == Holding("b", "B2", "U1")       # on an on-side army, which did not fight


def test_mk_art_6_a_capture_survives_the_destruction_of_the_carrier() -> None:
    state, view = field()
    for tile in ("Q", "R", "S"):
        state.tiles[tile].owner = "a"
    state.artefacts["Blade of Slashing"] = Holding("b", "B1", "U2")
    fought(view, BattleReport("a", scars=["B1.U2"]))
    assert "B1" not in state.armies
    assert state.artefacts["Blade of Slashing"] == Holding("a", "A1", "U1")      # the first unit that can take it


@pytest.mark.clause("MK-ART-7", "MK-ART-8")
def test_mk_art_7_8_no_unit_can_take_it_capital_or_pool() -> None:
    state, view = field()
    state.artefacts.update({"Blade of Slashing": Holding("b", "B1", "U2"), "Brew of Strength": Holding("a", "A1", "U1"),
                            "Axe": Holding("a", "A1", "U2")})
    fought(view, BattleReport("a", scars=["B1.U2"]))
    assert "Blade of Slashing" not in state.artefacts                             # A holds no capital (MK-ART-8)
    state, view = field()
    state.kingdoms["a"].start_tile = "P"
    state.tiles["P"].settlement = "city"
    state.artefacts.update({"Blade of Slashing": Holding("b", "B1", "U2"), "Brew of Strength": Holding("a", "A1", "U1"),
                            "Axe": Holding("a", "A1", "U2")})
    fought(view, BattleReport("a", scars=["B1.U2"]))
    assert state.artefacts["Blade of Slashing"] == Holding("a")                   # held at A's capital (MK-ART-7)


def test_mk_art_9_a_capital_taken_by_a_battle_win_hands_its_artefacts_to_the_taker() -> None:
    state, view = field()
    state.kingdoms["b"].start_tile = "T"
    state.artefacts["Pipes of Terror"] = Holding("b")
    _, section = fought(view, BattleReport("a", allot={"Pipes of Terror": "A1.U2"}))
    assert state.capital_of("b") == ""
    assert state.artefacts["Pipes of Terror"] == Holding("a", "A1", "U2")
    taken = "Pipes of Terror (held at Blue's captured capital) goes to Red's A1.U2."
    assert any(taken == line for line in section.lines)


def test_mk_bat_8_on_side_armies_do_not_fight_but_share_their_kingdoms_result() -> None:
    state, view = field()
    army(state, "A2", "T", upright=False)
    battle, _ = fought(view, BattleReport("a"))
    assert battle.armies == {"a": ["A1"], "b": ["B1"]} and battle.on_side == {"a": ["A2"], "b": ["B2"]}
    assert state.armies["A2"].tile == "T"                  # the winner's on-side army stays
    assert state.armies["B2"].tile == "R"                  # the loser's on-side army must leave too


def test_mk_bat_16_only_the_unit_its_owner_names_gets_the_medal() -> None:
    state, view = field()
    fought(view, BattleReport("a", medals=["A1.U2"], scars=["B1.U1"]))
    assert [e.total(MEDAL) for e in state.armies["A1"].roster.entries] == [0, 1]


def test_mk_art_10_artefacts_never_count_in_a_sides_points() -> None:
    state, view = field()
    state.artefacts["Blade of Slashing"] = Holding("b", "B1", "U1")
    state.battle.month = "Y1M1"
    battles.fight(view, "a", battles.Pick("T", "b"), Section("selection"))
    assert battles.points(state, state.battle.pending()[0], "b") == 500
