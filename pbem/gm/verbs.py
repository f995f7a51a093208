"""The engine's own GM verbs, declared once as data.

Each `EngineVerb` names its usage, its one line of help, what it does (`run`) and when it
is open (`open`: only what HELP lists; a verb run when closed answers why it cannot). The
rule system's verbs (`Ruleset.verbs`) join them in `pbem.gm.desk`, which serves both a GM's
mail and `pbem gm CAMPAIGN VERB ...`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pbem.delivery import calendar
from pbem.delivery.chronicle import chronicle_context, write_press
from pbem.delivery.replies import Reply
from pbem.intake import authentication
from pbem.mail.compose import thread_root
from pbem.rulesets.base import AnyRuleset, Context, Report, Stage
from pbem.stages import turns
from pbem.stages.record import StageRecord
from pbem.state.campaign import Campaign
from pbem.state.schedule import iso, parse_duration, parse_time


@dataclass
class Desk:
    """What a GM verb works on: the campaign in memory, its rule system, the moment, and the
    mails the verb asks for (handed out once the command is done)."""

    camp: Campaign
    ruleset: AnyRuleset
    now: datetime
    mailings: list[Reply] = field(default_factory=list)

    def context(self) -> Context:
        return turns.context(self.camp, self.now)

    def stage(self) -> Stage:
        return self.ruleset.stage(self.context())

    @property
    def record(self) -> StageRecord:
        return StageRecord.read(self.camp.state)


Words = Sequence[str]


def _always(desk: Desk) -> bool:
    return True


@dataclass(frozen=True)
class EngineVerb:
    name: str                                     # upper case, as the GM writes it
    usage: str
    help: str
    run: Callable[[Desk, Words], str]
    open: Callable[[Desk], bool] = _always
    logged: bool = True                           # kept in the GM log the turn report shows


def _arity(words: Words, usage: str, least: int, most: int = 99) -> None:
    if not least <= len(words) <= most:
        raise ValueError(f"usage: {usage}")


# -- the clock -----------------------------------------------------------------------------

def resolve(desk: Desk, words: Words) -> str:
    record = desk.record
    record.force = True
    record.write(desk.camp.state)
    due = f", not waiting for its deadline {desk.camp.settings.schedule.show(record.due)}" if record.due else ""
    return (f"{record.title or 'the current stage'} is resolved at the next tick{due}, with the orders on file; "
            "nobody is mailed now: everyone gets the stage's report then")


def extend(desk: Desk, words: Words) -> str:
    _arity(words, "EXTEND <duration|time>", 1, 1)
    record, schedule = desk.record, desk.camp.settings.schedule
    try:
        if record.due is None:
            raise ValueError("no deadline to add to")
        new = record.due + parse_duration(words[0])
    except ValueError:
        new = _typed_time(desk, words[0])
    if new <= desk.now:
        raise ValueError(f"{schedule.show(new)} is already past (it is {schedule.show(desk.now)} now): give a "
                         "later time, or a duration to add to the deadline such as 2d")
    before = record.due
    record.due, record.reminded = new, False
    record.write(desk.camp.state)
    calendar.moved(desk.camp.state, record.generation)      # calendars update the event, not add one
    calendar.write_feed(desk.camp, desk.stage(), record.generation, new, desk.now)
    told = _extended_mails(desk, record, new)
    desk.mailings += told
    was = f" from {schedule.show(before)}" if before is not None else ""
    return f"deadline of {record.title or 'the stage'} moved{was} to {schedule.show(new)}; {_told(desk, told)}"


def _typed_time(desk: Desk, text: str) -> datetime:
    try:
        return desk.camp.settings.schedule.local_time(text)
    except ValueError:
        raise ValueError(f"{text!r} is neither a duration (2d, 12h) nor a date and time (2026-11-30T20:00, "
                         "read in the campaign's time zone unless it has an offset)") from None


def _told(desk: Desk, mails: Sequence[Reply]) -> str:
    """Whom the GM's command mailed, by name: the GM's answer says exactly who hears of it."""
    names = [p.name for p in desk.camp.settings.players if any(p.email in m.to for m in mails)]
    return f"told by mail at the next tick: {', '.join(names)}" if names else "nobody is mailed (nobody owes orders)"


def _extended_mails(desk: Desk, record: StageRecord, deadline: datetime) -> list[Reply]:
    """The players the stage waits for hear the new deadline and what to send by then; keyed
    by the stage's opening and the new deadline, so each extension is told once."""
    settings, stage = desk.camp.settings, desk.stage()
    owing = stage.owing
    on_file = desk.camp.state.get("submissions", {})
    key = f"extended/g{record.generation}/{record.kind}/{iso(deadline)}"
    context = {"campaign": settings, "schedule": settings.schedule, "now": desk.now, "deadline": deadline,
               "title": record.title}
    return [Reply(f"{key}/{p.id}", (p.email,), f"[{desk.camp.name}] {record.title or 'deadline'}: deadline "
                  f"moved to {settings.schedule.show(deadline)}", "extended",
                  context | {"player": p, "on_file": p.id in on_file}, auto_reply=False,
                  attachments=calendar.attachment(desk.camp, stage, record.generation, deadline, desk.now, p))
            for p in settings.players if p.id in owing]


def pause(desk: Desk, words: Words) -> str:
    """The clock stops: no reminder and no deadline passes until RESUME (pbem.stages.turns)."""
    record = desk.record
    if record.paused:
        raise ValueError("the campaign is already paused (RESUME goes on)")
    record.paused, record.paused_at = True, iso(desk.now)
    record.write(desk.camp.state)
    told = _paused_mails(desk, record)
    desk.mailings += told
    return f"campaign paused: no reminders and no deadline passes until RESUME; {_told(desk, told)}"


def _paused_mails(desk: Desk, record: StageRecord) -> list[Reply]:
    """Every player hears that the clock stopped, so nobody rushes orders for a deadline that waits."""
    settings = desk.camp.settings
    key = f"paused/g{record.generation}/{record.kind}/{iso(desk.now)}"
    context = {"campaign": settings, "schedule": settings.schedule, "now": desk.now, "title": record.title}
    return [Reply(f"{key}/{p.id}", (p.email,), f"[{desk.camp.name}] paused by the game master", "paused",
                  context | {"player": p}, auto_reply=False)
            for p in settings.players]


def resume(desk: Desk, words: Words) -> str:
    """The deadline moves by the time paused, so players get the time that was left; they hear it."""
    record = desk.record
    if not record.paused:
        raise ValueError("the campaign is not paused")
    since, due = record.paused_at, record.due
    record.paused, record.paused_at = False, ""
    if due is None or not since:
        record.write(desk.camp.state)
        return "campaign resumed; nobody is mailed (no deadline was running)"
    record.due = due + max(desk.now - parse_time(since), timedelta(0))
    record.write(desk.camp.state)
    calendar.moved(desk.camp.state, record.generation)      # calendars update the event, not add one
    calendar.write_feed(desk.camp, desk.stage(), record.generation, record.due, desk.now)
    told = _resumed_mails(desk, record)
    desk.mailings += told
    shown = desk.camp.settings.schedule.show(parse_time(record.deadline))
    return f"campaign resumed; deadline moved to {shown} (by the time paused); {_told(desk, told)}"


def _resumed_mails(desk: Desk, record: StageRecord) -> list[Reply]:
    settings, deadline, stage = desk.camp.settings, parse_time(record.deadline), desk.stage()
    key = f"resumed/{record.turn}/{record.kind}/{iso(desk.now)}"
    context = {"campaign": settings, "schedule": settings.schedule, "now": desk.now, "deadline": deadline,
               "title": record.title}
    return [Reply(f"{key}/{p.id}", (p.email,), f"[{desk.camp.name}] resumed: deadline "
                  f"{settings.schedule.show(deadline)}", "resumed", context | {"player": p}, auto_reply=False,
                  attachments=calendar.attachment(desk.camp, stage, record.generation, deadline, desk.now, p))
            for p in settings.players]


def decide(desk: Desk, words: Words) -> str:
    """`DECIDE <key> <choice>`: answer the question a resolution stopped on (GMDecisionNeeded)."""
    record = desk.record
    question = record.question
    if not record.waiting:
        raise ValueError("no question is waiting for the GM")
    if not words or words[0].lower() != question.key.lower():
        raise ValueError(f"the open question is {question.key}: {question.text}")
    choice = " ".join(words[1:]).strip()
    match = next((o for o in question.options if o.lower() == choice.lower()), "" if question.options else choice)
    if not match:
        raise ValueError(f"{question.key}: choose one of {', '.join(question.options)}")
    record.decisions[question.key] = match
    record.question = type(question)()
    record.force = True
    record.write(desk.camp.state)
    return f"{question.key}: {match}; the stage is resolved at the next tick"


# -- people ----------------------------------------------------------------------------------

def replace(desk: Desk, words: Words) -> str:
    from pbem.gm.seats import replace_player

    text, mails = replace_player(desk.camp, list(words), desk.now)
    desk.mailings += mails
    return text


def unlock(desk: Desk, words: Words) -> str:
    _arity(words, "UNLOCK <address>", 1, 1)
    return authentication.unlock(desk.camp, words[0])


# -- the end ---------------------------------------------------------------------------------

def finish(desk: Desk, words: Words) -> str:
    """FINISH [reason] (`pbem end`): the rule system's end hook makes the game over; its final
    report goes out now. (Not END: a line `END` closes a mail's orders, pbem/intake/envelope.py.)"""
    res = desk.ruleset.end(desk.context(), " ".join(words))
    turns.snapshot_before_end(desk.camp, desk.record.turn)       # what a rollback returns to
    desk.camp.state["game"] = res.game
    over = desk.stage()
    record = desk.record
    record.kind, record.title, record.paused, record.paused_at, record.force = over.kind, over.title, False, "", False
    record.write(desk.camp.state)
    write_press(desk.camp)
    for report in res.reports:
        desk.mailings += _report_mails(desk, over, report)
    return "the campaign is over; the final report goes to every player and the GM"


def _report_mails(desk: Desk, stage: Stage, report: Report) -> list[Reply]:
    settings = desk.camp.settings
    audience = [p.id for p in settings.players] if "*" in report.audience else list(report.audience)
    people = [settings.gm if a == "gm" else settings.player(a) for a in audience]
    if report.public and "gm" not in audience:
        people.append(settings.gm)
    base = {"campaign": settings, "now": desk.now, "schedule": settings.schedule, "stage": stage,
            **chronicle_context(desk.camp)}
    root = thread_root(desk.camp.name, settings.domain)      # threaded with the turn reports
    return [Reply(f"turn-{stage.turn}/end/{report.key or report.kind}/{person.email}", (person.email,),
                  f"[{desk.camp.name}] {report.subject}", report.kind, base | report.context,
                  references=(root,), auto_reply=False)
            for person in people if person is not None]


def helped(desk: Desk, words: Words) -> str:
    return "the GM commands open now are listed below"


# -- when each is open -------------------------------------------------------------------------

def _running(desk: Desk) -> bool:
    return desk.record.started and not desk.stage().over


def _paused(desk: Desk) -> bool:
    return desk.record.paused


def _not_paused(desk: Desk) -> bool:
    return _running(desk) and not desk.record.paused


def _question(desk: Desk) -> bool:
    return desk.record.waiting


def _locked(desk: Desk) -> bool:
    return bool(desk.camp.auth.get("failures"))


ENGINE_VERBS: tuple[EngineVerb, ...] = (
    EngineVerb("RESOLVE", "RESOLVE", "resolve the current stage at the next tick, deadline or not", resolve,
               _running),
    EngineVerb("EXTEND", "EXTEND <duration|time>", "move the deadline by a duration (2d, 12h) or to a time",
               extend, _running),
    EngineVerb("DECIDE", "DECIDE <question> <choice>", "answer the question the resolution waits on", decide,
               _question),
    EngineVerb("PAUSE", "PAUSE", "stop the clock: no reminders and no deadline passes until RESUME", pause,
               _not_paused),
    EngineVerb("RESUME", "RESUME", "start the clock again; the deadline moves by the time paused", resume, _paused),
    EngineVerb("REPLACE", "REPLACE <player> <email> [name]", "hand a player's seat to someone else", replace,
               _running),
    EngineVerb("UNLOCK", "UNLOCK <address>", "answer an address locked out after repeated bad secrets again",
               unlock, _locked),
    EngineVerb("FINISH", "FINISH [reason]", "end the campaign now with a final report to everyone", finish,
               _running),
    EngineVerb("HELP", "HELP", "list the GM commands open now", helped, logged=False),
)
"""The engine's verbs, in the order HELP lists them; a rule system's verb of the same name is
not reachable (the engine's comes first)."""

BY_NAME = {verb.name: verb for verb in ENGINE_VERBS}
