"""Campaigns of Conquest positions written by hand (docs/positions/conquest.md): a valid one starts a
campaign whose window resolves on the real engine; a broken one names every problem with its key."""

from __future__ import annotations

import re
import tomllib
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from pbem.rulesets.base import PositionError
from pbem.rulesets.conquest.model import SetupOrder
from pbem.rulesets.conquest.ruleset import RULESET
from pbem.stages import turns
from pbem.state.campaign import Campaign

from .engine_helpers import T0, campaign, game, mail, put_position, replies, run

DOC = Path(__file__).resolve().parents[2] / "docs" / "positions" / "conquest.md"


def documented() -> dict[str, Any]:
    """The example position of the format's documentation."""
    found = re.search(r"```toml\n(.*?)```", DOC.read_text(), re.S)
    assert found, f"{DOC} has no TOML example"
    return tomllib.loads(found.group(1))


def imported(tmp_path: Path, data: dict[str, Any]) -> Campaign:
    return put_position(campaign(tmp_path), data)


def problems(tmp_path: Path, data: dict[str, Any]) -> list[str]:
    with pytest.raises(PositionError) as caught:
        RULESET.position(campaign(tmp_path).settings, data, "position.toml")
    assert str(caught.value).startswith("position.toml: ")
    return caught.value.problems


def test_the_documented_position_opens_window_4_and_the_round_resolves_into_the_next(tmp_path: Path) -> None:
    camp = imported(tmp_path, documented())
    assert (camp.state["stage"]["kind"], camp.state["stage"]["turn"]) == ("conquest", 3)
    state = game(camp)
    assert state.round.order == ["anna", "cara", "ben"] and state.round.largest == "ben"
    assert state.round.award("anna").available == 3 and state.round.beaten_by("anna") == ["ben"]
    assert state.siege_at("T29").defender == "cara" and state.tiles["T29"].building == "castle"
    assert state.empires["cara"].capital == "T35" and state.events_taken == ["land_grab"]
    mail(camp, "a1", "anna", "CLAIM T13")
    mail(camp, "b1", "ben", "CLAIM T22")
    mail(camp, "c1", "cara", "CLAIM T24")
    camp = run(camp)
    assert (camp.state["stage"]["kind"], camp.state["stage"]["turn"]) == ("campaign", 4)
    state = game(camp)
    assert state.tiles["T13"].owner == "anna" and state.empires["anna"].carried_ep == 1     # 3 EP, 2 spent
    assert state.tiles["T22"].owner == state.tiles["T24"].owner == ""      # a claim costs 2 EP; they had less
    assert len(state.history) == 3 and state.history[-1].startswith("Round 3: ")
    report = next(body for body in replies(camp, "cara@") if "round 3 report" in body)
    assert "- claim T13: done, 2 EP" in report and "- claim T22: not done (costs 2 EP, 1 left)" in report


def test_a_position_in_window_3_takes_the_battle_reports_and_moves_to_window_4(tmp_path: Path) -> None:
    data = {"round": 2, "window": "results", "order": ["anna", "ben", "cara"],
            "empires": {p: {"capital": t} for p, t in (("anna", "T3"), ("ben", "T15"), ("cara", "T35"))},
            "tiles": {t: {"owner": p} for p, t in (("anna", "T3"), ("ben", "T15"), ("cara", "T35"))},
            "events": [{"player": "anna", "event": "scouts"}],
            "battles": [{"id": "B1", "kind": "land", "attackers": ["anna"], "defenders": ["ben"]}],
            "setups": [{"battle": "B1", "points": 2000, "armies": [{"player": "anna", "share": 2000},
                                                                   {"player": "ben", "share": 2000}]}]}
    camp = imported(tmp_path, data)
    assert camp.state["stage"]["kind"] == "results" and game(camp).round.setup("B1").army("ben").side == "defender"
    result = "RESULT B1 WITHDREW defender VP 620-310 BP 8-9 LOST 2-4"
    mail(camp, "a1", "anna", result)
    mail(camp, "b1", "ben", result)
    camp = run(camp)
    state = game(camp)
    assert camp.state["stage"]["kind"] == "conquest" and state.round.outcome("B1").winner == "attacker"
    assert state.round.beaten_by("anna") == ["ben"] and state.round.award("anna").earned > 0


def test_a_position_at_window_s_keeps_placed_capitals_and_the_pick_order(tmp_path: Path) -> None:
    camp = imported(tmp_path, {"round": 0, "window": "capitals", "capital_order": ["cara", "ben", "anna"],
                               "empires": {"cara": {"capital": "T35"}}, "tiles": {"T35": {"owner": "cara"}}})
    stage = RULESET.stage(turns.context(camp, T0))
    assert stage.kind == "capitals" and stage.owing == ("anna", "ben")
    mail(camp, "a1", "anna", "CAPITAL T3")
    mail(camp, "b1", "ben", "CAPITAL T15")
    camp = run(camp, timedelta(minutes=30))
    assert camp.state["stage"]["kind"] == "campaign" and camp.state["stage"]["turn"] == 1
    assert {p: e.capital for p, e in game(camp).empires.items()} == {"anna": "T3", "ben": "T15", "cara": "T35"}


def test_a_broken_position_names_every_problem_with_its_key(tmp_path: Path) -> None:
    data = {"round": 2, "window": "capitals", "colour": "red",
            "empires": {"dora": {"treasury": 5}, "anna": {"capital": "T5", "treasury": -3, "carried": 1}},
            "tiles": {"T99": {"owner": "anna"}, "T3": {"owner": "zed", "building": "tower"}},
            "sieges": [{"tile": "T2", "besieger": "ben", "defender": "ben", "started_round": 5}],
            "naval": [{"holder": "anna", "subject": "ben"}],
            "events_taken": ["picnic"], "order": ["anna"],
            "battles": [{"id": "X", "kind": "joust", "attackers": ["anna"], "defenders": []}],
            "ep": {"anna": 2}}
    found = problems(tmp_path, data)
    for key in ("colour:", "round:", "empires.dora:", "empires.anna.treasury:", "empires.anna.carried:",
                "empires.anna.capital:", "tiles.T99:", "tiles.T3.owner:", "tiles.T3.building:", "sieges[0].tile:",
                "sieges[0].defender:", "sieges[0].started_round:", "naval[0]:", "events_taken[0]:", "order:",
                "battles:", "battles[0].id:", "battles[0].kind:", "battles[0].defenders:", "ep:"):
        assert any(p.startswith(key) for p in found), (key, found)


def test_round_records_and_the_order_of_play_are_checked(tmp_path: Path) -> None:
    data = documented() | {"order": ["ben", "cara", "anna"],
                           "outcomes": [{"battle": "B7", "attacker": "lose", "defender": "won"}],
                           "setups": [{"battle": "B1", "points": 0, "armies": [{"player": "cara", "share": 100}]}]}
    found = problems(tmp_path, data)
    assert "order: ben (size 5.5) comes before cara (size 4.5); the order is smallest first" in found
    assert any(p.startswith("outcomes[0].battle: 'B7' is not one of the [[battles]]") for p in found)
    assert any(p.startswith("setups[0].points: must be 1 or more") for p in found)
    assert "setups[0].armies[0].player: cara does not fight in B1" in found


def test_two_empires_never_share_a_capital(tmp_path: Path) -> None:
    data = documented()
    data["empires"]["cara"]["capital"] = "T3"
    found = problems(tmp_path, data)
    assert any(p.startswith("empires.cara.capital: T3 (Coldharbour) is already the capital of anna") for p in found)


def test_at_window_s_a_capital_is_a_city_its_empire_holds(tmp_path: Path) -> None:
    data = {"round": 0, "window": "capitals", "empires": {"cara": {"capital": "T35"}},
            "tiles": {"T35": {"owner": "ben", "building": "mine"}}}
    assert problems(tmp_path, data) == [
        "empires.cara.capital: T35 (Kestrel Rise) must be held by cara (tiles.T35.owner)",
        "empires.cara.capital: T35 (Kestrel Rise) has no city (tiles.T35.building)"]


def test_a_game_stored_with_the_round_scratch_outside_the_state_still_loads_it(tmp_path: Path) -> None:
    camp = imported(tmp_path, documented())
    stored = dict(camp.state["game"])
    del stored["conquest"]["round"]["log_shown"]
    stored |= {"log_shown": 4, "standing": {"ben": {"*": {"battle": "*", "points": 1500}}, "anna": {}}}
    state = RULESET.load_state(stored)
    assert state.round.log_shown == 4 and state.round.standing_setups == {"ben": [SetupOrder("*", 1500)]}


def test_an_imported_state_round_trips_through_its_stored_form(tmp_path: Path) -> None:
    stored = RULESET.position(campaign(tmp_path).settings, documented(), "position.toml")
    state = RULESET.load_state(stored)
    assert RULESET.dump_state(state) == stored and RULESET.load_state(RULESET.dump_state(state)) == state


def test_a_besieged_capital_is_held_by_its_empire_through_the_fortification(tmp_path: Path) -> None:
    data = documented()
    data["tiles"]["T35"] = {"owner": "ben"}
    data["sieges"].append({"tile": "T35", "besieger": "ben", "defender": "cara", "started_round": 3})
    data["order"] = ["cara", "anna", "ben"]                     # a besieged tile counts half (COC-SIE-6)
    state = RULESET.load_state(RULESET.position(campaign(tmp_path).settings, data, "position.toml"))
    assert state.empires["cara"].capital == "T35" and state.fortification_owner("T35") == "cara"
