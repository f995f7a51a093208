"""Mail lines: each window's syntax, every rejected line with its reason and a suggestion, the
warnings of the ack, and nothing refused stored (SWM-PBM-2)."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.star_wars_miniatures.acks import warnings
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.model import ACTION, ECONOMICS
from pbem.rulesets.star_wars_miniatures.ruleset import RULESET
from pbem.rulesets.star_wars_miniatures.world import World
from tests.star_wars_miniatures import helpers
from tests.star_wars_miniatures.flow import Game, person
from tests.star_wars_miniatures.test_flow import in_economics, setup_game


@pytest.mark.clause("SWM-PBM-2")
def test_swm_pbm_2_each_rejected_line_is_quoted_with_its_reason_and_suggestion() -> None:
    game = in_economics()
    parsed = game.send("alice", "BIULD X: Stormtrooper x16\nREINFORCE B2: Rebel Trooper\n"
                                "BUILD Guard: Stormtroper x16\nBUY fortify T04\nMOVE A1 T04")
    assert [(p.line_no, p.kind, str(p)) for p in parsed.problems] == [
        (1, "invalid", "line 1: “BIULD” is not an order of this window; it takes GIVE, ELIMINATE, BUILD, REINFORCE, "
                       "BUY, OPERATIVE, SHUTTLE (did you mean BUILD?)"),
        (2, "illegal", "line 2: “B2” is not one of your squads (yours: A1)"),
        (3, "invalid", "line 3: unknown miniature “Stormtroper” (did you mean Stormtrooper?)"),
        (5, "invalid", "line 5: “MOVE” is not an order of this window; it takes GIVE, ELIMINATE, BUILD, REINFORCE, "
                       "BUY, OPERATIVE, SHUTTLE")]
    assert parsed.payload == {"orders": ["BUY fortify T04"]}
    assert parsed.notes == ["BUY fortify T04: costs 200 and you expect 120 after collecting; it will be skipped "
                            "unless gifts come in first"]


def test_an_illegal_starting_squad_is_refused_whole_with_every_reason() -> None:
    game = setup_game()
    parsed = game.send("alice", "SQUAD Odd: Rebel Trooper x10, Stormtrooper x20\nXP 1 150\nSTANCE late")
    assert [str(p) for p in parsed.problems] == [
        "line 1: the starting squad is refused: 160 points is over the 150-point maximum of a squad; Rebel troops "
        "are not allowed in a Imperial squad; Imperial 100 of 160 points (62.5%) is under the 65% minimum; "
        "a starting squad is at most 150 points",
        "line 2: refused with the starting squad it is for; send them again with it"]
    assert parsed.payload == {"orders": ["STANCE late"]}
    assert RULESET.missing(game.ctx(), person("alice"), parsed.payload) == [
        "your starting squad: SQUAD <name>: <card> x<n>, <card>, ... (if none comes by the deadline the GM is "
        "alerted and you alone get 48 hours more)"]


def test_swm_set_9_xp_over_the_army_s_100_and_an_unaffordable_upgrade_are_refused_alone() -> None:
    game = setup_game()
    parsed = game.send("alice", "SQUAD Guard: Elite Trooper x5, Stormtrooper x10\nXP 1 60\nXP 2 40\n"
                                "UPGRADE 1 Attack\nUPGRADE 2 Attack\nUPGRADE 1 Force Leap")
    assert [str(p) for p in parsed.problems] == [
        "line 5: it costs 50 XP and troop 2 has 40",
        "line 6: Force Leap: only a Force user may buy it"]
    assert parsed.payload == {"orders": ["SQUAD Guard: Elite Trooper x5; Stormtrooper x10", "XP 1 60", "XP 2 40",
                                         "UPGRADE 1 Attack"]}
    over = game.send("alice", "SQUAD Guard: Elite Trooper x5, Stormtrooper x10\nXP 1 70\nXP 2 40\nUPGRADE 1 Attack")
    assert [p.line_no for p in over.problems] == [2, 3, 4]
    assert over.payload == {"orders": ["SQUAD Guard: Elite Trooper x5; Stormtrooper x10"]}


def test_duplicate_ranked_entries_and_unknown_factions_are_refused() -> None:
    game = Game()
    game.resolve(ScriptedDice([15, 9, 4]))
    parsed = game.send("alice", "PICK Imperial\nPICK imperial\nPICK Jedi Order\nREGION R1 IF Sith")
    assert [str(p) for p in parsed.problems] == [
        "line 2: “PICK imperial” is already on an earlier line: each entry once",
        "line 3: unknown faction “Jedi Order”"]
    assert parsed.payload == {"orders": ["PICK imperial", "REGION R1 IF sith"]}


def test_action_orders_warn_of_a_path_cut_short_and_refuse_another_players_squad() -> None:
    game = in_economics()
    game.resolve(ScriptedDice([]))
    parsed = game.send("cara", "MOVE C3 T03 T04\nMOVE B2 T08\nSTRATEGIC C3 TO T22 ELSE C3 TO T23\nRETREAT ALL TO T21")
    assert [str(p) for p in parsed.problems] == ["line 2: “B2” is not one of your squads (yours: C3)"]
    assert parsed.payload["orders"] == ["MOVE C3 T03 T04", "STRATEGIC C3 TO T22 ELSE C3 TO T23", "RETREAT ALL TO T21"]
    assert parsed.notes == ["MOVE C3 T03 T04: the squad stops in T03, which is not yours; the rest of the path "
                            "will be dropped (SWM-MOV-15)"]


def test_help_names_the_players_own_squads() -> None:
    game = in_economics()
    text = RULESET.help_text(game.ctx(), person("alice"))
    assert "Your squads: A1 in T03." in text and "BUY fortify T01" in text
    assert text.endswith("A new mail replaces your whole earlier one for this window; CLEAR withdraws it.")


def test_swm_ros_4_a_multi_label_card_is_fielded_under_the_label_named() -> None:
    game = in_economics()
    parsed = game.send("alice", "BUILD Envoys: Mas Amedda (Imperial), Stormtrooper x15\nBUILD X: Mas Amedda (Sith)")
    assert parsed.payload == {"orders": ["BUILD Envoys: Mas Amedda (Imperial); Stormtrooper x15"]}
    assert str(parsed.problems[0]) == "line 2: Mas Amedda carries Republic, Imperial, not “Sith” (SWM-ROS-4)"


def test_swm_stk_7_the_ack_warns_of_an_overstack_the_orders_would_leave(cat: Catalog, book: RuleBook) -> None:
    st = helpers.state()
    for ident, place in (("S1", "A1"), ("S2", "A1"), ("S3", "A3")):
        helpers.squad(st, cat, ident, "alice", place, ["Stormtrooper x16"])
    world = World(st, helpers.test_map(), cat, book)
    assert warnings(world, "alice", ACTION, ["MOVE S3 A1"]) == [
        "A1 would hold 3 squads (S1, S2, S3) against its stacking limit of 2: one is removed at the end of the "
        "phase unless another leaves (SWM-STK-4)"]
    assert warnings(world, "alice", ACTION, ["MOVE S3 A1", "MOVE S1 A2"]) == []
    assert warnings(world, "alice", ECONOMICS, ["SHUTTLE S3 TO A1"])[0].startswith("A1 would hold 3 squads")
