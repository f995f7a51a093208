"""The tick's log: one line per thing done or gone wrong, and the counts of its summary line."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

# what a tick's summary line counts, in its order, with the words it uses
TALLIES = (("read", "mail(s) read"), ("acks", "ack(s)"), ("resolved", "stage(s) resolved"),
           ("sent", "mail(s) sent"), ("throttled", "held back by throttling"), ("problems", "problem(s)"))


@dataclass
class TickLog:
    lines: list[str] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)

    def __call__(self, text: str) -> None:
        self.lines.append(text)
        self.counts["problems"] += "NOT PROCESSED" in text

    def count(self, what: str, n: int = 1) -> None:
        """Tally one of TALLIES for the summary line."""
        self.counts[what] += n

    def summary(self) -> str:
        """One line for the cron log: what the tick did."""
        return ", ".join(f"{self.counts[what]} {words}" for what, words in TALLIES)
