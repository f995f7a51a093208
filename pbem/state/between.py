"""The engine's settings for life between deadlines: `[rules.absence]`, `[rules.press]`, `[rules.mail]`.

They sit under `[rules]` with the rule system's overrides because a GM looks for a campaign's
rules there, but they are the engine's, the same for every rule system: loading campaign.toml
takes them out (`split`) before the rule system judges its own overrides, which would refuse
keys it does not know.

    [rules.absence]
    days_per_year = 21        # absence days a player may take in a year of the campaign
    deadline_waits = 0        # an absence of at most this many days holds the deadline (0: never)

    [rules.press]
    enabled = true            # PRESS TO ... between players
    grey = false              # anonymous press (PRESS GREY TO ...)
    stages = []               # stage kinds press is allowed in; empty: every stage
    forum = false             # broadcasts (PRESS TO ALL) also posted to the forum thread
    chronicle = true          # all press published as the campaign ends

    [rules.mail]
    digest_at = "08:00"       # the local time (the player's zone, else the campaign's) of the daily digest
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pbem.kit.text import text_problem
from pbem.state.checks import Table

ENGINE_TABLES = ("absence", "press", "mail")
KNOWN = {
    "absence": {"days_per_year": "a whole number of days", "deadline_waits": "a whole number of days"},
    "press": {"enabled": "true or false", "grey": "true or false", "stages": "a list of stage kinds",
              "forum": "true or false", "chronicle": "true or false"},
    "mail": {"digest_at": "a local time like \"08:00\""},
}


@dataclass(frozen=True)
class AbsenceRules:
    days_per_year: int = 21
    deadline_waits: int = 0


@dataclass(frozen=True)
class PressRules:
    enabled: bool = True
    grey: bool = False
    stages: tuple[str, ...] = ()
    forum: bool = False
    chronicle: bool = True

    def open_in(self, kind: str) -> bool:
        return self.enabled and (not self.stages or kind in self.stages)


@dataclass(frozen=True)
class Between:
    absence: AbsenceRules = field(default_factory=AbsenceRules)
    press: PressRules = field(default_factory=PressRules)
    digest_at: str = "08:00"


def split(rules: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the rule system's overrides, the engine's tables) of `[rules]`."""
    return ({k: v for k, v in rules.items() if k not in ENGINE_TABLES},
            {k: v for k, v in rules.items() if k in ENGINE_TABLES})


def between_rules(rules: Table) -> Between:
    """The engine's tables of `[rules]`, every wrong key a problem."""
    tables = {name: Table.of(rules, name) for name in ENGINE_TABLES}
    for name, table in tables.items():
        for key in table.raw:
            if key not in KNOWN[name]:
                table.wrong(key, "a known key: " + ", ".join(sorted(KNOWN[name])))
    absence, press, mail = tables["absence"], tables["press"], tables["mail"]
    digest_at = mail.text("digest_at", "08:00")
    if not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", digest_at):
        mail.wrong("digest_at", KNOWN["mail"]["digest_at"])
        digest_at = "08:00"
    return Between(
        AbsenceRules(absence.integer("days_per_year", 21, least=0, what="a whole number of days"),
                     absence.integer("deadline_waits", 0, least=0, what="a whole number of days")),
        PressRules(press.boolean("enabled", True), press.boolean("grey"),
                   tuple(press.texts("stages", "a list of stage kinds")), press.boolean("forum"),
                   press.boolean("chronicle", True)),
        digest_at)


MAIL_CHOICES = ("immediate", "digest", "reports-only")
"""`MAIL <choice>` (pbem/delivery/digest.py)."""
DAY = "a day like 2027-05-05"


def state_problems(state: Table) -> None:
    """The shape of state.toml's tables for life between deadlines (pbem/state/statecheck.py):
    `[absences]`, `[mail_choice]`, `[[press]]`; a GM's typo there is a problem, not a crash."""
    absences = Table.of(state, "absences", " (player id -> [{from, to, note}])")
    for pid, value in absences.raw.items():
        if not isinstance(value, list):
            absences.wrong(pid, "a list of tables with from and to")
            continue
        for n, entry in enumerate(value):
            _absence(Table(entry, f"{absences.key(pid)}[{n}]", state.problems))
    choices = Table.of(state, "mail_choice", " (player id -> how his mail comes)")
    for pid, value in choices.raw.items():
        if value not in MAIL_CHOICES:
            choices.wrong(pid, " or ".join(MAIL_CHOICES))
    for entry in state.tables("press"):
        _lines(entry, "text")
        entry.texts("to", "a list of player ids")


def _lines(entry: Table, name: str) -> None:
    """A text of several lines (a press body): line breaks and tabs belong to it, no other control character."""
    value = entry.raw.get(name)
    if value is not None and not isinstance(value, str):
        entry.wrong(name, "text")
    elif value and (problem := text_problem(value.replace("\n", " ").replace("\t", " "))):
        entry.problems.append(f"{entry.key(name)}: {problem}")


def _absence(entry: Table) -> None:
    days = [entry.text(key, required=True, what=DAY) for key in ("from", "to")]
    for key, day in zip(("from", "to"), days, strict=True):
        if day and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
            entry.wrong(key, DAY)
    entry.text("note")
