"""Whenever the stage changes, the stage record, its deadline and the mail telling the owing
players what to send next follow: an extension (by mail or `pbem extend`) tells the players the
stage waits for the new deadline, and a stage the GM's decision settles opens the next one with
a deadline of its own, announced to every player. (Approval of the last list opening turn 1:
tests/daemon_rift/test_lists_window.py; rollback: tests/stages/test_mail_generations.py.)"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.state.campaign import Campaign
from pbem.state.schedule import parse_time
from tests.support.engine_helpers import SECRETS, T0, body, dr_campaign, outbox, put, run

RED = f"PLAYER red {SECRETS['red']}\n"
BLUE = f"PLAYER blue {SECRETS['blue']}\n"
GM = f"GM {SECRETS['gm']}\n"
BOB = "Bob <bob@test.localhost>"


def extended(camp: Campaign, to: str) -> list[str]:
    return [body(m) for m in outbox(camp, to) if "deadline moved to" in str(m["Subject"])]


def test_an_extension_tells_the_owing_players_the_new_deadline_and_what_to_send(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    put(camp, "o1", RED + "R-1 H\n")
    put(camp, "g1", GM + "EXTEND 2d\n", sender="GM <gm@test.localhost>")
    camp = run(camp)
    deadline = camp.settings.schedule.show(parse_time(camp.state["stage"]["deadline"]))
    [alice], [bob] = extended(camp, "alice@"), extended(camp, "bob@")
    assert f"The deadline is now **{deadline}**" in alice and f"The deadline is now **{deadline}**" in bob
    assert "Turn 1: orders" in bob and "We have nothing from you yet" in bob and "`HELP`" in bob
    assert "Your orders are on file" in alice
    assert not extended(camp, "gm@")


def test_each_extension_is_told_once_and_the_command_line_tells_too(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    put(camp, "g1", GM + "EXTEND 1d\n", sender="GM <gm@test.localhost>")
    camp = run(camp)
    camp = run(camp, T0 + timedelta(hours=2))
    assert len(extended(camp, "bob@")) == 1
    assert main(["extend", str(camp.folder), "1d"]) == 0
    camp = run(camp, T0 + timedelta(hours=3))
    told = extended(camp, "bob@")
    assert len(told) == 2
    deadline = camp.settings.schedule.show(parse_time(camp.state["stage"]["deadline"]))
    assert any(f"**{deadline}**" in text for text in told)


@pytest.fixture
def tie(tmp_path: Path) -> Campaign:
    """R-1, R-2 and B-1 all move into T25 and the GM is to settle the tie (DR-MOV-10)."""
    camp = dr_campaign(tmp_path, {"R-1": "T24", "R-2": "T8", "B-1": "T9"}, {"movement": {"multiway_tie": "gm"}})
    put(camp, "o1", RED + "R-1 M T25\nR-2 M T25\n")
    put(camp, "o2", BLUE + "B-1 M T25\n", sender=BOB)
    return run(camp)


def test_a_decision_opens_the_next_stage_with_its_own_deadline_told_to_every_player(tie: Campaign) -> None:
    decided = T0 + timedelta(days=12)                    # long after the orders deadline
    assert main(["decide", str(tie.folder), "tie-T25", "standoff"]) == 0
    camp = run(tie, decided)
    meta = camp.state["stage"]
    assert meta["title"] == "Turn 2: orders" and "question" not in meta
    deadline = parse_time(meta["deadline"])
    assert deadline - decided >= timedelta(days=2), "turn 2 inherited a deadline from before the decision"
    shown = camp.settings.schedule.show(deadline)
    for player in ("alice@", "bob@"):
        reports = [body(m) for m in outbox(camp, player) if "Turn 1" in str(m["Subject"])]
        assert any(f"Orders for turn 2 are due by **{shown}**" in text for text in reports), player
