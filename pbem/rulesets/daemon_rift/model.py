"""Daemon Rift vocabulary: tokens, lists, factions, orders and the campaign state.

Everything here is a plain dataclass that round-trips through TOML
(`pbem.kit.tomlio`). Token ids are `<faction>-1..3` for list tokens (by list slot)
and `<faction>-D1`, `<faction>-D2` for defensive tokens (DR-LST-1).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.kit.roster import Roster

# --- tokens and lists ---------------------------------------------------------

LIST_ACTIVE = "active"          # tied to a token on the map
LIST_SHELVED = "shelved"        # token removed by the count; comes back as it was (DR-TOK-6)
LIST_ELIMINATED = "eliminated"  # slot waits for a 2200-point replacement (DR-TOK-8)
LIST_UNUSED = "unused"          # never filled


def token_id(faction: str, slot: int | str) -> str:
    return f"{faction}-{slot}"


def defensive_id(faction: str, number: int) -> str:
    return f"{faction}-D{number}"


def is_defensive(token: str) -> bool:
    return token.rsplit("-", 1)[-1].startswith("D")


@dataclass
class Token:
    id: str
    faction: str
    territory: str

    @property
    def defensive(self) -> bool:
        return is_defensive(self.id)

    @property
    def slot(self) -> int:
        """List slot 1-3 of a list token (0 for a defensive token)."""
        return 0 if self.defensive else int(self.id.rsplit("-", 1)[-1])

    @property
    def sort_key(self) -> tuple[int, int]:
        """List tokens 1-3 before defensive tokens D1-D2 (DR-GEN-4)."""
        tail = self.id.rsplit("-", 1)[-1]
        return (1, int(tail[1:])) if self.defensive else (0, int(tail))


@dataclass
class ArmyList:
    """What the processor keeps for one list slot of a faction (DR-LST-9)."""

    faction: str
    slot: int
    status: str = LIST_UNUSED
    name: str = ""
    points: int = 2250
    approved: bool = False
    artillery: bool = False
    fast: bool = False                 # every unit Move 7 or more
    battles: int = 0                   # WHF tabletop battles fought (DR-LST-7)
    replacement: bool = False          # a 2200-point replacement not yet raised
    arrival_turn: int = 0              # first turn its token may take orders (DR-REP-9)
    declared: list[str] = field(default_factory=list)   # special characters and unique magic items (DR-LST-3)
    repair_saved: str = "0"            # repair points kept for a later Hold, exact ("36 2/3"): `repair.carry_over`
    repaired_turn: int = 0             # the turn it last had repairs applied: `repair.repeatable = false`
    roster: Roster = field(default_factory=lambda: Roster(""))   # entries and their ledger (DR-LST-9, DR-LOS, DR-EXP)

    @property
    def key(self) -> str:
        return token_id(self.faction, self.slot)


@dataclass
class Faction:
    id: str                            # short id, the token prefix: "R"
    name: str                          # "Red"
    player: str                        # player id in campaign.toml
    stronghold: str
    originals: list[str]
    defeated: list[str] = field(default_factory=list)   # factions beaten at least once (DR-VP-5)
    defeated_by_rolloff: list[str] = field(default_factory=list)
    tokens_eliminated: int = 0         # enemy tokens eliminated in battle (DR-VP-6)
    eliminated: bool = False
    owed_list_tokens: int = 0          # entitled but not placed for lack of room (DR-TOK-11)
    owed_defensive_tokens: int = 0


@dataclass
class PairBattle:
    """One WHF tabletop battle between two factions, for pair counts and locks (DR-ROL)."""

    turn: int
    factions: list[str]                # the two faction ids, sorted


# --- orders --------------------------------------------------------------------

HOLD = "H"
MOVE = "M"
SUPPORT = "S"


@dataclass(frozen=True)
class Order:
    """One token's order. `kind` is H, M or S.

    - Hold: `R-1 H`
    - Move: `R-1 M T5` or a path `R-1 M T1-T2-T3`; `path` lists every territory entered
    - Support a move: `R-2 S R-1 T5-T6` (`target` R-1, `path` = (origin, destination))
    - Support a hold: `R-2 S R-1` (`target` R-1, empty path)
    Any order may name a champion for a tied contest at strength 2+ (DR-BAT-3).
    """

    token: str
    kind: str
    path: tuple[str, ...] = ()
    target: str = ""
    champion: str = ""

    @property
    def destination(self) -> str:
        return self.path[-1] if self.kind == MOVE else ""

    @property
    def supports_move(self) -> bool:
        return self.kind == SUPPORT and bool(self.path)

    def __str__(self) -> str:
        text = {HOLD: f"{self.token} H", MOVE: f"{self.token} M {'-'.join(self.path)}"}.get(self.kind, "")
        if self.kind == SUPPORT:
            text = f"{self.token} S {self.target}" + (f" {'-'.join(self.path)}" if self.path else "")
        return text + (f" champion {self.champion}" if self.champion else "")


@dataclass(frozen=True)
class RepairItem:
    """One entry of a repair plan (DR-REP-10): `count` models or wounds of an entry, or an
    item worth `points` for a green character. `cost` is the unit cost the player expects
    ("" when not given; a fraction like "110/3" for a wound), checked against the ledger."""

    kind: str                          # model | wound | item
    target: str                        # entry id
    count: int = 1
    cost: str = ""
    name: str = ""                     # the replacement item's name

    def __str__(self) -> str:
        if self.kind == "item":
            return f"item {self.target} @{self.cost}" + (f" {self.name}" if self.name else "")
        return f"{self.count} {self.kind} {self.target}" + (f" @{self.cost}" if self.cost else "")


@dataclass
class FactionOrders:
    """Everything one faction sent for the orders window (DR-ORD-1, DR-ORD-9)."""

    orders: dict[str, Order] = field(default_factory=dict)
    retreats: dict[str, list[str]] = field(default_factory=dict)   # token -> ranked territories
    rolloff_against: list[str] = field(default_factory=list)        # standing requests (DR-ROL-8)
    placement: list[str] = field(default_factory=list)              # ranked home territories (DR-TOK-9)
    removal: list[str] = field(default_factory=list)                # ranked tokens (DR-TOK-5)
    explicit: list[str] = field(default_factory=list)               # tokens given an order by the player
    repairs: dict[str, list[RepairItem]] = field(default_factory=dict)   # token -> plan (DR-REP-10)
    choices: dict[str, dict[str, str]] = field(default_factory=dict)     # token -> entry -> stat (DR-EXP-11)


# --- state ---------------------------------------------------------------------

@dataclass
class GMAction:
    turn: int
    text: str


@dataclass
class DRState:
    """The campaign between windows. `phase` names the window now open."""

    turn: int = 1
    phase: str = "orders"              # orders | battles | retreats | over
    factions: dict[str, Faction] = field(default_factory=dict)
    faction_order: list[str] = field(default_factory=list)
    tokens: dict[str, Token] = field(default_factory=dict)
    lists: dict[str, ArmyList] = field(default_factory=dict)       # key "R-1" (faction-slot)
    control: dict[str, str] = field(default_factory=dict)          # territory -> faction id; unclaimed absent
    battles_fought: list[PairBattle] = field(default_factory=list)
    gm_log: list[GMAction] = field(default_factory=list)

    def token_at(self, territory: str) -> Token | None:
        for token in self.tokens.values():
            if token.territory == territory:
                return token
        return None

    def tokens_of(self, faction: str) -> list[Token]:
        return sorted((t for t in self.tokens.values() if t.faction == faction), key=lambda t: t.sort_key)

    def list_of(self, token: Token) -> ArmyList | None:
        return None if token.defensive else self.lists.get(token.id)

    def controlled_by(self, faction: str) -> list[str]:
        return [t for t, f in self.control.items() if f == faction]

    def ordered_factions(self) -> list[str]:
        return [f for f in self.faction_order if f in self.factions]


# --- what a turn settled ----------------------------------------------------------

@dataclass
class BattleResult:
    """The accepted result of one battle (DR-BAT-7). `winner` is a faction id, "" on a draw."""

    battle: int
    winner: str = ""
    massacred: bool = False
    obliterated: bool = False
    source: str = "players"            # players | single-report | gm | rolloff

    @property
    def draw(self) -> bool:
        return not self.winner


@dataclass
class Elimination:
    """A token taken off the map this turn, and who scores it (DR-VP-6, G-2)."""

    token: str
    faction: str
    cause: str                         # massacre | obliteration | no-retreat | collision | disbanded
    credited_to: str = ""              # faction scoring the token, "" for nobody
    territory: str = ""


@dataclass
class TurnFacts:
    """What movement, battles and retreats settled. The end-of-turn step reads only this
    and the state (tokens already at their final positions, eliminated ones removed)."""

    entered: dict[str, str] = field(default_factory=dict)      # token -> territory it moved into (claims it)
    stayed: list[str] = field(default_factory=list)            # tokens ending where they started, not retreated
    retreated: dict[str, str] = field(default_factory=dict)    # token -> territory (no claim, DR-RET-7)
    eliminated: list[Elimination] = field(default_factory=list)
    held: list[str] = field(default_factory=list)              # effective order Hold: explicit H, or default hold
    default_held: list[str] = field(default_factory=list)      # ... of which default holds (no order sent)
    attacked: list[str] = field(default_factory=list)          # territories a foreign effective move ended in


@dataclass
class ArtilleryRoll:
    token: str
    die: int
    failed: bool


@dataclass
class Effective:
    """Orders after validation, artillery dice and interception (DR-ORD-10).

    `orders` has one entry per token on the map. An invalid order, and a move
    stopped by its artillery die, become `Order(token, "H")` here and are listed in
    `invalid` / `stopped` (neither counts as a Hold for repairs). A void support
    keeps its S order and is listed in `void_supports`; it adds nothing.
    """

    orders: dict[str, Order] = field(default_factory=dict)
    submitted: dict[str, Order] = field(default_factory=dict)     # as sent (absent: no order)
    invalid: dict[str, str] = field(default_factory=dict)         # token -> reason
    stopped: list[str] = field(default_factory=list)              # artillery die of 1 (DR-ART-4)
    void_supports: dict[str, str] = field(default_factory=dict)   # token -> reason
    artillery: list[ArtilleryRoll] = field(default_factory=list)
    intercepted: dict[str, list[str]] = field(default_factory=dict)   # token -> path before the cut (DR-SPD-9)
