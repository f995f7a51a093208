"""Mighty Kingdoms vocabulary: kingdoms, tiles, armies, artefacts and the calendar.

Every class is a plain dataclass that round-trips through TOML (`pbem.kit.tomlio`);
no field holds None: absence is "", 0, an empty list or a flag. Players are named by
their campaign player id everywhere; armies by their id (`army_id`), units by
"<army>.<unit>" (`unit_key`), tiles by the map's tile id.

The map (hexes, terrain, starting tiles) never changes and lives in `HexMap`; what
changes on a tile lives in `TileState`, kept only for tiles that are explored or a
tower (an absent tile is unexplored, MK-GEN-2). An army's list is a kit `Roster`
(`armylist` reads and writes it): KoW stats in each entry's counters, special rules
in its tags, medals and scars as temporary marks, its story in the roster history.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.kit.hexes import HexMap
from pbem.kit.places import natural_key as natural
from pbem.kit.roster import Roster
from pbem.rulesets.mighty_kingdoms.battle_state import BattlePhase
from pbem.rulesets.mighty_kingdoms.setup_state import SetupScratch
from pbem.rulesets.mighty_kingdoms.summer_state import MonthScratch
from pbem.rulesets.mighty_kingdoms.winter_state import WinterScratch
from pbem.rulesets.phases import View

# Windows (the stored `calendar.window`), in the order of the calendar.
SETUP = "setup"                # window S, once
ORDERS = "orders"              # window O, each summer month
BATTLE = "battle"              # window B, one per tabletop battle
PURCHASES = "purchases"        # window W1, each winter
DEPLOYMENT = "deployment"      # window W2, each winter
OVER = "over"                  # the campaign has ended (campaign.years reached)
WINDOWS = (SETUP, ORDERS, BATTLE, PURCHASES, DEPLOYMENT, OVER)

VILLAGE, CITY, FORTRESS = "village", "city", "fortress"
SETTLEMENTS = (VILLAGE, CITY, FORTRESS)
CONTROL = "control"            # a ring tile with a control marker and no settlement (MK-SET-5)
DIRECTIONS = ("NE", "E", "SE", "SW", "W", "NW")   # clockwise from NE (A32)

MEDAL, SCAR = "medal", "scar"  # roster mark kinds, cleared at Reform
WINTER = 7                     # `calendar.month` of the winter; 0 is setup, 1..6 the summer
DRAW = "draw"


@dataclass
class TileState:
    """What can change on an explored tile (MK-GEN-2, MK-GEN-12)."""

    owner: str = ""               # player id; "" only for a wizard's tower
    tower: bool = False           # a wizard's tower: never controlled, never entered (MK-EXP-5)
    settlement: str = ""          # "" or one of SETTLEMENTS
    razed: bool = False           # the settlement is upside down: a Raze is pending (MK-ORD-11)


@dataclass
class Army:
    id: str
    owner: str                    # player id
    tile: str
    upright: bool = True          # False = laid on its side (MK-GEN-12)
    defend: bool = False          # carries a defend marker
    roster: Roster = field(default_factory=lambda: Roster(""))


@dataclass
class Standing:
    """Standing preferences (MK-PBM-5): sent in any window, kept until replaced or cleared."""

    battles: list[str] = field(default_factory=list)       # ranked "tile opponent", "*" wildcards
    slaughter: list[str] = field(default_factory=list)     # enemy army ids to remove first
    retreats: dict[str, list[str]] = field(default_factory=dict)   # army id or "*" -> ranked tiles
    win_move: str = ""                                     # "<army> <tile>", "" = none
    reform: dict[str, dict[str, str]] = field(default_factory=dict)
    """unit key -> result -> choice: {"2": "brutal", "4": "elite", "5": "piercing", "6": "ra", "scar0": "me"}"""
    quests: list[str] = field(default_factory=list)        # ranked quest types, kept between winters


@dataclass
class Kingdom:
    player: str
    name: str
    start_tile: str = ""          # the claimed starting tile: its city is the capital (MK-GEN-8)
    gold: int = 0
    food: int = 0
    armies_raised: int = 0        # the highest army number used: ids are never reused (A32)
    standing: Standing = field(default_factory=Standing)


@dataclass
class Holding:
    """Who holds an artefact (MK-ART-1); an artefact nobody holds is in the pool and has no Holding."""

    owner: str                    # player id
    army: str = ""                # "" = held at the owner's capital (MK-ART-7)
    unit: str = ""                # unit id within the army


@dataclass
class Calendar:
    year: int = 1
    month: int = 0                # 0 = setup, 1..6 = summer months, WINTER = winter
    window: str = SETUP
    summer: int = 6               # campaign.summer_months, so a shorter summer numbers its turns on without a gap

    @property
    def turn(self) -> int:
        """The engine's turn number: setup is 0, then one per summer month and one for the winter
        (seven a year with the rules' six months)."""
        month = self.summer + 1 if self.month == WINTER else self.month
        return 0 if self.month == 0 else (self.year - 1) * (self.summer + 1) + month


@dataclass
class MKState:
    calendar: Calendar = field(default_factory=Calendar)
    order: list[str] = field(default_factory=list)         # player order, first to act first
    kingdoms: dict[str, Kingdom] = field(default_factory=dict)
    tiles: dict[str, TileState] = field(default_factory=dict)
    armies: dict[str, Army] = field(default_factory=dict)
    artefacts: dict[str, Holding] = field(default_factory=dict)
    month: MonthScratch = field(default_factory=MonthScratch)
    battle: BattlePhase = field(default_factory=BattlePhase)
    winter: WinterScratch = field(default_factory=WinterScratch)
    setup: SetupScratch = field(default_factory=SetupScratch)

    # -- reading the board ---------------------------------------------------------------
    def tile(self, tile: str) -> TileState:
        """The tile's state; an unexplored tile reads as a fresh, unowned `TileState` (not stored)."""
        return self.tiles.get(tile, TileState())

    def explored(self, tile: str) -> bool:
        return tile in self.tiles

    def owner(self, tile: str) -> str:
        return self.tile(tile).owner

    def towers(self) -> list[str]:
        return [t for t, s in self.tiles.items() if s.tower]

    def armies_of(self, player: str) -> list[Army]:
        """The player's armies in army-id order (natural: A2 before A10)."""
        return sorted((a for a in self.armies.values() if a.owner == player), key=lambda a: natural(a.id))

    def armies_in(self, tile: str) -> list[Army]:
        return sorted((a for a in self.armies.values() if a.tile == tile), key=lambda a: natural(a.id))

    def enemies_in(self, tile: str, player: str) -> list[Army]:
        """Armies of any other player in the tile, upright or not (MK-RES-7)."""
        return [a for a in self.armies_in(tile) if a.owner != player]

    def kingdom_tiles(self, player: str) -> list[str]:
        return sorted((t for t, s in self.tiles.items() if s.owner == player), key=natural)

    def settlements_of(self, player: str, kind: str = "") -> list[str]:
        return [t for t in self.kingdom_tiles(player)
                if self.tiles[t].settlement and (not kind or self.tiles[t].settlement == kind)]

    def capital_of(self, player: str) -> str:
        """The player's capital tile, or "" (MK-GEN-8: a city on his own starting tile that he controls)."""
        start = self.kingdoms[player].start_tile
        state = self.tile(start) if start else TileState()
        return start if start and state.owner == player and state.settlement == CITY else ""

    def original_owner(self, tile: str) -> str:
        """The player whose starting tile this is ("" for any other tile)."""
        return next((p for p, k in self.kingdoms.items() if k.start_tile == tile), "")


def army_id(player: str, number: int) -> str:
    """Army `number` of `player`: "A3" for player a; "P1-3" when the player id ends in a digit."""
    prefix = player.upper()
    return f"{prefix}-{number}" if prefix[-1:].isdigit() else f"{prefix}{number}"


def unit_key(army: str, unit: str) -> str:
    return f"{army}.{unit}"


MKView = View[MKState, HexMap]
