"""PAUSE stops the clock and RESUME gives the players the time that was left; FINISH (by mail)
and `pbem end` (on the command line) end a campaign of any rule system with a final report;
Conquest's optional `victory.round_cap` ends a campaign that would not end by itself."""

from __future__ import annotations

import contextlib
import io
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from pbem.cli import main as pbem_main
from pbem.rulesets.base import ENDED, Context, Parsed, Ruleset, Stage
from pbem.state.campaign import Player
from pbem.state.schedule import parse_time
from tests.season.agents import AGENTS
from tests.season.harness import Season, body

HOUR = timedelta(hours=1)
SYSTEMS = sorted(AGENTS)


def season(root: Path, system: str, rules: dict[str, object] | None = None) -> Season:
    setup = AGENTS[system](quick=True).setup
    world = Season(root, system, 7, replace(setup, rules=setup.rules | (rules or {})) if rules else setup)
    world.tick(HOUR)
    return world


def gm_lines(world: Season, lines: list[str]) -> str:
    mid = world.send_gm(lines)
    world.tick(HOUR)
    (reply,) = world.replies_to(mid)
    return body(reply.message)


# -- pause -----------------------------------------------------------------------------------------

def test_resume_moves_the_deadline_by_the_time_paused_and_tells_the_players(season_root: Path) -> None:
    world = season(season_root, "diplomacy")
    deadline = parse_time(world.stage_meta()["deadline"])
    gm_lines(world, ["PAUSE"])
    paused_at = world.now
    world.tick(timedelta(days=5))
    assert world.stage_meta()["paused"] and world.stage_meta()["deadline"] == world.camp.state["stage"]["deadline"]
    text = gm_lines(world, ["RESUME"])
    resumed_at = world.now - HOUR                     # the GM's mail is read in the tick an hour later
    moved = parse_time(world.stage_meta()["deadline"])
    assert moved - deadline == world.now - paused_at, "the deadline moved by something else than the pause"
    assert resumed_at < moved and "deadline moved to" in text
    shown = world.camp.settings.schedule.show(moved)
    told = [s for s in world.outbox if "resumed" in s.subject]
    assert sorted(s.to for s in told) == sorted(seat.email for seat in world.seats.values())
    assert all(shown in body(s.message) for s in told)


def test_a_second_pause_and_a_resume_without_pause_are_refused_in_one_line(season_root: Path) -> None:
    world = season(season_root, "conquest")
    assert "not done: the campaign is not paused" in gm_lines(world, ["RESUME"])
    gm_lines(world, ["PAUSE"])
    assert "not done: the campaign is already paused" in gm_lines(world, ["PAUSE"])


def test_no_stage_resolves_while_paused_though_its_deadline_passes(season_root: Path) -> None:
    world = season(season_root, "daemon_rift")
    before = world.stage_meta()
    gm_lines(world, ["PAUSE"])
    world.tick(timedelta(days=2, hours=12))            # inside the reminder window of the 3d lists deadline
    world.tick(timedelta(days=10), check=False)
    assert world.stage_meta()["opened"] == before["opened"]
    assert not [s for s in world.outbox if "reminder" in s.subject]


# -- the end ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("system", SYSTEMS)
def test_finish_ends_the_campaign_with_a_final_report_in_every_rule_system(season_root: Path, system: str) -> None:
    world = season(season_root, system)
    text = gm_lines(world, ["FINISH the season ran out of summer"])
    assert "the campaign is over" in text and world.stage().over
    final = [s for s in world.outbox if "Final report" in s.subject]
    people = sorted([seat.email for seat in world.seats.values()] + [world.gm_email])
    assert sorted(s.to for s in final) == people and not any(s.in_reply_to for s in final)
    report = body(final[0].message)
    assert "the season ran out of summer" in report and "No more orders are read" in report
    assert "## Standings" in report, "the rule system tells no standings"
    assert "not done: the campaign is already over" in gm_lines(world, ["FINISH"])


@pytest.mark.parametrize("system", SYSTEMS)
def test_mail_after_the_end_is_told_the_campaign_is_over(season_root: Path, system: str) -> None:
    world = season(season_root, system)
    gm_lines(world, ["FINISH"])
    pid = sorted(world.seats)[0]
    mid = world.send(pid, ["STATUS"])
    world.tick(HOUR)
    (reply,) = world.replies_to(mid)
    text = body(reply.message)
    assert "The campaign is over" in text and "Deadline" not in text and "You may send new orders" not in text


def test_pbem_end_on_the_command_line(season_root: Path) -> None:
    world = season(season_root, "daemon_rift")
    args = ["end", "season", "--root", str(world.root / "campaigns"), "--reason", "stalled"]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert pbem_main(args) == 1                   # no terminal to ask on, and no --yes
        assert not world.stage().over
        args.append("--yes")
        assert pbem_main(args) == 0
        assert pbem_main(args) == 1
    assert err.getvalue() == "pbem: pbem end asks before ending season; add --yes to end it without asking\n"
    assert out.getvalue().splitlines() == ["the campaign is over; the final report goes to every player and the GM",
                                           "not done: the campaign is already over"]
    world.forget()
    world.tick(HOUR)                                  # the final report goes out with the next tick
    assert world.stage().over and len([s for s in world.outbox if "Final report" in s.subject]) == 5


def test_status_of_an_ended_campaign_says_it_is_over_and_a_rollback_returns_to_just_before_the_end(
        season_root: Path) -> None:
    world = season(season_root, "daemon_rift")
    root = str(world.root / "campaigns")
    before = world.stage()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert pbem_main(["end", "season", "--root", root, "--yes"]) == 0
        assert pbem_main(["status", "--root", root]) == 0
    assert "season: the campaign is over" in out.getvalue() and " waiting\n" not in out.getvalue()
    with contextlib.redirect_stdout(io.StringIO()) as said:
        assert pbem_main(["rollback", "season", "--root", root]) == 0
    assert f"back at the start of turn {before.turn} ({before.title})" in said.getvalue()
    now = world.stage()
    assert not now.over and (now.kind, now.turn) == (before.kind, before.turn)


class Endless(Ruleset):
    """A rule system that knows nothing of FINISH: the base class makes its stage honour it."""

    def stage(self, ctx: Context) -> Stage:
        return Stage("orders", "Orders", 3, ("a",), "orders")

    def parse(self, ctx: Context, player: Player, lines: object) -> Parsed:
        return Parsed(payload={})


def test_every_rule_system_honours_the_end_by_construction() -> None:
    ctx = Context(settings=None, game={}, now=None)  # type: ignore[arg-type]
    assert not Endless().stage(ctx).over
    ended = Context(settings=None, game={ENDED: {"turn": 3, "reason": ""}}, now=None)  # type: ignore[arg-type]
    stage = Endless().stage(ended)
    assert stage.over and stage.owing == () and stage.turn == 3


# -- Conquest's round cap --------------------------------------------------------------------------

def capped(root: Path) -> Season:
    """A Conquest campaign whose round cap ends it after round 1 (no empire reaches the target)."""
    return season(root, "conquest", {"victory": {"target_size": 99, "round_cap": 1}})


def play_to_the_end(world: Season) -> None:
    """Every owed order and GM ruling sent, a day a tick, until the rules end the campaign."""
    agent = AGENTS["conquest"](quick=True)
    while not world.stage().over:
        assert world.ticks < 60, f"{world.where()}: the round cap did not end the campaign"
        for pid in world.stage().owing:
            world.send(pid, agent.orders(world, pid, world.stage()))
        for task in world.ruleset.gm_pending(world.context()):
            world.send_gm([agent.ruling(world, task)])
        world.tick(timedelta(days=1))


def test_conquest_round_cap_ends_the_campaign_after_that_round(season_root: Path) -> None:
    world = capped(season_root)
    play_to_the_end(world)
    assert world.stage().turn == 1
    final = [s for s in world.outbox if "The campaign is over" in s.subject]
    text = body(final[0].message)
    assert "round_cap" in text and "\\" not in text and ("share the lead" in text or "has won the campaign" in text)
    assert "Next:" not in text and "Commitment for turn" not in text


def test_round_cap_zero_means_no_cap() -> None:
    from pbem.rulesets.conquest import rules as rulesmod

    assert rulesmod.load({})["victory.round_cap"] == 0
    with pytest.raises(Exception, match=r"victory\.round_cap"):
        rulesmod.load({"victory": {"round_cap": -1}})


def test_a_campaign_ended_by_its_own_rules_sends_everyone_its_record_with_the_press(season_root: Path) -> None:
    """Conquest's round cap ends the campaign by the rules (no FINISH): the on-time record and the
    press kept go to every player and the GM beside the last report, and into history/press.md."""
    world = capped(season_root)
    world.send(next(iter(world.seats)), ["PRESS TO ALL", "Peace in our time.", "END PRESS"], "press")
    play_to_the_end(world)
    records = [s for s in world.outbox if s.subject.endswith("The record of the campaign")]
    assert sorted(s.to for s in records) == sorted([*(seat.email for seat in world.seats.values()), world.gm_email])
    text = body(records[0].message)
    assert "## On time" in text and "| Player | Answered | Missed |" in text
    assert "## The press" in text and "> Peace in our time." in text
    assert "Peace in our time." in (world.folder / "history" / "press.md").read_text()
