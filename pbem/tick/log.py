"""The tick's log: one line per thing done or gone wrong, and the counts of its summary line."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pbem.mail import MAIL_PROBLEM

# what a tick's summary line counts, in its order, with the words it uses
TALLIES = (("read", "mail(s) read"), ("acks", "ack(s)"), ("resolved", "stage(s) resolved"),
           ("sent", "mail(s) sent"), ("throttled", "held back by throttling"), ("problems", "problem(s)"))


NOT_PROCESSED = "NOT PROCESSED"
"""In a line of a campaign (or pbem.toml) the tick could not process: `pbem tick` exits with 1."""


@dataclass
class TickLog:
    lines: list[str] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    def __call__(self, text: str) -> None:
        self.lines.append(text)
        if NOT_PROCESSED in text or MAIL_PROBLEM in text:
            self.problems.append(text)
            self.counts["problems"] += 1

    def status(self) -> int:
        """The exit status of `pbem tick`: 1 when a campaign was not processed, else 3 when a
        mailbox or mail server could not be used, else 0."""
        if any(NOT_PROCESSED in line for line in self.problems):
            return 1
        return 3 if self.problems else 0

    def count(self, what: str, n: int = 1) -> None:
        """Tally one of TALLIES for the summary line."""
        self.counts[what] += n

    def summary(self) -> str:
        """One line for the cron log: what the tick did."""
        return ", ".join(f"{self.counts[what]} {words}" for what, words in TALLIES)
