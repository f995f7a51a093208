"""Campaigns of Conquest vocabulary: empires, tiles, battles, results and the round.

Everything here is a plain dataclass that round-trips through TOML
(`pbem.kit.tomlio.to_data` / `from_data`); no field holds None: absence is "",
0, an empty list or a flag. Players are named by their campaign player id
everywhere. Sides of a battle are "attacker" (the challenging side, COC-CHL-17,
or the besieger, COC-ABR-2) and "defender".

The map (terrain, adjacency, objectives, sea) never changes and lives in
`tiles.HexMap`; what changes on a tile (banner, building) lives in `TileState`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.kit.hexes import HexMap
from pbem.kit.scene import Resolved
from pbem.rulesets.phases import View

# --- names used across modules -------------------------------------------------

BUILDINGS = ("castle", "city", "mine", "port")
FORTIFIED = ("castle", "city")                 # conquest surcharge, raid guard, no plunder (COC-BLD-8)
OBJECTIVES = ("mage_tower", "dwarf_brewery", "orc_idol")

EVENTS = ("fools_gold", "building_boom", "disaster", "all_or_nothing",
          "scouts", "diplomacy", "land_grab", "elite_army")     # chart numbers 1..8
TARGETED_EVENTS = ("fools_gold", "disaster", "diplomacy")

ATTACKER, DEFENDER = "attacker", "defender"
SIDES = (ATTACKER, DEFENDER)

# Battle kinds (COC-TRN step A.4)
LAND, TEAM, SIEGE, SEA = "land", "team", "siege", "sea"

# Result categories per side, as in `results.ep` (COC-RES-1); "higher_vp" is the
# 2-EP side of a battle where nobody withdrew (COC-RES-6).
LOSE, DRAW, MINOR, MAJOR, MASSACRE, HIGHER_VP = (
    "lose", "draw", "minor_victory", "major_victory", "massacre", "higher_vp")
VICTORIES = (MINOR, MAJOR, MASSACRE)

# Windows and automatic steps of a round (COC-TRN-1), in order.
W_CAPITALS = "capitals"        # setup window S, once
W_CAMPAIGN = "campaign"        # window 1: events, challenges, team choice
W_SETUP = "setup"              # window 2: battle setup
W_RESULTS = "results"          # window 3: battle results
W_CONQUEST = "conquest"        # window 4: conquest and build
W_OVER = "over"                # somebody won
WINDOWS = (W_CAPITALS, W_CAMPAIGN, W_SETUP, W_RESULTS, W_CONQUEST, W_OVER)


def other_side(side: str) -> str:
    return DEFENDER if side == ATTACKER else ATTACKER


# --- the map as it changes -----------------------------------------------------

@dataclass
class TileState:
    """What can change on a tile: whose banner, which building (COC-GEN-4, COC-BLD-1).

    On a besieged tile `owner` is the besieger and the fortification belongs to
    the defender named in the matching `Siege` (COC-SIE-4)."""

    owner: str = ""               # player id; "" = free tile
    building: str = ""            # "" or one of BUILDINGS


@dataclass
class Siege:
    """A besieged castle or city (COC-SIE-4..16)."""

    tile: str
    besieger: str
    defender: str
    started_round: int
    assault_round: int = 0        # last round an assault was declared (one per round, COC-SIE-9)


@dataclass
class NavalAdvantage:
    """`holder` has Naval Advantage over `subject` (COC-NAV-5..11)."""

    holder: str
    subject: str


# --- players -------------------------------------------------------------------

@dataclass
class Empire:
    """One player's standing between rounds."""

    player: str                   # player id
    name: str                     # display name ("Anna")
    colour: str = ""              # banner colour (COC-GEN-4)
    capital: str = ""             # tile id picked in window S
    treasury: int = 0             # whole gold pieces, never below 0 (COC-GEN-5)
    carried_ep: int = 0           # 0 or 1 unused EP from the last round (COC-SPD-22)
    eliminated: bool = False      # COC-GEN-9
    eliminated_round: int = 0


# --- step 0: size and order ------------------------------------------------------

@dataclass
class SizeEntry:
    """One line of the opening report (COC-ORD-11)."""

    player: str
    size: float                   # cities count 2, besieged tiles 0.5 (COC-ORD-1, COC-SIE-6)
    tiles: int
    cities: int
    castles: int                  # castles, cities counted too when `size.cities_count_as_castles_in_tiebreak`
    tiebreak: list[int] = field(default_factory=list)   # every tie-break die this player rolled, in order
    rank: int = 0                 # 1 = largest empire


# --- window 1 and step A ---------------------------------------------------------

@dataclass
class Placement:
    """A building put on a tile (Building Boom, COC-EVT-10)."""

    building: str
    tile: str


@dataclass
class EventPick:
    """An event a player took in step A (COC-EVT-19)."""

    player: str
    event: str                    # key in EVENTS
    target: str = ""              # player id for targeted events
    placement: Placement = field(default_factory=lambda: Placement("", ""))   # Building Boom carried out
    note: str = ""                # what happened, for the report ("no legal placement", "fallback")


@dataclass
class DisasterRoll:
    player: str                   # whose marker
    tile: str
    building: str
    die: int
    destroyed: bool


@dataclass
class MineRevenue:
    """One mine in the Revenue phase (COC-REV)."""

    player: str
    tile: str
    terrain_rate: str             # "river" or "mountain": the rate used
    faces: list[int] = field(default_factory=list)
    gold: int = 0
    exhausted: bool = False
    skipped: str = ""             # "fools_gold" when not rolled (COC-REV-9)


@dataclass
class Challenge:
    """One settled challenge, in the order made (COC-CHL)."""

    challenger: str
    target: str
    sea: bool = False
    broke_team: bool = False      # the target was a team member (COC-CHL-9)
    note: str = ""


@dataclass
class Battle:
    """One battle of the round's list (COC-TRN step A.4, COC-CHL-17).

    `attackers` are in the order they challenged: the first one gets any
    remainder of an equal team split (COC-BAT-12)."""

    id: str                       # "B1", "B2", ...
    kind: str                     # LAND, TEAM, SIEGE or SEA
    attackers: list[str]
    defenders: list[str]
    tile: str = ""                # the besieged tile of a siege assault

    @property
    def players(self) -> list[str]:
        return [*self.attackers, *self.defenders]

    def side_of(self, player: str) -> str:
        if player in self.attackers:
            return ATTACKER
        return DEFENDER if player in self.defenders else ""

    def members(self, side: str) -> list[str]:
        return list(self.attackers if side == ATTACKER else self.defenders)

    def team_side(self, side: str) -> bool:
        return len(self.members(side)) > 1


# --- window 2 and step B ---------------------------------------------------------

@dataclass
class SetupOrder:
    """One player's window-2 line for one battle (COC-BAT-2, -4, -12, -21, COC-ABR-1)."""

    battle: str
    points: int = 0               # proposed base size; 0 = no proposal
    gold: int = 0                 # 0..200
    share: int = 0                # team member's share of the base; 0 = none stated
    stand_in: str = ""            # name of a volunteer playing for him
    abstract: bool = False        # asks for abstract resolution


@dataclass
class Army:
    """One player's army in a settled battle (COC-BAT-10)."""

    player: str
    side: str
    share: int                    # base size, or his team share
    largest_bonus: int = 0        # COC-BAT-3
    gold: int = 0                 # gold actually spent (after COC-BAT-8 cuts)
    gold_bonus: int = 0           # COC-BAT-5
    total: int = 0
    stand_in: str = ""


@dataclass
class BattleSetup:
    """Step B's settlement of one battle."""

    battle: str
    points: int                   # the base size used
    armies: list[Army] = field(default_factory=list)
    abstract: bool = False        # abstract resolution requested: settled at once
    note: str = ""                # how the size was settled ("smaller of 2000/1500")

    def army(self, player: str) -> Army | None:
        return next((a for a in self.armies if a.player == player), None)


# --- window 3 and step C ---------------------------------------------------------

@dataclass
class ResultReport:
    """The facts one side reports for a battle (COC-RES-19, COC-NAV-4, COC-SIE-10)."""

    battle: str
    reporter: str
    withdrew: str = "none"        # "none", ATTACKER or DEFENDER
    vp_attacker: int = 0
    vp_defender: int = 0
    bp_attacker: int = 0          # break point of the side (combined for a team, COC-RES-14)
    bp_defender: int = 0
    lost_attacker: int = 0        # units lost that count toward break point
    lost_defender: int = 0
    surrendered: str = ""         # "", ATTACKER or DEFENDER
    general_killed: str = ""      # "", ATTACKER or DEFENDER: a team general was killed (COC-RES-13)
    stand_in: bool = False
    winner: str = ""              # siege and sea: ATTACKER, DEFENDER or "draw"
    abstract: bool = False        # asks for abstract resolution instead (COC-ABR-1)

    def facts(self) -> tuple[object, ...]:
        """What two reports must agree on (COC-RES-20); the reporter is not a fact."""
        return (self.withdrew, self.vp_attacker, self.vp_defender, self.bp_attacker, self.bp_defender,
                self.lost_attacker, self.lost_defender, self.surrendered, self.general_killed, self.winner)


@dataclass
class BattleOutcome:
    """A settled battle: the category of each side and how it was settled."""

    battle: str
    attacker: str                 # category for the attacking side (LOSE, DRAW, ...)
    defender: str
    how: str = "reported"         # "reported", "gm", "abstract"
    abstract_faces: list[int] = field(default_factory=list)
    abstract_bonus: int = 0
    abstract_total: int = 0
    note: str = ""

    def category(self, side: str) -> str:
        return self.attacker if side == ATTACKER else self.defender

    @property
    def winner(self) -> str:
        """ATTACKER, DEFENDER or "" for a draw / no winner."""
        if self.attacker in VICTORIES:
            return ATTACKER
        return DEFENDER if self.defender in VICTORIES else ""


@dataclass
class BattleEP:
    battle: str
    category: str
    ep: int                       # after the team modifier and the floor (COC-RES-12)


@dataclass
class EPAward:
    """A player's EP for the round, worked out in the order of COC-RES-16 (COC-RES-23)."""

    player: str
    battles: list[BattleEP] = field(default_factory=list)
    average: int = 0              # floor of the mean of battle EP (COC-RES-15)
    all_or_nothing: str = ""      # "", "bonus" (+2) or "lost" (0 this round)
    earned: int = 0               # after All or Nothing
    carried: int = 0              # from the last round
    available: int = 0            # earned + carried (COC-SPD-2)


@dataclass
class Win:
    """`winner` won `count` land battles against `loser` this round (COC-RES-17)."""

    winner: str
    loser: str
    count: int = 1


# --- window 4 and step D ---------------------------------------------------------

@dataclass
class ActionRecord:
    """What happened to one ordered action (or its alternate) in step D."""

    player: str
    text: str                     # the action in canonical form
    done: bool
    cost: int = 0
    reason: str = ""              # why it was skipped
    faces: list[int] = field(default_factory=list)   # raid dice
    gold: int = 0


@dataclass
class Spending:
    player: str
    available: int = 0
    spent: int = 0
    carried: int = 0              # what goes into the next round
    lost: int = 0
    actions: list[ActionRecord] = field(default_factory=list)


# --- the round and the campaign --------------------------------------------------

@dataclass
class RoundState:
    """Everything of the round in play; cleared when the next round opens."""

    number: int = 0
    window: str = W_CAPITALS
    order: list[str] = field(default_factory=list)        # ascending: smallest empire first (COC-ORD-8)
    largest: str = ""                                     # COC-ORD-9
    sizes: list[SizeEntry] = field(default_factory=list)
    events: list[EventPick] = field(default_factory=list)
    disaster: list[DisasterRoll] = field(default_factory=list)
    revenue: list[MineRevenue] = field(default_factory=list)
    challenges: list[Challenge] = field(default_factory=list)
    missed_challenges: list[str] = field(default_factory=list)   # silent players who owed one (COC-CHL-15)
    missed_sea_challenges: list[str] = field(default_factory=list)   # the same at sea (naval.sea_challenge_mandatory)
    team_choice: dict[str, str] = field(default_factory=dict)    # player -> "team" / "individual"
    assaults: list[str] = field(default_factory=list)           # tiles whose siege assault was declared
    battles: list[Battle] = field(default_factory=list)
    setup_orders: dict[str, list[SetupOrder]] = field(default_factory=dict)   # player -> window-2 lines
    setups: list[BattleSetup] = field(default_factory=list)
    reports: list[ResultReport] = field(default_factory=list)
    outcomes: list[BattleOutcome] = field(default_factory=list)
    disputed: list[str] = field(default_factory=list)           # battle ids waiting for the GM
    ep: list[EPAward] = field(default_factory=list)
    wins: list[Win] = field(default_factory=list)
    spending: list[Spending] = field(default_factory=list)
    siege_consent: dict[str, list[str]] = field(default_factory=dict)   # owner -> allowed besiegers
    standing_setups: dict[str, list[SetupOrder]] = field(default_factory=dict)  # window-1 BATTLE lines, for
                                                          # step B when there is no window 2 (COC-TRN-5)
    log: list[str] = field(default_factory=list)           # plain lines for the round report
    log_shown: int = 0                                     # log lines the public reports already showed

    def holder(self, event: str) -> list[str]:
        """Players who took `event` this round."""
        return [e.player for e in self.events if e.event == event]

    def holds(self, player: str, event: str) -> bool:
        return any(e.player == player and e.event == event for e in self.events)

    def targets_of(self, player: str, event: str) -> list[str]:
        return [e.target for e in self.events if e.player == player and e.event == event]

    def battle(self, ident: str) -> Battle | None:
        return next((b for b in self.battles if b.id == ident), None)

    def outcome(self, ident: str) -> BattleOutcome | None:
        return next((o for o in self.outcomes if o.battle == ident), None)

    def setup(self, ident: str) -> BattleSetup | None:
        return next((s for s in self.setups if s.battle == ident), None)

    def award(self, player: str) -> EPAward | None:
        return next((a for a in self.ep if a.player == player), None)

    def wins_against(self, winner: str, loser: str) -> int:
        return sum(w.count for w in self.wins if w.winner == winner and w.loser == loser)

    def beaten_by(self, winner: str) -> list[str]:
        return [w.loser for w in self.wins if w.winner == winner]


@dataclass
class ConquestState:
    """The whole campaign as stored under `[game]` in state.toml."""

    empires: dict[str, Empire] = field(default_factory=dict)          # player id -> empire
    tiles: dict[str, TileState] = field(default_factory=dict)         # every land tile of the map
    sieges: list[Siege] = field(default_factory=list)
    naval: list[NavalAdvantage] = field(default_factory=list)
    events_taken: list[str] = field(default_factory=list)             # campaign-scope uniqueness (COC-EVT-3)
    round: RoundState = field(default_factory=RoundState)
    capital_order: list[str] = field(default_factory=list)            # window S pick order (COC-SET-4)
    capital_rolls: dict[str, list[int]] = field(default_factory=dict)
    winner: str = ""
    win_reason: str = ""
    history: list[str] = field(default_factory=list)                  # one line per finished round
    last: Resolved = field(default_factory=Resolved)                  # what the last window did, for its
                                                                      # map picture (`picture.round_marks`)

    # -- queries ---------------------------------------------------------------
    def active(self) -> list[str]:
        """Players still in the game, in campaign order."""
        return [p for p, e in self.empires.items() if not e.eliminated]

    def tiles_of(self, player: str) -> list[str]:
        return [t for t, s in self.tiles.items() if s.owner == player]

    def siege_at(self, tile: str) -> Siege | None:
        return next((s for s in self.sieges if s.tile == tile), None)

    def fortification_owner(self, tile: str) -> str:
        """Who holds the castle or city on a tile: the defender while besieged."""
        siege = self.siege_at(tile)
        return siege.defender if siege else self.tiles[tile].owner

    def has_advantage(self, holder: str, subject: str) -> bool:
        return any(n.holder == holder and n.subject == subject for n in self.naval)


ConquestView = View[ConquestState, HexMap]
"""What every hook reads: the campaign's settings, this state, the hex map, the rule book, the moment."""
