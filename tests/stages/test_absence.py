"""Absence through the tick: a player away over a deadline has his standing orders used (or the
rules' defaults) and is not counted as missed; every player and the GM are told; the campaign's
budget of days refuses a longer absence; the GM records one with `pbem absent`; a short absence
may hold the deadline. On a Daemon Rift campaign (Red and Blue, one token each)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.stages.record import StageRecord
from pbem.state.campaign import Campaign
from tests.support.engine_helpers import SECRETS, T0, body, dr_campaign, outbox, put, run

RED = f"PLAYER red {SECRETS['red']}\n"
BLUE = f"PLAYER blue {SECRETS['blue']}\n"
BOB = "Bob <bob@test.localhost>"
AFTER_DEADLINE = T0 + timedelta(days=7, hours=12)      # turn 1's deadline is Mon 30 Nov 20:00 UTC
TOKENS = {"R-1": "T24", "B-1": "T40"}


def campaign(tmp_path: Path, **absence: int) -> Campaign:
    return dr_campaign(tmp_path, TOKENS, rules={"absence": {"days_per_year": 5, **absence}})


def ack(camp: Campaign, name: str) -> str:
    [reply] = [m for m in outbox(camp) if m["In-Reply-To"] == f"<{name}@test.localhost>"]
    return body(reply)


def test_standing_orders_are_used_over_an_absence_and_it_is_not_counted_as_missed(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    put(camp, "b1", BLUE + "B-1 H\nSTANDING\n", sender=BOB)
    camp = run(camp)
    put(camp, "b2", BLUE + "CLEAR\nABSENT 2026-11-29 2026-12-02 skiing\n", sender=BOB)
    put(camp, "r1", RED + "R-1 M T25\n")
    camp = run(camp, T0 + timedelta(hours=2))
    assert "ABSENT: you are away 2026-11-29 to 2026-12-02 (skiing)" in ack(camp, "b2")
    assert StageRecord.read(camp.state).turn == 1           # Bob is not ready: the deadline decides
    camp = run(camp, AFTER_DEADLINE)
    assert StageRecord.read(camp.state).turn == 2
    [movement] = [m for m in outbox(camp, "alice@") if "Turn 1: movement" in str(m["Subject"])]
    assert "| B-1 | T40 | B-1 H | B-1 H |" in body(movement)          # his standing order, as he sent it
    assert camp.state["reliability"] == {"red": {"answered": 1}, "blue": {"absent": 1}}


def test_every_other_player_and_the_gm_hear_of_the_absence_once(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    put(camp, "b1", BLUE + "ABSENT 2026-11-29 2026-12-02\n", sender=BOB)
    camp = run(camp)
    camp = run(camp, T0 + timedelta(hours=2))
    notices = [m for m in outbox(camp) if "is away" in str(m["Subject"])]
    assert sorted(str(m["To"]) for m in notices) == ["alice@test.localhost", "gm@test.localhost"]
    assert "Bob (Blue) is away 2026-11-29 to 2026-12-02" in body(notices[0])
    assert "bob@" not in body(notices[0])


def test_an_absence_beyond_the_budget_is_refused_with_the_days_left(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    put(camp, "b1", BLUE + "ABSENT 2026-11-29 2026-12-01\n", sender=BOB)
    camp = run(camp)
    put(camp, "b2", BLUE + "ABSENT 2026-12-10 2026-12-12\n", sender=BOB)
    camp = run(camp, T0 + timedelta(hours=2))
    text = " ".join(ack(camp, "b2").split())
    assert "it is 3 days in 2026, and you have 2 of this campaign's 5 absence days a year left" in text
    assert len(camp.state["absences"]["blue"]) == 1
    assert not [m for m in outbox(camp) if "2026-12-10" in str(m["Subject"])]


def test_a_missing_player_who_is_not_away_counts_as_missed(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    put(camp, "r1", RED + "R-1 M T25\n")
    camp = run(camp)
    camp = run(camp, AFTER_DEADLINE)
    assert camp.state["reliability"] == {"red": {"answered": 1}, "blue": {"missed": 1}}


def test_the_gm_records_an_absence_with_pbem_absent(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    now = (T0 + timedelta(hours=1)).isoformat()
    assert main(["absent", str(camp.folder), "blue", "2026-11-29", "2026-11-30", "--now", now]) == 0
    assert main(["absent", str(camp.folder), "blue", "2026-12-01", "2026-12-09", "--now", now]) != 0
    camp = run(camp, T0 + timedelta(hours=2))
    assert Campaign(camp.folder).state["absences"]["blue"] == [{"from": "2026-11-29", "to": "2026-11-30"}]
    assert [str(m["To"]) for m in outbox(camp) if "is away" in str(m["Subject"])] == ["alice@test.localhost",
                                                                                      "gm@test.localhost"]


def test_a_short_absence_holds_the_deadline_where_the_campaign_says_so(tmp_path: Path) -> None:
    camp = campaign(tmp_path, deadline_waits=3)
    put(camp, "b1", BLUE + "ABSENT 2026-11-29 2026-11-30\n", sender=BOB)
    camp = run(camp)
    assert StageRecord.read(camp.state).deadline == "2026-12-01T20:00:00+00:00"
    assert "the deadline of Turn 1: orders waits for it" in " ".join(ack(camp, "b1").split())


def test_pbem_status_shows_each_players_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    camp = campaign(tmp_path)
    put(camp, "b1", BLUE + "ABSENT 2026-11-29 2026-12-02\n", sender=BOB)
    put(camp, "r1", RED + "R-1 M T25\n")
    camp = run(camp)
    run(camp, AFTER_DEADLINE)
    capsys.readouterr()
    assert main(["status", "--root", str(camp.folder.parent)]) == 0
    out = capsys.readouterr().out
    assert "red          1 of 1 stages answered, 0 missed, 0 while absent (0 absence days taken)" in out
    assert "blue         0 of 1 stages answered, 0 missed, 1 while absent (4 absence days taken)" in out


def test_absent_at_a_battle_window_the_gm_and_the_opponent_are_told_at_once(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path, {"R-1": "T25", "B-1": "T27"}, rules={"absence": {"days_per_year": 30}})
    put(camp, "o1", RED + "R-1 M T26\n")
    put(camp, "o2", BLUE + "B-1 M T26\n", sender=BOB)
    camp = run(camp)
    record = StageRecord.read(camp.state)
    assert "battle" in record.kind and record.due is not None
    day = record.due.date().isoformat()
    put(camp, "b1", BLUE + f"ABSENT {day} {day}\n", sender=BOB)
    camp = run(camp, T0 + timedelta(hours=2))
    alerts = [body(m) for m in outbox(camp, "gm@") if "attention" in str(m["Subject"])]
    assert any("Bob is absent at the deadline of" in " ".join(a.split()) for a in alerts)
    [notice] = [m for m in outbox(camp, "alice@") if "is away" in str(m["Subject"])]
    assert "owes orders in" in " ".join(body(notice).split())


def test_a_battle_window_opening_during_an_absence_tells_the_gm_and_the_opponent(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path, {"R-1": "T25", "B-1": "T27"}, rules={"absence": {"days_per_year": 30}})
    put(camp, "o1", RED + "R-1 M T26\n")
    put(camp, "o2", BLUE + "B-1 M T26\nABSENT 2026-11-23 2026-12-20\n", sender=BOB)
    camp = run(camp)
    assert "battle" in StageRecord.read(camp.state).kind
    alerts = [" ".join(body(m).split()) for m in outbox(camp, "gm@") if "attention" in str(m["Subject"])]
    assert any("Bob is absent at the deadline of" in a for a in alerts)
    opened = [m for m in outbox(camp, "alice@") if "is away" in str(m["Subject"]) and "owes orders in" in body(m)]
    assert len(opened) == 1


def test_a_rollback_keeps_absences_and_press_but_counts_the_replayed_stages_again(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    put(camp, "b1", BLUE + "B-1 H\nABSENT 2026-12-20 2026-12-21\n", sender=BOB)
    put(camp, "r1", RED + "R-1 M T25\nPRESS TO Blue\nHello\nEND PRESS\n")
    camp = run(camp)
    assert StageRecord.read(camp.state).turn == 2 and camp.state["reliability"]
    assert main(["rollback", str(camp.folder)]) == 0
    camp = Campaign(camp.folder)
    assert StageRecord.read(camp.state).turn == 1
    assert camp.state["absences"]["blue"] == [{"from": "2026-12-20", "to": "2026-12-21"}]
    assert [p["text"] for p in camp.state["press"]] == ["Hello"]
    assert "reliability" not in camp.state


def test_a_hand_edited_absence_or_mail_choice_of_the_wrong_shape_is_named() -> None:
    from pbem.state.statecheck import state_problems

    problems = state_problems({"absences": {"blue": [{"from": "5 May", "to": "2027-05-09"}]},
                               "mail_choice": {"red": "weekly"}})
    assert problems == ["absences.blue[0].from: found '5 May'; expected a day like 2027-05-05",
                        "mail_choice.red: found 'weekly'; expected immediate or digest or reports-only"]


def test_a_press_of_several_lines_is_kept_and_a_control_character_in_it_is_named() -> None:
    from pbem.state.statecheck import state_problems

    kept = {"text": "Shall we talk about Belgium?\n\tNot a word to France.", "to": ["ger"]}
    assert state_problems({"press": [kept]}) == []
    problems = state_problems({"press": [kept | {"text": "ring \x07 ring"}]})
    assert len(problems) == 1 and problems[0].startswith("press[0].text: ") and "U+0007" in problems[0]
