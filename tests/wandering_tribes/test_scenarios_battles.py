"""The catalog's acceptance scenarios 13-15: random pairing, draws with retreats and destruction,
and an ambush; and the final ranking."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.wandering_tribes.battle_results import Report, end_phase, problems, ranking, resolve
from pbem.rulesets.wandering_tribes.battle_setup import AMBUSH, LOCKED, PAIRED, Battle, setup
from pbem.rulesets.wandering_tribes.briefing import briefing
from pbem.rulesets.wandering_tribes.model import State
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.squares import SquareMap
from tests.wandering_tribes.helpers import faces, grid, lock, no_minimums, put, rules, world

FULL = ["General", "Halberdiers", "Halberdiers", "Crossbowmen", "Crossbowmen"]
FIVE = {"Anna": "empire", "Ben": "empire", "Cara": "empire", "Dan": "empire", "Eve": "empire"}


@pytest.mark.clause("WT-BAT-1", "WT-BAT-2", "WT-BAT-3", "WT-BAT-4", "WT-BAT-5", "WT-BAT-13", "WT-GEN-9",
                    "WT-REC-14", "WT-RES-8")
def test_wt_bat_3_random_pairing_of_cara_dan_and_eve() -> None:
    gmap, book = grid(5, 3, terrain={"T8": "woods", "T12": "plains"}), rules()
    state = world(FIVE)
    for sid, owner, tile in (("A1", "Anna", "T5"), ("B1", "Ben", "T5"), ("C1", "Cara", "T1"), ("C2", "Cara", "T8"),
                             ("D1", "Dan", "T3"), ("E1", "Eve", "T12"), ("E2", "Eve", "T14"), ("E3", "Eve", "T15")):
        put(state, book, sid, owner, tile, FULL)
    lock(state, "A1", "B1")
    roll = ScriptedDice([2, 1, 3, 1, 5])
    battles, log = setup(state, book, gmap, roll)
    assert not roll.unused and "Dan is the odd one out and fights no battle this phase" in log
    assert [(b.kind, b.tile, b.defender, b.attacker) for b in battles] == [
        (LOCKED, "T5", "A1", "B1"), (PAIRED, "T8", "C2", "E1")]
    assert [b.id for b in battles] == [1, 2]
    report = Report(winner="Eve", ifwin={"Eve": [("Pistoliers", 1)]}, iflose={"Cara": ["N", "S"]})
    after, _ = resolve(state, book, gmap, battles[1], report, ScriptedDice())
    assert after.stacks["E1"].tile == "T12" and after.stacks["E1"].count("Pistoliers") == 1   # plains cell
    assert after.stacks["C2"].tile == "T13"          # N (T3) holds Dan's D1; S is free


def _fourteen() -> tuple[SquareMap, Rules, State]:
    gmap = grid(3, 2, terrain={"T5": "hills"})
    book = rules()
    state = world({"Anna": "empire", "Ben": "empire", "Cara": "empire"})
    put(state, book, "C1", "Cara", "T2", FULL)
    put(state, book, "A2", "Anna", "T4", FULL)
    put(state, book, "A1", "Anna", "T5", FULL)
    put(state, book, "B1", "Ben", "T5", FULL)
    lock(state, "A1", "B1")
    return gmap, book, state


@pytest.mark.clause("WT-RES-9", "WT-RES-10", "WT-RES-11", "WT-RES-12", "WT-RES-13", "WT-RES-14")
def test_wt_res_13_a_draw_roll_off_sends_ben_east_and_leaves_anna_nowhere_to_go() -> None:
    gmap, book, state = _fourteen()
    battle = Battle(1, LOCKED, "T5", "A1", "B1")
    roll = ScriptedDice(faces(5, 9))
    after, _log = resolve(state, book, gmap, battle, Report(iflose={"Ben": ["S", "E"]}), roll)
    assert after.stacks["B1"].tile == "T6" and "A1" not in after.stacks and not roll.unused
    assert not after.players["Anna"].out and not after.locks


@pytest.mark.clause("WT-DES-4", "WT-DES-3")
def test_wt_des_4_a_bretonnian_winner_without_knights_recruits_peasants_and_is_destroyed() -> None:
    gmap, book = grid(3, 1, terrain={"T2": "woods"}), no_minimums("bretonnians")
    state = world({"Bea": "bretonnians", "Ben": "empire"})
    put(state, book, "K1", "Bea", "T2", ["General", "Knights", "Bowmen", "Bowmen"])
    put(state, book, "B1", "Ben", "T2", FULL)
    lock(state, "K1", "B1")
    report = Report(winner="Bea", lost={"Bea": ["m2"]}, ifwin={"Bea": [("Peasants", 1)]}, iflose={"Ben": ["W"]})
    after, log = resolve(state, book, gmap, Battle(1, LOCKED, "T2", "K1", "B1"), report, ScriptedDice())
    assert "K1 recruits 1 Peasants in woods -> 270 pts" in log and "K1" not in after.stacks
    assert after.players["Bea"].out


@pytest.mark.clause("WT-DES-2", "WT-DES-5", "WT-DES-6", "WT-GEN-11", "WT-DES-1")
def test_wt_des_2_an_orc_winner_with_only_characters_survives_by_recruiting_goblins() -> None:
    gmap, book = grid(3, 1, terrain={"T2": "plains"}), no_minimums("orcs_goblins")
    state = world({"Olga": "orcs_goblins", "Ben": "empire"})
    put(state, book, "O1", "Olga", "T2", ["General", "Orc Hero", "Goblins"])
    put(state, book, "B1", "Ben", "T2", ["General", "Hero", "Halberdiers"])
    lock(state, "O1", "B1")
    battle = Battle(1, LOCKED, "T2", "O1", "B1")
    report = Report(winner="Olga", lost={"Olga": ["m3"], "Ben": ["m6"]}, ifwin={"Olga": [("Goblins", 2)]})
    after, _log = resolve(state, book, gmap, battle, report, ScriptedDice())
    assert after.stacks["O1"].count("Goblins") == 2
    assert "B1" not in after.stacks and after.players["Ben"].out            # characters only: no retreat
    plain = Report(winner="Olga", lost={"Olga": ["m3"]})
    after2, _ = resolve(state, book, gmap, battle, plain, ScriptedDice([1]))
    assert "O1" not in after2.stacks and after2.players["Olga"].out


@pytest.mark.clause("WT-BAT-6", "WT-BAT-7", "WT-BAT-8", "WT-BAT-9", "WT-BAT-10", "WT-RES-16", "WT-BAT-19",
                    "WT-BAT-12", "WT-BAT-14", "WT-BAT-15", "WT-BAT-16")
def test_wt_bat_7_dan_is_ambushed_in_the_desert_by_volunteer_eve() -> None:
    gmap = grid(4, 3, terrain={"T7": "desert"})
    book = rules(**{"campaign.mode": "one_on_one"})
    state = world(FIVE)
    d1 = put(state, book, "D1", "Dan", "T7", ["General", "Hero", "Halberdiers", "Halberdiers", "Crossbowmen",
                                              "Crossbowmen", "Handgunners", "Pistoliers", "Cannons"])
    assert d1.points == 650
    put(state, book, "D2", "Dan", "T12", ["General", "Hero", "Knights", "Knights", "Knights", "Knights", "Knights",
                                          "Pistoliers"])
    for sid, owner, tile in (("A1", "Anna", "T1"), ("B1", "Ben", "T1"), ("C1", "Cara", "T2"), ("E1", "Eve", "T2")):
        put(state, book, sid, owner, tile, FULL)
    lock(state, "A1", "B1")
    lock(state, "C1", "E1")
    state.players["Ben"].volunteer = state.players["Eve"].volunteer = True
    roll = ScriptedDice([1, 2])
    battles, _ = setup(state, book, gmap, roll)
    ambush = next(b for b in battles if b.kind == AMBUSH)
    assert (ambush.defender, ambush.ambusher, ambush.tile) == ("D1", "Eve", "T7") and not roll.unused
    text = "\n".join(briefing(state, book, gmap, ambush, "2026-12-06"))
    assert "at most 750 pts" in text and "Defender: D1" in text and "terrain desert" in text
    assert "discarded" in text and "90 cm" in text and "6 turns" in text
    handgunners = next(m.id for m in d1.markers if m.type == "Handgunners")
    report = Report(winner="Eve", lost={"Dan": [handgunners]}, iflose={"Dan": ["S", "E"]})
    after, _log = resolve(state, book, gmap, ambush, report, ScriptedDice())
    assert after.stacks["D1"].tile == "T11" and after.stacks["D1"].points == 585
    assert set(after.stacks) == set(state.stacks)


@pytest.mark.clause("WT-BAT-7")
def test_wt_bat_7_without_volunteers_any_other_player_may_ambush() -> None:
    gmap, book = grid(3, 1), rules(**{"campaign.mode": "one_on_one"})
    state = world({"Anna": "empire", "Ben": "empire", "Cara": "empire"})
    put(state, book, "A1", "Anna", "T1", FULL)
    put(state, book, "B1", "Ben", "T2", FULL)
    put(state, book, "C1", "Cara", "T3", FULL)
    lock_free = ScriptedDice([2, 1, 1])
    battles, _log = setup(state, book, gmap, lock_free)
    assert [b.ambusher for b in battles] == ["Cara", "Anna", "Anna"]


@pytest.mark.clause("WT-RES-3", "WT-RES-4")
def test_wt_res_3_a_withdrawn_winner_and_an_unknown_marker_are_refused() -> None:
    _gmap, _book, state = _fourteen()
    battle = Battle(1, LOCKED, "T5", "A1", "B1")
    found = problems(state, battle, Report(winner="Anna", withdrawn=["Anna"], lost={"Ben": ["m1"]}))
    assert any("withdrew" in p for p in found) and any("m1" in p for p in found)


@pytest.mark.clause("WT-REST-13", "WT-RES-17", "WT-VIC-3", "WT-VIC-4", "WT-VIC-5")
def test_wt_vic_4_the_ranking_shares_equal_scores_and_lists_drop_outs_last() -> None:
    book, state = rules(), world({"Anna": "empire", "Ben": "empire", "Cara": "empire"})
    state.players["Anna"].resting = True
    state.first_rest = 3
    put(state, book, "A1", "Anna", "T1", FULL)
    put(state, book, "B1", "Ben", "T2", FULL)
    state.players["Cara"].out = True
    state = end_phase(state)
    assert not state.players["Anna"].resting and state.first_rest == 0
    assert ranking(state) == [(1, "Anna", 325), (1, "Ben", 325), (3, "Cara", 0)]
