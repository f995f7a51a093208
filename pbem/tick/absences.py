"""Absences at the tick: standing orders put on file as a stage resolves, and what a stage opening
during an absence needs (a deadline that waits, a battle's absentee told of). See
pbem/stages/absence.py for the absences themselves."""

from __future__ import annotations

from datetime import datetime

from pbem.delivery import calendar
from pbem.delivery.digest import hold
from pbem.delivery.mails import build_mail
from pbem.delivery.outqueue import enqueue
from pbem.delivery.replies import Reply
from pbem.intake.acks import receipt
from pbem.rulesets.base import AnyRuleset, Stage
from pbem.stages import absence, turns
from pbem.stages.record import StageRecord
from pbem.state.campaign import Campaign
from pbem.state.schedule import iso


def stand_in(camp: Campaign, ruleset: AnyRuleset, stage: Stage, now: datetime) -> list[str]:
    """The players owing orders who are away at the deadline and sent none: their standing orders
    for this kind of stage go on file where they read in it without a problem (else the rules'
    defaults for orders not sent apply). Returns who is away."""
    due = StageRecord.read(camp.state).due
    away = absence.absent_players(camp, turns.missing_players(camp, stage), min(due, now) if due else now)
    ctx = turns.context(camp, now)
    for pid in away:
        player, lines = camp.settings.player(pid), absence.standing(camp.state, pid, stage.kind)
        if player is None or not lines:
            continue
        parsed = ruleset.parse(ctx, player, list(enumerate(lines, start=1)))
        if not parsed.payload or parsed.problems:
            continue
        payload = ruleset.combine(ctx, {}, parsed.payload)
        canon = ruleset.canonical(ctx, player, payload)
        camp.state.setdefault("submissions", {})[pid] = {
            "payload": payload, "receipt": receipt(camp.name, stage, pid, canon), "received": iso(now)}
    return away


def at_opening(camp: Campaign, ruleset: AnyRuleset, stage: Stage, now: datetime) -> list[str]:
    """A stage just opened: a short absence over its deadline may hold it (`[rules.absence]
    deadline_waits`); a player away at a battle window's deadline: the GM's alerts returned, the
    window's other players told now."""
    record = StageRecord.read(camp.state)
    due = record.due
    if due is None or stage.over:
        return []
    later = absence.held_deadline(camp, stage, due)
    if later is not None and later > due:
        record.due = due = later
        record.write(camp.state)
    if not calendar.own_events(stage, camp.settings.players):
        return []
    away = absence.absent_players(camp, list(stage.owing), due)
    for pid in away:
        tell_opponents(camp, ruleset, stage, pid, now)
    return [absence.battle_alert(name, stage.title) for name in (p.name for p in camp.settings.players if p.id in away)]



def tell_opponents(camp: Campaign, ruleset: AnyRuleset, stage: Stage, pid: str, now: datetime) -> None:
    settings = camp.settings
    who = settings.player(pid)
    if who is None:
        return
    gone = absence.away(camp, pid, StageRecord.read(camp.state).due or now)
    what = f"is away {gone.shown()}" if gone else "is away"
    context = {"campaign": settings, "now": now, "schedule": settings.schedule, "who": who.name, "what": what,
               "battle": stage.title}
    key = f"absent-at/{turns.stage_key(stage, turns.stage_generation(camp))}/{pid}"
    for reader in settings.players:
        if reader.id in stage.owing and reader.id != pid:
            reply = Reply(f"{key}/{reader.id}", (reader.email,), f"[{camp.name}] {who.name} {what}",
                          "absence_notice", context | {"reader": reader}, auto_reply=False, kind="notice")
            if not hold(camp, ruleset, reply, now):
                enqueue(camp.folder, build_mail(camp, ruleset, reply, now))
