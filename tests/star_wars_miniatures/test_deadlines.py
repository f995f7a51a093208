"""Deadlines the rules fix beyond the schedule, kept by the real tick with pretended time and stated
in every mail: a player silent in window S2 gets his own deadline (SWM-PBM-12, `setup.missing_roster
= "gm"`, `setup.roster_extension_hours`), a battle only one side reported waits out the GM's grace
(SWM-PBM-10, `battle.gm_grace_hours`)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.rulesets.star_wars_miniatures.ruleset import RULESET
from pbem.stages.turns import context
from tests.star_wars_miniatures.engine import Demo, text

S2_DEADLINE = "Sat 28 Nov 2026 20:00 GMT"
OWN_DEADLINE = "Mon 30 Nov 2026 20:00 GMT"          # 48 hours after the S2 deadline


def silent_cara(root: Path) -> Demo:
    """Setup through S1; in S2 anna and ben send their squads, cara nothing; a tick at the S2 deadline."""
    demo = Demo(root)
    demo.play("00-opening", "01-factions")
    demo.feed("02-squads", "anna", "ben")
    demo.tick(demo.now + timedelta(hours=1))
    assert demo.camp.settings.schedule.show(demo.deadline) == S2_DEADLINE
    demo.tick(demo.deadline)
    return demo


@pytest.mark.clause("SWM-PBM-12")
def test_swm_pbm_12_a_player_silent_in_s2_gets_his_own_deadline_kept_by_the_tick_and_told_in_every_mail(
        tmp_path: Path) -> None:
    demo = silent_cara(tmp_path)
    game, show = demo.game, demo.camp.settings.schedule.show
    assert game["window"] == "squads" and sorted(s["owner"] for s in game["squads"].values()) == ["anna", "ben"]
    assert game["late_rosters"] == {"cara": "2026-11-30T20:00:00+00:00"}
    assert show(demo.deadline) == OWN_DEADLINE                  # the engine's deadline is cara's own
    for who in ("anna", "ben", "cara"):
        report = text(next(m for m in demo.sent(who) if m["Subject"] == "[swm-demo] Setup: starting squads"))
        assert f"Cara has sent no legal starting squad: his own deadline is {OWN_DEADLINE}" in report
        assert f"Next: **Setup: starting squads**, due {OWN_DEADLINE}." in report
    alert = text(demo.sent("gm")[-1])
    assert f"cara has sent no legal starting squad by the S2 deadline. His own deadline is now {OWN_DEADLINE}" in alert
    assert RULESET.gm_pending(context(demo.camp, demo.now)) == [
        f"cara owes his starting squad by his own deadline, {OWN_DEADLINE}; to give him longer: EXTEND 1d"]
    before = demo.count()
    demo.tick(demo.deadline - timedelta(minutes=1))            # nothing resolves before it; cara is reminded
    reminders = demo.sent(since=before)
    assert demo.game["window"] == "squads" and [str(m["To"]) for m in reminders] == ["cara@players.localhost"]
    assert f"due {OWN_DEADLINE}" in str(reminders[0]["Subject"])
    assert "you alone get more time, and turn 1 waits for your squad" in text(reminders[0])
    before = demo.count()
    demo.feed("02-squads", "cara")
    demo.tick(demo.deadline - timedelta(minutes=1))
    ack = text(demo.sent("cara", before)[0])
    assert f"Deadline: **{OWN_DEADLINE}**" in ack
    assert (demo.game["window"], demo.game["turn"], demo.game["late_rosters"]) == ("economics", 1, {})


@pytest.mark.clause("SWM-PBM-12")
def test_swm_pbm_12_a_roster_still_missing_at_the_own_deadline_is_put_to_the_gm_who_may_extend_it(
        tmp_path: Path) -> None:
    demo = silent_cara(tmp_path)
    assert main(["extend", str(demo.folder), "1d", "--now", demo.now.isoformat()]) == 0      # the GM moves it
    moved = "Tue 01 Dec 2026 20:00 GMT"
    assert RULESET.gm_pending(context(demo.camp, demo.now)) == [
        f"cara owes his starting squad by his own deadline, {moved}; to give him longer: EXTEND 1d"]
    demo.tick(demo.deadline - timedelta(minutes=1))
    assert "question" not in demo.camp.state["stage"]
    demo.tick(demo.deadline)
    record = demo.camp.state["stage"]
    assert record["question"]["key"] == "roster_cara" and record["question"]["options"] == ["extend"]
    asked = text(demo.sent("gm")[-1])
    assert f"cara has sent no legal starting squad by his own deadline ({moved})" in asked
    answered = demo.now + timedelta(hours=3)
    assert main(["decide", str(demo.folder), "roster_cara", "extend"]) == 0
    demo.tick(answered)
    until = answered + timedelta(hours=48)
    assert demo.game["late_rosters"] == {"cara": until.isoformat()} and demo.deadline == until
    report = text(demo.sent("cara")[-1])
    assert f"due {demo.camp.settings.schedule.show(until)}." in report


def test_swm_pbm_12_a_missing_roster_reading_other_than_gm_is_refused() -> None:
    from pbem.kit.rulebook import RulesError
    from pbem.rulesets.star_wars_miniatures import rules

    with pytest.raises(RulesError, match=r"'setup\.missing_roster' is 'invent'; it must be \"gm\""):
        rules.load({"setup": {"missing_roster": "invent"}})


BATTLE_DEADLINE = "Mon 30 Nov 2026 20:00 GMT"
GRACE_END = "Tue 01 Dec 2026 20:00 GMT"             # battle.gm_grace_hours = 24 after it


def one_report(root: Path) -> Demo:
    """The demo to its battle window B1-2-1 (cara attacks anna's fortified capital); only anna, the
    defender, reports; a tick at the window's deadline."""
    demo = Demo(root)
    demo.play("00-opening", "01-factions", "02-squads", "03-economics", "04-action")
    assert demo.game["window"] == "battle" and demo.camp.settings.schedule.show(demo.deadline) == BATTLE_DEADLINE
    demo.feed("05-battle", "anna")
    demo.tick(demo.now + timedelta(hours=1))
    demo.tick(demo.deadline)
    return demo


@pytest.mark.clause("SWM-PBM-10")
def test_swm_pbm_10_a_single_report_at_the_deadline_waits_the_gm_grace_told_to_all_then_applies(
        tmp_path: Path) -> None:
    demo = one_report(tmp_path)
    game, show = demo.game, demo.camp.settings.schedule.show
    assert game["window"] == "battle" and show(demo.deadline) == GRACE_END      # the tick keeps the grace's end
    assert game["battle_grace"] == "2026-12-01T20:00:00+00:00" and list(game["battle_reports"]) == ["anna"]
    told = (f"Battle B1-2-1: only the defender reported by the deadline. That report applies at {GRACE_END} unless "
            "the GM rules first (battle.gm_grace_hours = 24); the attacker may still send its report until then")
    for who in ("anna", "ben", "cara"):
        mail = text(next(m for m in demo.sent(who) if "battle results awaited" in str(m["Subject"])))
        assert told in mail and f"Next: **Turn 1: battle results**, due {GRACE_END}." in mail
    alert = text(demo.sent("gm")[-1])
    assert (f"Battle B1-2-1: only the defender reported by the deadline. Its report applies at {GRACE_END} unless "
            "you rule first with `RESULT B1-2-1 attacker|defender|none`") in alert
    reminded = [m for m in demo.sent() if "reminder" in str(m["Subject"])]
    assert sorted(str(m["To"]) for m in reminded[-2:]) == ["ben@players.localhost", "cara@players.localhost"]
    assert all(f"due {GRACE_END}" in str(m["Subject"]) for m in reminded[-2:])
    assert "Without your report the other side's report is applied once the game master's grace is over" in text(
        reminded[-1]) and "tokens" not in text(reminded[-1])
    assert RULESET.gm_pending(context(demo.camp, demo.now)) == [
        f"battle B1-2-1 has only the defender's report (the defender wins), applied at {GRACE_END} unless you "
        "rule otherwise; to confirm it now: RESULT B1-2-1 defender"]
    demo.tick(demo.deadline - timedelta(minutes=1))
    assert demo.game["window"] == "battle"                  # not before the grace's end
    demo.tick(demo.deadline)
    game = demo.game
    assert game["window"] != "battle" and game["battle_grace"] == "" and game["battle_reports"] == {}
    result = text(next(m for m in demo.sent("cara") if m["Subject"] == "[swm-demo] Turn 1: battle results"))
    assert "- Battle B1-2-1: the defender wins." in result


@pytest.mark.clause("SWM-PBM-10")
def test_swm_pbm_10_the_other_sides_report_within_the_grace_closes_the_window_with_both(tmp_path: Path) -> None:
    demo = one_report(tmp_path)
    grace_end = demo.deadline
    demo.feed("05-battle", "cara")
    demo.tick(demo.now + timedelta(hours=2))
    assert demo.game["window"] != "battle" and demo.now < grace_end
    result = text(next(m for m in demo.sent("anna") if m["Subject"] == "[swm-demo] Turn 1: battle results"))
    assert "- Battle B1-2-1: the defender wins." in result
    assert demo.game["squads"]["C3"]["place"] == "T22"       # retreated to T21, then cara's strategic move


@pytest.mark.clause("SWM-PBM-10")
def test_swm_pbm_10_the_gms_ruling_within_the_grace_stands_at_the_next_tick(tmp_path: Path) -> None:
    demo = one_report(tmp_path)
    grace_end = demo.deadline
    assert main(["gm", str(demo.folder), "RESULT", "B1-2-1", "attacker"]) == 0
    demo.tick(demo.now + timedelta(hours=2))
    assert demo.game["window"] != "battle" and demo.now < grace_end
    result = text(next(m for m in demo.sent("anna") if m["Subject"] == "[swm-demo] Turn 1: battle results"))
    assert "- Battle B1-2-1: the attacker wins." in result



@pytest.mark.clause("SWM-PBM-10")
def test_swm_pbm_10_with_single_report_gm_the_gm_rules_a_battle_only_one_side_reported() -> None:
    from pbem.kit.dice import ScriptedDice
    from pbem.rulesets.phases import GMDecisionNeeded
    from tests.star_wars_miniatures.flow import settings
    from tests.star_wars_miniatures.test_flow import REPORT, to_battle

    game = to_battle()
    game.settings = settings(rules={"battle": {"single_report": "gm"}})
    game.send("alice", REPORT)
    with pytest.raises(GMDecisionNeeded) as asked:       # no grace either: the GM rules it
        game.resolve(ScriptedDice([]))
    assert asked.value.key == "battle_B1-2-1" and asked.value.options == ["attacker", "defender", "none"]
    game.send("alice", REPORT)
    res = game.resolve(ScriptedDice([19, 3, 16, 9]), {"battle_B1-2-1": "attacker"})
    assert "Battle B1-2-1: the attacker wins." in res.reports[0].context["swm"]["lines"]


@pytest.mark.clause("SWM-PBM-12")
def test_swm_pbm_12_the_gms_resolve_before_the_own_deadline_keeps_it_running(tmp_path: Path) -> None:
    demo = silent_cara(tmp_path)
    own = demo.deadline
    assert main(["resolve", str(demo.folder)]) == 0
    demo.tick(own - timedelta(hours=6))
    record = demo.camp.state["stage"]
    assert "question" not in record and demo.game["late_rosters"] == {"cara": own.isoformat()}
    assert demo.game["window"] == "squads" and demo.deadline == own
