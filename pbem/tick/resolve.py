"""The resolution step: every stage that is due resolved by its rule system, or held for the GM."""

from __future__ import annotations

from datetime import datetime

from pbem.delivery import calendar
from pbem.delivery.chronicle import ended_record
from pbem.delivery.mails import alert_gm
from pbem.delivery.replies import Outcome
from pbem.delivery.reports import queue_report
from pbem.intake.isolation import is_injected, one_line
from pbem.kit.dice import CommittedDice
from pbem.kit.typed_dice import TypedDice
from pbem.rulesets.base import AnyRuleset, GMDecisionNeeded, Stage
from pbem.stages import reliability, turns
from pbem.stages.record import Question, StageRecord
from pbem.stages.turns import stage_key
from pbem.state.campaign import Campaign
from pbem.tick.absences import at_opening, stand_in
from pbem.tick.log import TickLog
from pbem.tick.pictures import private_pictures, stage_picture

MAX_STAGES_PER_TICK = 10   # stages that resolve with no mail (e.g. no battles) chain within one tick


def resolve_due(camp: Campaign, ruleset: AnyRuleset, now: datetime, log: TickLog) -> None:
    for _ in range(MAX_STAGES_PER_TICK):
        if "stage" not in camp.state:
            opened = turns.open_stage(camp, ruleset, now)
            turns.snapshot_start(camp, opened.turn)
            camp.save()
        stage = ruleset.stage(turns.context(camp, now))
        if not turns.is_due(camp, stage, now):
            return
        resolve_stage(camp, ruleset, stage, now, log)


def resolve_stage(camp: Campaign, ruleset: AnyRuleset, stage: Stage, now: datetime, log: TickLog,
                  typed: CommittedDice | TypedDice | None = None) -> None:
    """Resolve `stage` with the turn's committed dice, or with `typed` ones rolled at the table
    (pbem.kit.typed_dice: they raise, before anything is written, when they do not fit), or with
    the dice of a round played at the table (pbem.table.dice: its own salt, its rolls so far)."""
    ctx = turns.context(camp, now)
    away = stand_in(camp, ruleset, stage, now)      # first: standing orders are on file as the dice are drawn
    submissions = {p: s["payload"] for p, s in camp.state.get("submissions", {}).items()}
    missing = [p for p in turns.missing_players(camp, stage) if p not in away]     # absent is not missed
    dice: CommittedDice | TypedDice = turns.stage_dice(camp, stage) if typed is None else typed
    gen = turns.stage_generation(camp)      # read before the next stage opens with a new one
    owed = ruleset.gm_pending(ctx)          # what the GM owed before: asked again if the next stage still waits
    try:
        res = ruleset.resolve(ctx, submissions, dice)
    except GMDecisionNeeded as need:
        ask_gm(camp, ruleset, stage, need, now, log)
        return
    dice.finish()
    turns.log_dice(camp, stage.turn, stage.kind, dice)
    reliability.count(camp.state, stage, missing, away)
    extra = turns.engine_context(camp, stage, dice, missing, now)
    if res.turn_finished:
        extra["dice_secret"] = turns.reveal(camp, stage.turn)
        extra["next_commitment"] = turns.commitment(camp, stage.turn + 1)
    camp.state["game"] = res.game
    new_stage = turns.open_stage(camp, ruleset, now)
    absent_alerts = at_opening(camp, ruleset, new_stage, now)
    extra["next_stage"] = new_stage
    extra["next_deadline"] = StageRecord.read(camp.state).due
    calendar.write_feed(camp, new_stage, turns.stage_generation(camp), extra["next_deadline"], now)
    snapshot = turns.snapshot_stage(camp, stage, gen)
    picture = stage_picture(camp, ruleset, stage, now, log, keep_beside=snapshot)
    own = private_pictures(camp, ruleset, stage, now, log) if picture is not None else {}
    pictured: set[tuple[str, str]] = set()          # one picture per stage for each reader
    if new_stage.over:              # ended by its own rules: the record goes with the last report
        res.reports.append(ended_record(camp))
    for report in res.reports:
        queue_report(camp, ruleset, stage, report, extra, now, gen, picture, own, pictured)
    alerts = res.gm_alerts + still_owed(camp, ruleset, owed, new_stage, now) + absent_alerts
    alert_gm(camp, ruleset, Outcome(gm_alerts=alerts), now, key=f"{stage_key(stage, gen)}/alert")
    if res.turn_finished or res.turn_opened:
        turns.snapshot_start(camp, new_stage.turn)
    camp.save()
    if res.turn_finished and camp.settings.archive.get("path"):
        write_archive(camp, ruleset, log)
    log.count("resolved")
    log(f"{camp.name}: resolved {stage.title}" + (f"; waiting for {', '.join(missing)} was over" if missing else ""))


def still_owed(camp: Campaign, ruleset: AnyRuleset, owed: list[str], opened: Stage, now: datetime) -> list[str]:
    """The GM's decisions owed before a stage resolved and owed still as the next opens: listed again
    in the GM's mail of the new stage, so none is forgotten as the game moves on."""
    still = [task for task in ruleset.gm_pending(turns.context(camp, now)) if task in owed]
    return [f"Still waiting for you as {opened.title} opens: {task}" for task in still]


def ask_gm(camp: Campaign, ruleset: AnyRuleset, stage: Stage, need: GMDecisionNeeded, now: datetime,
           log: TickLog) -> None:
    """Hold the stage as it is until the GM answers with `DECIDE`."""
    record = StageRecord.read(camp.state)
    record.question = Question(need.key, need.question, list(need.options))
    record.write(camp.state)
    choices = f" Choose one of: {', '.join(need.options)}." if need.options else ""
    alert = f"{stage.title}: {need.question}{choices} Answer with `DECIDE {need.key} <choice>`."
    key = f"{stage_key(stage, turns.stage_generation(camp))}/question/{need.key}"
    alert_gm(camp, ruleset, Outcome(gm_alerts=[alert]), now, key=key)
    camp.save()
    log(f"{camp.name}: {stage.title} waits for the GM: {need.key}")


def write_archive(camp: Campaign, ruleset: AnyRuleset, log: TickLog) -> None:
    """The campaign's site written again as a turn ends (`[archive] path`); a failure is logged and
    never holds back the turn, whose state and reports are already stored."""
    from pbem.delivery.archive import write_site  # pictures, charts and HTML: loaded only here

    out = camp.folder / str(camp.settings.archive["path"])
    try:
        write_site(camp, ruleset, out)
    except Exception as exc:  # the archive is a copy: the turn stands whatever it raises
        if is_injected(exc):
            raise
        log(f"{camp.name}: the archive in {out} was not written: {one_line(exc)}")
