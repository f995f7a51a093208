"""`pbem demo` (Daemon Rift) plays the sample mails with fixed, documented dice secrets, so every
run rolls the same dice: the post-battle report's rolls and the turn-3 repair plan are pinned."""

from __future__ import annotations

import argparse
import hashlib
import tomllib
from pathlib import Path

import pytest

from pbem.commands import demo


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("rift") / "demo"
    assert demo.run(argparse.Namespace(dir=root, ruleset="daemon_rift")) == 0
    return root / "campaigns" / "rift-demo"


def test_demo_turn_secrets_are_the_documented_fixed_ones(played: Path) -> None:
    secrets = tomllib.loads((played / "private" / "dice.toml").read_text())["secrets"]
    assert secrets["3"] == hashlib.sha256(b"rift-demo demo dice, turn 3").hexdigest()
    revealed = tomllib.loads((played / "history" / "002" / "dice.toml").read_text())
    assert revealed["secret"] == hashlib.sha256(b"rift-demo demo dice, turn 2").hexdigest()


def test_dr_los_4_dr_exp_2_demo_battle_rolls_are_the_same_on_every_run(played: Path) -> None:
    report = (played / "history" / "002" / "battles-battles.md").read_text()
    for line in ("- R-1 U1 Orc Boyz, unit: 2 → 1 model fewer next battle",
                 "- R-1 C2 Orc Big Boss, character: 4 → death 1: survives, starts the next battle with one wound",
                 "- B-1 U2 Screamers of Tzeentch, unit: 5 → 2 wounds fewer next battle",
                 "- B-1 U3 Blue Horrors, experience: 4+3 → no upgrade"):
        assert line in report


def test_dr_rep_10_demo_turn_3_repair_plan_applies_as_written(played: Path) -> None:
    report = (played / "history" / "003" / "orders-turn.md").read_text()
    assert ("- R-1 holds and repairs: 1 model of U1 Orc Boyz for 6; 1 wound of C2 Orc Big Boss for 60 "
            "(66 of 75 points, 9 unspent and lost).") in report


def test_demo_outbox_holds_acks_briefings_and_turn_reports_a_player_can_read(played: Path) -> None:
    import email
    from email import policy

    folder = played.parent.parent / "outbox" / "new"
    mails = [email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in folder.iterdir()]
    subjects = [str(m["Subject"]) for m in mails]
    acks = [m for m in mails if m["In-Reply-To"] and m["Auto-Submitted"] == "auto-replied"]
    assert len(acks) >= 10
    assert any("battle 1 briefing" in s for s in subjects)
    assert sum("end of turn" in s for s in subjects) >= 2
    for mail in mails:
        text = mail.get_body(preferencelist=("plain",)).get_content()      # type: ignore[union-attr]
        assert "{{" not in text and "Undefined" not in text
        assert mail.get_body(preferencelist=("html",)) is not None
