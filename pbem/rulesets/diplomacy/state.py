"""A Diplomacy campaign's typed state: the position on the board, who plays which power, and
the GM's draw waiting for the next resolution.

It is stored under `[game]` in state.toml in the notation players read:

    year = 1901
    season = "fall"                      # spring | fall | winter
    phase = "retreat"                    # movement | retreat | adjustment | over
    units = ["England: F NTH", "France: A BUR"]
    dislodged = ["Germany: A MUN <- BOH"]          # " VIA CONVOY" when the attacker sailed
    contested = ["SIL"]
    eliminated = []
    winner = ""
    draw = []
    start_year = 1901
    draw_pending = []                    # a DRAW the game master declared, settled at once
    [game.last]                          # what the last resolution did, for its map picture
    stage = "Spring 1901 movement"       # (left out before the first one)
    moves = [{start = "PAR", end = "BUR", kind = "move", succeeded = true, piece = "A PAR"}]
    [game.centers]
    LON = "England"
    [game.powers]                        # power -> player id ("" = nobody: civil disorder)
    England = "eng"

The stored text is the canonical form this module writes, so it is read back without the
map; a position written by hand comes in through `start`, which checks it against the map.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pbem.kit.scene import Resolved
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.base import Player
from pbem.rulesets.diplomacy.board import Board
from pbem.rulesets.diplomacy.cycle import OVER, SPRING, GameState
from pbem.rulesets.diplomacy.results import DislodgedUnit
from pbem.rulesets.diplomacy.units import Unit, unit_at
from pbem.rulesets.phases import View


@dataclass
class DiplomacyState:
    """What a Diplomacy campaign keeps between hooks. `position` is replaced whole by each
    resolution (it is the pure pipeline's frozen state); the rest belongs to the campaign."""

    position: GameState
    start_year: int
    powers: dict[str, str] = field(default_factory=dict)     # power -> player id ("" = civil disorder)
    draw_pending: list[str] = field(default_factory=list)    # powers of a DRAW the GM declared
    last: Resolved = field(default_factory=Resolved)          # what the last resolution did (`picture.marks`)

    @property
    def turn(self) -> int:
        """Spring of the first year is turn 1, its Fall (with the Winter after it) turn 2, and so on."""
        years = self.position.year - self.start_year
        return years * 2 + (1 if self.position.season == SPRING else 2)

    @property
    def over(self) -> bool:
        return self.position.phase == OVER

    @property
    def powers_by_player(self) -> dict[str, str]:
        return {pid: power for power, pid in self.powers.items() if pid}

    def power_of(self, player: Player) -> str:
        return self.powers_by_player.get(player.id, "")

    def player_of(self, power: str) -> str:
        return self.powers.get(power, "")


DipView = View[DiplomacyState, Board]
"""What every Diplomacy hook reads: the settings, this state, the board and the rules."""


def edition(view: DipView) -> str:
    """The DATC edition whose preferred rulings apply ("3.0" or "2.4")."""
    return str(view.rules["edition"])


def victory(view: DipView) -> int:
    """Supply centres a power must own after a Fall to win alone."""
    return int(view.rules["victory_centres"])


# ---------------------------------------------------------------- stored form


def dump_state(state: DiplomacyState) -> dict[str, Any]:
    last = {"last": to_data(state.last)} if state.last != Resolved() else {}
    return dump_position(state.position) | {
        "start_year": state.start_year, "powers": dict(state.powers), "draw_pending": list(state.draw_pending)} | last


def load_state(data: Mapping[str, Any]) -> DiplomacyState:
    position = load_position(data)
    return DiplomacyState(position, int(data.get("start_year", position.year)), dict(data.get("powers", {})),
                          [str(p) for p in data.get("draw_pending", [])], from_data(Resolved, data.get("last", {})))


def dump_position(state: GameState) -> dict[str, Any]:
    return {
        "year": state.year, "season": state.season, "phase": state.phase,
        "units": [str(u) for u in state.units],
        "dislodged": [dislodged_text(d) for d in state.dislodged],
        "contested": list(state.contested), "centers": dict(sorted(state.centers.items())),
        "eliminated": list(state.eliminated), "winner": state.winner, "draw": list(state.draw),
    }


def load_position(data: Mapping[str, Any]) -> GameState:
    return GameState(
        year=int(data["year"]), season=str(data["season"]), phase=str(data["phase"]),
        units=tuple(stored_unit(t) for t in data.get("units", [])),
        centers=dict(data.get("centers", {})),
        dislodged=tuple(stored_dislodged(t) for t in data.get("dislodged", [])),
        contested=tuple(data.get("contested", [])), eliminated=tuple(data.get("eliminated", [])),
        winner=str(data.get("winner", "")), draw=tuple(data.get("draw", [])),
    )


def dislodged_text(d: DislodgedUnit) -> str:
    return f"{d}{' VIA CONVOY' if d.by_convoy else ''}"


def stored_unit(text: str, key: str = "units") -> Unit:
    """A unit as `dump_position` wrote it ("England: F SPA/SC")."""
    power, sep, rest = str(text).partition(":")
    words = rest.split()
    if not sep or len(words) != 2:
        raise ValueError(f"game.{key}: {text!r} is not a stored unit like 'England: F SPA/SC'")
    return unit_at(power.strip(), words[0], words[1])


def stored_dislodged(text: str) -> DislodgedUnit:
    """A dislodged unit as `dislodged_text` wrote it ("Germany: A MUN <- BOH VIA CONVOY")."""
    unit, sep, origin = str(text).partition("<-")
    words = origin.split()
    if not sep or len(words) not in (1, 3):
        raise ValueError(f"game.dislodged: {text!r} is not a stored unit like 'Germany: A MUN <- BOH'")
    return DislodgedUnit(stored_unit(unit, "dislodged"), words[0], len(words) == 3)
