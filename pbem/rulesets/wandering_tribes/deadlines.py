"""Window B's deadline (catalog, Window B; the decision, also in rules/wandering_tribes.toml's
comment): mode one_on_one closes the battle reports
`battle.deadline_days_one_on_one` days after the window opens; mode together reads
`battle.deadline_together = "session_end"` as the end of the club session the battles are fought
at, which is the length the campaign's `[schedule] battle` gives the window (the GM sets it to the
evening, e.g. `battle = "4h"`). The briefing states the date the engine will set, and the tick
closes the window then (or earlier when every side has reported and the campaign allows it)."""

from __future__ import annotations

from datetime import datetime, timedelta

from pbem.rulesets.wandering_tribes.game import BATTLE, WTView
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.texts import rules_of


def window_length(rules: Rules) -> timedelta | None:
    if rules.mode == "one_on_one":
        return timedelta(days=int(rules["battle.deadline_days_one_on_one"]))
    return None


def deadline(view: WTView) -> datetime | None:
    """When a battle window opened now closes (`Phase.deadline`: the engine keeps it, the briefing
    states it): the schedule's `at` hour after the rules' own length, or the `[schedule] battle` one."""
    return view.settings.schedule.deadline(view.now, BATTLE, window_length(rules_of(view))) if view.now else None


def promise(view: WTView) -> str:
    """The deadline as the briefing states it."""
    rules, due = rules_of(view), deadline(view)
    when = view.settings.schedule.show(due) if due else "the report deadline"
    if rules.mode == "one_on_one":
        at = view.settings.schedule.at
        hour = f", at the campaign's deadline hour {at:%H:%M}" if at else ""
        return f"{when} ({rules['battle.deadline_days_one_on_one']} days after this briefing{hour})"
    return f"the end of this club session, {when}"
