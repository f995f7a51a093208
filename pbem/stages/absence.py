"""Absences: a player away from date to date, his stages played with his standing orders.

    ABSENT 2027-05-05 2027-05-09 on holiday      (by mail; `pbem absent` for the GM)
    ABSENT NONE                                  (withdraws absences not yet over)
    STANDING                                     (the orders of this mail also stand for later
                                                  stages of the same kind while he is away)

While he is away a stage resolves with his standing orders where they still read in it (they
are parsed again against the stage, so they hold only where the rule system accepts them),
else with the rule system's defaults for orders not sent; either way it is not counted as
missed. Absences are kept in state.toml (`[absences] <player> = [{from, to, note}]`, dates in
the campaign's time zone), standing orders as their lines (`[standing.<player>] <stage kind> =
[...]`). A campaign grants `[rules.absence] days_per_year` days per calendar year
(pbem/state/between.py); an absence beyond them is refused with the days left.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from pbem.rulesets.base import Stage
from pbem.state.campaign import Campaign

USAGE = "ABSENT <first day> <last day> [note], days as 2027-05-05 (or ABSENT NONE)"


@dataclass(frozen=True)
class Absence:
    start: date
    end: date
    note: str = ""

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1

    def shown(self) -> str:
        span = f"{self.start.isoformat()} to {self.end.isoformat()}"
        return span + (f" ({self.note})" if self.note else "")


def read_words(words: list[str], today: date) -> Absence:
    """The absence `ABSENT` asks for; a ValueError saying what to send instead."""
    if len(words) < 2:
        raise ValueError(f"usage: {USAGE}")
    try:
        start, end = date.fromisoformat(words[0]), date.fromisoformat(words[1])
    except ValueError:
        raise ValueError(f"{words[0]} {words[1]} are not two days written like 2027-05-05; usage: {USAGE}") from None
    if end < start:
        raise ValueError(f"the last day {end.isoformat()} comes before the first {start.isoformat()}")
    if end < today:
        raise ValueError(f"{end.isoformat()} is already past (today is {today.isoformat()})")
    return Absence(start, end, " ".join(words[2:])[:200])


def absences(state: MutableMapping[str, Any], player: str) -> list[Absence]:
    kept = state.get("absences", {}).get(player, [])
    return [Absence(date.fromisoformat(a["from"]), date.fromisoformat(a["to"]), a.get("note", "")) for a in kept]


def days_used(state: MutableMapping[str, Any], player: str, year: int) -> int:
    """Absence days of `player` that fall in `year`."""
    return sum(1 for a in absences(state, player) for n in range(a.days) if (a.start + timedelta(n)).year == year)


def take(camp: Campaign, player: str, absence: Absence) -> None:
    """Keep `absence`, or a ValueError: beyond the year's days, or overlapping one on file."""
    budget = camp.settings.between.absence.days_per_year
    if budget == 0:
        raise ValueError("this campaign allows no absences ([rules.absence] days_per_year = 0); "
                         "ask the game master")
    for other in absences(camp.state, player):
        if absence.start <= other.end and other.start <= absence.end:
            raise ValueError(f"it overlaps your absence {other.shown()}; send ABSENT NONE first to withdraw it")
    for year in sorted({absence.start.year, absence.end.year}):
        asked = sum(1 for n in range(absence.days) if (absence.start + timedelta(n)).year == year)
        left = budget - days_used(camp.state, player, year)
        if asked > left:
            raise ValueError(f"it is {asked} days in {year}, and you have {max(left, 0)} of this campaign's "
                             f"{budget} absence days a year left; send a shorter absence")
    entry = {"from": absence.start.isoformat(), "to": absence.end.isoformat()} | \
        ({"note": absence.note} if absence.note else {})
    camp.state.setdefault("absences", {}).setdefault(player, []).append(entry)


def withdraw(camp: Campaign, player: str, today: date) -> list[Absence]:
    """ABSENT NONE: absences not yet over are withdrawn (one under way ends yesterday)."""
    kept, gone = [], []
    for a in absences(camp.state, player):
        if a.end < today:
            kept.append(a)
        else:
            gone.append(a)
            if a.start < today:
                kept.append(Absence(a.start, today - timedelta(1), a.note))
    camp.state.setdefault("absences", {})[player] = [
        {"from": a.start.isoformat(), "to": a.end.isoformat()} | ({"note": a.note} if a.note else {}) for a in kept]
    return gone


def away(camp: Campaign, player: str, moment: datetime) -> Absence | None:
    """The absence `player` is on at `moment` (its day in the campaign's time zone), if any."""
    day = moment.astimezone(camp.settings.schedule.zone).date()
    return next((a for a in absences(camp.state, player) if a.start <= day <= a.end), None)


def absent_players(camp: Campaign, players: list[str], moment: datetime) -> list[str]:
    return [p for p in players if away(camp, p, moment) is not None]


def held_deadline(camp: Campaign, stage: Stage, deadline: datetime) -> datetime | None:
    """With `[rules.absence] deadline_waits`: the deadline after the short absence of a player owing
    orders that covers it (the day after the absence, at the same time), else None."""
    waits = camp.settings.between.absence.deadline_waits
    later = [a for p in stage.owing if (a := away(camp, p, deadline)) is not None and a.days <= waits]
    if not waits or not later:
        return None
    zone = camp.settings.schedule.zone
    at: time = deadline.astimezone(zone).timetz()
    last = max(a.end for a in later)
    return datetime.combine(last + timedelta(1), at.replace(tzinfo=None), zone)


def battle_alert(name: str, title: str) -> str:
    """The GM's alert for a player away at the deadline of a battle window he owes orders in."""
    return (f"{name} is absent at the deadline of {title}, a battle window he owes orders in: `EXTEND` to "
            "reschedule it, or at the deadline the rules for a battle not reported apply (his standing orders, "
            "else the defaults for orders not sent).")


# -- standing orders ---------------------------------------------------------------------------

def keep_standing(state: MutableMapping[str, Any], player: str, kind: str, lines: list[str]) -> None:
    state.setdefault("standing", {}).setdefault(player, {})[kind] = list(lines)


def standing(state: MutableMapping[str, Any], player: str, kind: str) -> list[str]:
    return [str(line) for line in state.get("standing", {}).get(player, {}).get(kind, [])]
