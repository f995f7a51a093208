"""The table's record of the round under way: `[stage.table]` in state.toml.

It lives in the stage's record, so it belongs to one opening of the strategic window and is gone
when the next stage opens (or a rollback restores an earlier state). It holds the round's own
dice salt, every roll made at the table so far, the order each played player's round was played
with, and the round a sitting was interrupted in (`pending`: his confirmed order and the dice
typed for it), so that the next sitting neither plays a round twice nor loses one.
The rule system keeps who has played in its own game (pbem.rulesets.wandering_tribes.table).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass, field
from typing import Any

from pbem.kit import dice as dicemod
from pbem.kit.tomlio import from_data, to_data

KEY = "table"


@dataclass
class Pending:
    """A player's round begun and not stored: his order, confirmed, and the dice typed for it."""

    player: str = ""
    lines: list[str] = field(default_factory=list)
    source: str = ""
    rolls: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Played:
    """The order a player's round was played with, and where it came from."""

    lines: list[str] = field(default_factory=list)
    source: str = ""               # "typed at the table", "mailed", "no order"


@dataclass
class TableRecord:
    salt: str = ""
    started: str = ""
    rolls: list[dict[str, Any]] = field(default_factory=list)
    played: dict[str, Played] = field(default_factory=dict)
    pending: Pending = field(default_factory=Pending)

    @classmethod
    def read(cls, state: MutableMapping[str, Any]) -> TableRecord:
        return from_data(cls, state.get("stage", {}).get(KEY, {}))

    def write(self, state: MutableMapping[str, Any]) -> None:
        data = to_data(self)
        if not self.pending.player:
            del data["pending"]
        state["stage"][KEY] = data

    @property
    def begun(self) -> bool:
        return bool(self.salt)

    def logged(self) -> list[dicemod.Roll]:
        return [dicemod.logged_roll(r) for r in self.rolls]

    def pending_rolls(self) -> list[dicemod.Roll]:
        return [dicemod.logged_roll(r) for r in self.pending.rolls]
