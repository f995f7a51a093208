"""The end-of-turn report is short on a phone: each turn it tells what changed and the
standings; the whole territory table (55 rows on the Rift Valley) comes at the end of each
season of five turns, and any time in the answer to STATUS."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from pbem.state.campaign import Campaign
from tests.support.engine_helpers import SECRETS, T0, body, dr_campaign, outbox, put, run

TABLE_ROW = "| T55 (Northwood) | woods | Red |"


def play_a_turn_of_holds(camp: Campaign) -> str:
    """Both sides hold; the public end-of-turn report as Alice reads it."""
    put(camp, "red", f"PLAYER red {SECRETS['red']}\nR-1 H\nREADY\n")
    put(camp, "blue", f"PLAYER blue {SECRETS['blue']}\nB-1 H\nREADY\n", sender="Bob <bob@test.localhost>")
    run(camp, T0 + timedelta(days=8))
    reports = [m for m in outbox(camp, "alice") if "end of turn" in str(m["Subject"])]
    assert len(reports) == 1, [str(m["Subject"]) for m in outbox(camp, "alice")]
    return body(reports[0])


def test_a_turn_within_a_season_reports_changes_and_standings_without_the_table(tmp_path: Path) -> None:
    text = play_a_turn_of_holds(dr_campaign(tmp_path))
    assert TABLE_ROW not in text and "Provisional scores" in text
    assert "every 5 turns; next after turn 5" in text and "STATUS" in text
    assert "| 0 | no |" not in text and "No two factions have fought a tabletop battle yet." in text


def test_the_last_turn_of_a_season_reports_the_whole_table(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    camp.state["game"]["dr"]["turn"] = 5
    camp.save()
    text = play_a_turn_of_holds(Campaign(camp.folder))
    assert "end of turn 5" in text and TABLE_ROW in text


def test_status_shows_every_territory_with_its_controller(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    put(camp, "status", f"PLAYER red {SECRETS['red']}\nSTATUS\n")
    run(camp)
    answer = body(outbox(camp, "alice")[-1])
    assert TABLE_ROW in answer and "| T27 (Cinder Reach) | clear | Blue |" in answer
