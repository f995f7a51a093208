"""Mail keys with a generation: every re-issued report, alert and reminder reaches its readers once
per issue (a turn replayed after `pbem rollback`, a stage resolved again, a deadline extended), and
a tick killed mid-resolution and run again still sends each one once."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.intake.isolation import INJECTED
from pbem.rulesets import registry
from pbem.stages import turns
from pbem.state.campaign import Campaign
from pbem.state.store import watching_writes
from pbem.tick.deliver import deliver_mail
from pbem.tick.engine import tick
from pbem.tick.log import TickLog
from tests.forum.test_forum_engine import bot_posts, campaign
from tests.support.engine_helpers import SECRETS, T0, body, outbox, put, run

RED = f"PLAYER red {SECRETS['red']}\n"
BLUE = f"PLAYER blue {SECRETS['blue']}\n"
GM = f"GM {SECRETS['gm']}\n"
BOB = "Bob <bob@test.localhost>"
TURN_1 = "[rift] Turn 1"


class Killed(BaseException):
    """A kill of the process: tagged so that no boundary of the tick catches it."""


setattr(Killed, INJECTED, True)


@pytest.fixture
def camp(tmp_path: Path) -> Campaign:
    """Red and Blue, with a folder forum, turn 1 orders open (and so the start of turn 1 a
    rollback restores: the helper sets the orders up after creation took its snapshot)."""
    camp = campaign(tmp_path, {"R-1": "T24", "B-1": "T27"})
    turns.snapshot_start(camp, 1)
    return camp


def play_turn_1(camp: Campaign, red: str, now: datetime, tag: str) -> Campaign:
    put(camp, f"red-{tag}", RED + red, mid=f"red-{tag}@test.localhost")
    put(camp, f"blue-{tag}", BLUE + "B-1 H\n", sender=BOB, mid=f"blue-{tag}@test.localhost")
    return run(camp, now)


def turn_reports(camp: Campaign, to: str) -> list[str]:
    return [body(m) for m in outbox(camp, to) if str(m["Subject"]).startswith(TURN_1) and m["In-Reply-To"] is None]


def roll_back(camp: Campaign, now: datetime) -> Campaign:
    assert main(["rollback", str(camp.folder), "--now", now.isoformat()]) == 0
    return Campaign(camp.folder)


def test_the_replayed_turn_after_a_rollback_is_mailed_and_posted_once(camp: Campaign) -> None:
    camp = play_turn_1(camp, "R-1 H\n", T0 + timedelta(hours=1), "first")
    assert camp.state["stage"]["turn"] == 2
    first = turn_reports(camp, "alice")
    posted = len(bot_posts(camp))
    camp = roll_back(camp, T0 + timedelta(hours=2))
    camp = play_turn_1(camp, "R-1 M T25\n", T0 + timedelta(hours=3), "again")
    camp = run(camp, T0 + timedelta(hours=4))                     # a later tick sends nothing twice
    again = turn_reports(camp, "alice")[len(first):]
    assert len(again) == len(first) >= 1, "the corrected turn report was not mailed, or mailed twice"
    assert any("T25" in text for text in again)
    replayed = [h["key"] for h, _ in bot_posts(camp)][posted:]
    public = [k for k in replayed if not k.startswith("rollback/")]
    assert len(public) == len(set(public)) == posted, "the corrected report was not posted once"


def test_rollback_gives_the_restored_stage_a_fresh_deadline_and_tells_every_player(camp: Campaign) -> None:
    camp = play_turn_1(camp, "R-1 H\n", T0 + timedelta(hours=1), "first")
    later = T0 + timedelta(days=9)                               # turn 1's own deadline is long past
    camp = roll_back(camp, later)
    stage = registry.get("daemon_rift").stage(turns.context(camp, later))
    assert camp.state["stage"]["turn"] == 1
    assert turns.parse_time(camp.state["stage"]["deadline"]) == camp.settings.schedule.deadline(later, stage.window)
    camp = run(camp, later + timedelta(hours=1))
    assert camp.state["stage"]["turn"] == 1, "the restored turn resolved at once"
    for who in ("alice", "bob"):
        [notice] = [m for m in outbox(camp, who) if "rolled back" in str(m["Subject"])]
        text = body(notice)
        assert "What was undone" in text and "Turn 1" in text and "again by" in text
        assert camp.settings.schedule.show(turns.parse_time(camp.state["stage"]["deadline"])) in text
        assert turns.commitment(camp, 1) in text               # a new secret: the old one was revealed
        assert "{{" not in text and "None" not in text
    assert any(h["key"].startswith("rollback/") and "What happens next" in text for h, text in bot_posts(camp))


def test_the_replayed_turn_draws_new_dice_after_a_rollback(camp: Campaign) -> None:
    before = turns.commitment(camp, 1)
    camp = play_turn_1(camp, "R-1 H\n", T0 + timedelta(hours=1), "first")
    camp = roll_back(camp, T0 + timedelta(hours=2))
    assert turns.commitment(camp, 1) != before


def test_a_second_rollback_tells_the_players_again(camp: Campaign) -> None:
    camp = play_turn_1(camp, "R-1 H\n", T0 + timedelta(hours=1), "first")
    camp = roll_back(camp, T0 + timedelta(hours=2))
    camp = play_turn_1(camp, "R-1 H\n", T0 + timedelta(hours=3), "second")
    camp = roll_back(camp, T0 + timedelta(hours=4))
    camp = run(camp, T0 + timedelta(hours=5))
    assert len([m for m in outbox(camp, "alice") if "rolled back" in str(m["Subject"])]) == 2


def test_a_tick_killed_mid_resolution_and_run_again_mails_each_report_once(camp: Campaign) -> None:
    put(camp, "m1", RED + "R-1 M T25\n")
    put(camp, "m2", BLUE + "B-1 H\n", sender=BOB)

    def kill_before_the_state_is_saved(path: Path) -> None:
        if path.name == "start.toml" and path.parent.name == "002":    # reports queued, state not saved
            raise Killed

    with watching_writes(kill_before_the_state_is_saved), pytest.raises(Killed):
        tick(camp.folder.parent, T0 + timedelta(hours=1))
    assert Campaign(camp.folder).state["stage"]["turn"] == 1
    deliver_mail(Campaign(camp.folder), TickLog())               # what was queued went out before the kill
    sent = len(turn_reports(camp, "alice"))
    assert sent >= 1
    camp = run(camp, T0 + timedelta(hours=2))                    # the resolution runs again
    assert camp.state["stage"]["turn"] == 2
    assert len(turn_reports(camp, "alice")) == sent, "a report was mailed twice"
    keys = [h["key"] for h, _ in bot_posts(camp)]
    assert len(keys) == len(set(keys)) == 2



def test_a_second_question_to_the_gm_in_one_turn_is_mailed(camp: Campaign) -> None:
    from pbem.delivery.mails import alert_gm
    from pbem.delivery.replies import Outcome
    from pbem.stages.turns import stage_key

    ruleset = registry.get("daemon_rift")
    stage = ruleset.stage(turns.context(camp, T0))
    for _ in range(2):                          # the stage opens again in the same turn, as after a rollback
        turns.open_stage(camp, ruleset, T0)
        alert_gm(camp, ruleset, Outcome(gm_alerts=["List Y-1 waits for approval."]), T0,
                 key=f"{stage_key(stage, turns.stage_generation(camp))}/alert")
    camp.save()
    camp = run(camp, T0 + timedelta(minutes=5))
    assert len([m for m in outbox(camp, "gm@") if "attention" in str(m["Subject"])]) == 2


def test_an_extended_deadline_earns_a_second_reminder(camp: Campaign) -> None:
    deadline = turns.parse_time(camp.state["stage"]["deadline"])
    camp = run(camp, deadline - timedelta(hours=2))
    put(camp, "ext", GM + "EXTEND 2d\n", sender="GM <gm@test.localhost>", mid="ext@test.localhost")
    camp = run(camp, deadline - timedelta(hours=1))
    later = turns.parse_time(camp.state["stage"]["deadline"])
    assert later > deadline
    camp = run(camp, later - timedelta(hours=2))
    reminders = [m for m in outbox(camp, "alice") if "reminder" in str(m["Subject"])]
    assert len(reminders) == 2 and camp.settings.schedule.show(later) in str(reminders[1]["Subject"])
    camp = run(camp, later - timedelta(hours=1))
    assert len([m for m in outbox(camp, "alice") if "reminder" in str(m["Subject"])]) == 2
