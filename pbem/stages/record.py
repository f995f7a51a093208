"""The engine's record of the stage now open: `[stage]` in state.toml, typed.

Read with `StageRecord.read(state)`, changed as a dataclass, stored with `record.write(state)`;
nothing else reads or writes the table's keys. The stored form is plain TOML through
`pbem.kit.tomlio` (times as ISO text, as every time pbem stores): a game master may still edit it
by hand, and `pbem.state.statecheck` checks it before it is read. Keys written by hand that the
record does not know are kept when it is written back.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pbem.kit.tomlio import from_data, to_data
from pbem.state.schedule import iso, parse_time

OPTIONAL = ("question", "decisions", "paused_at", "ready", "wait")
"""Keys stored only when they hold something: no open question, no decisions, not paused, nobody
who said READY or WAIT."""


@dataclass
class Question:
    """What a resolution stopped on (`GMDecisionNeeded`); the GM answers with DECIDE."""

    key: str = ""
    text: str = ""
    options: list[str] = field(default_factory=list)


@dataclass
class StageRecord:
    """The stage the campaign waits for, as the engine keeps it between ticks."""

    kind: str = ""
    title: str = ""
    turn: int = 0
    opened: str = ""               # ISO times, as stored
    deadline: str = ""
    reminded: bool = False         # the reminder of this deadline went out
    force: bool = False            # resolve at the next tick, deadline or not (RESOLVE, DECIDE)
    paused: bool = False           # the clock stands still until RESUME
    generation: int = 0            # the stage opening this is (pbem.stages.turns.next_generation)
    paused_at: str = ""
    question: Question = field(default_factory=Question)       # key "" when none waits
    decisions: dict[str, str] = field(default_factory=dict)     # the GM's answers for this stage
    ready: list[str] = field(default_factory=list)    # players who said READY for the orders on file
    wait: list[str] = field(default_factory=list)     # players who said WAIT: no early close until READY or CLEAR

    @classmethod
    def read(cls, state: MutableMapping[str, Any]) -> StageRecord:
        """The record in `state` (an empty one before the first stage opened)."""
        return from_data(cls, state.get("stage", {}))

    def write(self, state: MutableMapping[str, Any]) -> None:
        """Store the record in `state`, keeping keys it does not know."""
        data = to_data(self)
        for key in OPTIONAL:
            if not data[key] or (key == "question" and not self.question.key):
                del data[key]
        kept = {k: v for k, v in state.get("stage", {}).items() if k not in data and k not in OPTIONAL}
        state["stage"] = kept | data

    @property
    def started(self) -> bool:
        return bool(self.kind)

    @property
    def due(self) -> datetime | None:
        """The deadline as a time (None before a stage opened)."""
        return parse_time(self.deadline) if self.deadline else None

    @due.setter
    def due(self, moment: datetime) -> None:
        self.deadline = iso(moment)

    @property
    def waiting(self) -> bool:
        """A question waits for the GM: orders on file are frozen."""
        return bool(self.question.key)

    @property
    def held(self) -> bool:
        """No deadline passes and no reminder goes out: paused, or waiting for the GM's answer."""
        return self.paused or self.waiting
