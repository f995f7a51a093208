"""Rule options of `rules/wandering_tribes.toml` beyond the defaults the scenarios use: each reading a
key offers is played, and a key with one reading refuses any other value."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.rulebook import RulesError
from pbem.rulesets.wandering_tribes import rules as wt_rules
from pbem.rulesets.wandering_tribes.movement import Turn, attempt
from pbem.rulesets.wandering_tribes.plan import Attempt, RoundOrders
from pbem.rulesets.wandering_tribes.player_round import defaults, play
from pbem.rulesets.wandering_tribes.setup import Choice, deploy
from pbem.rulesets.wandering_tribes.squares import squaremap_from_dict
from tests.wandering_tribes.helpers import dice, put, row, rules, world

FULL = ["General", "Halberdiers", "Halberdiers", "Crossbowmen", "Crossbowmen"]


def test_a_key_with_one_reading_refuses_another_and_a_mode_must_be_known() -> None:
    with pytest.raises(RulesError, match=r'retreat\.battle_order = "random" is not played: .* \("battle_id"\) because'):
        rules(**{"retreat.battle_order": "random"})
    with pytest.raises(RulesError, match=r"tables\.recruit_columns = .* is not played: .*; remove the override"):
        wt_rules.load({"tables": {"recruit_columns": ["plains", "hills", "woods", "towns", "desert", "villages"]}})
    with pytest.raises(RulesError, match=r"campaign\.mode"):
        wt_rules.load({"campaign": {"mode": "both"}})


@pytest.mark.clause("WT-REC-2")
def test_recruit_requires_different_tile_false_lets_a_looping_stack_recruit_at_home() -> None:
    gmap = squaremap_from_dict({"squares": {
        "T1": {"x": 0, "y": 0, "terrain": "plains", "roads": ["origin>E", "S>E"]},
        "T2": {"x": 1, "y": 0, "terrain": "plains", "roads": ["W>S"]},
        "T3": {"x": 0, "y": 1, "terrain": "plains", "roads": ["E>N"]},
        "T4": {"x": 1, "y": 1, "terrain": "plains", "roads": ["N>W"]}}})
    orders = RoundOrders(rest=False, attempts=[Attempt("A1", campfire="pass")],
                         recruit={"ALL": {"plains": [("Pistoliers", 1)]}})
    for loose, count in ((False, 0), (True, 1)):
        book = rules(**{"recruit.requires_different_tile": not loose})
        state = world({"Anna": "empire"})
        put(state, book, "A1", "Anna", "T1", FULL)
        done = play(state, book, gmap, "Anna", orders, dice(2, 2, 2, 2, 12))
        assert done.state.stacks["A1"].tile == "T1" and done.state.stacks["A1"].count("Pistoliers") == count


@pytest.mark.clause("WT-PBEM-10")
def test_default_orders_follow_the_defaults_table() -> None:
    book = rules(**{"defaults.try_mode": "always", "defaults.campfire": "pass", "defaults.rest": "no"})
    state = world({"Anna": "empire", "Ben": "empire"})
    put(state, book, "A1", "Anna", "T1", FULL)
    put(state, book, "A2", "Anna", "T3", FULL)
    put(state, book, "B1", "Ben", "T5", FULL)
    made = defaults(book, state, "Anna")
    assert not made.rest and [(a.stack, a.mode, a.campfire) for a in made.attempts] == [
        ("A1", "always", "pass"), ("A2", "always", "pass")]


@pytest.mark.clause("WT-ENC-5")
def test_forced_move_blocked_stay_keeps_the_stack_where_it_is() -> None:
    gmap, book = row(5, routes={"T2": []}), rules(**{"movement.forced_move_blocked": "stay"})
    state = world({"Anna": "empire", "Ben": "empire"})
    state.players["Ben"].resting = True
    put(state, book, "A1", "Anna", "T1", FULL)
    put(state, book, "B1", "Ben", "T2", FULL)
    turn = Turn(state, book, gmap, "Anna", dice(5))
    out = attempt(turn, "A1", Attempt("A1"))
    assert state.stacks["A1"].tile == "T2" and out.no_recruit and turn.alerts


def test_deploy_terrain_names_the_tiles_stacks_start_in() -> None:
    gmap = squaremap_from_dict({"squares": {"T1": {"x": 0, "y": 0, "terrain": "towns"},
                                            "T2": {"x": 1, "y": 0, "terrain": "villages"}}})
    state, _ = deploy(rules(**{"setup.deploy_terrain": "villages"}), gmap, {"Anna": Choice("empire")},
                      ScriptedDice([3, 4]))
    assert state.stacks["A1"].tile == "T2"


@pytest.mark.clause("WT-DIV-12")
def test_allow_self_destroying_divisions_destroy_the_bretonnian_part_without_knights_at_once() -> None:
    from pbem.rulesets.wandering_tribes.plan import Division

    gmap, book = row(5), rules(**{"division.allow_self_destroying": True})
    state = world({"Bea": "bretonnians"})
    put(state, book, "K1", "Bea", "T1", ["General", "Knights", "Bowmen", "Hero", "Bowmen", "Peasants"])
    split = Division("K1", [("K1", ["m1", "m2", "m3"]), ("K2", ["m4", "m5", "m6"])])
    done = play(state, book, gmap, "Bea", RoundOrders(rest=False, divisions=[split]), dice(12))
    assert "K2" not in done.state.stacks and "  K2 is destroyed: a Bretonnians stack without Knights or Grail " \
        "Knights" in done.log
