"""A campaign with nothing to do is passed over after one small file is read (pbem/tick/idle.py),
and woken by anything that could give it work: mail, its deadline, its reminder, a changed file."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from pbem.stages.record import StageRecord
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick
from tests.support.engine_helpers import T0, body, dr_campaign, outbox, put, run

REPO = Path(__file__).resolve().parents[2]
HOUR = T0 + timedelta(hours=1)


def idle_campaign(tmp_path: Path) -> Campaign:
    """Turn 1's orders open, nobody has written: after one tick there is nothing to do."""
    camp = run(dr_campaign(tmp_path))
    assert (camp.folder / ".idle.json").exists()
    return camp


def modules_loaded_by_a_tick(root: Path, when: str) -> list[str]:
    code = ("import sys; from datetime import datetime; from pathlib import Path; "
            "from pbem.tick.engine import tick; "
            f"log = tick(Path({str(root)!r}), datetime.fromisoformat({when!r})); "
            "print(log.lines); print(sorted(m for m in sys.modules "
            "if m.startswith(('pbem.rulesets', 'pbem.tick.campaign', 'jinja2', 'markdown'))))")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    return out.stdout.splitlines()


def test_an_idle_campaign_is_passed_over_without_loading_a_rule_system_or_templates(tmp_path: Path) -> None:
    camp = idle_campaign(tmp_path)
    state = (camp.folder / "state.toml").read_bytes()
    assert modules_loaded_by_a_tick(camp.folder.parent, (HOUR + timedelta(hours=2)).isoformat()) == ["[]", "[]"]
    assert (camp.folder / "state.toml").read_bytes() == state


def test_new_mail_wakes_an_idle_campaign(tmp_path: Path) -> None:
    camp = idle_campaign(tmp_path)
    put(camp, "orders", "PLAYER red RRRR-TEST-0000-0000-0001\nR-1 H\n")
    run(camp, HOUR + timedelta(hours=1))
    acks = [m for m in outbox(camp, "alice@test.localhost") if "R-1" in body(m)]
    assert acks and "R-1" in Campaign(camp.folder).state["submissions"]["red"]["payload"].__repr__()


def test_the_deadline_wakes_an_idle_campaign_and_the_stage_resolves(tmp_path: Path) -> None:
    camp = idle_campaign(tmp_path)
    due = StageRecord.read(camp.state).due
    assert due is not None
    assert StageRecord.read(run(camp, due - timedelta(minutes=1)).state).turn == 1
    assert StageRecord.read(run(camp, due + timedelta(minutes=1)).state).due != due


def test_the_reminder_time_wakes_an_idle_campaign(tmp_path: Path) -> None:
    camp = idle_campaign(tmp_path)
    due = StageRecord.read(camp.state).due
    assert due is not None
    run(camp, due - camp.settings.schedule.reminder + timedelta(minutes=1))
    assert any("reminder" in str(m["Subject"]) for m in outbox(camp, "alice@test.localhost"))


def test_a_changed_settings_file_wakes_an_idle_campaign(tmp_path: Path) -> None:
    camp = idle_campaign(tmp_path)
    (camp.folder / "campaign.toml").write_text("this is not TOML = = =\n", encoding="utf-8")
    log = tick(camp.folder.parent, HOUR + timedelta(hours=1))
    assert any("NOT PROCESSED" in line for line in log.lines)


def test_a_campaign_with_a_forum_thread_is_never_passed_over(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path, transport={"forum": {"kind": "folder", "path": "forum"}})
    run(camp)
    assert not (camp.folder / ".idle.json").exists()
