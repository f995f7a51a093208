"""The reminder step: one reminder per deadline to each player who still owes orders, or whose
orders on file keep the stage from closing early."""

from __future__ import annotations

from datetime import datetime

from pbem.delivery.digest import hold
from pbem.delivery.mails import build_mail
from pbem.delivery.outqueue import enqueue
from pbem.delivery.replies import Reply
from pbem.rulesets.base import AnyRuleset, Stage
from pbem.stages import turns
from pbem.stages.readiness import readiness
from pbem.stages.record import StageRecord
from pbem.stages.turns import stage_key
from pbem.state.campaign import Campaign
from pbem.state.schedule import iso
from pbem.tick.log import TickLog


def send_reminders(camp: Campaign, ruleset: AnyRuleset, now: datetime, log: TickLog) -> None:
    stage = ruleset.stage(turns.context(camp, now))
    record = StageRecord.read(camp.state)
    deadline = record.due
    if deadline is None or not turns.reminder_due(camp, stage, now):
        return
    for pid, unfinished in reminded(camp, stage):
        player = camp.settings.player(pid)
        if player is None:
            continue
        # one reminder per deadline: an extension that moves the deadline earns a new one
        key = f"reminder/{stage_key(stage, turns.stage_generation(camp))}/{iso(deadline)}/{pid}"
        reply = Reply(key, (player.email,),
                      f"[{camp.name}] reminder: {stage.title} due {camp.settings.schedule.show(deadline)}",
                      "reminder", {"campaign": camp.settings, "player": player, "stage": stage,
                                   "unfinished": unfinished, "deadline": deadline,
                                   "schedule": camp.settings.schedule, "now": now},
                      auto_reply=False, kind="reminder")
        if not hold(camp, ruleset, reply, now):          # a player who chose a daily digest gets it there
            enqueue(camp.folder, build_mail(camp, ruleset, reply, now))
    record.reminded = True
    record.write(camp.state)
    camp.save()
    log(f"{camp.name}: reminders sent for {stage.title}")


def reminded(camp: Campaign, stage: Stage) -> list[tuple[str, str]]:
    """Each player to remind and why ("" for one who sent nothing): those who owe orders and
    sent none, and those whose orders on file keep the stage from closing early (lines rejected,
    something missing). A player who said WAIT chose to wait and is left alone."""
    missing = turns.missing_players(camp, stage)
    found = [(pid, "") for pid in missing]
    for pid in stage.owing:
        state = readiness(camp.state, pid, stage)
        if pid not in missing and state.sent and not state.ready and not state.wait:
            found.append((pid, state.not_yet(shown="STATUS lists it")))
    return found
