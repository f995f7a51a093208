"""DR-SET-5 through the tick: turn 1's orders window opens with its own deadline when the last
list 1 is approved, however late the GM approves (found by the season simulation, tests/season)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from pbem.state.schedule import parse_time
from tests.season.agents import DaemonRift
from tests.season.harness import Season, body


def test_a_late_approval_opens_turn_1_with_a_full_orders_window(tmp_path: Path) -> None:
    world = Season(tmp_path, "daemon_rift", 1, DaemonRift(quick=True).setup)
    for pid, faction in (("red", "R"), ("blue", "B"), ("green", "G"), ("yellow", "Y")):
        world.send(pid, [f"LIST {faction}-1 The {faction} host", f"ARTILLERY {faction}-1 no", f"FAST {faction}-1 no",
                         "U1 infantry 20 Spearmen @6"])
    world.tick(timedelta(hours=1))
    world.tick(timedelta(days=5))                         # the lists deadline passes, the GM has not approved
    world.send_gm(["APPROVE ALL"])
    world.tick(timedelta(hours=1))
    meta = world.stage_meta()
    assert meta["title"] == "Turn 1: orders"
    assert parse_time(meta["deadline"]) - world.now >= timedelta(days=2), "turn 1 kept the lists deadline"
    assert not any("orders" in line for log in world.tick_logs for line in log.lines if "resolved" in line)


def test_every_player_is_told_that_turn_1_is_open_and_when_its_orders_are_due(tmp_path: Path) -> None:
    world = Season(tmp_path, "daemon_rift", 1, DaemonRift(quick=True).setup)
    for pid, faction in (("red", "R"), ("blue", "B"), ("green", "G"), ("yellow", "Y")):
        world.send(pid, [f"LIST {faction}-1 The {faction} host", f"ARTILLERY {faction}-1 no", f"FAST {faction}-1 no",
                         "U1 infantry 20 Spearmen @6"])
    world.tick(timedelta(hours=1))
    world.send_gm(["APPROVE ALL"])
    world.tick(timedelta(hours=1))
    opened = [s for s in world.outbox if s.subject == "[season] Turn 1: orders are open"]
    deadline = world.camp.settings.schedule.show(parse_time(world.stage_meta()["deadline"]))
    assert sorted(s.to for s in opened) == sorted([*(f"{p}@players.localhost" for p in world.seats), world.gm_email])
    assert all(deadline in body(s.message) and "Turn 1: orders" in body(s.message) for s in opened)
