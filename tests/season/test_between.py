"""Absence, press and the deadline calendar in every rule system, through whole ticks: an absent
player's stage is played without counting him as missed, a press to all reaches every other
player once, and the mail opening a stage carries its deadline as a calendar event."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from icalendar import Calendar

from pbem.state.schedule import parse_time
from tests.season.agents import AGENTS
from tests.season.harness import Season

HOUR = timedelta(hours=1)
SYSTEMS = sorted(AGENTS)


def season(root: Path, system: str) -> Season:
    world = Season(root, system, 7, AGENTS[system](quick=True).setup)
    world.tick(HOUR)
    return world


@pytest.mark.parametrize("system", SYSTEMS)
def test_an_absent_player_is_not_counted_as_missed_in_every_rule_system(season_root: Path, system: str) -> None:
    world = season(season_root, system)
    owing = world.stage().owing
    assert owing, f"{system}: the first stage owes nothing"
    pid = owing[0]
    zone = world.camp.settings.schedule.zone
    first = world.now.astimezone(zone).date()
    deadline = parse_time(world.stage_meta()["deadline"])
    last = deadline.astimezone(zone).date()
    world.send(pid, [f"ABSENT {first.isoformat()} {last.isoformat()}"])
    world.tick(HOUR)
    assert len(world.camp.state["absences"][pid]) == 1
    world.tick(deadline - world.now + HOUR, check=False)
    record = world.camp.state["reliability"][pid]
    assert record.get("absent") == 1 and "missed" not in record, f"{system}: {record}"


@pytest.mark.parametrize("system", SYSTEMS)
def test_press_to_all_reaches_every_other_player_once_in_every_rule_system(season_root: Path,
                                                                            system: str) -> None:
    world = season(season_root, system)
    pid = next(iter(world.seats))
    world.send(pid, ["PRESS TO ALL", "Greetings from the front.", "END PRESS"])
    world.tick(HOUR, check=False)
    world.tick(HOUR, check=False)
    press = [s for s in world.outbox if "press from" in s.subject]
    assert sorted(s.to for s in press) == sorted(seat.email for p, seat in world.seats.items() if p != pid)


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_feed_holds_the_deadline_of_each_stage_opened_in_every_rule_system(season_root: Path,
                                                                                system: str) -> None:
    world = season(season_root, system)
    for _ in range(3):
        deadline = parse_time(world.stage_meta()["deadline"])
        world.tick(deadline - world.now + HOUR, check=False)
    path = world.camp.folder / "history" / "season.ics"
    assert path.exists(), f"{system}: no feed after three deadlines"
    events = Calendar.from_ical(path.read_bytes()).walk("VEVENT")
    assert events and all(str(ev["uid"]).startswith("season.turn-") for ev in events)
