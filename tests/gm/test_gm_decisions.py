"""The engine holds a stage for the GM's word, and opens further battle windows, without losing a thing.

A rule option that lets the GM decide (here `movement.multiway_tie = "gm"`, DR-MOV-10) stops
the resolution with a question: the stage, its orders and the game stay as they were, the GM
is alerted, orders are frozen, `pbem status` shows the question, and `DECIDE` (by mail or
`pbem decide`) lets the next tick finish the stage with the same dice. With
`battle.dependent_contest = "second_window"` (DR-MOV-27) a contest decided by a battle
result gets its own battle window, and Step B replays the first window's dice.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.state.campaign import Campaign
from pbem.state.store import write_toml
from tests.support.engine_helpers import SECRETS, T0, body, dr_campaign, outbox, put, run

RED = f"PLAYER red {SECRETS['red']}\n"
BLUE = f"PLAYER blue {SECRETS['blue']}\n"
GM = f"GM {SECRETS['gm']}\n"
BOB = "Bob <bob@test.localhost>"


@pytest.fixture
def tie(tmp_path: Path) -> Campaign:
    """R-1, R-2 and B-1 all move into T25: three tied sides."""
    camp = dr_campaign(tmp_path, {"R-1": "T24", "R-2": "T8", "B-1": "T9"}, {"movement": {"multiway_tie": "gm"}})
    put(camp, "o1", RED + "R-1 M T25\nR-2 M T25\n")
    put(camp, "o2", BLUE + "B-1 M T25\n", sender=BOB)
    return run(camp)


def test_dr_mov_10_gm_question_holds_the_stage_and_alerts_the_gm(tie: Campaign,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert tie.state["stage"]["question"]["key"] == "tie-T25"
    assert tie.state["game"]["dr"]["phase"] == "orders" and set(tie.state["submissions"]) == {"red", "blue"}
    [alert] = [m for m in outbox(tie, "gm@") if "attention" in str(m["Subject"])]
    assert "DECIDE tie-T25" in body(alert) and "R-1, R-2, B-1, standoff" in body(alert)
    assert not (tie.history(1) / "orders-movement.md").exists()
    assert main(["status", "--root", str(tie.folder.parent)]) == 0
    assert "waiting for the GM" in capsys.readouterr().out
    again = run(tie, T0 + timedelta(days=9))                      # past the deadline: still waits
    assert again.state["stage"]["question"]["key"] == "tie-T25"


def test_dr_mov_10_orders_are_frozen_while_the_gm_decides(tie: Campaign) -> None:
    receipt = tie.state["submissions"]["red"]["receipt"]
    put(tie, "o3", RED + "R-1 H\nR-2 H\nCLEAR\n")
    camp = run(tie)
    assert camp.state["submissions"]["red"]["receipt"] == receipt
    [ack] = [m for m in outbox(camp, "alice") if m["In-Reply-To"] == "<o3@test.localhost>"]
    assert "game master is settling a question" in body(ack)


def test_dr_mov_10_gm_decides_by_mail_and_the_stage_resolves_with_the_winner(tie: Campaign) -> None:
    put(tie, "g1", GM + "DECIDE tie-T25 nobody\n", sender="GM <gm@test.localhost>")
    camp = run(tie)
    [reply] = [m for m in outbox(camp, "gm@") if m["In-Reply-To"] == "<g1@test.localhost>"]
    assert "choose one of" in body(reply) and camp.state["stage"]["question"]
    put(camp, "g2", GM + "DECIDE tie-T25 b-1\n", sender="GM <gm@test.localhost>")
    camp = run(camp)
    assert "question" not in camp.state["stage"]
    assert camp.state["game"]["dr"]["tokens"]["B-1"]["territory"] == "T25"
    movement = (camp.history(1) / "orders-movement.md").read_text()
    assert "GM's battles" in movement


def test_dr_mov_10_gm_decides_on_the_command_line(tie: Campaign) -> None:
    assert main(["decide", str(tie.folder), "tie-T25", "standoff"]) == 0
    assert main(["decide", str(tie.folder), "tie-T25", "R-1"]) == 1      # already answered
    camp = run(tie)
    tokens = camp.state["game"]["dr"]["tokens"]
    assert (tokens["R-1"]["territory"], tokens["B-1"]["territory"]) == ("T24", "T9")   # nobody entered T25
    assert "question" not in camp.state["stage"] and camp.state["stage"]["turn"] == 2


@pytest.mark.clause("DR-TRN-4")
def test_dr_mov_27_second_battle_window_through_the_engine(tmp_path: Path) -> None:
    """Red wins the T25/T26 swap; R-2 and B-2 then fight for T25 in a second window.
    The battle report (DR-TRN-4) shows the accepted results, the massacre die, the
    follow-up contest and the final positions."""
    camp = dr_campaign(tmp_path, {"R-1": "T25", "R-2": "T24", "B-1": "T26", "B-2": "T9"},
                       {"battle": {"dependent_contest": "second_window"}})
    write_toml(camp.folder / "private" / "dice.toml", {"secrets": {"1": "fixed-secret-for-this-test"}})
    put(camp, "o1", RED + "R-1 M T26\nR-2 M T25\n")
    put(camp, "o2", BLUE + "B-1 M T25\nB-2 M T25\n", sender=BOB)
    camp = run(camp)
    assert camp.state["game"]["dr"]["phase"] == "battles"
    put(camp, "r1", RED + "RESULT 1 R massacred\n")
    put(camp, "r2", BLUE + "RESULT 1 R massacred\n", sender=BOB)
    camp = run(camp)
    game = camp.state["game"]
    assert game["dr"]["phase"] == "battles" and camp.state["stage"]["kind"] == "battles"
    second = game["movement"]["battles"][-1]
    assert (second["number"], second["follows"], second["kind"]) == (2, "T25", "tabletop")
    briefings = [m for m in outbox(camp, "bob") if "battle 2 briefing" in str(m["Subject"])]
    assert len(briefings) == 1 and "further battle window" in body(briefings[0])
    first_die = next(r for r in game["replay"] if r["purpose"].startswith("massacre"))["faces"]
    put(camp, "r3", RED + "RESULT 2 B\n")
    put(camp, "r4", BLUE + "RESULT 2 B\n", sender=BOB)
    camp = run(camp)
    game = camp.state["game"]
    assert "replay" not in game and camp.state["stage"]["turn"] == 2
    report = (camp.history(1) / "battles-battles.md").read_text()
    assert f"Battle 1: massacre die {first_die[0]}" in report                 # replayed, not re-rolled
    assert "Follow-up contest at T25 (Northmarch): B-2 takes it (battle)" in report
    assert "**Battle 2** at T25 (Northmarch): Blue wins (players)" in report
    assert "- B-2: T25 (Northmarch) (entered)" in report and "- R-1: T26" in report
