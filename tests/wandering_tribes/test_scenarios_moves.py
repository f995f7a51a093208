"""The catalog's acceptance scenarios 1-5: player order, road arrows, the command chain and camp
fires, moving through a resting enemy, the attempt list and the move obligation."""

from __future__ import annotations

import pytest

from pbem.rulesets.wandering_tribes.model import State
from pbem.rulesets.wandering_tribes.movement import Turn, attempt
from pbem.rulesets.wandering_tribes.plan import ALWAYS, PASS, STOP, UNTIL_SUCCESS, Attempt, RoundOrders
from pbem.rulesets.wandering_tribes.player_round import play
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.squares import SquareMap, squaremap_from_dict
from pbem.rulesets.wandering_tribes.strategic import open_round, play_round
from tests.wandering_tribes.helpers import dice, grid, lock, put, row, rules, world

EMPIRE_A1 = ["General", "Hero", "Halberdiers", "Halberdiers"]
SEATS = {"Anna": "empire", "Ben": "empire", "Cara": "empire", "Dan": "empire"}


# -- 1. player order -------------------------------------------------------------------
@pytest.mark.clause("WT-ORD-1", "WT-ORD-2", "WT-ORD-4", "WT-ORD-5", "WT-ORD-8", "WT-PBEM-4")
def test_wt_ord_8_odd_first_total_goes_counter_clockwise_and_resting_dan_does_not_roll() -> None:
    state = world(SEATS)
    state.players["Dan"].resting = True
    roll = dice(6, 11, 4)
    _, opening = open_round(state, rules(), roll)
    assert opening.sequence == ["Ben", "Anna", "Cara"]
    assert [r.purpose for r in roll.log] == ["order roll, round 1: Anna", "order roll, round 1: Ben",
                                             "order roll, round 1: Cara"]


@pytest.mark.clause("WT-ORD-3", "WT-ORD-9")
def test_wt_ord_9_tied_top_totals_reroll_and_the_reroll_sets_the_direction() -> None:
    state = world(SEATS)
    state.players["Dan"].resting = True
    roll = dice(9, 9, 4, 8, 3)
    _, opening = open_round(state, rules(), roll)
    assert opening.sequence == ["Anna", "Ben", "Cara"]
    assert len(roll.log) == 5 and not roll.unused


@pytest.mark.clause("WT-ORD-6", "WT-ORD-10", "WT-REST-8", "WT-ENC-10")
def test_wt_ord_6_cara_forced_to_rest_in_bens_round_takes_no_round() -> None:
    gmap, book = row(5), rules()
    state = world(SEATS)
    state.players["Dan"].resting = True
    put(state, book, "B1", "Ben", "T1", EMPIRE_A1)
    put(state, book, "C1", "Cara", "T2", EMPIRE_A1)
    put(state, book, "C2", "Cara", "T5", EMPIRE_A1)
    put(state, book, "D2", "Dan", "T5", EMPIRE_A1)
    put(state, book, "A1", "Anna", "T4", EMPIRE_A1)
    lock(state, "D2", "C2")
    state, opening = open_round(state, book, dice(6, 11, 4))
    assert opening.sequence == ["Ben", "Anna", "Cara"]
    # Ben: 5 -> T2 (Cara's C1; Cara has C2 locked) -> Cara rests, B1 on to T3 -> 9 > 7 stops.
    # Anna: A1 in T4: 12 fails.
    roll = dice(5, 9, 12)
    state, log, _ = play_round(state, book, gmap, opening.sequence, {}, roll)
    assert state.players["Cara"].resting and state.stacks["B1"].tile == "T3"
    assert "Cara: no round (resting)" in log and not roll.unused
    state, opening = open_round(state, book, dice(7, 8))
    assert "Cara" not in opening.sequence and len(opening.log) == 3


# -- 2. road arrows --------------------------------------------------------------------
@pytest.mark.clause("WT-ROAD-2", "WT-ROAD-3", "WT-ROAD-6", "WT-MAP-3")
def test_wt_road_6_a_stack_entering_from_w_must_take_e_even_with_a_fork_preference() -> None:
    gmap = squaremap_from_dict({"squares": {
        "W1": {"x": 0, "y": 0, "terrain": "plains", "roads": ["origin>E"]},
        "X": {"x": 1, "y": 0, "terrain": "plains", "roads": ["W>E", "origin>S"]},
        "E1": {"x": 2, "y": 0, "terrain": "plains"},
        "S1": {"x": 1, "y": 1, "terrain": "plains"},
    }})
    assert gmap.exits("X") == ["E", "S"]
    assert gmap.exits("X", "W") == ["E"]
    book, state = rules(), world({"Anna": "empire"})
    put(state, book, "A1", "Anna", "W1", EMPIRE_A1)
    turn = Turn(state, book, gmap, "Anna", dice(2, 2))
    attempt(turn, "A1", Attempt("A1", forks={"X": ["S"]}, campfire=PASS))
    assert state.stacks["A1"].tile == "E1"


@pytest.mark.clause("WT-ROAD-7")
def test_wt_road_7_routes_s_to_n_and_origin_to_e() -> None:
    gmap = squaremap_from_dict({"squares": {
        "Y": {"x": 1, "y": 1, "terrain": "plains", "roads": ["S>N", "origin>E"]},
        "N": {"x": 1, "y": 0, "terrain": "plains"}, "E": {"x": 2, "y": 1, "terrain": "plains"},
        "S": {"x": 1, "y": 2, "terrain": "plains", "roads": ["origin>N"]}}})
    assert gmap.exits("Y") == ["N", "E"]
    assert gmap.exits("Y", "S") == ["N"]


@pytest.mark.clause("WT-ROAD-5", "WT-ROAD-8")
def test_wt_road_5_a_stack_entering_z_from_w_stops_there_without_a_roll_and_one_starting_there_leaves_s() -> None:
    gmap = squaremap_from_dict({"squares": {
        "W1": {"x": 0, "y": 1, "terrain": "plains", "roads": ["origin>E"]},
        "Z": {"x": 1, "y": 1, "terrain": "woods", "roads": ["N>S"]},
        "N1": {"x": 1, "y": 0, "terrain": "plains"}, "S1": {"x": 1, "y": 2, "terrain": "plains"}}})
    book, state = rules(), world({"Anna": "empire"})
    put(state, book, "A1", "Anna", "W1", EMPIRE_A1)
    put(state, book, "A2", "Anna", "Z", EMPIRE_A1)
    roll = dice(2, 2, 12)
    turn = Turn(state, book, gmap, "Anna", roll)
    first = attempt(turn, "A1", Attempt("A1"))
    assert state.stacks["A1"].tile == "Z" and first.moved and len(roll.log) == 1
    attempt(turn, "A2", Attempt("A2"))
    assert state.stacks["A2"].tile == "S1"


@pytest.mark.clause("WT-ROAD-1", "WT-MAP-4")
def test_wt_road_1_moves_go_one_orthogonal_tile_per_step_and_never_against_an_arrow() -> None:
    gmap = row(3)
    assert gmap.neighbours("T2") == frozenset({"T1", "T3"})
    assert gmap.exits("T2", "E") == []          # no route comes in by E: nobody moves against the arrow


# -- 3. command chain and camp fire -----------------------------------------------------
def _scenario_3() -> tuple[SquareMap, Rules, State]:
    gmap = row(5, terrain={"T3": "villages", "T4": "woods"}, campfires={"T3"})
    book, state = rules(), world({"Anna": "empire"})
    put(state, book, "A1", "Anna", "T1", ["General", "Hero", "Halberdiers", "Halberdiers", "Crossbowmen",
                                          "Crossbowmen"])
    return gmap, book, state


@pytest.mark.clause("WT-CMD-3", "WT-CMD-4", "WT-CMD-5", "WT-CMD-9", "WT-ENC-13", "WT-REC-1", "WT-REC-3",
                    "WT-PBEM-8", "WT-ENC-12")
def test_wt_cmd_9_command_chain_passes_the_camp_fire_and_stops_in_woods_then_recruits_from_woods() -> None:
    gmap, book, state = _scenario_3()
    roll = dice(7, 8, 6, 7)
    orders = RoundOrders(rest=False, attempts=[Attempt("A1", campfire=PASS)],
                         recruit={"A1": {"woods": [("Skirmishers", 1)]}})
    done = play(state, book, gmap, "Anna", orders, roll)
    a1 = done.state.stacks["A1"]
    assert a1.tile == "T4" and not roll.unused
    assert [r.purpose for r in roll.log][-1] == "command test A1 in T4 (target 6)"
    assert a1.types()[-1] == "Skirmishers"


@pytest.mark.clause("WT-ENC-12", "WT-PBEM-8")
def test_wt_enc_12_campfire_stop_stops_in_t3_and_recruits_from_villages_with_two_dice() -> None:
    gmap, book, state = _scenario_3()
    roll = dice(7, 8)
    orders = RoundOrders(rest=False, attempts=[Attempt("A1", campfire=STOP)],
                         recruit={"ALL": {"villages": [("Halberdiers", 1)]}})
    done = play(state, book, gmap, "Anna", orders, roll)
    assert done.state.stacks["A1"].tile == "T3" and len(roll.log) == 2
    assert done.state.stacks["A1"].count("Halberdiers") == 3


@pytest.mark.clause("WT-CMD-8", "WT-CMD-10")
def test_wt_cmd_8_twelve_always_fails_and_a_hopeless_test_is_still_rolled() -> None:
    gmap = row(5)
    book = rules()
    state = world({"Anna": "empire"})
    put(state, book, "A1", "Anna", "T1", EMPIRE_A1)
    book_high = rules(**{"nations.empire.list.General.command": 12})
    roll = dice(12)
    turn = Turn(state, book_high, gmap, "Anna", roll)
    assert not attempt(turn, "A1", Attempt("A1")).moved
    # A Wizard alone (command 7) after 8 tiles has target -1 and still rolls.
    state2 = world({"Anna": "empire"})
    put(state2, book, "A1", "Anna", "T1", ["Wizard", "Halberdiers", "Halberdiers"])
    turn2 = Turn(state2, book, gmap, "Anna", dice(2, 2, 2, 2))
    attempt(turn2, "A1", Attempt("A1"))
    assert state2.stacks["A1"].tile == "T5"


# -- 4. moving through a resting enemy ---------------------------------------------------
@pytest.mark.clause("WT-ENC-2", "WT-ENC-3", "WT-ENC-4", "WT-CMD-6", "WT-REST-9")
def test_wt_enc_2_a_resting_enemy_is_passed_with_no_roll_and_the_camp_fire_ignored() -> None:
    gmap, book = row(5, campfires={"T2"}), rules()
    state = world({"Anna": "empire", "Ben": "empire"})
    state.players["Ben"].resting = True
    put(state, book, "A1", "Anna", "T1", EMPIRE_A1)
    put(state, book, "B1", "Ben", "T2", EMPIRE_A1)
    roll = dice(5, 8)
    turn = Turn(state, book, gmap, "Anna", roll)
    attempt(turn, "A1", Attempt("A1", campfire=STOP))
    assert state.stacks["A1"].tile == "T3" and len(roll.log) == 2 and not state.locks
    assert roll.log[1].purpose == "command test A1 in T3 (target 7)"


@pytest.mark.clause("WT-ENC-2")
def test_wt_enc_2_a_locked_pair_in_the_tile_is_passed_the_same_way() -> None:
    gmap, book = row(5, campfires={"T2"}), rules()
    state = world({"Anna": "empire", "Cara": "empire", "Dan": "empire"})
    put(state, book, "A1", "Anna", "T1", EMPIRE_A1)
    put(state, book, "C1", "Cara", "T2", EMPIRE_A1)
    put(state, book, "D1", "Dan", "T2", EMPIRE_A1)
    lock(state, "C1", "D1")
    roll = dice(5, 8)
    attempt(Turn(state, book, gmap, "Anna", roll), "A1", Attempt("A1"))
    assert state.stacks["A1"].tile == "T3" and len(roll.log) == 2 and len(state.locks) == 1


@pytest.mark.clause("WT-ENC-5", "WT-REC-2", "WT-ENC-16")
def test_wt_enc_5_a_blocked_forced_move_goes_back_to_the_start_without_recruiting_and_alerts_the_gm() -> None:
    gmap, book = row(5, routes={"T2": []}), rules()
    state = world({"Anna": "empire", "Ben": "empire"})
    state.players["Ben"].resting = True
    put(state, book, "A1", "Anna", "T1", EMPIRE_A1)
    put(state, book, "B1", "Ben", "T2", EMPIRE_A1)
    roll = dice(5)
    done = play(state, book, gmap, "Anna", RoundOrders(rest=False, attempts=[Attempt("A1")],
                                                        recruit={"ALL": {"plains": [("Halberdiers", 1)]}}), roll)
    assert done.state.stacks["A1"].tile == "T1" and done.outcomes[0].moved and done.outcomes[0].no_recruit
    assert done.state.stacks["A1"].count("Halberdiers") == 2 and done.alerts


# -- 5. attempt list and the move obligation ---------------------------------------------
def _anna_four() -> tuple[SquareMap, Rules, State]:
    gmap, book = grid(4, 4), rules()
    state = world({"Anna": "empire"})
    put(state, book, "A1", "Anna", "T6", ["General", "Halberdiers", "Halberdiers"])
    put(state, book, "A2", "Anna", "T8", ["Hero", "Halberdiers", "Halberdiers"])
    put(state, book, "A3", "Anna", "T14", ["Hero", "Halberdiers", "Halberdiers"])
    put(state, book, "A4", "Anna", "T16", ["Wizard", "Halberdiers", "Halberdiers"])
    return gmap, book, state


@pytest.mark.clause("WT-MOV-1", "WT-MOV-2", "WT-MOV-3", "WT-MOV-4", "WT-MOV-5", "WT-MOV-6", "WT-PBEM-5",
                    "WT-MOV-7")
def test_wt_pbem_5_until_success_entries_stop_after_a_move_and_always_entries_are_still_tried() -> None:
    gmap, book, state = _anna_four()
    roll = dice(10, 7, 9, 11)
    orders = RoundOrders(rest=False, attempts=[Attempt("A1"), Attempt("A2"), Attempt("A3", mode=ALWAYS)])
    done = play(state, book, gmap, "Anna", orders, roll)
    assert not roll.unused and [o.stack for o in done.outcomes] == ["A1", "A2", "A3"]
    assert [o.moved for o in done.outcomes] == [False, True, False]
    assert done.state.stacks["A4"].tile == "T16"


@pytest.mark.clause("WT-PBEM-6", "WT-PBEM-7", "WT-MOV-1")
def test_wt_pbem_6_when_the_list_fails_the_processor_tries_unlisted_stacks_with_default_directions() -> None:
    gmap, book, state = _anna_four()
    roll = dice(10, 9, 12, 6, 12)
    orders = RoundOrders(rest=False, attempts=[Attempt("A1", mode=UNTIL_SUCCESS), Attempt("A2"),
                                               Attempt("A3", mode=ALWAYS)])
    done = play(state, book, gmap, "Anna", orders, roll)
    assert [o.stack for o in done.outcomes] == ["A1", "A2", "A3", "A4"]
    assert done.state.stacks["A4"].tile == "T12" and not roll.unused     # N of T16 is T12
