"""A Daemon Rift campaign started from a hand-written position (docs/positions/daemon_rift.md):
the documented example starts a campaign whose next turn resolves, and a broken position is
refused with every problem at once, each naming its key."""

from __future__ import annotations

import copy
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pbem.gm.creation import create
from pbem.kit.tomlio import from_data
from pbem.rulesets import registry
from pbem.rulesets.base import PositionError
from pbem.rulesets.daemon_rift.game_state import DRGame
from pbem.stages import turns
from pbem.state.campaign import Campaign
from tests.support.engine_helpers import PLAYERS, SECRETS, T0, put, run

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "positions" / "daemon_rift.toml"
RULESET = registry.get("daemon_rift")


def example() -> dict[str, Any]:
    return tomllib.loads(EXAMPLE.read_text())


def imported(root: Path, position: dict[str, Any]) -> Campaign:
    """A campaign created as `pbem new` does, its game replaced by the position, orders open."""
    mail = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    camp, _ = create(root / "campaigns", "rift", "daemon_rift", "rift_valley", list(PLAYERS), "gm@test.localhost", T0,
                     transport=mail, fixed_secrets=SECRETS)
    camp.state["game"] = RULESET.position(camp.settings, position, "position.toml")
    turns.open_stage(camp, RULESET, T0)
    camp.save()
    return Campaign(camp.folder)


def test_the_example_position_is_read_as_written(tmp_path: Path) -> None:
    camp = imported(tmp_path, example())
    game = from_data(DRGame, camp.state["game"])
    state = game.dr
    assert (state.turn, state.phase) == (4, "orders")
    assert {t: tok.territory for t, tok in state.tokens.items()} == {"R-1": "T25", "R-2": "T24", "B-1": "T27"}
    assert state.control == {"T24": "R", "T25": "R", "T55": "R", "T8": "R", "T54": "R",
                             "T27": "B", "T28": "B", "T29": "B"}
    assert state.factions["R"].defeated == ["B"] and state.factions["B"].defeated_by_rolloff == ["R"]
    assert state.factions["R"].stronghold == "T24" and state.factions["B"].stronghold == "T28"
    red = state.lists["R-1"]
    assert (red.name, red.status, red.approved, red.battles, red.repair_saved) == \
        ("Grimgor's Ironjaws", "active", True, 2, "12")
    assert [e.id for e in red.roster.entries] == ["U1", "U2", "C1"] and red.roster.points == 120 + 80 + 130
    assert state.lists["R-3"].status == "unused" and [b.turn for b in state.battles_fought] == [2, 3]
    stage = camp.state["stage"]
    assert (stage["kind"], stage["turn"], stage["title"]) == ("orders", 4, "Turn 4: orders")


def test_a_campaign_started_from_the_example_resolves_its_next_turn(tmp_path: Path) -> None:
    camp = imported(tmp_path, example())
    put(camp, "o1", f"PLAYER red {SECRETS['red']}\nR-1 M T26\nR-2 H\n")
    put(camp, "o2", f"PLAYER blue {SECRETS['blue']}\nB-1 H\n", sender="Bob <bob@test.localhost>")
    camp = run(camp)
    assert camp.state["stage"]["turn"] == 5
    state = from_data(DRGame, camp.state["game"]).dr
    assert state.turn == 5 and state.tokens["R-1"].territory == "T26" and state.control["T26"] == "R"
    assert "T26 (Frostfen): unclaimed → Red (R-1)" in (camp.history(4) / "orders-turn.md").read_text()


def broken() -> dict[str, Any]:
    data = copy.deepcopy(example())
    data["turn"] = 0
    data["phase"] = "battles"
    data["colour"] = "red"
    data["factions"]["G"] = {}
    data["factions"]["R"]["tokens_eliminated"] = "two"
    data["control"]["T999"] = "R"
    data["tokens"]["B-1"] = "T25"
    data["tokens"]["R-7"] = "T2"
    data["lists"]["R-1"]["entries"].append("U9 dragon 1 Big Wyrm @300")
    data["lists"]["R-2"]["status"] = "resting"
    data["lists"]["B-1"]["points"] = 300
    data["battles_fought"][0]["factions"] = ["R"]
    return data


def test_a_broken_position_reports_every_problem_with_its_key(tmp_path: Path) -> None:
    with pytest.raises(PositionError) as raised:
        imported(tmp_path, broken())
    problems = raised.value.problems
    keys = [p.split(":", 1)[0] for p in problems]
    for key in ("turn", "phase", "colour", "factions.G", "factions.R.tokens_eliminated", "control.T999",
                "tokens.B-1", "tokens.R-7", "lists.R-1.entries[4]", "lists.R-2.status", "lists.B-1.entries",
                "battles_fought[1].factions"):
        assert key in keys, (key, problems)
    assert "tokens.B-1: T25 already holds R-1: one token a territory" in problems
    assert str(raised.value).startswith("position.toml: ")


def test_players_the_map_cannot_seat_are_reported_as_such(tmp_path: Path) -> None:
    camp = imported(tmp_path, example())
    players = [replace(p, extras={**p.extras, "home": "1"}) for p in camp.settings.players]
    with pytest.raises(PositionError) as raised:
        RULESET.position(replace(camp.settings, players=players), example(), "position.toml")
    assert raised.value.problems == ["players: home '1' is given to 2 factions"]


def test_the_stored_game_round_trips_and_a_game_stored_before_the_typed_state_still_loads(tmp_path: Path) -> None:
    game = imported(tmp_path, example()).state["game"]
    assert RULESET.dump_state(RULESET.load_state(game)) == game
    legacy = {"dr": game["dr"], "orders": {}, "movement": {}, "aftermath": {}, "effective": {}, "choices": {},
              "battle_reports": {}, "gm_results": {}, "pending_lists": {}, "postbattle": {}, "turn_closed": False}
    assert RULESET.dump_state(RULESET.load_state(legacy)) == game
