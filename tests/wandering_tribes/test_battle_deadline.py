"""Window B's deadline through the tick (catalog, Window B; pbem/rulesets/wandering_tribes/deadlines.py):
mode one_on_one closes the battle reports `battle.deadline_days_one_on_one` days after the window
opens, whatever `[schedule] battle` says; mode together closes them at the end of the club session,
the `[schedule] battle` length. The briefing and the acks name the very moment the tick keeps."""

from __future__ import annotations

import email
from datetime import UTC, datetime, timedelta
from email import policy
from pathlib import Path
from typing import Any

import pytest

from pbem.gm.creation import NewPlayer, create
from pbem.kit.dice import SeededDice
from pbem.rulesets.base import Context
from pbem.rulesets.wandering_tribes.ruleset import RULESET
from pbem.stages import turns
from pbem.stages.record import StageRecord
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
PLAYERS = [NewPlayer(p, p.title(), f"{p}@wt.localhost", f"{p.title()}'s Tribe") for p in ("anna", "ben", "cara")]
SCHEDULE = {"timezone": "UTC", "setup": "5d", "orders": "4d", "battle": "5h", "reminder": "1h"}


def _campaign(root: Path, rules: dict[str, Any], schedule: dict[str, str]) -> Campaign:
    """Three tribes deployed, cara resting since round 1: the battle trigger fires as round 1 ends."""
    transport = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    secrets = {p.id: f"SECRET-{p.id.upper():>4}-0000-0001" for p in PLAYERS} | {"gm": "GMGM-TEST-0000-0000-0000"}
    camp, _ = create(root / "campaigns", "wt", "wandering_tribes", "wt_three_tribes", PLAYERS, "gm@wt.localhost",
                     T0, schedule=schedule, transport=transport, rules=rules, fixed_secrets=secrets)
    sent = {"anna": {"nation": "empire", "towns": ["T3"]}, "ben": {"nation": "orcs_goblins", "towns": ["T8"]},
            "cara": {"nation": "dwarfs", "towns": ["T26"]}}
    game = RULESET.load_state(RULESET.resolve(Context(camp.settings, camp.state["game"], T0), sent,
                                              SeededDice(5)).game)
    game.state.players["cara"].resting, game.state.first_rest = True, 1
    game.sequence = [p for p in game.sequence if p != "cara"]
    camp.state["game"] = RULESET.dump_state(game)
    turns.open_stage(camp, RULESET, T0)
    camp.save()
    return camp


def _mails(root: Path, to: str) -> list[str]:
    folder = root / "outbox" / "new"
    out = []
    for path in sorted(folder.glob("*")):
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        if to in str(msg["To"]):
            part = msg.get_body(preferencelist=("plain",))
            out.append(f"Subject: {msg['Subject']}\n" + (part.get_content() if part else ""))
    return out


def _battle_window(root: Path, rules: dict[str, Any],
                   schedule: dict[str, str] = SCHEDULE) -> tuple[Campaign, datetime, datetime]:
    camp = _campaign(root, rules, schedule)
    orders_due = StageRecord.read(camp.state).due
    assert orders_due is not None
    opened = orders_due + timedelta(hours=1)
    tick(root / "campaigns", opened)
    camp = Campaign(camp.folder)
    record = StageRecord.read(camp.state)
    assert record.kind == "battle", record.kind
    assert record.due is not None
    return camp, opened, record.due


def _briefings(root: Path) -> list[str]:
    return [m for p in PLAYERS for m in _mails(root, p.email) if "briefing" in m.split("\n", 1)[0]]


@pytest.mark.clause("WT-PBEM-11")
def test_wt_window_b_one_on_one_reports_are_due_the_set_days_after_the_window_opens(tmp_path: Path) -> None:
    rules = {"campaign": {"mode": "one_on_one"}, "battle": {"deadline_days_one_on_one": 3}}
    camp, opened, due = _battle_window(tmp_path, rules)
    assert due == opened + timedelta(days=3)                 # not the 5 hours of [schedule] battle
    shown = camp.settings.schedule.show(due)
    briefings = _briefings(tmp_path)
    assert briefings and all(f"Report by {shown} (3 days after this briefing)" in b for b in briefings)
    _report(tmp_path, camp, "anna")
    tick(tmp_path / "campaigns", opened + timedelta(days=2, hours=23))
    acks = [m for m in _mails(tmp_path, "anna@") if "battle" in m and "Report" not in m]
    assert any(shown in m for m in acks), acks
    _settled_at(tmp_path, camp, due)


def _report(root: Path, camp: Campaign, pid: str) -> None:
    """A draw reported by `pid` for his first battle (one side: the GM is asked at the deadline)."""
    game = RULESET.load_state(camp.state["game"])
    battle = next(b for b in game.battles if pid in (b.ambusher, *(game.state.stacks[s].owner for s in b.stacks())))
    (root / "inbox").mkdir(exist_ok=True)
    raw = (f"From: {pid.title()} <{pid}@wt.localhost>\nTo: wt@pbem.localhost\nSubject: [wt] battle report\n"
           f"Message-ID: <{pid}-report@wt.localhost>\nDate: Fri, 27 Nov 2026 11:00:00 +0000\nMIME-Version: 1.0\n"
           f"Content-Type: text/plain; charset=\"utf-8\"\n\nPLAYER {pid} SECRET-{pid.upper():>4}-0000-0001\n"
           f"RESULT {battle.id} DRAW\n")
    (root / "inbox" / f"{pid}.eml").write_text(raw.replace("\n", "\r\n"))


def _settled_at(root: Path, camp: Campaign, due: datetime) -> None:
    """Nothing settles before the deadline; at it the tick settles the phase (here it asks the GM
    for the battles nobody reported)."""
    tick(root / "campaigns", due - timedelta(minutes=1))
    assert StageRecord.read(Campaign(camp.folder).state).question.key == ""
    tick(root / "campaigns", due + timedelta(minutes=1))
    assert StageRecord.read(Campaign(camp.folder).state).question.key.startswith("battle.")


@pytest.mark.clause("WT-PBEM-11")
def test_wt_window_b_one_on_one_with_a_deadline_hour_moves_to_it_and_says_so(tmp_path: Path) -> None:
    camp, opened, due = _battle_window(tmp_path, {"campaign": {"mode": "one_on_one"}}, {**SCHEDULE, "at": "20:00"})
    assert opened == datetime(2026, 11, 27, 21, 0, tzinfo=UTC)
    assert due == datetime(2026, 12, 5, 20, 0, tzinfo=UTC)      # 7 days on is 21:00: the next 20:00
    shown = camp.settings.schedule.show(due)
    assert all(f"Report by {shown} (7 days after this briefing, at the campaign's deadline hour 20:00)" in b
               for b in _briefings(tmp_path))


@pytest.mark.clause("WT-PBEM-11")
def test_wt_window_b_together_reports_are_due_at_the_session_end_the_schedule_gives(tmp_path: Path) -> None:
    camp, opened, due = _battle_window(tmp_path, {"campaign": {"mode": "together"}})
    assert due == opened + timedelta(hours=5)
    briefings = _briefings(tmp_path)
    shown = camp.settings.schedule.show(due)
    assert briefings and all(f"Report by the end of this club session, {shown}" in b for b in briefings)
    _settled_at(tmp_path, camp, due)
