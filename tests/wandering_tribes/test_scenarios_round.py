"""The catalog's acceptance scenarios 6-12: locks in mode together and one_on_one, division,
recruiting, combining and the battle trigger."""

from __future__ import annotations

import pytest

from pbem.rulesets.wandering_tribes.divide import problems as division_problems
from pbem.rulesets.wandering_tribes.model import State
from pbem.rulesets.wandering_tribes.plan import ALWAYS, Attempt, Division, RoundOrders
from pbem.rulesets.wandering_tribes.player_round import play
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.squares import SquareMap
from pbem.rulesets.wandering_tribes.strategic import battle_due, open_round
from tests.wandering_tribes.helpers import dice, grid, lock, put, row, rules, world

FULL = ["General", "Halberdiers", "Halberdiers", "Crossbowmen", "Crossbowmen"]


def _six() -> tuple[SquareMap, Rules, State]:
    gmap, book = row(10, terrain={"T3": "plains"}), rules()
    state = world({"Anna": "empire", "Ben": "empire", "Cara": "empire", "Dan": "empire"})
    state.round = 2
    put(state, book, "A1", "Anna", "T9", FULL)
    put(state, book, "B1", "Ben", "T9", FULL)
    lock(state, "A1", "B1")
    put(state, book, "A2", "Anna", "T1", FULL)
    put(state, book, "A3", "Anna", "T6", FULL)
    put(state, book, "C1", "Cara", "T2", FULL)
    return gmap, book, state


# -- 6. attacking while already locked ----------------------------------------------------
@pytest.mark.clause("WT-ENC-9", "WT-REST-6", "WT-REST-12", "WT-REST-10", "WT-MOV-8")
def test_wt_enc_9_anna_already_locked_goes_back_rests_and_tries_nothing_more() -> None:
    gmap, book, state = _six()
    roll = dice(6)
    orders = RoundOrders(rest=False, attempts=[Attempt("A2"), Attempt("A3", mode=ALWAYS)])
    done = play(state, book, gmap, "Anna", orders, roll)
    after = done.state
    assert after.stacks["A2"].tile == "T1" and not after.locked("A2") and not roll.unused
    assert after.players["Anna"].resting and not after.players["Cara"].resting
    assert [o.stack for o in done.outcomes] == ["A2"] and after.stacks["A2"].points == state.stacks["A2"].points
    assert after.first_rest == 2


@pytest.mark.clause("WT-ENC-11")
def test_wt_enc_11_both_already_locked_both_rest_and_a2_goes_back() -> None:
    gmap, book, state = _six()
    put(state, book, "C2", "Cara", "T8", FULL)
    put(state, book, "D1", "Dan", "T8", FULL)
    lock(state, "C2", "D1")
    done = play(state, book, gmap, "Anna", RoundOrders(rest=False, attempts=[Attempt("A2")]), dice(6))
    assert done.state.players["Anna"].resting and done.state.players["Cara"].resting
    assert done.state.stacks["A2"].tile == "T1" and done.state.first_rest == 2


# -- 7. the enemy is already locked --------------------------------------------------------
@pytest.mark.clause("WT-ENC-10", "WT-ORD-6", "WT-REST-8")
def test_wt_enc_10_the_locked_enemy_rests_and_a2_moves_on_to_plains_and_recruits() -> None:
    gmap, book = row(10, terrain={"T3": "plains"}, campfires={"T2"}), rules()
    state = world({"Anna": "empire", "Ben": "empire", "Cara": "empire", "Dan": "empire"})
    put(state, book, "C2", "Cara", "T8", FULL)
    put(state, book, "D2", "Dan", "T8", FULL)
    lock(state, "C2", "D2")
    put(state, book, "C1", "Cara", "T2", FULL)
    put(state, book, "A2", "Anna", "T1", FULL)
    roll = dice(4, 9)
    done = play(state, book, gmap, "Anna", RoundOrders(rest=False, attempts=[Attempt("A2")],
                                                        recruit={"A2": {"plains": [("Pistoliers", 1)]}}), roll)
    after = done.state
    assert after.players["Cara"].resting and after.stacks["A2"].tile == "T3" and not roll.unused
    assert not after.locked("C1") and after.stacks["A2"].count("Pistoliers") == 1
    assert play(after, book, gmap, "Cara", RoundOrders(), dice()).log == ["Cara: no round (resting)"]
    _, opening = open_round(after, book, dice(5, 6, 7))
    assert "Cara" not in opening.sequence


# -- 8. mode one_on_one: several combats -----------------------------------------------------
@pytest.mark.clause("WT-ENC-8", "WT-REST-4", "WT-REST-5", "WT-REST-11", "WT-REST-7", "WT-ENC-6", "WT-ENC-7")
def test_wt_enc_8_one_on_one_locks_again_and_only_two_locks_allow_a_rest() -> None:
    gmap, book = row(10), rules(**{"campaign.mode": "one_on_one"})
    state = world({"Anna": "empire", "Ben": "empire", "Cara": "empire"})
    put(state, book, "A1", "Anna", "T9", FULL)
    put(state, book, "B1", "Ben", "T9", FULL)
    lock(state, "A1", "B1")
    put(state, book, "A2", "Anna", "T1", FULL)
    put(state, book, "C1", "Cara", "T2", FULL)
    done = play(state, book, gmap, "Anna", RoundOrders(rest=False, attempts=[Attempt("A2")]), dice(6))
    after = done.state
    assert after.stacks["A2"].tile == "T2" and after.lock_of("A2") is not None
    made = after.lock_of("A2")
    assert made is not None and made.defender == "C1" and not after.players["Anna"].resting
    rested = play(after, book, gmap, "Anna", RoundOrders(rest=True), dice())
    assert rested.state.players["Anna"].resting and rested.outcomes == []
    ben = play(after, book, gmap, "Ben", RoundOrders(rest=True), dice())
    assert not ben.state.players["Ben"].resting
    assert any("not allowed" in line for line in ben.log)


@pytest.mark.clause("WT-REST-3", "WT-REST-1", "WT-REST-2")
def test_wt_rest_3_together_one_locked_stack_allows_a_rest_which_ends_the_round_at_once() -> None:
    gmap, book, state = _six()
    done = play(state, book, gmap, "Anna", RoundOrders(rest=True, attempts=[Attempt("A2")]), dice())
    assert done.state.players["Anna"].resting and done.outcomes == [] and done.state.first_rest == 2


# -- 9. division ---------------------------------------------------------------------------
EIGHT = ["General", "Hero", "Halberdiers", "Halberdiers", "Crossbowmen", "Crossbowmen", "Knights", "Pistoliers"]


def _nine() -> tuple[SquareMap, Rules, State]:
    gmap, book = grid(3, 3), rules()
    state = world({"Anna": "empire"})
    put(state, book, "A1", "Anna", "T5", EIGHT)
    assert state.stacks["A1"].points == 610
    return gmap, book, state


SPLIT = Division("A1", [("A1", ["m1", "m3", "m5", "m7"]), ("A1b", ["m2", "m4", "m6", "m8"])])


@pytest.mark.clause("WT-DIV-3", "WT-DIV-4", "WT-DIV-7", "WT-DIV-2", "WT-DIV-1")
def test_wt_div_7_a_division_into_two_legal_parts_keeps_both_in_the_tile() -> None:
    gmap, book, state = _nine()
    assert division_problems(state, book, "Anna", SPLIT) == []
    done = play(state, book, gmap, "Anna", RoundOrders(rest=False, divisions=[SPLIT], attempts=[]), dice(10, 12))
    assert any("A1 divides into A1 (335 pts), A1b (275 pts)" in line for line in done.log)


@pytest.mark.clause("WT-DIV-5", "WT-DIV-3", "WT-DIV-4")
def test_wt_div_5_a_division_with_a_faulty_part_is_refused_whole() -> None:
    gmap, book, state = _nine()
    bad = Division("A1", [("A1", ["m1", "m2"]), ("A1c", ["m3", "m4", "m5", "m6", "m7", "m8"])])
    found = division_problems(state, book, "Anna", bad)
    assert any("2 markers" in p for p in found) and any("no character" in p for p in found)
    done = play(state, book, gmap, "Anna", RoundOrders(rest=False, divisions=[bad]), dice(12))
    assert done.state.stacks["A1"].points == 610 and "A1c" not in done.state.stacks


@pytest.mark.clause("WT-DIV-9", "WT-CMB-1", "WT-CMB-2", "WT-DIV-13")
def test_wt_div_9_parts_that_both_fail_are_merged_back_into_a1_and_recruit_nothing() -> None:
    gmap, book, state = _nine()
    orders = RoundOrders(rest=False, divisions=[SPLIT], attempts=[Attempt("A1"), Attempt("A1b")])
    roll = dice(10, 9)
    done = play(state, book, gmap, "Anna", orders, roll)
    assert list(done.state.stacks) == ["A1"] and not roll.unused
    assert len(done.state.stacks["A1"].markers) == 8 and done.state.stacks["A1"].points == 610


@pytest.mark.clause("WT-DIV-8", "WT-DIV-13", "WT-REC-1")
def test_wt_div_13_a1b_moves_and_may_recruit_while_a1_stays_unmerged() -> None:
    gmap, book, state = _nine()
    orders = RoundOrders(rest=False, divisions=[SPLIT], attempts=[Attempt("A1"), Attempt("A1b")],
                         recruit={"A1b": {"plains": [("Halberdiers", 1)]}})
    done = play(state, book, gmap, "Anna", orders, dice(10, 8, 12))
    after = done.state
    assert after.stacks["A1"].tile == "T5" and after.stacks["A1b"].tile == "T2"
    assert after.stacks["A1"].points == 335 and after.stacks["A1b"].points == 275 + 45


@pytest.mark.clause("WT-DIV-6", "WT-DIV-11", "WT-DIV-10", "WT-DIV-12")
def test_wt_div_6_small_stacks_mounts_locks_and_bretonnian_parts_are_refused() -> None:
    _gmap, book = grid(3, 3), rules()
    state = world({"Anna": "empire", "Bea": "bretonnians", "Ben": "empire"})
    put(state, book, "A1", "Anna", "T5", ["General", "Hero", "Halberdiers", "Halberdiers", "Crossbowmen"])
    five = Division("A1", [("A1", ["m1", "m3", "m4"]), ("A2", ["m2", "m5"])])
    assert any("2 markers" in p for p in division_problems(state, book, "Anna", five))
    put(state, book, "A3", "Anna", "T1", ["General", "Griffon", "Halberdiers", "Hero", "Halberdiers", "Crossbowmen"])
    griffon = Division("A3", [("A3", ["m6", "m8", "m9"]), ("A4", ["m7", "m10", "m11"])])
    assert any("mount" in p for p in division_problems(state, book, "Anna", griffon))
    put(state, book, "B1", "Ben", "T1", FULL)
    lock(state, "A3", "B1")
    ok = Division("A3", [("A3", ["m6", "m7", "m8"]), ("A4", ["m9", "m10", "m11"])])
    assert any("locked" in p for p in division_problems(state, book, "Anna", ok))
    put(state, book, "K1", "Bea", "T9", ["General", "Knights", "Bowmen", "Hero", "Bowmen", "Peasants"])
    knights = Division("K1", [("K1", ["m17", "m18", "m19"]), ("K2", ["m20", "m21", "m22"])])
    assert any("Knights" in p for p in division_problems(state, book, "Bea", knights))


# -- 12. battle trigger --------------------------------------------------------------------
FIVE = {"Anna": "empire", "Ben": "empire", "Cara": "empire", "Dan": "empire", "Eve": "empire"}


@pytest.mark.clause("WT-RND-2", "WT-RND-4", "WT-RND-5", "WT-RND-6", "WT-RND-1", "WT-REST-12")
def test_wt_rnd_5_a_first_rest_in_round_4_brings_battles_after_round_7() -> None:
    book = rules()
    state = world(FIVE)
    state.round = 4
    state.rest("Anna")
    assert state.first_rest == 4
    state.players["Ben"].resting = True
    for end, due in ((5, False), (6, False), (7, True)):
        state.round = end
        assert battle_due(state, book) is due


@pytest.mark.clause("WT-RND-2")
def test_wt_rnd_2_two_or_fewer_players_awake_bring_the_battle_phase_at_once() -> None:
    state = world(FIVE)
    state.round = 5
    state.first_rest = 4
    for player in ("Anna", "Ben", "Cara"):
        state.players[player].resting = True
    assert battle_due(state, rules())


@pytest.mark.clause("WT-RND-3")
def test_wt_rnd_3_two_players_nobody_resting_fight_no_battle_phase() -> None:
    state = world({"Anna": "empire", "Ben": "empire"})
    state.round = 3
    assert not battle_due(state, rules())
