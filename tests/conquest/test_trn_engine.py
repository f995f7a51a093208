"""Conquest windows through the real engine: team reports in window 3, the acknowledgement's wording,
GM questions answered with DECIDE (COC-TRN-3, COC-TRN-4, COC-RES-21)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from pbem.rulesets.conquest.model import W_CAPITALS, W_CONQUEST, W_RESULTS, W_SETUP
from pbem.rulesets.conquest.ruleset import RULESET
from pbem.stages import turns

from .engine_helpers import T0, campaign, game, mail, put_position, replies, run

RESULT = "RESULT B1 WITHDREW defender VP 620-310 BP 8-9 LOST 2-4"


def at_window(tmp_path: Path, window: str, rules: dict | None = None):  # type: ignore[no-untyped-def, type-arg]
    """Round 1 with a team battle B1 (Anna and Ben against Cara) and a land battle B2 (Cara against Anna),
    from a position (docs/positions/conquest.md); window S is the capital picks of round 0."""
    camp = campaign(tmp_path, rules)
    capitals = {"anna": "T3", "ben": "T15", "cara": "T35"}
    position: dict[str, Any] = {"round": 0, "window": window}
    if window != W_CAPITALS:
        position |= {"round": 1, "order": ["anna", "ben", "cara"],
                     "empires": {p: {"capital": t} for p, t in capitals.items()},
                     "tiles": {t: {"owner": p} for p, t in capitals.items()}}
    if window in (W_SETUP, W_RESULTS, W_CONQUEST):
        position["battles"] = [{"id": "B1", "kind": "team", "attackers": ["anna", "ben"], "defenders": ["cara"]},
                               {"id": "B2", "kind": "land", "attackers": ["cara"], "defenders": ["anna"]}]
    if window == W_RESULTS:
        position["setups"] = [{"battle": "B1", "points": 2000, "armies": [
                                  {"player": "anna", "share": 1000}, {"player": "ben", "share": 1000},
                                  {"player": "cara", "share": 2000}]},
                              {"battle": "B2", "points": 2000, "armies": [
                                  {"player": "cara", "share": 2000}, {"player": "anna", "share": 2000}]}]
    return put_position(camp, position)


@pytest.mark.clause("COC-TRN-4", "COC-RES-20")
def test_coc_trn_4_any_team_member_reports_for_his_side_and_the_window_closes_when_every_side_has(
        tmp_path: Path) -> None:
    camp = at_window(tmp_path, W_RESULTS)
    assert set(camp.state["stage"]) and camp.state["stage"]["kind"] == "results"
    mail(camp, "r1", "ben", RESULT)                          # the team's second member
    camp = run(camp)
    [ack] = replies(camp, "ben@", "r1")
    assert "Nothing is expected from you" not in ack and RESULT in ack
    assert camp.state["stage"]["kind"] == "results"          # Cara's sides of B1 and B2 are still open
    mail(camp, "r2", "cara", RESULT + "\nRESULT B2 WITHDREW none VP 300-300")
    camp = run(camp, timedelta(hours=2))
    assert camp.state["stage"]["kind"] == "results"          # B2's defender side (Anna) has not reported
    mail(camp, "r3", "anna", "RESULT B2 WITHDREW none VP 300-300")
    camp = run(camp, timedelta(hours=3))
    assert camp.state["stage"]["kind"] == "conquest"          # closed early: every side of every battle reported
    state = game(camp)
    assert state.round.outcome("B1").how == "reported" and state.round.outcome("B1").attacker == "massacre"
    assert state.round.outcome("B2").attacker == "draw"


@pytest.mark.clause("COC-TRN-3")
def test_coc_trn_3_conquest_ack_words_missing_battles_for_its_windows(tmp_path: Path) -> None:
    camp = at_window(tmp_path, W_SETUP)
    mail(camp, "s1", "anna", "B1 SIZE 2000 GOLD 0")
    camp = run(camp)
    [ack] = replies(camp, "anna@", "s1")
    assert "Battles without a setup line from you: B2" in ack and "they will hold" not in ack
    camp = at_window(tmp_path / "w3", W_RESULTS)
    mail(camp, "r1", "cara", RESULT)
    camp = run(camp)
    [ack] = replies(camp, "cara@", "r1")
    assert "Battles without a result from you: B2" in ack and "a team-mate's counts" in ack
    assert "they will hold" not in ack


@pytest.mark.clause("COC-RES-4", "COC-RES-20")
def test_coc_res_4_gm_rules_a_surrender_by_decide_and_the_stage_resolves_with_his_answer(tmp_path: Path) -> None:
    camp = at_window(tmp_path, W_RESULTS, {"results": {"surrender": "gm"}})
    surrender = "RESULT B2 WITHDREW none VP 100-300 BP 8-9 LOST 1-3 SURRENDER defender"
    mail(camp, "r1", "cara", RESULT + "\n" + surrender)
    mail(camp, "r2", "anna", surrender)
    mail(camp, "r3", "ben", RESULT)
    camp = run(camp)
    question = camp.state["stage"]["question"]
    assert question["key"] == "B2-surrender" and question["options"] == ["minor_victory", "major_victory", "massacre"]
    assert any("DECIDE B2-surrender" in text for text in replies(camp, "gm@"))
    assert camp.state["stage"]["kind"] == "results"
    mail(camp, "g1", "gm", "DECIDE B2-surrender major_victory")
    camp = run(camp, timedelta(hours=2))
    outcome = game(camp).round.outcome("B2")
    assert (outcome.attacker, outcome.defender) == ("major_victory", "lose") and "GM rules" in outcome.note
    assert camp.state["stage"]["kind"] == "conquest"


@pytest.mark.clause("COC-TRN-4")
def test_results_sent_one_battle_per_mail_are_all_kept(tmp_path: Path) -> None:
    camp = at_window(tmp_path, W_RESULTS)
    mail(camp, "c1", "cara", RESULT)
    camp = run(camp)
    mail(camp, "c2", "cara", "RESULT B2 WITHDREW none VP 300-300")
    camp = run(camp, timedelta(hours=2))
    on_file = camp.state["submissions"]["cara"]["payload"]["results"]
    assert sorted(on_file) == ["B1", "B2"]
    [ack] = replies(camp, "cara@", "c2")
    assert RESULT in ack and "RESULT B2 WITHDREW none VP 300-300" in ack


@pytest.mark.clause("COC-RES-20")
def test_the_gms_ruling_on_a_disputed_battle_closes_the_results_window(tmp_path: Path) -> None:
    camp = at_window(tmp_path, W_RESULTS)
    b2 = "RESULT B2 WITHDREW none VP 300-300"
    mail(camp, "d1", "cara", RESULT + "\n" + b2)
    mail(camp, "d2", "anna", "RESULT B1 WITHDREW defender VP 620-310 BP 8-9 LOST 5-4\n" + b2)
    camp = run(camp)
    assert camp.state["stage"]["kind"] == "results" and game(camp).round.disputed == ["B1"]
    assert RULESET.gm_pending(turns.context(camp, T0)) == ["your ruling on B1: RESULT B1 ... or ABSTRACT B1"]
    mail(camp, "g1", "gm", RESULT)
    camp = run(camp, timedelta(hours=2))
    assert camp.state["stage"]["kind"] == "conquest"
    assert game(camp).round.outcome("B1").how == "gm"


@pytest.mark.clause("COC-ABR-1", "COC-RES-20")
def test_an_abstract_request_against_a_played_report_goes_to_the_gm_and_the_players_are_told(
        tmp_path: Path) -> None:
    camp = at_window(tmp_path, W_RESULTS)
    b2 = "RESULT B2 WITHDREW none VP 300-300"
    mail(camp, "a1", "cara", "ABSTRACT B1\n" + b2)
    mail(camp, "a2", "anna", RESULT + "\n" + b2)
    camp = run(camp)
    assert camp.state["stage"]["kind"] == "results" and game(camp).round.disputed == ["B1"]
    assert game(camp).round.outcome("B1") is None                     # no abstract roll behind the GM's back
    [alert] = [t for t in replies(camp, "gm@") if "B1 needs your ruling" in t]
    assert "ABSTRACT B1 (from" in alert and "WITHDREW defender" in alert
    told = [t for t in replies(camp, "anna@") if "waits for the game master" in t]
    assert told and "Cara" in told[0] and "asked for abstract resolution" in told[0]
    mail(camp, "g1", "gm", "ABSTRACT B1")
    camp = run(camp, timedelta(hours=2))
    assert camp.state["stage"]["kind"] == "conquest" and game(camp).round.outcome("B1").how == "abstract"
