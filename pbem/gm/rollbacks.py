"""`pbem rollback` as a whole: restore the previous turn, reopen it, tell everyone.

The restored stage gets a deadline counted from now (its own is long past) and a generation of
its own, so the replayed turn's reports, alerts and reminders have keys the outbox has not sent.
Every player is mailed, and the forum thread told, what was undone and what to send by when.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pbem.delivery.mails import build_mail
from pbem.delivery.outqueue import enqueue
from pbem.delivery.replies import Reply
from pbem.forum.queue import enqueue_post
from pbem.kit.texts import render
from pbem.mail.compose import thread_root
from pbem.rulesets.base import AnyRuleset, Stage
from pbem.stages import turns
from pbem.stages.record import StageRecord
from pbem.state.campaign import Campaign


@dataclass(frozen=True)
class RolledBack:
    """What a rollback did: the turn restored, the stage now open and its deadline."""

    turn: int
    stage: Stage
    deadline: datetime
    undone: str          # the title of the stage that was open when the GM rolled back


def roll_back(camp: Campaign, ruleset: AnyRuleset, now: datetime) -> RolledBack:
    """Restore the start of the previous turn (of a campaign the GM ended, the state just before
    the end) and queue the notice. Raises ValueError when there is no earlier turn. The caller
    saves the campaign (after the notice is queued, so a crash before the save re-runs the same
    rollback and makes the same mail keys)."""
    undone = StageRecord.read(camp.state).title
    over = ruleset.stage(turns.context(camp, now)).over
    unended = turns.undo_end(camp) if over else None        # `pbem end` undone: back to just before it
    turn = unended if unended is not None else turns.rollback(camp)
    stage = turns.reopen(camp, ruleset, now)
    record = StageRecord.read(camp.state)
    assert record.due is not None            # reopen() just set it
    done = RolledBack(turn, stage, record.due, undone or stage.title)
    tell_everyone(camp, ruleset, done, now)
    return done


def tell_everyone(camp: Campaign, ruleset: AnyRuleset, done: RolledBack, now: datetime) -> None:
    settings, gen = camp.settings, turns.stage_generation(camp)
    base = {"campaign": settings, "stage": done.stage, "deadline": done.deadline, "undone": done.undone,
            "schedule": settings.schedule, "now": now, "commitment": turns.commitment(camp, done.stage.turn),
            "paused": StageRecord.read(camp.state).paused, "player": None}
    subject = f"[{camp.name}] rolled back to {done.stage.title}"
    for player in settings.players:
        reply = Reply(f"rollback/g{gen}/{player.id}", (player.email,), subject, "rollback",
                      base | {"player": player}, references=(thread_root(camp.name, settings.domain),),
                      auto_reply=False)
        enqueue(camp.folder, build_mail(camp, ruleset, reply, now))
    if settings.forum:
        enqueue_post(camp.folder, f"rollback/g{gen}", subject, render(ruleset.templates, "rollback", base, camp.folder))
