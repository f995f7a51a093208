"""The defects the season simulation found outside the rule systems (tests/season/known_defects.py),
each shown on its own through the same harness. While a defect's key is listed, its test is a
strict xfail; once the defect is fixed the test passes, the strict xfail fails the suite, and the
entry (and with it the simulation's step around it) must go."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tests.season.agents import AGENTS
from tests.season.harness import Season
from tests.season.known_defects import KNOWN_DEFECTS, known

HOUR = timedelta(hours=1)


def while_known(key: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(known(key), reason=KNOWN_DEFECTS.get(key, ""), strict=True, raises=AssertionError)


def season(root: Path, system: str) -> Season:
    world = Season(root, system, 7, AGENTS[system](quick=True).setup)
    world.tick(HOUR)
    return world


@while_known("gm-typo-raises")
@pytest.mark.parametrize("system, line", [("daemon_rift", "RESULT 7 Red"), ("daemon_rift", "APPROVE R1X"),
                                          ("diplomacy", "DRAW Turey France"), ("conquest", "CAPITAL Anan T1")])
def test_gm_typo_is_answered_with_one_line(season_root: Path, system: str, line: str) -> None:
    world = season(season_root, system)
    mid = world.send_gm([line])
    world.tick(HOUR)
    (reply,) = world.replies_to(mid)
    assert "not done" in reply.message.get_body(("plain",)).get_content()


@while_known("reminders-while-paused")
def test_no_reminder_goes_out_while_paused(season_root: Path) -> None:
    world = season(season_root, "diplomacy")
    world.send_gm(["PAUSE"])
    world.tick(HOUR)
    world.tick(timedelta(days=2, hours=12))                # inside the 24h reminder window of the 3d deadline
    assert [s.subject for s in world.outbox if "reminder" in s.subject] == []


@while_known("resume-after-deadline-resolves")
def test_resume_gives_back_the_time_that_was_left(season_root: Path) -> None:
    world = season(season_root, "diplomacy")
    before = world.stage_meta()
    world.send_gm(["PAUSE"])
    world.tick(HOUR)
    world.tick(timedelta(days=5))                          # the paused deadline has long passed
    world.send_gm(["RESUME"])
    world.tick(HOUR)
    assert world.stage_meta()["opened"] == before["opened"], "the stage resolved at once on RESUME"


@while_known("conquest-no-end")
def test_gm_ends_a_conquest_campaign_with_a_final_report(season_root: Path) -> None:
    world = season(season_root, "conquest")
    world.send_gm(["END"])
    world.tick(HOUR)
    assert world.stage().over
