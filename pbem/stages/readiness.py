"""Who is ready for a stage to close before its deadline.

A stage used to close as soon as every player owing orders had sent something, even orders
with rejected lines, while the acknowledgement promised "You may send new orders until
<deadline>". A player now counts as ready only when his orders on file are clean (the last mail
had no rejected line and the rule system reports nothing missing), or when he says `READY`
after reading the acknowledgement. `WAIT` keeps the stage open to its deadline for him until he
sends `READY` or `CLEAR`: a new mail of orders does not lift it, so a player fixing his orders
in several mails is never overtaken. The counts are stored with the orders when the
acknowledgement is made (`submissions.<player>.rejected` / `.missing`), and READY and WAIT with
the stage (`[stage] ready` / `wait`), so the tick decides without parsing anything again.

`[schedule] early_close = "never"` keeps every stage open to its deadline.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any

from pbem.rulesets.base import Stage
from pbem.stages.record import StageRecord


@dataclass(frozen=True)
class Readiness:
    """One player's standing for an early close of the stage now open."""

    sent: bool = False        # orders on file
    rejected: int = 0         # lines of his last mail of orders that were not accepted
    missing: int = 0          # what the rule system reports still missing from the orders on file
    said_ready: bool = False  # READY since his last mail of orders
    wait: bool = False        # WAIT, until READY or CLEAR

    @property
    def ready(self) -> bool:
        if self.wait:
            return False
        return self.said_ready or (self.sent and not self.rejected and not self.missing)

    def shown(self) -> str:
        """What `pbem status` prints for him."""
        if self.wait:
            return "waiting (WAIT): no early close on his account"
        if self.said_ready:
            return "ready (READY)" + (f", {self._sent()}" if self.sent else ", nothing sent")
        if not self.sent:
            return "nothing sent"
        return "ready" if self.ready else self._sent()

    def _sent(self) -> str:
        parts = [f"{_lines(self.rejected)} rejected"] if self.rejected else []
        parts += [f"{self.missing} still missing"] if self.missing else []
        return "sent" + (" with " + " and ".join(parts) if parts else "")

    def not_yet(self, shown: str = "listed above") -> str:
        """Why he is not ready yet ("1 line was rejected"); `shown`: where what is missing is listed."""
        if not self.sent:
            return "nothing is on file for you yet"
        reasons = [f"{_lines(self.rejected)} {'was' if self.rejected == 1 else 'were'} rejected"] \
            if self.rejected else []
        reasons += [f"{self.missing} {'thing is' if self.missing == 1 else 'things are'} still missing "
                    f"({shown})"] if self.missing else []
        return " and ".join(reasons)


def _lines(count: int) -> str:
    return "1 line" if count == 1 else f"{count} lines"


def readiness(state: MutableMapping[str, Any], player: str, stage: Stage | None = None) -> Readiness:
    """`player`'s readiness in the stage now open, from state.toml alone. In a stage where one
    member of a group answers for it (`Stage.owing_any`: Conquest's sides of a team battle) what is
    missing is judged by group, every group needing an answer, so a member's own list of what he
    did not send (a battle his team-mate reported) does not hold him back."""
    record = StageRecord.read(state)
    sub = state.get("submissions", {}).get(player)
    if sub is None:
        return Readiness(said_ready=player in record.ready, wait=player in record.wait)
    missing = 0 if stage is not None and stage.owing_any else int(sub.get("missing", 0))
    return Readiness(True, int(sub.get("rejected", 0)), missing, player in record.ready, player in record.wait)


def say(state: dict[str, Any], player: str, word: str) -> None:
    """READY (he is ready, whatever his orders on file; lifts WAIT), WAIT, or a new mail of orders
    ("ORDERS": a READY said before does not cover them; WAIT stays)."""
    record = StageRecord.read(state)
    record.ready = [p for p in record.ready if p != player] + ([player] if word == "READY" else [])
    if word == "READY":
        record.wait = [p for p in record.wait if p != player]
    if word == "WAIT" and player not in record.wait:
        record.wait.append(player)
    record.write(state)


def forget(state: dict[str, Any], player: str) -> None:
    """CLEAR: his orders are withdrawn, and with them READY and WAIT."""
    record = StageRecord.read(state)
    record.ready = [p for p in record.ready if p != player]
    record.wait = [p for p in record.wait if p != player]
    record.write(state)
