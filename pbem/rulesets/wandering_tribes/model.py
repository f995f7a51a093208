"""The typed state of a Wandering Tribes campaign: players, stacks of markers, locked pairs.

Markers carry no damage state (WT-GEN-10): a marker is present at full strength or gone. Marker
ids are numbers unique in the campaign ("m12"); stack ids are the army markers' ids, unique too
("A1", "A1b"). Everything here is plain data, so a round can be replayed on a copy.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from pbem.kit.places import natural_key

TOGETHER = "together"
ONE_ON_ONE = "one_on_one"


@dataclass
class Marker:
    id: str
    type: str
    points: int

    @property
    def no(self) -> int:
        """The marker's number ("m12" -> 12), its order for "higher id" tie-breaks."""
        digits = "".join(c for c in self.id if c.isdigit())
        return int(digits) if digits else 0


@dataclass
class Stack:
    id: str
    owner: str
    tile: str
    markers: list[Marker] = field(default_factory=list)

    @property
    def points(self) -> int:
        """WT-GEN-5: the sum of the unit markers' points (the army marker has no value)."""
        return sum(m.points for m in self.markers)

    def types(self) -> list[str]:
        return [m.type for m in self.markers]

    def count(self, type_: str) -> int:
        return sum(1 for m in self.markers if m.type == type_)


@dataclass
class Player:
    name: str
    nation: str = ""
    army_name: str = ""
    resting: bool = False
    out: bool = False                 # dropped out: last stack removed (WT-GEN-11)
    volunteer: bool = False           # standing ambush volunteer flag (mode one_on_one)


@dataclass
class Lock:
    """Two stacks locked in combat in a tile; `defender` entered it first (WT-ENC-7)."""

    defender: str
    attacker: str
    tile: str

    def has(self, stack: str) -> bool:
        return stack in (self.defender, self.attacker)


@dataclass
class State:
    seats: list[str] = field(default_factory=list)        # clockwise seating (WT-SET-11)
    players: dict[str, Player] = field(default_factory=dict)
    stacks: dict[str, Stack] = field(default_factory=dict)
    locks: list[Lock] = field(default_factory=list)
    round: int = 0                                        # the strategic round now or last played
    first_rest: int = 0                                   # round of the cycle's first rest; 0 = none (WT-REST-12)
    next_marker: int = 1

    def copy(self) -> State:
        return copy.deepcopy(self)

    def new_marker(self, type_: str, points: int) -> Marker:
        marker = Marker(f"m{self.next_marker}", type_, points)
        self.next_marker += 1
        return marker

    # -- queries ------------------------------------------------------------------
    def stacks_of(self, player: str) -> list[Stack]:
        return sorted((s for s in self.stacks.values() if s.owner == player), key=lambda s: natural_key(s.id))

    def stacks_in(self, tile: str) -> list[Stack]:
        return sorted((s for s in self.stacks.values() if s.tile == tile), key=lambda s: natural_key(s.id))

    def lock_of(self, stack: str) -> Lock | None:
        return next((lock for lock in self.locks if lock.has(stack)), None)

    def locked(self, stack: str) -> bool:
        return self.lock_of(stack) is not None

    def locked_count(self, player: str) -> int:
        return sum(1 for s in self.stacks_of(player) if self.locked(s.id))

    def active(self) -> list[str]:
        """Players still in the campaign, in seat order."""
        return [p for p in self.seats if not self.players[p].out]

    def non_resting(self) -> list[str]:
        return [p for p in self.active() if not self.players[p].resting]

    def score(self, player: str) -> int:
        """WT-VIC-3: the points of every unit marker in all his stacks."""
        return sum(s.points for s in self.stacks_of(player))

    # -- changes ------------------------------------------------------------------
    def rest(self, player: str) -> None:
        """A player becomes resting; the cycle's first rest is recorded (WT-REST-12)."""
        self.players[player].resting = True
        if not self.first_rest:
            self.first_rest = self.round

    def remove_stack(self, stack: str) -> list[str]:
        """Take a stack off the map (and out of its lock); a player left with none drops out
        (WT-GEN-11). Returns the log lines."""
        gone = self.stacks.pop(stack)
        self.locks = [lock for lock in self.locks if not lock.has(stack)]
        lines = [f"{stack} ({gone.owner}) is removed from play"]
        if not self.stacks_of(gone.owner) and not self.players[gone.owner].out:
            self.players[gone.owner].out = True
            lines.append(f"{gone.owner} has no stack left and drops out of the campaign")
        return lines
