"""A stage closes before its deadline only when every player owing orders is ready: his orders on
file have no rejected line and nothing missing, or he said READY. WAIT holds the early close for
him until READY or CLEAR; `[schedule] early_close = "never"` keeps every stage to its deadline.
Each proved through the tick on a Daemon Rift campaign (Red and Blue, one token each)."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.stages.record import StageRecord
from pbem.state.campaign import Campaign, SettingsError
from pbem.state.store import read_toml, write_toml
from tests.support.engine_helpers import SECRETS, T0, body, dr_campaign, outbox, put, run

RED = f"PLAYER red {SECRETS['red']}\n"
BLUE = f"PLAYER blue {SECRETS['blue']}\n"
BOB = "Bob <bob@test.localhost>"
DEADLINE = T0 + timedelta(days=7, hours=12)      # past turn 1's deadline (Mon 30 Nov 20:00)
TOKENS = {"R-1": "T24", "B-1": "T40"}             # B-1 next to T39 Southmarch


@pytest.fixture
def camp(tmp_path: Path) -> Campaign:
    return dr_campaign(tmp_path, TOKENS)


def turn(camp: Campaign) -> str:
    return str(camp.state["stage"]["title"])


def ack(camp: Campaign, name: str) -> str:
    [reply] = [m for m in outbox(camp) if m["In-Reply-To"] == f"<{name}@test.localhost>"]
    return body(reply)


def misspelt_turn_1(camp: Campaign) -> Campaign:
    """Red's orders are clean; Blue's only move names Southmarsh (T39 is Southmarch)."""
    put(camp, "red1", RED + "R-1 M T25\n")
    put(camp, "blue1", BLUE + "B-1 M Southmarsh\n", sender=BOB)
    return run(camp)


def test_a_rejected_move_line_keeps_turn_1_open_and_the_ack_says_why(camp: Campaign) -> None:
    camp = misspelt_turn_1(camp)
    assert turn(camp) == "Turn 1: orders"                 # on main it resolved here, seven days early
    assert camp.state["submissions"]["blue"]["rejected"] == 1
    text = ack(camp, "blue1")
    assert "The stage can close early once you are ready: 1 line was rejected" in text
    assert "You may send new orders until then; a new message replaces the old one." in text
    assert "You are ready: the stage closes when everyone is, or on Mon 30 Nov 2026 20:00 UTC." in ack(camp, "red1")


def test_ready_after_the_ack_closes_the_stage_with_the_orders_on_file(camp: Campaign) -> None:
    camp = misspelt_turn_1(camp)
    put(camp, "blue2", BLUE + "READY\n", sender=BOB)
    camp = run(camp, T0 + timedelta(hours=2))
    assert turn(camp) != "Turn 1: orders"
    assert "READY: you are ready" in ack(camp, "blue2")
    assert camp.state["game"]["dr"]["tokens"]["B-1"]["territory"] == "T40"    # B-1 held


def test_the_corrected_line_closes_the_stage_early(camp: Campaign) -> None:
    camp = misspelt_turn_1(camp)
    put(camp, "blue2", BLUE + "B-1 M T39\n", sender=BOB)
    camp = run(camp, T0 + timedelta(hours=2))
    assert turn(camp) != "Turn 1: orders"
    assert "rejected" not in camp.state["submissions"]


def test_a_new_mail_with_a_rejected_line_needs_ready_again(camp: Campaign) -> None:
    put(camp, "red1", RED + "R-1 M T25\n")
    put(camp, "blue1", BLUE + "READY\nB-1 M Southmarsh\n", sender=BOB)   # READY with the orders it covers
    camp = run(camp)
    assert turn(camp) != "Turn 1: orders"

    camp = dr_campaign(camp.folder.parent.parent / "again", TOKENS)
    put(camp, "blue1", BLUE + "READY\n", sender=BOB)
    put(camp, "blue2", BLUE + "B-1 M Southmarsh\n", sender=BOB)          # READY said before these orders
    put(camp, "red1", RED + "R-1 M T25\n")
    camp = run(camp)
    assert turn(camp) == "Turn 1: orders"


def test_wait_holds_the_early_close_until_the_deadline(camp: Campaign) -> None:
    put(camp, "red1", RED + "R-1 M T25\n")
    put(camp, "blue1", BLUE + "B-1 M T39\nWAIT\n", sender=BOB)
    camp = run(camp)
    assert turn(camp) == "Turn 1: orders"
    assert "You said WAIT: the stage stays open until Mon 30 Nov 2026 20:00 UTC unless you send READY." \
        in ack(camp, "blue1")
    put(camp, "blue2", BLUE + "B-1 H\n", sender=BOB)                     # clean orders do not lift WAIT
    camp = run(camp, T0 + timedelta(days=3))
    assert turn(camp) == "Turn 1: orders" and camp.state["stage"]["wait"] == ["blue"]
    camp = run(camp, DEADLINE)
    assert turn(camp) != "Turn 1: orders"


def test_clear_lifts_wait_as_ready_does(camp: Campaign) -> None:
    put(camp, "red1", RED + "R-1 M T25\n")
    put(camp, "blue1", BLUE + "WAIT\n", sender=BOB)
    camp = run(camp)
    put(camp, "blue2", BLUE + "CLEAR\nB-1 H\n", sender=BOB)
    camp = run(camp, T0 + timedelta(hours=2))
    assert turn(camp) != "Turn 1: orders"


def never_early(camp: Campaign) -> Campaign:
    path = camp.folder / "campaign.toml"
    settings = read_toml(path)
    settings["schedule"]["early_close"] = "never"
    write_toml(path, settings)
    return Campaign(camp.folder)


def test_early_close_never_keeps_a_stage_open_to_its_deadline(camp: Campaign) -> None:
    camp = never_early(camp)
    put(camp, "red1", RED + "R-1 M T25\n")
    put(camp, "blue1", BLUE + "B-1 M T39\nREADY\n", sender=BOB)
    camp = run(camp)
    assert turn(camp) == "Turn 1: orders"
    text = ack(camp, "blue1")
    assert "This campaign closes each stage at its deadline, never earlier: Mon 30 Nov 2026 20:00 UTC." in text
    assert "You may send new orders until then; a new message replaces the old one." in text
    camp = run(camp, DEADLINE)
    assert turn(camp) != "Turn 1: orders"


def test_a_bad_early_close_value_is_one_line_naming_the_choices(camp: Campaign) -> None:
    path = camp.folder / "campaign.toml"
    settings = read_toml(path)
    settings["schedule"]["early_close"] = "sometimes"
    write_toml(path, settings)
    with pytest.raises(SettingsError) as caught:
        Campaign(camp.folder)
    assert ("schedule.early_close: found 'sometimes'; expected \"ready\" (close once every player is ready) or "
            '"never" (only at the deadline)') in str(caught.value)


def test_status_shows_each_player_nothing_sent_rejected_ready_or_waiting(
        camp: Campaign, capsys: pytest.CaptureFixture[str]) -> None:
    root = str(camp.folder.parent)
    main(["status", "--root", root])
    assert [line.split(None, 2)[2] for line in capsys.readouterr().out.splitlines()[1:3]] == \
        ["nothing sent", "nothing sent"]
    camp = misspelt_turn_1(camp)
    main(["status", "--root", root])
    red, blue = capsys.readouterr().out.splitlines()[1:3]
    assert "  ready (received 2026-11-23T10:00:00+00:00)" in red
    assert "  sent with 1 line rejected and 1 still missing (received" in blue
    put(camp, "blue2", BLUE + "WAIT\n", sender=BOB)
    run(camp, T0 + timedelta(hours=2))
    main(["status", "--root", root])
    assert "waiting (WAIT)" in capsys.readouterr().out.splitlines()[2]


def test_a_player_whose_orders_keep_the_stage_open_is_reminded_why_and_one_who_waits_is_not(camp: Campaign) -> None:
    camp = misspelt_turn_1(camp)
    run(camp, reminder_time(camp))
    [blue] = [m for m in outbox(camp, "bob@test.localhost") if "reminder" in str(m["Subject"])]
    text = body(blue)
    assert ("your orders for **Turn 1: orders** are on file, but 1 line was rejected and 1 thing is still missing "
            "(STATUS lists it).") in text
    assert "`READY` to stand by your orders as they are" in text and "Without orders" not in text
    assert not [m for m in outbox(camp, "alice@test.localhost") if "reminder" in str(m["Subject"])]   # Red is ready


def test_a_player_who_said_wait_gets_no_reminder(camp: Campaign) -> None:
    camp = misspelt_turn_1(camp)
    put(camp, "blue2", BLUE + "WAIT\n", sender=BOB)
    camp = run(camp, T0 + timedelta(hours=2))
    run(camp, reminder_time(camp))
    assert not [m for m in outbox(camp, "bob@test.localhost") if "reminder" in str(m["Subject"])]


def reminder_time(camp: Campaign) -> datetime:
    due = StageRecord.read(camp.state).due
    assert due is not None
    return due - camp.settings.schedule.reminder + timedelta(minutes=1)


def test_status_of_one_campaign_by_name_and_a_misspelt_name_gets_one_line_with_the_name_meant(
        camp: Campaign, capsys: pytest.CaptureFixture[str]) -> None:
    root = str(camp.folder.parent)
    assert main(["status", camp.name, "--root", root]) == 0
    assert capsys.readouterr().out.startswith(f"{camp.name}: ")
    assert main(["status", camp.name[:-1] + "x", "--root", root]) != 0
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"did you mean `{camp.name}`?" in err and "Traceback" not in err
