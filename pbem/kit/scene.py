"""What a rule system wants a map picture to show, in words every rule system shares.

A rule system's `scene(view)` hook fills a `Scene` from its typed state; the drawing code reads
only the scene and the map's `PlaceMap` interface, so it knows nothing of any rule system.

What a stage did (its moves, clashes and dislodged pieces) is kept by the rule system in its
typed state as a `Resolved` record, written when the stage resolves. Keeping it in the stored
game, rather than building the picture once at resolve time, makes the stored game the one
source of every picture of the stage: the report's, a private one, and any `pbem render` draws
later from `history/` (which keeps the game after every resolved stage), with the drawing code
of that day.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

MOVE = "move"
SUPPORT = "support"
CONVOY = "convoy"
RETREAT = "retreat"
MOVE_KINDS = (MOVE, SUPPORT, CONVOY, RETREAT)

BATTLE = "battle"
SIEGE = "siege"
STANDOFF = "standoff"
CLASH_KINDS = (BATTLE, SIEGE, STANDOFF)


@dataclass(frozen=True)
class Side:
    """A player's faction, power or empire as the picture colours it."""

    id: str
    name: str
    colour: str = ""          # a colour name or #rrggbb; "" lets the picture pick one
    tag: str = ""             # a short mark shown on its pieces when their ids do not name it ("Eng")


@dataclass(frozen=True)
class Piece:
    """An army, fleet, token or stack standing in a place."""

    id: str                   # what orders call it: "R-1", "F BRE", "Anna's army"
    place: str
    owner: str                # a Side id
    kind: str = ""            # "army", "fleet", "token", "defensive", ...: shown as a letter
    dislodged: bool = False   # must retreat (or was dislodged this turn)


@dataclass(frozen=True)
class Move:
    """An arrow: a move, a support, a convoy or a retreat from one place towards another."""

    start: str
    end: str
    kind: str = MOVE
    succeeded: bool = True
    piece: str = ""


@dataclass(frozen=True)
class Clash:
    """A battle, siege or standoff in a place."""

    place: str
    kind: str = BATTLE
    label: str = ""           # "B1", "siege of T12"


@dataclass(frozen=True)
class Marker:
    """Something the state (not the map) puts on a place: a capital picked, a building raised."""

    place: str
    kind: str                 # a feature name: "capital", "castle", "city", "mine", ...


@dataclass(frozen=True)
class Resolved:
    """What the last resolved stage did, as a picture shows it: kept in a rule system's typed
    state (its `last` field), replaced by each resolution, stored with the game.

    `dislodged` names pieces (by `Piece.id`) that were forced out or must retreat; `notes` are
    legend lines for what has no place on the map (a battle's outcome, a unit disbanded)."""

    stage: str = ""                          # the stage's title: "Turn 3: orders", "Spring 1901 movement"
    moves: tuple[Move, ...] = ()
    clashes: tuple[Clash, ...] = ()
    dislodged: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def titled(self, stage: str) -> Resolved:
        return Resolved(stage, self.moves, self.clashes, self.dislodged, self.notes)


@dataclass(frozen=True)
class Scene:
    title: str                               # "rift-demo: Turn 3"
    stage: str = ""                          # "orders", "Fall 1901 retreats"
    sides: tuple[Side, ...] = ()
    owners: Mapping[str, str] = field(default_factory=dict)      # place -> Side id
    pieces: tuple[Piece, ...] = ()
    moves: tuple[Move, ...] = ()
    clashes: tuple[Clash, ...] = ()
    markers: tuple[Marker, ...] = ()
    notes: tuple[str, ...] = ()              # extra legend lines ("VP: Red 3, Blue 1")

    def side(self, ident: str) -> Side | None:
        return next((s for s in self.sides if s.id == ident), None)


def headline(campaign: str, last: Resolved, title: str, stage: str) -> tuple[str, str]:
    """The picture's title and stage line: the stage `last` resolved and the one now open, or,
    before anything was resolved, `title` and `stage` (the position as it stands)."""
    if last.stage:
        return f"{campaign}: {last.stage}", f"resolved; next: {stage}" if stage else "resolved"
    return title, stage
