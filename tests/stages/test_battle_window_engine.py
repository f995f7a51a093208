"""The battle window through the engine and the command line: briefings to both sides, RESULT from
both players, differing reports to the GM, the GM's word by `pbem result`, and the deadline; plus
`pbem new`, `pbem orders` and `pbem resolve` on a Daemon Rift campaign."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick
from tests.support.engine_helpers import SECRETS, T0, body, dr_campaign, outbox, put, run

RED = f"PLAYER red {SECRETS['red']}\n"
BLUE = f"PLAYER blue {SECRETS['blue']}\n"
BOB = "Bob <bob@test.localhost>"


@pytest.fixture
def battle(tmp_path: Path) -> Campaign:
    """R-1 (T25) and B-1 (T27) both move into T26 (Frostfen, swamp): battle 1."""
    camp = dr_campaign(tmp_path, {"R-1": "T25", "B-1": "T27"})
    put(camp, "o1", RED + "R-1 M T26\n")
    put(camp, "o2", BLUE + "B-1 M T26\n", sender=BOB)
    return run(camp)


@pytest.mark.clause("DR-TRN-4")
def test_briefing_goes_to_both_sides_with_place_terrain_and_list_sizes(battle: Campaign) -> None:
    assert battle.state["game"]["dr"]["phase"] == "battles"
    for who in ("alice", "bob", "gm@"):
        [brief] = [m for m in outbox(battle, who) if "battle 1 briefing" in str(m["Subject"])]
        text = body(brief)
        assert "T26 (Frostfen), swamp" in text and "2250 points" in text
        assert "## Terrain" in text and "RESULT 1" in text


def test_matching_results_are_accepted_and_the_turn_goes_on(battle: Campaign) -> None:
    put(battle, "r1", RED + "RESULT 1 Red\n")
    put(battle, "r2", BLUE + "RESULT 1 red\n", sender=BOB)
    camp = run(battle)
    assert camp.state["stage"]["turn"] == 2
    assert "Red wins (players)" in (camp.history(1) / "battles-battles.md").read_text()


def test_differing_results_go_to_the_gm_who_settles_them_on_the_command_line(battle: Campaign) -> None:
    put(battle, "r1", RED + "RESULT 1 Red\n")
    put(battle, "r2", BLUE + "RESULT 1 Blue massacred\n", sender=BOB)
    camp = run(battle)
    assert camp.state["game"]["dr"]["phase"] == "battles"
    alert = [m for m in outbox(camp, "gm@") if "attention" in str(m["Subject"])]
    assert any("the two reports differ" in body(m) for m in alert)
    assert main(["result", str(camp.folder), "1", "Blue"]) == 0
    camp = run(camp)
    assert camp.state["stage"]["turn"] == 2
    assert "Blue wins (gm)" in (camp.history(1) / "battles-battles.md").read_text()


def test_at_the_deadline_a_single_report_stands_and_none_leaves_it_to_the_gm(tmp_path: Path, battle: Campaign) -> None:
    put(battle, "r1", RED + "RESULT 1 Red\n")
    camp = run(battle, T0 + timedelta(days=30))
    assert "Red wins (single-report)" in (camp.history(1) / "battles-battles.md").read_text()
    other = dr_campaign(tmp_path / "other", {"R-1": "T25", "B-1": "T27"})
    put(other, "o1", RED + "R-1 M T26\n")
    put(other, "o2", BLUE + "B-1 M T26\n", sender=BOB)
    other = run(run(other), T0 + timedelta(days=30))
    assert other.state["game"]["dr"]["phase"] == "battles"
    assert any("no result reported by the deadline" in body(m) for m in outbox(other, "gm@"))


def test_pbem_orders_and_resolve_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    camp = dr_campaign(tmp_path)
    put(camp, "o1", RED + "R-1 M T25\n")
    camp = run(camp)
    assert main(["orders", str(camp.folder), "red"]) == 0
    assert "R-1 M T25" in capsys.readouterr().out
    assert main(["resolve", str(camp.folder)]) == 0
    camp = run(camp)
    assert camp.state["stage"]["turn"] == 2                          # resolved before the deadline
    assert (camp.history(1) / "orders-movement.md").exists()


def test_pbem_new_writes_the_campaign_and_welcome_mails_with_the_order_syntax(tmp_path: Path) -> None:
    root = tmp_path / "campaigns"
    assert main(["new", "rift-2027", "--root", str(root), "--gm-email", "gm@test.localhost",
                 "--player", "red,Alice,alice@test.localhost,Red,R",
                 "--player", "blue,Bob,bob@test.localhost,Blue,B"]) == 0
    camp = Campaign(root / "rift-2027")
    assert camp.settings.ruleset == "daemon_rift" and camp.settings.player("red") is not None
    assert all(p.secret.startswith("sha256:") for p in camp.settings.players)
    tick(root, T0)                              # the welcome mails are rendered and sent by the tick
    sent = sorted((camp.folder / "outbox" / "maildir" / "new").glob("*"))
    texts = [q.read_text(errors="replace") for q in sent]
    assert len(texts) == 3 and all("Your secret" in t for t in texts)
    assert any("PLAYER red" in t and "M T" in t for t in texts)


def test_a_battle_next_turn_with_the_same_number_waits_for_its_own_results(battle: Campaign) -> None:
    """Battle results belong to their turn: turn 2's battle 1 is not settled by turn 1's."""
    put(battle, "r1", RED + "RESULT 1 Red\n")
    put(battle, "r2", BLUE + "RESULT 1 red\n", sender=BOB)
    camp = run(battle)
    put(camp, "t2", BLUE + "B-1 M T26\n", sender=BOB, mid="t2@test.localhost")
    put(camp, "t2r", RED + "R-1 H\n", mid="t2r@test.localhost")
    camp = run(camp, T0 + timedelta(hours=2))
    assert camp.state["stage"]["turn"] == 2 and camp.state["game"]["dr"]["phase"] == "battles"
    assert camp.state["game"]["accepted_results"] == {}
    assert not (camp.history(2) / "battles-battles.md").exists()


def test_a_turn_without_a_battle_sends_no_battle_report(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path, {"R-1": "T25", "B-1": "T27"})
    put(camp, "o1", RED + "R-1 H\n")
    put(camp, "o2", BLUE + "B-1 H\n", sender=BOB)
    camp = run(camp)
    assert camp.state["stage"]["turn"] == 2
    subjects = [str(m["Subject"]) for m in outbox(camp)]
    assert "[rift] Turn 1: end of turn" in subjects and not any(s.endswith(": battles") for s in subjects)
    assert not list(camp.history(1).glob("*battles*.md"))
