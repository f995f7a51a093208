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
from tests.star_wars_miniatures.test_flow import REPORT, to_battle

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
    data["window"] = "battle"
    data["players"]["bob"]["faction"] = "imperial"
    data["players"]["zed"] = {}
    data["territories"]["T99"] = {"owner": "bob"}
    data["squads"][0]["troops"][0]["card"] = "Darth Vadr"
    data["squads"][1]["place"] = "T09"
    with pytest.raises(PositionError) as refused:
        RULESET.position(settings(), data, "pos.toml")
    assert refused.value.problems == [
        "window: 'battle'; a position opens one of initiative, economics, action",
        "players.zed: not a player of campaign.toml (alice, bob, cara)",
        "players.bob.faction: 'imperial' is not a free faction key (old_republic, republic, sith, mandalorian, "
        "separatist, imperial, rebel, new_republic, yuuzhan_vong, fringe)",
        "territories.T99: not a territory of the map Ten Factions",
        "squads[0].troops[0].card: unknown miniature “Darth Vadr” (did you mean Darth Vader, Sith Lord?)",
        "squads[1].place: 'T09' is not an active territory"]


def test_a_battle_window_cannot_be_exported() -> None:
    game = to_battle()
    with pytest.raises(PositionError, match="a position is written between windows"):
        RULESET.export_position(RULESET.view(game.ctx()))
