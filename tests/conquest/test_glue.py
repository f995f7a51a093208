"""The conquest ruleset on the backbone: schedule windows, skipped windows, standing battle settings, GM commands."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from pbem.gm.creation import NewPlayer, create
from pbem.kit.dice import SeededDice
from pbem.rulesets.base import Context
from pbem.rulesets.conquest.ruleset import RULESET
from pbem.stages import turns
from pbem.state.campaign import Campaign

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
PLAYERS = [NewPlayer(p, p.title(), f"{p}@glue.localhost", c, c[0]) for p, c in
           (("anna", "Red"), ("ben", "Blue"), ("cara", "Green"))]
SCHEDULE = {"timezone": "UTC", "capitals": "2d", "campaign": "5d", "setup": "1d", "results": "9d", "conquest": "3d"}


def campaign(tmp_path: Path, rules: dict[str, Any] | None = None) -> Campaign:
    camp, _ = create(tmp_path, "glue", "conquest", "three_crowns", PLAYERS, "gm@glue.localhost", T0,
                     schedule=SCHEDULE, rules=rules)
    return camp


def resolve(camp: Campaign, subs: dict[str, dict[str, Any]], seed: int = 1) -> Any:
    ctx = turns.context(camp, T0)
    res = RULESET.resolve(ctx, subs, SeededDice(seed))
    camp.state["game"] = res.game
    return res


def parse(camp: Campaign, player: str, *lines: str) -> dict[str, Any]:
    parsed = RULESET.parse(turns.context(camp, T0), camp.settings.player(player), list(enumerate(lines, 1)))
    assert not parsed.problems, parsed.problems
    return parsed.payload


def stage(camp: Campaign) -> Any:
    return RULESET.stage(Context(camp.settings, camp.state["game"], T0))


@pytest.mark.clause("COC-GEN-7", "COC-TRN-1")
def test_each_window_has_its_own_deadline_from_the_schedule(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    assert camp.state["stage"]["kind"] == "capitals"
    assert turns.parse_time(camp.state["stage"]["deadline"]) == T0 + timedelta(days=2)
    resolve(camp, {p.id: parse(camp, p.id, f"CAPITAL {c}") for p, c in zip(PLAYERS, ("T3", "T15", "T35"), strict=True)})
    assert stage(camp).kind == "campaign" and stage(camp).window == "campaign"
    opened = turns.open_stage(camp, RULESET, T0)
    assert opened.kind == "campaign"
    assert turns.parse_time(camp.state["stage"]["deadline"]) == T0 + timedelta(days=5)


@pytest.mark.clause("COC-TRN-4", "COC-SPD-23", "COC-RES-18")
def test_a_round_without_battles_skips_windows_two_and_three(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    resolve(camp, {p.id: parse(camp, p.id, f"CAPITAL {c}") for p, c in zip(PLAYERS, ("T3", "T15", "T35"), strict=True)})
    res = resolve(camp, {"anna": parse(camp, "anna", "EVENT All or Nothing")})
    assert stage(camp).kind == "conquest"
    assert [r.key for r in res.reports if r.kind == "round_report"] == ["campaign", "results"]
    ep = {a["player"]: a["available"] for a in camp.state["game"]["conquest"]["round"]["ep"]}
    assert ep["anna"] == 2 and ep["ben"] == 0
    res = resolve(camp, {})
    assert res.turn_finished and stage(camp).kind == "campaign" and stage(camp).turn == 2
    assert camp.state["game"]["conquest"]["empires"]["anna"]["carried_ep"] == 1


@pytest.mark.clause("COC-TRN-5", "COC-BAT-2")
def test_without_a_setup_window_standing_settings_from_window_one_are_used(tmp_path: Path) -> None:
    camp = campaign(tmp_path, {"turn": {"battle_setup_window": False}})
    resolve(camp, {p.id: parse(camp, p.id, f"CAPITAL {c}") for p, c in zip(PLAYERS, ("T3", "T15", "T35"), strict=True)})
    res = resolve(camp, {"anna": parse(camp, "anna", "CHALLENGE Ben", "BATTLE ALL SIZE 1000"),
                         "ben": parse(camp, "ben", "BATTLE ALL SIZE 1000")})
    assert stage(camp).kind == "results"
    setup = camp.state["game"]["conquest"]["round"]["setups"][0]
    assert setup["points"] == 1000
    assert any(r.kind == "briefing" for r in res.reports)


@pytest.mark.clause("COC-TRN-6", "COC-RES-20")
def test_conflicting_reports_wait_for_the_gm_whose_ruling_settles_the_battle(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    resolve(camp, {p.id: parse(camp, p.id, f"CAPITAL {c}") for p, c in zip(PLAYERS, ("T3", "T15", "T35"), strict=True)})
    resolve(camp, {"anna": parse(camp, "anna", "CHALLENGE Ben")})
    resolve(camp, {})
    assert stage(camp).kind == "results"
    res = resolve(camp, {"anna": parse(camp, "anna", "RESULT B1 WITHDREW defender VP 500-100 BP 6-6 LOST 0-6"),
                         "ben": parse(camp, "ben", "RESULT B1 WITHDREW attacker VP 100-500 BP 6-6 LOST 6-0")})
    assert res.gm_alerts and stage(camp).waiting_for_gm
    ruling = ["RESULT", "B1", "WITHDREW", "defender", "VP", "500-100", "BP", "6-6", "LOST", "0-6"]
    game, text = RULESET.gm_command(Context(camp.settings, camp.state["game"], T0), ruling)
    camp.state["game"] = game
    assert "ruling recorded" in text
    resolve(camp, {})
    assert stage(camp).kind == "conquest"
    assert camp.state["game"]["conquest"]["round"]["wins"][0]["winner"] == "anna"


@pytest.mark.clause("COC-SET-8", "COC-TRN-3")
def test_order_lines_get_did_you_mean_and_gm_places_a_capital(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    parsed = RULESET.parse(turns.context(camp, T0), camp.settings.player("anna"),
                           [(1, "CAPITOL T3"), (2, "CAPITAL Coldharbor")])
    assert [(p.line_no, p.suggestion) for p in parsed.problems] == [(1, "CAPITAL"), (2, "T3 Coldharbour")]
    game, text = RULESET.gm_command(Context(camp.settings, camp.state["game"], T0), ["CAPITAL", "anna", "T3"])
    assert "Anna's capital is T3" in text
    assert game["conquest"]["tiles"]["T3"]["owner"] == "anna"


@pytest.mark.clause("COC-SET-8")
def test_gm_capital_for_an_empire_that_has_one_is_refused(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    game, _ = RULESET.gm_command(Context(camp.settings, camp.state["game"], T0), ["CAPITAL", "anna", "T3"])
    with pytest.raises(ValueError, match="Anna already has a capital, T3"):
        RULESET.gm_command(Context(camp.settings, game, T0), ["CAPITAL", "anna", "T35"])


@pytest.mark.clause("COC-TRN-7")
def test_status_lists_holdings_and_treasury(tmp_path: Path) -> None:
    camp = campaign(tmp_path, {"setup": {"starting_gold": 40}})
    resolve(camp, {p.id: parse(camp, p.id, f"CAPITAL {c}") for p, c in zip(PLAYERS, ("T3", "T15", "T35"), strict=True)})
    status = RULESET.status(Context(camp.settings, camp.state["game"], T0), camp.settings.player("anna"))
    assert status["control"] == ["T3 (Coldharbour) (city)"] and status["treasury"] == 40 and status["tokens"] == []


@pytest.mark.clause("COC-TRN-6", "COC-SET-8")
def test_capital_picks_are_turn_0_so_rollback_from_round_1_returns_to_them(tmp_path: Path) -> None:
    from pbem.tick.engine import tick

    camp = campaign(tmp_path, {"setup": {"capital_order": ["cara", "anna", "ben"]}})
    assert stage(camp).turn == 0 and stage(camp).title == "Setup: capital picks (window S)"
    camp.state["stage"]["force"] = True                     # nobody sends a pick: random legal cities
    camp.save()
    tick(tmp_path, T0 + timedelta(minutes=5))
    camp = Campaign(camp.folder)
    assert camp.state["stage"]["turn"] == 1 and camp.state["stage"]["kind"] == "campaign"
    assert (camp.history(0) / "capitals-capitals.md").exists() and (camp.history(1) / "start.toml").exists()
    assert "secret" in (camp.history(0) / "dice.toml").read_text()       # setup's dice are revealed
    capitals = {p: e["capital"] for p, e in camp.state["game"]["conquest"]["empires"].items()}
    assert all(capitals.values())
    assert turns.rollback(camp) == 0
    assert camp.state["stage"]["kind"] == "capitals" and camp.state["stage"]["turn"] == 0
    assert not any(e["capital"] for e in camp.state["game"]["conquest"]["empires"].values())
    with pytest.raises(ValueError, match="no earlier turn"):
        turns.rollback(camp)
