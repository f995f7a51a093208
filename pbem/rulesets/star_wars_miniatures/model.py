"""Star Wars Miniatures vocabulary: players and their factions, territories as they stand, squads
and their troops. Plain dataclasses that round-trip through TOML (`pbem.kit.tomlio`).

A squad's troops are a kit `Roster` (SWM-ROS-3): one `Entry` per troop, its campaign-unique
troop id as the entry id, the catalog card as its name, the catalog cost as its points (which
never change, SWM-ROS-5), the faction label it was fielded under as its first tag, banked and
pending XP and Force spent on mines as counters, each upgrade bought as a permanent "upgrade"
mark (name, XP paid, turn; the unique a Synergy names after ": "), and its story in the history.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.kit.places import natural_key
from pbem.kit.roster import Entry, Roster
from pbem.kit.scene import Resolved

UPGRADE = "upgrade"
BANKED, PENDING, FORCE_SPENT = "banked", "pending", "force_spent"
EARLY, LATE = "early", "late"

# Windows (the stored `window`), in the order of the calendar.
PICK = "pick"                  # automatic: the pick-order roll (SWM-SET-2/3)
FACTIONS = "factions"          # window S1
SQUADS = "squads"              # window S2, also window I of turn 1
ECONOMICS = "economics"        # window E(t)
ACTION = "action"              # window A(t)
BATTLE = "battle"              # window B(t, slot)
INITIATIVE = "initiative"      # window CI(t): cleanup of t-1 and initiative of t
OVER = "over"
WINDOWS = (PICK, FACTIONS, SQUADS, ECONOMICS, ACTION, BATTLE, INITIATIVE, OVER)


@dataclass
class Battle:
    """A tabletop battle waiting for its result (window B)."""

    id: str
    place: str
    side: list[str]                           # the acting side's players
    attackers: list[str]                      # squads, in order of entry
    defenders: list[str]                      # active squads of the controller and his allies (SWM-BAT-6)
    fortified: bool = False
    mined: bool = False
    mine_hits: list[str] = field(default_factory=list)   # troops starting with 10 damage (SWM-BAT-16)
    force_spent: dict[str, int] = field(default_factory=dict)


@dataclass
class Player:
    id: str
    faction: str = ""                  # a key of [factions]
    region: str = ""                   # start region
    capital: str = ""                  # the capital of his start region (SWM-ECO-6)
    treasury: int = 0
    officers: list[str] = field(default_factory=list)    # advantage keys held (SWM-ADV-3)
    stance: str = ""                   # standing: "early" | "late" | "" (SWM-INI-14)
    prefer: list[str] = field(default_factory=list)       # standing PREFER ranking of slot labels
    train: str = ""                    # standing TRAIN target (SWM-PBM-7)
    retreats: dict[str, list[str]] = field(default_factory=dict)    # squad id or "ALL" -> ranking
    overstack: dict[str, list[str]] = field(default_factory=dict)   # territory -> squads to remove first
    mine_rerolls: dict[str, int] = field(default_factory=dict)      # troop id -> most re-rolls
    built_this_turn: int = 0           # SWM-ECO-10
    operative_turn: int = 0            # the turn of his last Special Operative (SWM-ADV-5)


@dataclass
class Land:
    """What changes on a territory."""

    owner: str = ""                    # "" only for an inactive territory (SWM-SET-7)
    active: bool = True
    fortified: bool = False
    minefield: bool = False
    disrupted: bool = False            # this turn (SWM-ADV-6)


@dataclass
class Squad:
    id: str
    owner: str
    place: str
    name: str = ""
    arrived: int = 0                   # arrival order (SWM-PBM-9): higher arrived later
    damaged: bool = False
    disrupted: bool = False            # stood in a territory when it was disrupted (SWM-ADV-7)
    roster: Roster = field(default_factory=lambda: Roster(""))

    @property
    def troops(self) -> list[Entry]:
        return self.roster.entries

    @property
    def points(self) -> int:
        return sum(t.points for t in self.troops)


@dataclass
class SWMState:
    turn: int = 0
    window: str = ""
    players: dict[str, Player] = field(default_factory=dict)
    lands: dict[str, Land] = field(default_factory=dict)
    squads: dict[str, Squad] = field(default_factory=dict)
    alliances: list[list[str]] = field(default_factory=list)    # this turn's (SWM-ALL-3)
    sides: list[list[str]] = field(default_factory=list)        # the turn order: slot 1 first
    next_troop: int = 1
    next_squad: int = 1
    arrivals: int = 0
    log: list[str] = field(default_factory=list)                # this step's public report lines
    winners: list[str] = field(default_factory=list)
    pick_order: list[str] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)       # this turn's initiative totals (reports)
    granted: dict[str, list[str]] = field(default_factory=dict)   # what special territories give now
    gm_results: dict[str, str] = field(default_factory=dict)     # battle -> the winner the GM set
    slot: int = 0                                               # the Action slot being played (0-based)
    action_orders: dict[str, list[str]] = field(default_factory=dict)   # canonical A lines per player
    battles: list[Battle] = field(default_factory=list)         # window B: the slot's open battles
    retreating: list[tuple[str, str]] = field(default_factory=list)   # (squad, from) once the slot settles
    last: Resolved = field(default_factory=Resolved)            # this turn's moves and battles, for pictures
    late_rosters: dict[str, str] = field(default_factory=dict)  # window S2: player -> his own deadline (ISO)
    battle_grace: str = ""                                      # window B: when single reports apply (ISO)
    battle_reports: dict[str, list[str]] = field(default_factory=dict)   # window B lines kept through the grace

    # -- queries ------------------------------------------------------------------------
    def owner(self, place: str) -> str:
        return self.lands[place].owner

    def allies(self, player: str) -> set[str]:
        """The player and everyone allied with him this turn (SWM-GEN-5)."""
        for group in self.alliances:
            if player in group:
                return set(group)
        return {player}

    def friendly(self, player: str, place: str) -> bool:
        land = self.lands[place]
        return land.active and land.owner in self.allies(player)

    def enemy(self, player: str, place: str) -> bool:
        land = self.lands[place]
        return land.active and bool(land.owner) and land.owner not in self.allies(player)

    def squads_in(self, place: str) -> list[Squad]:
        return sorted((s for s in self.squads.values() if s.place == place), key=lambda s: natural_key(s.id))

    def squads_of(self, player: str) -> list[Squad]:
        return sorted((s for s in self.squads.values() if s.owner == player), key=lambda s: natural_key(s.id))

    def troop(self, ident: str) -> tuple[Squad, Entry] | None:
        for squad in self.squads.values():
            for t in squad.troops:
                if t.id.casefold() == ident.casefold():
                    return squad, t
        return None

    def arrive(self, squad: Squad, place: str) -> None:
        """A squad enters a territory: setup, build, move, retreat, shuttle, strategic move (SWM-PBM-9)."""
        self.arrivals += 1
        squad.place, squad.arrived = place, self.arrivals

    def side_of(self, player: str) -> list[str]:
        return next((s for s in self.sides if player in s), [player])

    def held(self, player: str, key: str) -> bool:
        """An officer bought (SWM-ADV-3) or granted by a special territory he controls (SWM-ADV-17)."""
        return key in self.players[player].officers or key in self.granted.get(player, [])
