"""Daemon Rift Step A: supports, cuts, strengths, contests and the battle list.

Everything strength alone decides is settled here (DR-MOV, DR-SUP). Two-sided
ties between factions become battles, each either a tabletop battle or a
roll-off rolled at once (DR-BAT-1, DR-ROL). Contests whose sides are known only
after a battle are recorded as dependent contests for Step B (DR-MOV-25,
DR-MOV-27). Support cut by dislodgement on strength (DR-SUP-6) makes cuts
depend on each other as in Diplomacy, so cuts are settled by the shared
dependency resolver.

The returned `Movement` is plain data that round-trips through `pbem.kit.tomlio`:
it is stored between windows and is what the movement report and the battle
briefings are rendered from (DR-TRN-3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from pbem.kit.dice import Dice
from pbem.kit.resolver import Resolver
from pbem.kit.rulebook import RuleBook
from pbem.kit.territories import GameMap
from pbem.rulesets.base import ask
from pbem.rulesets.daemon_rift.model import (
    LIST_ACTIVE,
    MOVE,
    SUPPORT,
    DRState,
    Effective,
    FactionOrders,
    Order,
    is_defensive,
)

ENTRANT = "entrant"
DEFENDER = "defender"
SWAP = "swap"
TABLETOP = "tabletop"
ROLLOFF = "rolloff"


# --- what the movement report shows ---------------------------------------------

@dataclass
class OrderLine:
    """One token's order as submitted and as it took effect (DR-TRN-3)."""

    token: str
    faction: str
    start: str
    submitted: str                     # "" when no order was sent (default hold)
    effective: str
    note: str = ""                     # invalid reason, artillery stop, void support


@dataclass
class SupportLine:
    supporter: str
    target: str
    destination: str                   # "" for a support of a hold
    valid: bool
    cut: bool
    reason: str = ""                   # why void or cut


@dataclass
class Side:
    """A principal token with its valid, uncut supporters (DR-MOV terms)."""

    faction: str
    token: str
    role: str                          # entrant | defender | swap
    strength: int
    origin: str                        # the principal's start territory
    supporters: list[str] = field(default_factory=list)


@dataclass
class Exclusion:
    """An entrant that failed before strengths were compared."""

    token: str
    reason: str                        # "own defender" (DR-MOV-3) | "lone token" (DR-SUP-10) | ...


@dataclass
class Contest:
    """One contested territory, or one enemy swap (kind "swap", both territories).

    outcome: occupied | held | standoff | battle | swap-won | dependent | gm
    """

    territory: str
    kind: str                          # contest | swap | follow-up
    sides: list[Side] = field(default_factory=list)
    excluded: list[Exclusion] = field(default_factory=list)
    outcome: str = ""
    winner: str = ""                   # token winning on strength ("" if none)
    battle: int = 0                    # battle number, 0 if none
    territories: list[str] = field(default_factory=list)   # a swap's two territories
    note: str = ""


@dataclass
class BattleSide:
    faction: str
    token: str                         # principal token
    role: str                          # entrant | defender | swap
    strength: int
    destination: str = ""              # territory it fights for (a swap: the other's start)
    champion: str = ""                 # token whose army fights ("" if none eligible)
    points: int = 0                    # for the briefing: list points (+ stronghold bonus)
    list_battles: int = 0              # the champion list's prior WHF battle count
    supporters: list[str] = field(default_factory=list)


@dataclass
class Battle:
    """A two-sided tie between factions: a tabletop battle or a roll-off (DR-BAT-1)."""

    number: int
    territory: str                     # contested territory (a swap: the lower id)
    swap_territories: list[str] = field(default_factory=list)
    kind: str = TABLETOP               # tabletop | rolloff
    why: str = ""                      # why a roll-off: "locked: pair count 2", "defensive token", ...
    sides: list[BattleSide] = field(default_factory=list)
    home_faction: str = ""             # "" = no home side (DR-HOME-10)
    home_stronghold: bool = False
    terrain: str = ""
    terrain_die: int = 0               # swap-terrain die (DR-TER-9), 0 if none
    pieces_min: int = 0
    pieces_max: int = 0
    pieces_rolled: int = 0             # with terrain.roll_piece_count (DR-TER-10)
    required: dict[str, int] = field(default_factory=dict)
    river: bool = False
    concealed: bool = False            # magic items concealed (DR-LST-6)
    favoured: str = ""                 # roll-off: favoured faction
    threshold: int = 0
    die: int = 0
    winner: str = ""                   # roll-off winner faction (tabletop: from the result)
    follows: str = ""                  # a dependent contest's territory: fought in a later window

    @property
    def swap(self) -> bool:
        return bool(self.swap_territories)

    def side_of(self, faction: str) -> BattleSide:
        return next(s for s in self.sides if s.faction == faction)


@dataclass
class Dependent:
    """A contest whose sides are known only after a battle (DR-MOV-27).

    mode "swap": the follow-up at `territory`, the start of swap token `occupant`
    (DR-MOV-25). mode "vacated": a move into the start of a mover whose fate waits
    on a battle (DR-MOV-28). `others` are the remaining entrants, strengths fixed.
    """

    territory: str
    mode: str
    occupant: str
    waits_on: int                      # battle number
    others: list[Side] = field(default_factory=list)
    excluded: list[Exclusion] = field(default_factory=list)


@dataclass
class Movement:
    """Everything Step A settled, stored between windows (DR-MOV-19)."""

    turn: int
    vacated_entry: str
    orders: list[OrderLine] = field(default_factory=list)
    supports: list[SupportLine] = field(default_factory=list)
    contests: list[Contest] = field(default_factory=list)
    battles: list[Battle] = field(default_factory=list)
    dependents: list[Dependent] = field(default_factory=list)
    starts: dict[str, str] = field(default_factory=dict)        # token -> start territory
    factions: dict[str, str] = field(default_factory=dict)      # token -> faction
    destinations: dict[str, str] = field(default_factory=dict)  # mover -> destination
    paths: dict[str, list[str]] = field(default_factory=dict)   # multi-space mover -> territories entered
    fates: dict[str, str] = field(default_factory=dict)         # token -> Step A fate (see FATES)
    victors: dict[str, str] = field(default_factory=dict)       # beaten token -> token that beat it
    reasons: dict[str, str] = field(default_factory=dict)       # token -> why it failed or was dislodged
    at_stake: dict[str, int] = field(default_factory=dict)      # token -> battle deciding its fate
    standoffs: list[str] = field(default_factory=list)          # territories of standoffs (DR-RET-3)
    attacked: list[str] = field(default_factory=list)           # territories a foreign move ended in
    held: list[str] = field(default_factory=list)               # effective Hold: explicit H or no order
    default_held: list[str] = field(default_factory=list)       # ... of which no order was sent

    @property
    def pending(self) -> list[Battle]:
        """Tabletop battles waiting for results (window 2)."""
        return [b for b in self.battles if b.kind == TABLETOP]

    def battle(self, number: int) -> Battle:
        return next(b for b in self.battles if b.number == number)


# Step A fates: entered / failed (mover settled) | stays / dislodged (staying token
# settled; a swap loser on strength is dislodged) | battle (principal of a battle) |
# unless-draw (lower defender, dislodged unless the battle is drawn) | dependent.
FATES = ("entered", "failed", "stays", "dislodged", "battle", "unless-draw", "dependent")


# --- the board: who is where and what each order does ------------------------------

class Board:
    """Read-only view of the position and the effective orders for adjudication."""

    def __init__(self, state: DRState, gmap: GameMap, rules: RuleBook, eff: Effective) -> None:
        self.state, self.gmap, self.rules, self.eff = state, gmap, rules, eff
        self.start = {t: tok.territory for t, tok in state.tokens.items()}
        self.faction = {t: tok.faction for t, tok in state.tokens.items()}
        self.orders = {t: eff.orders.get(t, Order(t, "H")) for t in state.tokens}
        self.occupant = {where: t for t, where in self.start.items()}
        self.movers = {t: o.destination for t, o in self.orders.items() if o.kind == MOVE}
        self.support_reasons: dict[str, str] = {}
        self.move_supports: dict[str, list[str]] = {t: [] for t in self.movers}
        self.hold_supports: dict[str, list[str]] = {t: [] for t in state.tokens if t not in self.movers}
        self._classify_supports()
        self.cut: dict[str, bool] = {}
        self.cut_reason: dict[str, str] = {}

    def token_order(self) -> list[str]:
        """Faction order, then token number (DR-GEN-4)."""
        return token_order(self.state)

    def entrants(self, territory: str) -> list[str]:
        return [t for t in self.token_order() if self.movers.get(t) == territory]

    def staying_at(self, territory: str) -> str:
        tok = self.occupant.get(territory, "")
        return tok if tok and tok not in self.movers else ""

    # -- supports (DR-ORD-5, DR-ORD-6, G-7) ----------------------------------------
    def _classify_supports(self) -> None:
        for tok in self.token_order():
            order = self.orders[tok]
            if order.kind != SUPPORT:
                continue
            reason = self.eff.void_supports.get(tok) or self._void_reason(tok, order)
            if reason:
                self.support_reasons[tok] = reason
            elif order.path:
                self.move_supports[order.target].append(tok)
            else:
                self.hold_supports[order.target].append(tok)

    def _void_reason(self, tok: str, order: Order) -> str:
        target = order.target
        if target not in self.start or target == tok:
            return "no such token to support"
        if self.faction[target] != self.faction[tok] and not self.rules["support.allow_foreign"]:
            return "supports another faction's token"
        if order.path:
            origin, dest = order.path[0], order.path[-1]
            if self.movers.get(target) != dest or self.start[target] != origin:
                return "the supported token does not move there"
            return "" if self.gmap.adjacent(self.start[tok], dest) else "not next to the destination"
        if target in self.movers:
            return "the supported token moves"
        return "" if self.gmap.adjacent(self.start[tok], self.start[target]) else "not next to the token"

    def supported_place(self, supporter: str) -> str:
        order = self.orders[supporter]
        return order.path[-1] if order.path else self.start[order.target]

    # -- cuts (DR-SUP-3 to DR-SUP-6) -----------------------------------------------
    def attack_cut(self, supporter: str) -> str:
        """The attacker's start if a foreign move ending here cuts the support, else ""."""
        if not self.rules["support.cut_by_attack"]:
            return ""
        here = self.start[supporter]
        order = self.orders[supporter]
        for mover, dest in self.movers.items():
            if dest != here or self.faction[mover] == self.faction[supporter]:
                continue
            if order.path and self.rules["support.cut_exception_from_target"] and self.start[mover] == order.path[-1]:
                continue
            return self.start[mover]
        return ""

    def uncut(self, supporters: Sequence[str], cut: Callable[[str], bool], against: str = "") -> list[str]:
        """Supporters that count; a foreign support never helps dislodge its own side (DR-SUP-2)."""
        return [s for s in supporters if not cut(s) and not self._helps_against_own(s, against)]

    def _helps_against_own(self, supporter: str, against: str) -> bool:
        own = self.faction[supporter]
        return own == against and own != self.faction[self.orders[supporter].target]

    def attack(self, mover: str, cut: Callable[[str], bool] | None = None, against: str = "") -> int:
        return 1 + len(self.uncut(self.move_supports[mover], cut or self.is_cut, against))

    def defence(self, token: str, cut: Callable[[str], bool] | None = None) -> int:
        return 1 + len(self.uncut(self.hold_supports.get(token, []), cut or self.is_cut))

    def is_cut(self, supporter: str) -> bool:
        return self.cut.get(supporter, False)

    def dislodged_on_strength(self, territory: str, cut: Callable[[str], bool]) -> bool:
        """Whether one entrant beats the staying token here on strength alone."""
        defender = self.staying_at(territory)
        if not defender:
            return False
        foes = [e for e in self.entrants(territory) if self.faction[e] != self.faction[defender]
                and not self.swap_partner(e)]
        strengths = sorted((self.attack(e, cut, self.faction[defender]) for e in foes), reverse=True)
        if not strengths:
            return False
        best = strengths[0]
        return best > self.defence(defender, cut) and (len(strengths) == 1 or strengths[1] < best)

    def resolve_cuts(self) -> None:
        """Settle every cut with the shared resolver (DR-SUP-6 creates cycles)."""
        def decide(res: Resolver[str], supporter: str) -> bool:
            if self.attack_cut(supporter):
                return True
            if not self.rules["support.cut_by_dislodgement_on_strength"]:
                return False
            return self.dislodged_on_strength(self.start[supporter], res.resolve)

        def backup(res: Resolver[str], cycle: Sequence[str]) -> None:
            for key in cycle:
                res.settle(key, False)

        valid = [s for group in (*self.move_supports.values(), *self.hold_supports.values()) for s in group]
        self.cut = Resolver(decide, backup).decide_all(sorted(valid))
        for s, is_cut in self.cut.items():
            if is_cut:
                origin = self.attack_cut(s)
                self.cut_reason[s] = f"cut by attack from {origin}" if origin else "cut by dislodgement"

    # -- swaps (DR-MOV-17, DR-MOV-22) ----------------------------------------------
    def swap_partner(self, mover: str) -> str:
        dest = self.movers.get(mover, "")
        other = self.occupant.get(dest, "")
        if other and self.movers.get(other) == self.start[mover]:
            return other
        return ""

    def enemy_swaps(self) -> list[tuple[str, str]]:
        pairs = []
        for a in self.token_order():
            b = self.swap_partner(a)
            if b and self.faction[a] != self.faction[b] \
                    and self.gmap.order(self.start[a]) < self.gmap.order(self.start[b]):
                pairs.append((a, b))
        return sorted(pairs, key=lambda p: self.gmap.order(self.start[p[0]]))

    def in_enemy_swap(self, mover: str) -> bool:
        other = self.swap_partner(mover)
        return bool(other) and self.faction[other] != self.faction[mover]


def token_order(state: DRState) -> list[str]:
    """Token ids in faction order, then list tokens 1-3 before D1-D2 (DR-GEN-4)."""
    rank = {f: i for i, f in enumerate(state.faction_order)}
    return [t.id for t in sorted(state.tokens.values(), key=lambda t: (rank.get(t.faction, 99), t.sort_key))]


# --- deciding one contest ---------------------------------------------------------

def rank_sides(sides: Sequence[Side], multiway: str) -> tuple[str, list[Side]]:
    """Outcome of comparing strengths (DR-MOV-5, 6, 9, 10): (outcome, top sides)."""
    if not sides:
        return "empty", []
    top = max(s.strength for s in sides)
    tops = [s for s in sides if s.strength == top]
    if len(tops) == 1:
        return ("held" if tops[0].role == DEFENDER else "occupied"), tops
    if len(tops) == 2 and tops[0].faction != tops[1].faction:
        return "battle", tops
    if len(tops) > 2 and multiway == "gm":
        return "gm", tops
    return "standoff", tops


def gm_tie(decisions: Mapping[str, str], key: str, gmap: GameMap, place: str,
           tops: list[Side]) -> tuple[str, list[Side]]:
    """`movement.multiway_tie = "gm"`: the GM sets a sequence of battles at the table and names
    the token that takes (or keeps) the territory, or a standoff (DR-MOV-10)."""
    names = ", ".join(f"{s.token} ({s.role}, strength {s.strength})" for s in tops)
    choice = ask(decisions, key, f"{len(tops)} sides tie at {gmap.label(place)}: {names}. "
                 "Name the token that takes the territory after the battles you set, or standoff.",
                 [s.token for s in tops] + ["standoff"])
    winner = next((s for s in tops if s.token == choice), None)
    if winner is None:
        return "standoff", tops
    return ("held" if winner.role == DEFENDER else "occupied"), [winner]


def lock_status(state: DRState, a: str, b: str, rules: RuleBook) -> tuple[int, bool]:
    """Pair count and lock of factions a and b at the start of this turn (DR-ROL-3 to 5, G-4)."""
    earlier = [p for p in state.battles_fought if p.turn < state.turn]
    mutual = [p for p in earlier if sorted(p.factions) == sorted((a, b))]
    count = len(mutual)
    lock_after = int(rules["rolloff.lock_after"])
    if count < lock_after or (not rules["rolloff.lock_repeats"] and count != lock_after):
        return count, False
    last = max((p.turn for p in mutual), default=0)

    def fought_third(f: str) -> bool:
        return any(p.turn > last and f in p.factions and set(p.factions) != {a, b} for p in earlier)

    moved_on = [fought_third(a), fought_third(b)]
    locked = not all(moved_on) if rules["rolloff.lock_requires_both_fought_others"] else not any(moved_on)
    return count, locked


# --- Step A --------------------------------------------------------------------------

class StepA:
    """Works out one turn's movement; `run()` returns the Movement."""

    def __init__(self, state: DRState, gmap: GameMap, rules: RuleBook, eff: Effective,
                 submitted: dict[str, FactionOrders], dice: Dice, decisions: Mapping[str, str] | None = None) -> None:
        self.board = Board(state, gmap, rules, eff)
        self.state, self.gmap, self.rules, self.eff = state, gmap, rules, eff
        self.submitted, self.dice = submitted, dice
        self.decisions = decisions or {}
        self.mv = Movement(turn=state.turn, vacated_entry=str(rules["movement.vacated_entry"]))
        self.diplomacy = self.mv.vacated_entry == "diplomacy"

    def run(self) -> Movement:
        self.board.resolve_cuts()
        self._record_orders()
        self._record_supports()
        self._swaps()
        self._contests()
        self._number_battles()
        for battle in self.mv.battles:
            BattleSetup(self, battle).build()
        self._attacked()
        return self.mv

    # -- the record ------------------------------------------------------------------
    def _record_orders(self) -> None:
        b = self.board
        for tok in b.token_order():
            sent = self.eff.submitted.get(tok)
            note = self.eff.invalid.get(tok, "")
            if tok in self.eff.stopped:
                note = "stopped by its artillery die (DR-ART-4)"
            note = note or b.support_reasons.get(tok, "") or b.cut_reason.get(tok, "")
            self.mv.orders.append(OrderLine(tok, b.faction[tok], b.start[tok], str(sent) if sent else "",
                                            str(b.orders[tok]), note))
            self.mv.starts[tok] = b.start[tok]
            self.mv.factions[tok] = b.faction[tok]
            if tok in b.movers:
                self.mv.destinations[tok] = b.movers[tok]
                if len(b.orders[tok].path) > 1:
                    self.mv.paths[tok] = list(b.orders[tok].path)
            else:
                self.mv.fates[tok] = "stays"
            if b.orders[tok].kind == "H" and tok not in self.eff.invalid and tok not in self.eff.stopped:
                self.mv.held.append(tok)
                if sent is None:
                    self.mv.default_held.append(tok)

    def _record_supports(self) -> None:
        b = self.board
        for tok in b.token_order():
            order = b.orders[tok]
            if order.kind != SUPPORT:
                continue
            dest = order.path[-1] if order.path else ""
            void = b.support_reasons.get(tok, "")
            self.mv.supports.append(SupportLine(tok, order.target, dest, not void, b.is_cut(tok),
                                                void or b.cut_reason.get(tok, "")))

    def _attacked(self) -> None:
        b = self.board
        hit = {d for m, d in b.movers.items() if b.occupant.get(d) and b.faction[b.occupant[d]] != b.faction[m]}
        self.mv.attacked = self.gmap.sorted(hit)

    # -- fates -----------------------------------------------------------------------
    def fail(self, token: str, reason: str, victor: str = "") -> None:
        self.mv.fates[token] = "failed"
        self.mv.reasons[token] = reason
        if victor:
            self.mv.victors[token] = victor

    def side(self, token: str, role: str, against: str = "") -> Side:
        b = self.board
        if role == DEFENDER:
            strength, sups = b.defence(token), b.uncut(b.hold_supports.get(token, []), b.is_cut)
        else:
            strength, sups = b.attack(token, against=against), b.uncut(b.move_supports[token], b.is_cut, against)
        return Side(b.faction[token], token, role, strength, b.start[token], list(sups))

    # -- enemy swaps (DR-MOV-22 to 25) -----------------------------------------------
    def _swaps(self) -> None:
        b = self.board
        self.swap_winner: dict[str, str] = {}       # loser's start -> swap winner entering it
        self.swap_pending: dict[str, str] = {}      # territory of an undecided swap -> its occupant
        for x_tok, y_tok in b.enemy_swaps():
            x, y = b.start[x_tok], b.start[y_tok]
            sides = [self.side(x_tok, SWAP), self.side(y_tok, SWAP)]
            contest = Contest(min(x, y, key=self.gmap.order), "swap", sides, territories=self.gmap.sorted([x, y]))
            outcome, tops = rank_sides(sides, "standoff")
            if outcome == "battle":
                contest.outcome = "battle"
                for tok in (x_tok, y_tok):
                    self.mv.fates[tok] = "battle"
                    self.swap_pending[b.start[tok]] = tok
            else:
                win = tops[0].token
                lose = y_tok if win == x_tok else x_tok
                contest.outcome, contest.winner = "swap-won", win
                self.mv.fates[lose] = "dislodged"
                self.mv.victors[lose] = win
                self.mv.reasons[lose] = "lost an enemy swap on strength"
                self.swap_winner[b.start[lose]] = win
            self.mv.contests.append(contest)
        for tok in b.movers:
            if not b.in_enemy_swap(tok) and b.swap_partner(tok) and not self.rules["movement.allow_friendly_swap"]:
                self.fail(tok, "friendly swap not allowed")

    # -- contests --------------------------------------------------------------------
    def _contests(self) -> None:
        b = self.board
        places = self.gmap.sorted({d for t, d in b.movers.items()} | set(self.swap_winner))
        pending = list(places)
        while pending:
            progressed = False
            for place in list(pending):
                if self._try_contest(place, force=False):
                    pending.remove(place)
                    progressed = True
            if not progressed:
                self._try_contest(pending.pop(0), force=True)

    def _entrants(self, place: str) -> list[str]:
        b = self.board
        return [e for e in b.entrants(place) if not b.in_enemy_swap(e) and self.mv.fates.get(e) != "failed"]

    def _try_contest(self, place: str, force: bool) -> bool:
        """Settle the contest at `place`; False if it must wait for another contest."""
        entrants = self._entrants(place)
        if place in self.swap_pending:
            self._dependent(place, "swap", self.swap_pending[place], entrants)
            return True
        if not entrants and place not in self.swap_winner:
            return True
        defender, wait = self._defender(place, force)
        if wait:
            return False
        if defender.startswith("dependent:"):
            self._dependent(place, "vacated", defender.split(":", 1)[1], entrants)
            return True
        self._settle(place, entrants, defender)
        return True

    def _defender(self, place: str, force: bool) -> tuple[str, bool]:
        """The defender of `place` ("" if none), and whether the contest must wait."""
        b = self.board
        occupant = b.occupant.get(place, "")
        if not occupant:
            return "", False
        if occupant not in b.movers:
            return occupant, False
        if not self.diplomacy or b.in_enemy_swap(occupant):
            return "", False
        fate = self.mv.fates.get(occupant, "")
        if fate == "entered":
            return "", False
        if fate == "failed":
            return occupant, False
        if fate in ("battle", "dependent"):
            return "dependent:" + occupant, False
        return "", not force       # circular movement: taken as vacated (DR-MOV-16)

    def _settle(self, place: str, entrants: list[str], defender: str) -> None:
        b = self.board
        contest = Contest(place, "follow-up" if place in self.swap_winner else "contest")
        sides = [self.side(defender, DEFENDER)] if defender else []
        against = b.faction[defender] if defender else ""
        for e in entrants + ([self.swap_winner[place]] if place in self.swap_winner else []):
            reason = self._excluded(e, defender)
            if reason:
                contest.excluded.append(Exclusion(e, reason))
                self.fail(e, reason)
            else:
                sides.append(self.side(e, ENTRANT, against))
        contest.sides = sides
        self._apply_outcome(contest)
        self.mv.contests.append(contest)

    def _excluded(self, entrant: str, defender: str) -> str:
        b = self.board
        if defender and b.faction[defender] == b.faction[entrant]:
            return "own defender (DR-MOV-3)"
        if self.rules["support.lone_token_rule"] and defender and self._lone(entrant, defender):
            return "lone token (DR-SUP-10)"
        return ""

    def _lone(self, lone: str, supporter: str) -> bool:
        """L attacks a supporter of the 2+ move into L's own start (DR-SUP-10)."""
        b = self.board
        if b.attack(lone) != 1 or b.orders[supporter].kind != SUPPORT or not b.orders[supporter].path:
            return False
        if supporter in b.support_reasons or b.is_cut(supporter):
            return False
        backed = b.orders[supporter].target
        return (b.movers.get(backed) == b.start[lone] and b.faction[backed] != b.faction[lone]
                and b.attack(backed) >= 2)

    def _apply_outcome(self, contest: Contest) -> None:
        outcome, tops = rank_sides(contest.sides, str(self.rules["movement.multiway_tie"]))
        if outcome == "gm":
            outcome, tops = gm_tie(self.decisions, f"tie-{contest.territory}", self.gmap, contest.territory, tops)
            contest.note = "settled by the GM's battles (DR-MOV-10)"
        contest.outcome = outcome
        place = contest.territory
        if outcome in ("occupied", "held"):
            contest.winner = tops[0].token
        for side in contest.sides:
            self._side_fate(side, outcome, tops, place)
        if outcome == "standoff":
            self.mv.standoffs.append(place)

    def _side_fate(self, side: Side, outcome: str, tops: list[Side], place: str) -> None:
        top = side in tops
        if side.role == DEFENDER:
            if outcome == "occupied":
                self.mv.fates[side.token] = "dislodged"
                self.mv.victors[side.token] = tops[0].token
                self.mv.reasons[side.token] = "dislodged on strength"
            elif outcome == "battle":
                self.mv.fates[side.token] = "battle" if top else "unless-draw"
            elif side.token in self.board.movers:
                self.fail(side.token, self.mv.reasons.get(side.token, "failed"))
            return
        if outcome == "occupied" and top:
            self.mv.fates[side.token] = "entered"
        elif outcome == "battle" and top:
            self.mv.fates[side.token] = "battle"
        elif outcome in ("standoff", "gm"):
            self.fail(side.token, "standoff")
        elif outcome == "battle":
            self.fail(side.token, "beaten on strength")
        else:
            self.fail(side.token, "beaten on strength", tops[0].token)

    def _dependent(self, place: str, mode: str, occupant: str, entrants: list[str]) -> None:
        """Record a contest settled in Step B; a swap territory with no other entrant needs none."""
        if not entrants:
            return
        others = [self.side(e, ENTRANT) for e in entrants]
        self.mv.dependents.append(Dependent(place, mode, occupant, 0, others))
        self.mv.contests.append(Contest(place, "follow-up", others, outcome="dependent",
                                        note=f"waits on {occupant}"))
        for e in entrants:
            self.mv.fates[e] = "dependent"

    # -- numbering (G-5) -------------------------------------------------------------
    def _number_battles(self) -> None:
        tied = [c for c in self.mv.contests if c.outcome == "battle"]
        tied.sort(key=lambda c: self.gmap.order(c.territory))
        for n, contest in enumerate(tied, start=1):
            contest.battle = n
            self.mv.battles.append(self._battle_of(n, contest))
        for dep in self.mv.dependents:
            if dep.mode == "swap":
                dep.waits_on = self._swap_number(dep.territory)
            else:
                dep.waits_on = self.mv.at_stake.get(dep.occupant, 0)
        for dep in self.mv.dependents:
            if dep.mode == "vacated" and not dep.waits_on:
                dep.waits_on = self._waits_via_dependent(dep.occupant)

    def _aim(self, side: Side, contest: Contest) -> str:
        """Where the side fights for: the contested territory, or a swap token's destination."""
        return self.board.movers[side.token] if contest.kind == "swap" else contest.territory

    def _swap_number(self, place: str) -> int:
        return next(c.battle for c in self.mv.contests if c.kind == "swap" and place in c.territories)

    def _waits_via_dependent(self, occupant: str) -> int:
        dest = self.mv.destinations.get(occupant, "")
        return next((d.waits_on for d in self.mv.dependents if d.territory == dest), 0)

    def _battle_of(self, number: int, contest: Contest) -> Battle:
        if contest.kind == "swap":
            tops = contest.sides
        else:
            _, tops = rank_sides(contest.sides, "standoff")
        sides = [BattleSide(s.faction, s.token, s.role, s.strength, self._aim(s, contest),
                            supporters=list(s.supporters)) for s in tops]
        rank = {f: i for i, f in enumerate(self.state.faction_order)}
        sides.sort(key=lambda s: rank.get(s.faction, 99))
        for s in contest.sides:
            if s in tops or s.role == DEFENDER:
                self.mv.at_stake[s.token] = number
        return Battle(number, contest.territory, list(contest.territories), sides=sides)


# --- one battle's briefing data -------------------------------------------------------

class BattleSetup:
    """Champions, tabletop or roll-off, home side, points, terrain and concealment."""

    def __init__(self, step: StepA, battle: Battle) -> None:
        self.step, self.battle = step, battle
        self.state, self.gmap, self.rules = step.state, step.gmap, step.rules
        self.board = step.board

    def build(self) -> None:
        self._champions()
        self._kind()
        self._home()
        self._points()
        if self.battle.kind == ROLLOFF:
            roll_off(self.state, self.rules, self.battle, self.step.dice)
            return
        self._terrain()

    def _engaged(self) -> set[str]:
        """Tokens already at their `battle.max_per_token` tabletop battles this turn (DR-MOV-26)."""
        principals = [s.token for b in self.step.mv.battles if b.number != self.battle.number for s in b.sides]
        champions = [s.champion for b in self.step.mv.battles if b.number < self.battle.number
                     and b.kind == TABLETOP for s in b.sides if s.champion not in principals]
        limit = int(self.rules["battle.max_per_token"])
        fights = Counter(principals + champions)
        return {tok for tok, n in fights.items() if n >= limit}

    def eligible(self, token: str, engaged: set[str]) -> bool:
        """A list token with an approved list not fighting elsewhere (DR-BAT-4, DR-MOV-26)."""
        lst = self.state.lists.get(token)
        return (not is_defensive(token) and lst is not None and lst.approved and lst.status == LIST_ACTIVE
                and token not in engaged)

    def _champions(self) -> None:
        engaged = self._engaged()
        for side in self.battle.sides:
            side.champion = self._champion(side, engaged)

    def _champion(self, side: BattleSide, engaged: set[str]) -> str:
        """DR-BAT-2, DR-BAT-3, DR-BAT-4, G-6."""
        if side.strength == 1:
            return side.token
        pool = [side.token, *side.supporters]
        named = self.board.orders[side.token].champion
        if named in pool and (is_defensive(named) or self.eligible(named, engaged)):
            return named
        if self.eligible(side.token, engaged):
            return side.token
        ranked = sorted(side.supporters, key=lambda t: self.state.tokens[t].sort_key)
        return next((t for t in ranked if self.eligible(t, engaged)), "")

    def _kind(self) -> None:
        b = self.battle
        a, c = (s.faction for s in b.sides)
        count, locked = lock_status(self.state, a, c, self.rules)
        why = f"locked: pair count {count}" if locked else ""
        champions = [s.champion for s in b.sides]
        if not why and any(ch and is_defensive(ch) for ch in champions):
            why = "defensive token"
        if not why and not all(champions):
            why = "no eligible army"
        if not why and self.battle.follows and set(champions) & self._engaged():
            why = "already fought this turn (DR-MOV-26)"
        if not why and not all(self.eligible(ch, set()) for ch in champions):
            why = "no approved list" if self._unlisted_rolls_off(champions) else ""
        if not why and count >= int(self.rules["rolloff.optional_after"]):
            asked = [f for f, other in ((a, c), (c, a)) if self._requested(f, other)]
            if asked:
                why = f"standing request by {self.state.factions[asked[0]].name}"
        b.kind, b.why = (ROLLOFF, why) if why else (TABLETOP, "")

    def _unlisted_rolls_off(self, champions: list[str]) -> bool:
        """DR-LST-8: a battle for an army whose list is not approved is rolled off, or with
        `lists.missing_list_battle = "gm"` the GM says whether it is fought at the table."""
        if self.rules["lists.missing_list_battle"] == "rolloff":
            return True
        b = self.battle
        unlisted = ", ".join(ch for ch in champions if not self.eligible(ch, set()))
        return ask(self.step.decisions, f"unlisted-{b.number}",
                   f"Battle {b.number} at {self.gmap.label(b.territory)}: {unlisted} has no approved list yet. "
                   "Fight it at the table (tabletop) or roll it off?", ["tabletop", "rolloff"]) == "rolloff"

    def _requested(self, faction: str, against: str) -> bool:
        orders = self.step.submitted.get(faction)
        return orders is not None and against in orders.rolloff_against

    def _home(self) -> None:
        """DR-HOME-1, 5, 7, 8, 9."""
        b = self.battle
        if b.swap:
            return
        contest = next(c for c in self.step.mv.contests if c.battle == b.number)
        has_defender = any(s.role == DEFENDER for s in contest.sides) or \
            any(s.role == DEFENDER for s in b.sides)
        for side in b.sides:
            fac = self.state.factions[side.faction]
            if b.territory == fac.stronghold:
                b.home_faction, b.home_stronghold = side.faction, True
                return
        for side in b.sides:
            fac = self.state.factions[side.faction]
            if b.territory not in fac.originals:
                continue
            defending = side.role == DEFENDER or (not has_defender and self.rules["home.standoff_counts_as_defending"])
            if defending or self.rules["home.retake_applies_to"] == "all_home":
                b.home_faction = side.faction
                return

    def _points(self) -> None:
        bonus = int(self.rules["home.stronghold_bonus_points"])
        for side in self.battle.sides:
            lst = self.state.lists.get(side.champion) if side.champion else None
            if lst is None or is_defensive(side.champion):
                continue
            extra = bonus if self.battle.home_stronghold and self.battle.home_faction == side.faction else 0
            side.points = lst.points + extra
            side.list_battles = lst.battles
        lists = [self.state.lists.get(s.champion) for s in self.battle.sides]
        self.battle.concealed = bool(self.rules["lists.conceal_magic_items_if_both_first_battle"]) and all(
            lst is not None and lst.battles == 0 for lst in lists)

    def _terrain(self) -> None:
        b = self.battle
        place = b.territory
        if b.swap:
            b.terrain_die = self.step.dice.d6(f"swap terrain, battle {b.number} at {'/'.join(b.swap_territories)}")
            faces = self.rules["terrain.swap_terrain_die"]
            low, high = b.swap_territories
            place = low if b.terrain_die in faces["lower_id"] else high
        b.terrain = self.gmap.terrain(place)
        spec = self.rules[f"terrain.battle.{b.terrain}"]
        b.pieces_min, b.pieces_max = int(spec["pieces_min"]), int(spec["pieces_max"])
        b.required = {k: int(v) for k, v in spec["require"].items()}
        b.river = self._river()
        if b.river:
            water = int(self.rules["terrain.river_min_water"])
            b.required["water"] = max(b.required.get("water", 0), water)
        if self.rules["terrain.roll_piece_count"] and b.pieces_min != b.pieces_max:
            die = self.step.dice.d6(f"terrain pieces, battle {b.number}")
            b.pieces_rolled = (die + 1) // 2 + 3

    def _river(self) -> bool:
        """DR-TER-7: the river flag."""
        b = self.battle
        counts_bridged = bool(self.rules["terrain.river_counts_bridged"])

        def river(x: str, y: str) -> bool:
            if not self.gmap.adjacent(x, y):
                return False
            border = self.gmap.border(x, y)
            return border.river and (counts_bridged or border.unbridged_river)

        if b.swap:
            return river(*b.swap_territories)
        for side in b.sides:
            if side.role != ENTRANT:
                continue
            path = self.board.orders[side.token].path
            before = path[-2] if len(path) > 1 else self.board.start[side.token]
            if river(before, path[-1]):
                return True
        return False


def roll_off(state: DRState, rules: RuleBook, battle: Battle, dice: Dice) -> None:
    """Favoured side, threshold, die and winner of an immediate roll-off (DR-ROL-1)."""
    defender = next((s.faction for s in battle.sides if s.role == DEFENDER), "")
    controller = "" if battle.swap else state.control.get(battle.territory, "")
    aims = [(s.faction, s.destination) for s in battle.sides]
    battle.favoured, battle.threshold = rolloff_favour(state, rules, aims, battle.swap, defender, controller)
    battle.die = dice.d6(f"roll-off, battle {battle.number} at {battle.territory}")
    battle.winner = rolloff_winner(battle.favoured, battle.threshold, battle.die, [f for f, _ in aims])


def rolloff_winner(favoured: str, threshold: int, die: int, factions: Sequence[str]) -> str:
    return favoured if die >= threshold else next(f for f in factions if f != favoured)


def rolloff_favour(state: DRState, rules: RuleBook, aims: Sequence[tuple[str, str]], swap: bool,
                   defender: str, controller: str) -> tuple[str, int]:
    """The first rule of DR-ROL-2 that applies; `aims` pairs each side's faction with the
    territory it fights for (a swap side: its destination, G-1)."""
    usual = int(rules["rolloff.defender_wins_from"])
    for faction, target in aims:
        if state.factions[faction].stronghold == target:
            return faction, int(rules["rolloff.stronghold_wins_from"])
    factions = [f for f, _ in aims]
    if defender and not swap:
        return defender, usual
    if controller in factions and not swap:
        return controller, usual
    rank = {f: i for i, f in enumerate(state.faction_order)}
    return max(factions, key=lambda f: rank.get(f, 99)), usual


def step_a(state: DRState, gmap: GameMap, rules: RuleBook, eff: Effective,
           submitted: dict[str, FactionOrders], dice: Dice, decisions: Mapping[str, str] | None = None) -> Movement:
    """Step A of a turn (DR-GEN-2 step 2): supports, contests and the battle list.
    `decisions` holds the GM's answers where a rule option lets the GM decide."""
    return StepA(state, gmap, rules, eff, submitted, dice, decisions).run()


def dependent_battle(state: DRState, gmap: GameMap, rules: RuleBook, eff: Effective,
                     submitted: dict[str, FactionOrders], moved: Movement, territory: str,
                     tops: Sequence[Side], dice: Dice) -> Battle:
    """The battle of a dependent contest fought in a further window
    (`battle.dependent_contest = "second_window"`, DR-MOV-27), set up like Step A's:
    champions, roll-off checks, home side, points and terrain. Appended to `moved`."""
    step = StepA(state, gmap, rules, eff, submitted, dice)
    step.mv = moved
    number = max((b.number for b in moved.battles), default=0) + 1
    contest = next(c for c in moved.contests if c.territory == territory and c.outcome == "dependent")
    contest.battle = number
    rank = {f: i for i, f in enumerate(state.faction_order)}
    sides = sorted((BattleSide(s.faction, s.token, s.role, s.strength, territory, supporters=list(s.supporters))
                    for s in tops), key=lambda s: rank.get(s.faction, 99))
    battle = Battle(number, territory, sides=sides, follows=territory)
    moved.battles.append(battle)
    BattleSetup(step, battle).build()
    return battle


def convert_to_rolloff(state: DRState, gmap: GameMap, rules: RuleBook, movement: Movement,
                       battle_no: int, dice: Dice) -> None:
    """A window-2 roll-off request (DR-ROL-8): roll at once, cancelling the briefing."""
    battle = movement.battle(battle_no)
    if battle.kind != TABLETOP:
        raise ValueError(f"battle {battle_no} is already a roll-off")
    a, b = (s.faction for s in battle.sides)
    count, _ = lock_status(state, a, b, rules)
    if count < int(rules["rolloff.optional_after"]):
        raise ValueError(f"battle {battle_no}: a roll-off may be asked for only after "
                         f"{rules['rolloff.optional_after']} battles between the two factions (pair count {count})")
    rolloff_now(state, rules, battle, dice, "requested in the battle window")


def rolloff_now(state: DRState, rules: RuleBook, battle: Battle, dice: Dice, why: str) -> None:
    """Turn a pending tabletop battle into a roll-off and roll it (DR-ROL-8, DR-ROL-9)."""
    battle.kind, battle.why = ROLLOFF, why
    roll_off(state, rules, battle, dice)
