"""The position format: the documented example, a round trip, every problem at once."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.phases import PositionError
from pbem.rulesets.star_wars_miniatures.ruleset import RULESET
from tests.star_wars_miniatures.flow import Game, settings
from tests.star_wars_miniatures.test_flow import ALICE_SQUAD, REPORT, to_battle

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "positions" / "star_wars_miniatures.toml"


def example() -> dict[str, Any]:
    return tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))


def test_the_documented_example_opens_the_cleanup_and_initiative_window() -> None:
    game = RULESET.position(settings(), example(), "example")
    state = RULESET.load_state(game)
    assert (state.turn, state.window, state.sides, state.alliances) == (
        1, "initiative", [["alice"], ["bob", "cara"]], [["bob", "cara"]])
    assert state.owner("T04") == "bob" and state.lands["T04"].minefield and state.lands["T03"].fortified
    assert not state.lands["T09"].active
    assert {s.id: (s.place, s.points, s.damaged) for s in state.squads.values()} == {
        "A1": ("T03", 116, False), "B2": ("T04", 91, False), "C3": ("T22", 114, False)}
    assert state.next_troop == 34


def test_a_position_exported_reads_back_to_the_same_position() -> None:
    game = to_battle()
    game.send("alice", REPORT)
    game.resolve(ScriptedDice([19, 3, 16, 9]))
    written = RULESET.export_position(RULESET.view(game.ctx()))
    again = Game()
    again.game = RULESET.position(again.settings, written, "export")
    assert RULESET.export_position(RULESET.view(again.ctx())) == written
    again.send("alice", "UPGRADE t2 Defense")
    res = again.resolve(ScriptedDice([11, 5, 13]))
    assert "t2 buys Defense for 50 XP (4 left)." in res.reports[0].context["swm"]["lines"]


def test_every_problem_of_a_position_is_reported_at_once() -> None:
    data = example()
    data["window"] = "over"
    data["players"]["bob"]["faction"] = "imperial"
    data["players"]["zed"] = {}
    data["territories"]["T99"] = {"owner": "bob"}
    data["squads"][0]["troops"][0]["card"] = "Darth Vadr"
    data["squads"][1]["place"] = "T09"
    with pytest.raises(PositionError) as refused:
        RULESET.position(settings(), data, "pos.toml")
    assert refused.value.problems == [
        "window: 'over'; a position opens one of initiative, economics, action, pick, factions, squads, battle",
        "players.zed: not a player of campaign.toml (alice, bob, cara)",
        "players.bob.faction: 'imperial' is not a free faction key (old_republic, republic, sith, mandalorian, "
        "separatist, imperial, rebel, new_republic, yuuzhan_vong, fringe)",
        "territories.T99: not a territory of the map Ten Factions",
        "squads[0].troops[0].card: unknown miniature “Darth Vadr” (did you mean Darth Vader, Sith Lord?)",
        "squads[1].place: 'T09' is not an active territory"]


def round_trip(game: Game) -> Game:
    """`game` exported, imported into a fresh game and exported again: the same file both times."""
    written = RULESET.export_position(RULESET.view(game.ctx()))
    again = Game()
    again.game = RULESET.position(again.settings, written, "export")
    assert RULESET.export_position(RULESET.view(again.ctx())) == written
    assert RULESET.load_state(again.game) == RULESET.load_state(game.game)       # the whole game, not only the file
    return again


def test_a_battle_window_exports_and_its_import_settles_the_battle_as_the_original() -> None:
    game = to_battle()
    assert game.state.window == "battle" and game.state.battles
    written = RULESET.export_position(RULESET.view(game.ctx()))
    assert [b["id"] for b in written["battles"]] == ["B1-2-1"] and written["slot"] == 1
    assert written["action_orders"]["cara"] == ["MOVE C3 T03", "STRATEGIC C3 TO T22"]
    again = round_trip(game)
    for one in (game, again):
        one.send("alice", REPORT)
        one.resolve(ScriptedDice([19, 3, 16, 9]))
    assert RULESET.load_state(again.game) == RULESET.load_state(game.game)


@pytest.mark.parametrize("window", ["pick", "factions", "squads"])
def test_every_setup_window_exports_and_reads_back_to_the_same_game(window: str) -> None:
    game = Game()
    if window != "pick":
        game.resolve(ScriptedDice([15, 9, 4]))
    if window == "squads":
        for player, faction, region in (("alice", "Imperial", "R1"), ("bob", "Rebel", "R2"),
                                        ("cara", "Mandalorian", "R6")):
            game.send(player, f"PICK {faction}\nREGION {region}")
        game.resolve(ScriptedDice([]))
        game.send("alice", ALICE_SQUAD)
        game.resolve(ScriptedDice([]))              # alice placed, bob and cara on their own deadlines
        assert game.state.late_rosters and game.state.action_orders == {"alice": ["STANCE early"]}
    assert game.state.window == window
    round_trip(game)


def test_a_battle_waiting_out_the_gms_grace_exports_its_kept_reports() -> None:
    game = to_battle()
    state = game.state
    state.battle_grace, state.battle_reports = "2026-11-30T20:00:00+00:00", {"alice": REPORT.splitlines()}
    state.gm_results = {"B1-2-1": "defender"}
    game.game = RULESET.dump_state(state)
    written = RULESET.export_position(RULESET.view(game.ctx()))
    assert (written["battle_grace"], written["gm_results"]) == ("2026-11-30T20:00:00+00:00", {"B1-2-1": "defender"})
    round_trip(game)
