"""The tick end to end on a Daemon Rift campaign: bad input gets a clear reply and loses nothing."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.mail.outbox import MaildirTransport  # noqa: F401  (the outbox format the tests read)
from pbem.stages import turns
from pbem.state import credentials
from pbem.state.campaign import Campaign
from pbem.state.store import read_toml
from pbem.tick.engine import tick
from pbem.tick.faults import Faults
from tests.support.engine_helpers import SECRETS, T0, body, dr_campaign, outbox, put, run


@pytest.fixture
def camp(tmp_path: Path) -> Campaign:
    return dr_campaign(tmp_path)


RED = f"PLAYER red {SECRETS['red']}\n"


def test_valid_orders_are_acknowledged_with_receipt_and_threading(camp: Campaign) -> None:
    put(camp, "m1", RED + "R-1 M T25\n")
    camp = run(camp)
    [ack] = outbox(camp, "alice")
    text = body(ack)
    assert "`R-1 M T25`" in text and "Receipt" in text
    assert ack["In-Reply-To"] == "<m1@test.localhost>" and ack["Auto-Submitted"] == "auto-replied"
    assert camp.state["submissions"]["red"]["receipt"] in text
    assert SECRETS["red"] not in text
    html = ack.get_body(preferencelist=("html",))
    assert html is not None and "<code>" in html.get_content()


def test_unknown_sender_gets_a_reply_that_reveals_nothing(camp: Campaign) -> None:
    put(camp, "m1", RED + "R-1 M T25\n", sender="Eve <eve@else.localhost>")
    camp = run(camp)
    [reply] = outbox(camp, "eve")
    assert "not accepted" in body(reply) and "R-1" not in body(reply)
    assert "submissions" not in camp.state or not camp.state["submissions"]


def test_wrong_password_is_refused_and_repeated_failures_alert_the_gm(camp: Campaign) -> None:
    for i in range(7):
        put(camp, f"bad{i}", "PLAYER red WRONG-SECRET\nR-1 M T25\n", mid=f"bad{i}@x")
    camp = run(camp)
    assert len(outbox(camp, "alice")) == 6      # five refusals, then the lock, told once
    [alert] = outbox(camp, "gm@")
    assert "failed to authenticate" in body(alert)
    assert not camp.state.get("submissions")


def test_orders_for_another_players_army_are_rejected(camp: Campaign) -> None:
    put(camp, "m1", RED + "B-1 H\nR-1 H\n")
    text = body(outbox(run(camp), "alice")[0])
    assert "line 2" in text and "not yours" in text and "`R-1 H`" in text


def test_non_adjacent_move_and_unknown_territory_get_line_errors_and_suggestions(camp: Campaign) -> None:
    put(camp, "m1", RED + "R-1 M T40\nR-1 M Northmarh\n")
    text = body(outbox(run(camp), "alice")[0])
    assert "line 2" in text and "line 3" in text
    assert "T25" in text  # the suggestion for the misspelt Northmarch


def test_empty_mail_is_answered(camp: Campaign) -> None:
    put(camp, "m1", RED)
    assert "No orders were found" in body(outbox(run(camp), "alice")[0])


def test_html_only_mail_is_read(camp: Campaign) -> None:
    put(camp, "m1", f"<html><body><p>PLAYER red {SECRETS['red']}</p><div>R-1 M T25</div></body></html>",
        ctype='text/html; charset="utf-8"')
    camp = run(camp)
    assert camp.state["submissions"]["red"]["payload"]["orders"]["orders"]["R-1"]["path"] == ["T25"]


def test_quoted_reply_is_ignored(camp: Campaign) -> None:
    put(camp, "m1", RED + "R-1 M T25\n\nOn Mon, 23 Nov 2026, GM wrote:\n> R-1 M T8\n> B-1 H\n")
    camp = run(camp)
    assert camp.state["submissions"]["red"]["payload"]["orders"]["orders"]["R-1"]["path"] == ["T25"]
    assert "line 5" not in body(outbox(camp, "alice")[0])


def test_orders_in_a_text_attachment_are_read(camp: Campaign) -> None:
    part = ("--b\r\nContent-Type: text/plain\r\n\r\n\r\n--b\r\nContent-Type: text/plain\r\n"
            "Content-Disposition: attachment; filename=orders.txt\r\n\r\n" + RED + "R-1 M T25\r\n--b--\r\n")
    put(camp, "m1", part, ctype='multipart/mixed; boundary="b"')
    camp = run(camp)
    assert camp.state["submissions"]["red"]["payload"]["orders"]["orders"]["R-1"]["path"] == ["T25"]


def test_duplicate_delivery_is_processed_once(camp: Campaign) -> None:
    put(camp, "m1", RED + "R-1 M T25\n", mid="same@test.localhost")
    put(camp, "m2", RED + "R-1 M T25\n", mid="same@test.localhost")
    camp = run(camp)
    assert len(outbox(camp, "alice")) == 1
    [(key, note)] = camp.state["journal"].items()
    assert key.startswith("mail:<same@test.localhost>#") and note == "processed"


def test_crash_between_storing_and_marking_done_ends_like_an_uninterrupted_run(camp: Campaign, tmp_path: Path) -> None:
    twin_root = tmp_path / "twin"
    shutil.copytree(camp.folder.parent.parent, twin_root)
    twin = Campaign(twin_root / "campaigns" / "rift")
    for c in (camp, twin):
        put(c, "m1", RED + "R-1 M T25\n")

    def crash(point: str) -> None:
        if point == "stored":
            raise RuntimeError(f"injected crash after {point}")

    with pytest.raises(RuntimeError):
        tick(camp.folder.parent, T0 + timedelta(hours=1), Faults(crash))
    crashed = run(camp)
    clean = run(twin)
    assert crashed.state["submissions"] == clean.state["submissions"]
    assert list(crashed.state["journal"]) == list(clean.state["journal"])
    assert len(outbox(crashed, "alice")) == len(outbox(clean, "alice")) == 1
    assert not list((crashed.folder.parent.parent / "inbox").glob("*.eml"))


def test_resubmission_replaces_orders_as_a_whole_and_clear_withdraws(camp: Campaign) -> None:
    put(camp, "m1", RED + "R-1 M T25\nRETREAT R-1 T24\n")
    camp = run(camp)
    put(camp, "m2", RED + "R-1 H\n")
    camp = run(camp, T0 + timedelta(hours=2))
    orders = camp.state["submissions"]["red"]["payload"]["orders"]
    assert orders["orders"]["R-1"]["kind"] == "H" and not orders["retreats"]
    put(camp, "m3", RED + "CLEAR\n")
    camp = run(camp, T0 + timedelta(hours=3))
    assert "red" not in camp.state["submissions"]


def test_password_change_is_stored_with_scrypt_and_never_echoed(camp: Campaign) -> None:
    put(camp, "m1", RED + "PASSWORD my-own-secret-42\n")
    camp = run(camp)
    assert camp.auth["secrets"]["red"].startswith("scrypt:")
    assert "my-own-secret-42" not in body(outbox(camp, "alice")[0])
    assert credentials.check("my-own-secret-42", camp.auth["secrets"]["red"])


def test_turn_resolves_early_when_all_submitted_and_dice_verify(
        camp: Campaign, capsys: pytest.CaptureFixture[str]) -> None:
    put(camp, "m1", RED + "R-1 M T25\n")
    put(camp, "m2", f"PLAYER blue {SECRETS['blue']}\nB-1 M T27\n", sender="Bob <bob@test.localhost>")
    camp = run(camp)
    assert camp.state["stage"]["turn"] == 2
    assert camp.state["game"]["dr"]["tokens"]["R-1"]["territory"] == "T25"
    report = (camp.history(1) / "orders-movement.md").read_text()
    assert camp.state  # reports are kept in history
    assert "Sealed-order receipts" in report
    assert main(["verify-dice", str(camp.folder), "1"]) == 0
    assert "all match" in capsys.readouterr().out


def test_missing_player_holds_at_the_deadline_and_is_named(camp: Campaign) -> None:
    put(camp, "m1", RED + "R-1 M T25\n")
    camp = run(camp)
    deadline = turns.parse_time(camp.state["stage"]["deadline"])
    camp = run(camp, deadline + timedelta(minutes=1))
    report = (camp.history(1) / "orders-movement.md").read_text()
    assert "No orders received from: Blue" in report


def test_reminder_goes_to_missing_players_once(camp: Campaign) -> None:
    deadline = turns.parse_time(camp.state["stage"]["deadline"])
    camp = run(camp, deadline - timedelta(hours=2))
    camp = run(camp, deadline - timedelta(hours=1))
    assert len([m for m in outbox(camp) if "reminder" in str(m["Subject"])]) == 2


def test_rollback_restores_the_previous_turn(camp: Campaign) -> None:
    put(camp, "m1", RED + "R-1 M T25\n")
    put(camp, "m2", f"PLAYER blue {SECRETS['blue']}\nB-1 H\n", sender="Bob <bob@test.localhost>")
    camp = run(camp)
    assert camp.state["stage"]["turn"] == 2
    assert main(["rollback", str(camp.folder)]) == 0
    camp = Campaign(camp.folder)
    assert camp.state["stage"]["turn"] == 1 and camp.state["game"]["dr"]["tokens"]["R-1"]["territory"] == "T24"


def test_broken_campaign_toml_is_reported_and_other_campaigns_still_run(camp: Campaign, tmp_path: Path) -> None:
    broken = camp.folder.parent / "broken"
    broken.mkdir()
    (broken / "campaign.toml").write_text("name = [unclosed\n")
    put(camp, "m1", RED + "R-1 M T25\n")
    log = tick(camp.folder.parent, T0 + timedelta(hours=1))
    assert any("broken: NOT PROCESSED" in line and "broken TOML" in line for line in log.lines)
    assert Campaign(camp.folder).state["submissions"]["red"]


def test_a_rule_option_edited_to_a_bad_value_stops_only_that_campaign_and_keeps_its_mail(camp: Campaign) -> None:
    settings = camp.folder / "campaign.toml"
    settings.write_text(settings.read_text() + '\n[rules.movement]\nmultiway_tie = "dice"\n')
    put(camp, "m1", RED + "R-1 M T25\n")
    log = tick(camp.folder.parent, T0 + timedelta(hours=1))
    assert any("rift: NOT PROCESSED" in line and "multiway_tie" in line for line in log.lines)
    assert (camp.folder.parent.parent / "inbox" / "m1.eml").exists()         # kept for the next tick
    assert not read_toml(camp.folder / "state.toml").get("submissions")   # the settings no longer load


@pytest.mark.clause("DR-TRN-1", "DR-TRN-3", "DR-TRN-5", "DR-TRN-6", "DR-TRN-7", "DR-GEN-6")
def test_dr_trn_1_3_5_6_7_dr_gen_6_reports_and_gm_actions(camp: Campaign) -> None:
    """Window closes early (TRN-1); movement report shows orders sent and effective (TRN-3); the
    end-of-turn report shows control, counts and scores (TRN-5); each player gets a private report
    (TRN-6); a GM action is logged and shown in the next report (TRN-7, GEN-6)."""
    assert main(["extend", str(camp.folder), "1d"]) == 0
    put(camp, "m1", RED + "R-1 M T25\n")
    put(camp, "m2", f"PLAYER blue {SECRETS['blue']}\nB-1 M T27\n", sender="Bob <bob@test.localhost>")
    camp = run(camp)
    history = camp.history(1)
    movement = (history / "orders-movement.md").read_text()
    assert "| R-1 | T24 | R-1 M T25 | R-1 M T25 |" in movement
    turn = (history / "orders-turn.md").read_text()
    assert "## Control" in turn and "## Tokens" in turn and "Provisional scores" in turn
    assert "EXTEND 1d" in turn
    assert (history / "orders-private-red.md").exists() and (history / "orders-private-blue.md").exists()
