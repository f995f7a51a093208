"""The dice of a round played at the table, across sittings.

A round at the table rolls under one salt of its own (the stage's salt as the round began at the
table, with `/table`): the rolls made so far come back first in the log, and each new roll
continues the turn's committed sequence where the last sitting stopped, so `pbem verify-dice`
recomputes the whole round as one stage. With `--dice typed` each new roll is asked for instead
(pbem.kit.typed_dice.PromptedDice) and logged as typed; rolls a player's interrupted round already
typed are used again, in order, before anything new is asked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pbem.kit.dice import CommittedDice, Roll, TypedRoll
from pbem.kit.typed_dice import TypedDice

TABLE_SALT = "/table"
"""What the round's salt adds to the stage's: the table's rolls never share a salt with the
stage's own resolution, so a GM's RESOLVE of a half-played round rolls dice of its own."""


def _nothing(roll: Roll) -> None:
    """No screen to show a roll on."""


class TableDice(CommittedDice):
    """The round's dice: `earlier` rolls first; new ones committed, or typed through `typed`;
    `again` typed rolls of an interrupted round replayed before asking; `shown` sees every new one."""

    def __init__(self, secret: str, salt: str, earlier: Sequence[Roll], typed: TypedDice | None = None,
                 again: Sequence[Roll] = (), shown: Callable[[Roll], None] = _nothing) -> None:
        super().__init__(secret, salt)
        self.log = list(earlier)
        self._faces = sum(len(r.faces) for r in earlier if not isinstance(r, TypedRoll))
        self.typed, self.again, self.shown = typed, list(again), shown

    def roll(self, purpose: str, count: int = 1, sides: int = 6) -> Roll:
        replayed = self._replayed(purpose, count, sides)
        if replayed is not None:
            result: Roll = replayed
            self.log.append(result)
        elif self.typed is None:
            result = super().roll(purpose, count, sides)
        else:
            faces = self.typed.roll(purpose, count, sides).faces
            result = TypedRoll(len(self.log), purpose, sides, faces, self.typed.typed_by)
            self.log.append(result)
        self.shown(result)
        return result

    def _replayed(self, purpose: str, count: int, sides: int) -> TypedRoll | None:
        """The next roll typed before the interruption, when it is the roll asked for now."""
        if not self.again:
            return None
        old = self.again[0]
        if (old.purpose, old.sides, len(old.faces)) != (purpose, sides, count) or not isinstance(old, TypedRoll):
            self.again = []            # the round went another way: nothing more to replay
            return None
        self.again.pop(0)
        return TypedRoll(len(self.log), purpose, sides, old.faces, old.typed_by)
