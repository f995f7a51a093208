"""The defects the season simulation found outside the rule systems (tests/season/known_defects.py),
each shown on its own through the same harness. While a defect's key is listed, its test is a
strict xfail; once the defect is fixed the test passes, the strict xfail fails the suite, and the
entry (and with it the simulation's step around it) must go."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from pbem.cli import main as pbem_main
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
    world.send_gm(["FINISH"])                              # a bare END line closes a mail's orders
    world.tick(HOUR)
    assert world.stage().over


def play_spring_1901(world: Season, check: bool = True) -> None:
    for pid in world.seats:
        world.send(pid, [f"{unit.kind} {unit.loc} H" for unit in spring_units(world, pid)])
    world.tick(HOUR, check)


def spring_units(world: Season, pid: str) -> list[Any]:
    from pbem.rulesets.diplomacy.ruleset import RULESET

    state = RULESET.view(world.context()).state
    player = world.camp.settings.player(pid)
    assert player is not None
    return state.position.units_of(state.power_of(player))


def roll_back(world: Season) -> None:
    assert pbem_main(["rollback", "season", "--root", str(world.root / "campaigns"),
                      "--now", world.now.isoformat()]) == 0
    world.rolled_back = True
    world.forget()


@while_known("rollback-keeps-old-deadline")
def test_rollback_gives_the_players_time_to_resend(season_root: Path) -> None:
    world = season(season_root, "diplomacy")
    play_spring_1901(world)
    world.send_gm(["EXTEND 5d"])                           # Fall waits while Spring's old deadline passes
    world.tick(timedelta(days=4))
    assert world.stage_meta()["title"] == "Fall 1901 movement"
    roll_back(world)
    world.tick(HOUR, check=False)
    assert world.stage_meta()["title"] == "Spring 1901 movement", "the restored turn resolved at once"


@while_known("rollback-reports-deduplicated")
def test_the_replayed_turn_is_reported_after_a_rollback(season_root: Path) -> None:
    world = season(season_root, "diplomacy")
    play_spring_1901(world)
    roll_back(world)
    play_spring_1901(world, check=False)
    reports = [s for s in world.outbox if s.subject == "[season] Spring 1901 movement results" and "eng@" in s.to]
    assert len(reports) == 2, "the replayed Spring 1901 was not reported"


@while_known("repeat-stage-mail-deduplicated")
def test_the_gm_hears_of_a_list_sent_after_the_lists_deadline(season_root: Path) -> None:
    world = season(season_root, "daemon_rift")
    for pid, faction in (("red", "R"), ("blue", "B"), ("green", "G")):
        world.send(pid, [f"LIST {faction}-1 The {faction} host", f"ARTILLERY {faction}-1 no", f"FAST {faction}-1 no",
                         "U1 infantry 20 Spearmen @6"])
    world.tick(timedelta(days=4), check=False)             # the window closes without Yellow's list
    world.send("yellow", ["LIST Y-1 The late host", "ARTILLERY Y-1 no", "FAST Y-1 no", "U1 infantry 20 Spearmen @6"])
    world.tick(HOUR, check=False)
    alerts = [s for s in world.outbox if s.to == world.gm_email and "attention" in s.subject]
    assert any("Y-1" in s.message.get_body(("plain",)).get_content() for s in alerts), "no alert names Y-1"


@while_known("ack-after-end-invites-orders")
def test_mail_after_the_end_is_not_invited_to_a_deadline(season_root: Path) -> None:
    world = season(season_root, "diplomacy")                  # the ack template is common to every system
    world.send_gm(["DRAW ALL"])
    world.tick(HOUR, check=False)
    assert world.stage().over
    mid = world.send("eng", ["STATUS"])
    world.tick(HOUR, check=False)
    (reply,) = world.replies_to(mid)
    assert "You may send new orders" not in reply.message.get_body(("plain",)).get_content()
