"""One player's strategic orders as the rules apply them (WT-PBEM-1): the conditional order of the
catalog, already read and checked. `RoundOrders()` are the default orders of a player who sent
nothing (WT-PBEM-10)."""

from __future__ import annotations

from dataclasses import dataclass, field

UNTIL_SUCCESS = "until_success"
ALWAYS = "always"
STOP = "stop"
PASS = "pass"
STOP_AT = "stop_at"
ALL = "ALL"

Pick = tuple[str, int]          # (marker type, count)


@dataclass
class Attempt:
    """One entry of the attempt list (WT-PBEM-5..8)."""

    stack: str
    mode: str = UNTIL_SUCCESS
    first: list[str] = field(default_factory=list)          # ranked first-step exits
    route: list[str] = field(default_factory=list)          # planned tiles
    forks: dict[str, list[str]] = field(default_factory=dict)
    default: list[str] = field(default_factory=list)        # fallback direction ranking
    campfire: str = STOP
    stop_at: list[str] = field(default_factory=list)


@dataclass
class Division:
    stack: str
    parts: list[tuple[str, list[str]]]                      # (new stack id, marker ids)


@dataclass
class RoundOrders:
    rest: bool = True                                       # REST IF-ALLOWED
    divisions: list[Division] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)
    recruit: dict[str, dict[str, list[Pick]]] = field(default_factory=dict)   # stack|ALL -> terrain -> picks
    remove: dict[str, list[str]] = field(default_factory=dict)                # stack|ALL -> ids or types
    volunteer: bool | None = None                            # None = unchanged

    def picks(self, stack: str, terrain: str) -> list[Pick]:
        """The stack's own list for the terrain, else the ALL list (gap 27)."""
        own = self.recruit.get(stack, {}).get(terrain)
        return own if own is not None else self.recruit.get(ALL, {}).get(terrain, [])

    def removals(self, stacks: list[str]) -> list[str]:
        out: list[str] = []
        for stack in [*stacks, ALL]:
            out += self.remove.get(stack, [])
        return out
