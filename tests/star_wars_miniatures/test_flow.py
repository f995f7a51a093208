"""The windows through the rule system's hooks: setup, two turns with an alliance, a battle on a
fortified capital with both reports, and an upgrade bought with the XP it earned. Fixed dice."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.texts import render
from pbem.rulesets.phases import GMDecisionNeeded
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures.ruleset import RULESET
from tests.star_wars_miniatures import flow
from tests.star_wars_miniatures.flow import Game

ALICE_SQUAD = """SQUAD Vader's Fist: Darth Vader, Sith Lord, Elite Trooper x5, Stormtrooper x6
XP 1 60
XP 2 40
UPGRADE 1 Attack
STANCE early"""
BOB_SQUAD = """SQUAD Rogues: Luke Skywalker, Jedi Knight, Rebel Commando, Rebel Trooper x12
XP 1 100
ALLY bob cara
STANCE late"""
CARA_SQUAD = """SQUAD Clan Ordo: Mandalorian Captain, Mandalorian Soldier x8
XP 1 100
UPGRADE 1 Defense
ALLY cara bob"""
REPORT = """WINNER B1-2-1 defender
KILLED t28 BY t1
KILLED t29 BY t2
KILLED t3 BY t30
FLED t31"""


def setup_game() -> Game:
    game = Game()
    game.resolve(ScriptedDice([15, 9, 4]))
    for player, faction, region in (("alice", "Imperial", "R1"), ("bob", "Rebel", "R2"),
                                    ("cara", "Mandalorian", "R6")):
        game.send(player, f"PICK {faction}\nREGION {region}")
    game.resolve(ScriptedDice([]))
    return game


def in_economics(rules: dict[str, Any] | None = None) -> Game:
    """Setup done (with these rule overrides, if any); the starting squads sent and turn 1's
    initiative rolled: the economics window is open."""
    game = setup_game()
    if rules is not None:
        game.settings = flow.settings(rules=rules)
    for player, text in (("alice", ALICE_SQUAD), ("bob", BOB_SQUAD), ("cara", CARA_SQUAD)):
        game.send(player, text)
    game.resolve(ScriptedDice([8, 19, 18]))
    return game


def to_battle() -> Game:
    game = in_economics()
    game.send("bob", "GIVE cara 60")
    game.resolve(ScriptedDice([]))
    game.send("cara", "MOVE C3 T03\nSTRATEGIC C3 TO T22")
    game.resolve(ScriptedDice([]))
    return game


@pytest.mark.clause("SWM-SET-1")
@pytest.mark.clause("SWM-SET-2")
@pytest.mark.clause("SWM-SET-3")
@pytest.mark.clause("SWM-SET-4")
@pytest.mark.clause("SWM-SET-5")
@pytest.mark.clause("SWM-SET-6")
@pytest.mark.clause("SWM-GEN-2")
def test_swm_set_pick_order_then_factions_and_regions_in_that_order() -> None:
    game = Game()
    assert game.stage().ready and game.stage().kind == "pick"
    game.resolve(ScriptedDice([9, 15, 9, 12, 3]))         # alice and cara tie on 9 and roll again
    assert game.state.pick_order == ["bob", "alice", "cara"]
    game.send("bob", "PICK Imperial\nREGION R1")
    game.send("alice", "PICK Imperial\nPICK Rebel\nREGION R9\nREGION R2")
    game.send("cara", "REGION R6 IF Sith\nREGION R7")
    game.resolve(ScriptedDice([]))
    st = game.state
    assert {p: (me.faction, me.region, me.capital) for p, me in st.players.items()} == {
        "alice": ("rebel", "R2", "T07"), "bob": ("imperial", "R1", "T03"), "cara": ("old_republic", "R7", "T25")}
    assert all(land.owner for land in st.lands.values() if land.active)
    assert st.lands["T03"].fortified and not st.lands["T04"].fortified
    assert not st.lands["T33"].active and st.lands["T33"].owner == ""


@pytest.mark.clause("SWM-SET-8")
@pytest.mark.clause("SWM-SET-9")
@pytest.mark.clause("SWM-SET-10")
@pytest.mark.clause("SWM-SET-11")
@pytest.mark.clause("SWM-SET-12")
@pytest.mark.clause("SWM-XP-16")
@pytest.mark.clause("SWM-XP-17")
@pytest.mark.clause("SWM-INI-1")
@pytest.mark.clause("SWM-GEN-7")
def test_swm_set_starting_squads_with_xp_and_upgrades_then_turn_1_initiative() -> None:
    game = setup_game()
    for player, text in (("alice", ALICE_SQUAD), ("bob", BOB_SQUAD), ("cara", CARA_SQUAD)):
        game.send(player, text)
    res = game.resolve(ScriptedDice([8, 19, 18]))
    st = game.state
    assert res.turn_finished and st.turn == 1 and st.window == "economics"
    assert {s.id: (s.place, s.points) for s in st.squads.values()} == {"A1": ("T03", 150), "B2": ("T07", 127),
                                                                     "C3": ("T21", 142)}
    vader, captain = st.troop("t1"), st.troop("t27")
    assert vader is not None and captain is not None
    assert (tr.banked(vader[1]), [b.name for b in tr.bought(vader[1])]) == (10, ["Attack"])
    assert (tr.banked(captain[1]), [b.name for b in tr.bought(captain[1])]) == (50, ["Defense"])
    assert st.alliances == [["bob", "cara"]] and st.sides == [["alice"], ["bob", "cara"]]
    assert all(p.treasury == 0 for p in st.players.values())
    lines = res.reports[0].context["swm"]["lines"]
    assert "Initiative Bob: d20 19 = 19" in lines and "Turn order: 1. Alice, 2. Bob + Cara." in lines


def test_swm_pbm_12_a_missing_starting_roster_alerts_the_gm_and_turn_1_waits() -> None:
    game = setup_game()
    game.send("alice", ALICE_SQUAD)
    res = game.resolve(ScriptedDice([]))
    assert game.state.window == "squads" and game.stage().owing == ("bob", "cara")
    assert res.gm_alerts[0].startswith("bob has sent no legal starting squad by the S2 deadline. His own deadline "
                                       "is now ")


@pytest.mark.clause("SWM-BAT-9")
@pytest.mark.clause("SWM-BAT-13")
@pytest.mark.clause("SWM-BAT-14")
@pytest.mark.clause("SWM-BAT-8")
@pytest.mark.clause("SWM-BAT-19")
@pytest.mark.clause("SWM-BAT-22")
@pytest.mark.clause("SWM-BAT-11")
@pytest.mark.clause("SWM-BAT-12")
@pytest.mark.clause("SWM-BAT-10")
@pytest.mark.clause("SWM-BAT-17")
@pytest.mark.clause("SWM-BAT-7")
def test_swm_bat_a_battle_on_a_fortified_capital_opens_window_b_with_both_briefings() -> None:
    game = to_battle()
    res = game.results[-1]
    assert game.state.window == "battle" and game.stage().owing == ("alice", "bob", "cara")
    briefing = next(r for r in res.reports if r.kind == "briefing")
    assert briefing.audience == ("bob", "cara", "alice") and briefing.public
    text = render("star_wars_miniatures", "briefing", {"campaign": game.settings, **briefing.context})
    assert "**Fortified.** The defender chooses the mapboard and may add up to 4 tiles" in text
    assert "neither side brings in initiative-triggered reserves in round 1" in text
    assert "WINNER B1-2-1 attacker|defender|none" in text
    assert "## Attackers: 142 points" in text and "## Defenders: 150 points" in text


@pytest.mark.clause("SWM-BAT-24")
@pytest.mark.clause("SWM-PBM-10")
@pytest.mark.clause("SWM-ALL-16")
@pytest.mark.clause("SWM-XP-18")
@pytest.mark.clause("SWM-ADV-12")
def test_swm_bat_matching_reports_apply_then_cleanup_credits_and_buys_the_upgrade() -> None:
    game = to_battle()
    game.send("alice", REPORT)
    game.send("cara", REPORT + "\nRETREAT C3 TO T21")
    res = game.resolve(ScriptedDice([19, 3, 16, 9]))
    st = game.state
    lines = res.reports[0].context["swm"]["lines"]
    assert lines[:4] == ["Post-battle chart t28 Mandalorian Soldier: d20 19 = 19, survives.",
                         "Post-battle chart t29 Mandalorian Soldier: d20 3 = 3, is eliminated.",
                         "Post-battle chart t3 Elite Trooper: d20 16 = 16, survives.",
                         "Post-battle chart t31 Mandalorian Soldier: d20 9 +3 (fled) = 12, survives."]
    assert "C3 retreats from T03 to T21." in lines and "Strategic move: C3 from T21 to T22." in lines
    assert st.window == "initiative" and st.owner("T03") == "alice"
    game.send("alice", "UPGRADE t2 Defense\nUPGRADE t1 Force Leap")
    game.send("bob", "ALLY bob cara")
    game.send("cara", "ALLY bob cara")
    res = game.resolve(ScriptedDice([11, 5, 13]))
    lines = res.reports[0].context["swm"]["lines"]
    assert "t30 Mandalorian Soldier is credited 24 XP (24 banked)." in lines
    assert "t2 buys Defense for 50 XP (4 left)." in lines
    assert "UPGRADE t1 Force Leap: skipped, it costs 100 XP and t1 has 24 banked" in lines
    assert game.state.turn == 2 and res.turn_finished


def test_swm_pbm_10_disagreeing_reports_go_to_the_gm() -> None:
    game = to_battle()
    game.send("alice", REPORT)
    game.send("cara", REPORT.replace("defender", "attacker"))
    with pytest.raises(GMDecisionNeeded) as asked:
        game.resolve(ScriptedDice([19, 3, 16, 9]))
    assert asked.value.key == "battle_B1-2-1" and asked.value.options == ["attacker", "defender"]
    game.resolve(ScriptedDice([19, 3, 16, 9, 10, 10]), {"battle_B1-2-1": "defender"})
    assert game.state.owner("T03") == "alice"


@pytest.mark.clause("SWM-PBM-5")
@pytest.mark.clause("SWM-PBM-11")
def test_swm_pbm_11_a_slot_without_battles_needs_no_window() -> None:
    game = in_economics()
    game.resolve(ScriptedDice([]))
    game.send("bob", "MOVE B2 T08")
    game.resolve(ScriptedDice([]))
    assert game.state.window == "initiative" and game.state.squads["B2"].place == "T08"


@pytest.mark.clause("SWM-PBM-3")
@pytest.mark.clause("SWM-PBM-1")
def test_swm_pbm_3_silent_players_keep_their_stance_and_declare_no_alliance() -> None:
    game = to_battle()
    game.send("alice", REPORT)
    game.resolve(ScriptedDice([19, 3, 16, 9]))
    game.resolve(ScriptedDice([11, 5, 13]))
    st = game.state
    assert st.alliances == [] and st.players["alice"].stance == "early" and st.players["bob"].stance == "late"
    assert st.sides == [["cara"], ["alice"], ["bob"]]        # cara 13 goes early by default, bob late


def test_swm_pbm_15_gm_commands_set_a_result_a_roster_a_place_and_control() -> None:
    game = to_battle()
    game.game, reply = RULESET.gm_command(game.ctx(), ["RESULT", "B1-2-1", "attacker"])
    assert reply == "battle B1-2-1: the attacker wins; it stands when the window closes"
    game.send("alice", REPORT)                      # the defender's report: the GM's word stands over it
    game.resolve(ScriptedDice([]))
    st = game.state
    assert st.owner("T03") == "cara" and st.squads["A1"].place != "T03"
    game.game, _ = RULESET.gm_command(game.ctx(), ["CONTROL", "T03", "alice"])
    game.game, _ = RULESET.gm_command(game.ctx(), ["PLACE", "C3", "T21"])
    game.game, _ = RULESET.gm_command(game.ctx(), ["ROSTER", "C3", "REMOVE", "t28"])
    game.game, _ = RULESET.gm_command(game.ctx(), ["ROSTER", "C3", "ADD", "Mandalorian", "Captain"])
    st = game.state
    assert st.owner("T03") == "alice" and st.squads["C3"].place == "T21"
    assert [t.name for t in st.squads["C3"].troops][-1] == "Mandalorian Captain" and st.troop("t28") is None
    assert st.log[-4:] == ["GM: T03 is now controlled by alice.", "GM: C3 is placed in T21.",
                           "GM: the roster of C3 is corrected (REMOVE t28).",
                           "GM: the roster of C3 is corrected (ADD Mandalorian Captain)."]
    with pytest.raises(ValueError, match="write CONTROL <territory> <player>"):
        RULESET.gm_command(game.ctx(), ["CONTROL", "T99", "alice"])


def test_swm_pbm_11_a_later_side_revises_its_action_orders_in_the_battle_window() -> None:
    game = in_economics()
    game.resolve(ScriptedDice([]))
    game.send("alice", "MOVE A1 T21")
    game.send("cara", "MOVE C3 T03")
    game.resolve(ScriptedDice([]))
    assert game.state.window == "battle" and [b.id for b in game.state.battles] == ["B1-1-1"]
    game.send("alice", "WINNER B1-1-1 defender")
    game.send("cara", "WINNER B1-1-1 defender\nMOVE C3 T22")
    res = game.resolve(ScriptedDice([]))
    lines = res.reports[0].context["swm"]["lines"]
    assert "A1 retreats from T21 to T03." in lines and "Cara: C3 moves to T22." in lines
    assert game.state.window == "initiative" and game.state.squads["C3"].place == "T22"
