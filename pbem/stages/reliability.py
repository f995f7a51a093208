"""Each player's on-time record: stages he answered, missed, and was away for.

Counted as each stage resolves, for the players it waited for (`Stage.owing`): answered (orders
on file, his own or his standing orders), absent (away at the deadline, pbem/stages/absence.py),
missed (neither). Kept in state.toml (`[reliability.<player>]`); `pbem status` shows it to the GM
and the final report to everyone.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any

from pbem.rulesets.base import Stage
from pbem.stages.absence import absences
from pbem.state.campaign import Campaign

COUNTS = ("answered", "missed", "absent")


@dataclass(frozen=True)
class Record:
    name: str
    answered: int = 0
    missed: int = 0
    absent: int = 0
    absence_days: int = 0

    def shown(self) -> str:
        stages = self.answered + self.missed + self.absent
        return (f"{self.answered} of {stages} stages answered, {self.missed} missed, {self.absent} while absent "
                f"({self.absence_days} absence days taken)")


def count(state: MutableMapping[str, Any], stage: Stage, missed: Iterable[str], absent: Iterable[str]) -> None:
    """Count the resolution of `stage` for every player it waited for."""
    missed, absent = set(missed), set(absent)
    table = state.setdefault("reliability", {})
    for player in stage.owing:
        kind = "absent" if player in absent else "missed" if player in missed else "answered"
        entry = table.setdefault(player, {})
        entry[kind] = int(entry.get(kind, 0)) + 1


def records(camp: Campaign) -> list[Record]:
    """Every player's record, in the order of campaign.toml."""
    table = camp.state.get("reliability", {})
    return [record(table.get(p.id, {}), p.name, sum(a.days for a in absences(camp.state, p.id)))
            for p in camp.settings.players]


def record(counts: MutableMapping[str, Any], name: str, days: int) -> Record:
    answered, missed, absent = (int(counts.get(k, 0)) for k in COUNTS)
    return Record(name, answered, missed, absent, days)
