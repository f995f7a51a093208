"""Every registered rule system goes through setup, one default turn with no orders, and its reports.

The same harness runs whatever `registry.available()` lists, so a new rule
system is covered the moment it is registered. Each stage is forced at once
(as `pbem resolve` does) with nobody having sent orders, through the real
engine tick, until the turn counter moves on, the campaign waits for the game
master, or it ends.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pbem import turns
from pbem.campaign import Campaign
from pbem.creation import NewPlayer, create, welcome_replies
from pbem.engine import build_mail, tick
from pbem.outqueue import enqueue
from pbem.rulesets import registry

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
PLAYERS = [NewPlayer(p, p.title(), f"{p}@conformance.localhost", colour, colour[0])
           for p, colour in (("anna", "Red"), ("ben", "Blue"), ("cara", "Green"), ("dan", "Yellow"))]
MAX_STAGES = 12


@pytest.mark.parametrize("name", sorted(registry.available()))
def test_ruleset_runs_setup_a_default_turn_and_renders_reports(name: str, tmp_path: Path) -> None:
    ruleset = registry.get(name)
    transport = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    camp, secrets = create(tmp_path / "campaigns", "conf", name, "", PLAYERS, "gm@conformance.localhost", T0,
                     transport=transport)
    start = ruleset.stage(turns.context(camp, T0))
    now = T0
    resolved = []
    stuck = False
    for reply in welcome_replies(camp, secrets, T0):
        enqueue(camp.folder, build_mail(camp, ruleset, reply, T0))
    for _ in range(MAX_STAGES):
        camp = Campaign(camp.folder)
        stage = ruleset.stage(turns.context(camp, now))
        if stage.turn > start.turn or stage.over or stage.waiting_for_gm:
            break
        camp.state["stage"]["force"] = True
        camp.save()
        now += timedelta(minutes=10)
        log = tick(tmp_path / "campaigns", now)
        assert not any("NOT PROCESSED" in line for line in log.lines), log.lines
        resolved += [line for line in log.lines if ": resolved " in line]
        after = ruleset.stage(turns.context(Campaign(camp.folder), now))
        if (after.kind, after.turn) == (stage.kind, stage.turn):
            stuck = True   # defaults cannot move this stage on (e.g. army lists the GM must approve)
            break
    assert resolved, f"{name}: no stage was resolved"
    reports = [p for p in (camp.folder / "history").rglob("*.md")]
    assert reports or stuck, f"{name} rendered no report"
    assert all(p.read_text().strip() for p in reports)
    sent = list((tmp_path / "outbox" / "new").glob("*"))
    assert sent, f"{name} sent no mail"
