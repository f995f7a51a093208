"""Daemon Rift Step C, the automatic end of a turn.

Reads the state with every token at its final position (retreats done,
eliminated tokens removed) and the `TurnFacts` of movement, battles and
retreats, then runs the steps of the turn structure in order:

1. control update (DR-CTL);
2. faction elimination (DR-TOK-12, DR-CTL-10);
3. territory counts, entitlements, removals and additions (DR-TOK);
4. repairs by holding (DR-REP) and the 2200 -> 2250 raise of replacement lists (DR-REP-9);
5. provisional or final scores (DR-VP), then the turn counter (DR-GEN-1).

Everything the end-of-turn report shows (DR-TRN-5) comes back as an
`EndOfTurn`, which round-trips through `pbem.kit.tomlio`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.kit.rulebook import RuleBook
from pbem.kit.territories import GameMap
from pbem.rulesets.daemon_rift.model import (
    LIST_ACTIVE,
    LIST_ELIMINATED,
    LIST_SHELVED,
    LIST_UNUSED,
    ArmyList,
    DRState,
    Elimination,
    FactionOrders,
    Token,
    TurnFacts,
    defensive_id,
    token_id,
)
from pbem.rulesets.daemon_rift.repairs import RepairLog, repair_lists
from pbem.rulesets.daemon_rift.scoring import PHASE_OVER, Score, final_standings, scores
from pbem.rulesets.daemon_rift.setup import PHASE_LISTS, PHASE_ORDERS

FAR = 1 << 30                                # distance of a stronghold that cannot be reached

# Sources of an added token (DR-TOK-8) and the `tokens.add_list_priority` names for them.
SHELVED = "shelved"
REPLACEMENT = "replacement"
NEW = "new"
DEFENSIVE = "defensive"
PRIORITY_SOURCES = {"shelved": SHELVED, "eliminated_slot_2200": REPLACEMENT, "unused_slot_2250": NEW}


@dataclass
class ControlChange:
    """A flag that changed in this Step C; "" stands for unclaimed."""

    territory: str
    before: str
    after: str
    cause: str                         # entered | stayed | faction eliminated
    token: str = ""                    # the claiming token, if any


@dataclass
class TokenCount:
    """A faction's territory count against its entitlement (DR-TOK-1..4), after additions."""

    faction: str
    territories: int
    list_entitled: int
    defensive_entitled: int
    list_tokens: int
    defensive_tokens: int
    owed_list: int = 0                 # entitled but not placed for lack of room (DR-TOK-11)
    owed_defensive: int = 0


@dataclass
class Removal:
    """A token taken off the map by the count or by its faction's elimination."""

    token: str
    faction: str
    territory: str
    list_status: str                   # shelved | eliminated | "" for a defensive token
    cause: str                         # count | faction eliminated
    by_preference: bool = False        # chosen by the faction's ranked removal list (DR-TOK-5)


@dataclass
class Placement:
    """A token added to the map (DR-TOK-7..9); it takes orders from the next turn (DR-TOK-14)."""

    token: str
    faction: str
    territory: str
    source: str                        # shelved | replacement | new | defensive
    points: int = 0                    # its list's points; 0 for a defensive token


@dataclass
class Deferred:
    """An owed token with no allowed territory this turn; retried every later Step C (DR-TOK-11)."""

    token: str
    faction: str
    source: str
    reason: str


@dataclass
class ListRequest:
    """A list the player must register and the GM approve (DR-LST-8, DR-TOK-15)."""

    token: str
    faction: str
    points: int
    replacement: bool
    new: bool                          # asked for the first time this turn; else a reminder
    awaiting_approval: bool = False    # sent, and waiting for the GM's APPROVE: nothing more to send


@dataclass
class Raise:
    """A replacement list raised to full points (DR-REP-9); the player sends the units."""

    token: str
    faction: str
    from_points: int
    to_points: int


@dataclass
class EndOfTurn:
    """What Step C of `turn` did, for the end-of-turn report (DR-TRN-5)."""

    turn: int
    retreated: dict[str, str] = field(default_factory=dict)            # token -> territory
    destroyed: list[Elimination] = field(default_factory=list)
    control_changes: list[ControlChange] = field(default_factory=list)
    control: dict[str, str] = field(default_factory=dict)              # territory -> faction after Step C
    eliminated_factions: list[str] = field(default_factory=list)
    counts: list[TokenCount] = field(default_factory=list)
    removals: list[Removal] = field(default_factory=list)
    placements: list[Placement] = field(default_factory=list)
    deferred: list[Deferred] = field(default_factory=list)
    lists_requested: list[ListRequest] = field(default_factory=list)
    repairs: list[RepairLog] = field(default_factory=list)
    raises: list[Raise] = field(default_factory=list)
    scores: list[Score] = field(default_factory=list)
    final: bool = False                # scores are the final standings (DR-VP-1)
    next_turn: int = 0                 # 0 once the campaign is over
    phase: str = PHASE_ORDERS


def end_turn(state: DRState, gmap: GameMap, rules: RuleBook, facts: TurnFacts,
             submitted: dict[str, FactionOrders]) -> EndOfTurn:
    """Run Step C on `state` in place; `submitted` is keyed by faction id."""
    if state.phase in (PHASE_OVER, PHASE_LISTS):
        raise ValueError(f"no turn is running: the campaign is in phase {state.phase!r}")
    report = EndOfTurn(turn=state.turn, retreated=dict(facts.retreated), destroyed=list(facts.eliminated))
    report.control_changes = update_control(state, facts, rules)
    eliminate_factions(state, rules, report)
    for fid in active_factions(state):
        adjust_tokens(state, gmap, rules, fid, submitted.get(fid, FactionOrders()), report)
    report.repairs = repair_lists(state, rules, facts, submitted)
    report.raises = raise_replacements(state, rules, facts)
    report.lists_requested = lists_requested(state, report.placements)
    report.control = dict(sorted(state.control.items(), key=lambda item: gmap.order(item[0])))
    advance(state, gmap, rules, report)
    return report


def active_factions(state: DRState) -> list[str]:
    return [f for f in state.ordered_factions() if not state.factions[f].eliminated]


# --- 1. control ------------------------------------------------------------------

def update_control(state: DRState, facts: TurnFacts, rules: RuleBook) -> list[ControlChange]:
    """DR-CTL-2..9: entering and staying claim; retreating, passing and dying do not."""
    changes = []
    for token_name, territory, cause in _claims(state, facts, rules):
        token = state.tokens.get(token_name)
        if token is None or token.territory != territory or token_name in facts.retreated:
            continue
        before = state.control.get(territory, "")
        if before != token.faction:
            state.control[territory] = token.faction
            changes.append(ControlChange(territory, before, token.faction, cause, token_name))
    return changes


def _claims(state: DRState, facts: TurnFacts, rules: RuleBook) -> list[tuple[str, str, str]]:
    claims = []
    if rules["control.claim_on_move_end"]:
        claims += [(tok, where, "entered") for tok, where in facts.entered.items()]
    if rules["control.claim_on_stay"]:
        claims += [(tok, state.tokens[tok].territory, "stayed") for tok in facts.stayed if tok in state.tokens]
    return claims


# --- 2. faction elimination ----------------------------------------------------------

def eliminate_factions(state: DRState, rules: RuleBook, report: EndOfTurn) -> None:
    """DR-TOK-12: out on losing every original (or every territory), with DR-CTL-10."""
    for fid in active_factions(state):
        if faction_is_beaten(state, fid, rules):
            report.eliminated_factions.append(fid)
            report.removals += _strip_faction(state, fid)
            report.control_changes += _release_territories(state, fid, rules)


def faction_is_beaten(state: DRState, fid: str, rules: RuleBook) -> bool:
    held = set(state.controlled_by(fid))
    if not held:
        return True
    return rules["elimination.trigger"] == "all_originals_lost" and not held & set(state.factions[fid].originals)


def _strip_faction(state: DRState, fid: str) -> list[Removal]:
    faction = state.factions[fid]
    faction.eliminated = True
    faction.owed_list_tokens = faction.owed_defensive_tokens = 0
    removals = []
    for token in state.tokens_of(fid):
        del state.tokens[token.id]
        status = "" if token.defensive else LIST_ELIMINATED
        removals.append(Removal(token.id, fid, token.territory, status, "faction eliminated"))
    for lst in state.lists.values():
        if lst.faction == fid and lst.status in (LIST_ACTIVE, LIST_SHELVED):
            lst.status = LIST_ELIMINATED
    return removals


def _release_territories(state: DRState, fid: str, rules: RuleBook) -> list[ControlChange]:
    if rules["elimination.territories_after"] != "unclaimed":
        return []
    lost = state.controlled_by(fid)
    for territory in lost:
        del state.control[territory]
    return [ControlChange(t, fid, "", "faction eliminated") for t in lost]


# --- 3. counts, removals, additions ------------------------------------------------------

def entitlement(rules: RuleBook, territories: int) -> tuple[int, int]:
    """(list tokens, defensive tokens) for a territory count (DR-TOK-2)."""
    for row in rules["tokens.entitlement"]:
        if row["min"] <= territories and (row["max"] == -1 or territories <= row["max"]):
            return int(row["list_tokens"]), int(row["defensive_tokens"])
    return 0, 0


def adjust_tokens(state: DRState, gmap: GameMap, rules: RuleBook, fid: str,
                  prefs: FactionOrders, report: EndOfTurn) -> None:
    """DR-TOK-1..11 for one faction: each kind of token against its own entitlement."""
    count = len(state.controlled_by(fid))
    lists_due, defensive_due = entitlement(rules, count)
    for defensive, due in ((True, defensive_due), (False, lists_due)):
        report.removals += remove_tokens(state, gmap, rules, fid, defensive, due, prefs.removal)
    add_list_tokens(state, gmap, rules, fid, lists_due, prefs.placement, report)
    add_defensive_tokens(state, gmap, rules, fid, defensive_due, prefs.placement, report)
    on_map = state.tokens_of(fid)
    lists_now = sum(1 for t in on_map if not t.defensive)
    faction = state.factions[fid]
    faction.owed_list_tokens = max(0, lists_due - lists_now)
    faction.owed_defensive_tokens = max(0, defensive_due - (len(on_map) - lists_now))
    report.counts.append(TokenCount(fid, count, lists_due, defensive_due, lists_now, len(on_map) - lists_now,
                                    faction.owed_list_tokens, faction.owed_defensive_tokens))


def remove_tokens(state: DRState, gmap: GameMap, rules: RuleBook, fid: str, defensive: bool,
                  due: int, preference: list[str]) -> list[Removal]:
    """DR-TOK-5, DR-TOK-6: drop the extra tokens of one kind; removed lists are shelved."""
    tokens = [t for t in state.tokens_of(fid) if t.defensive == defensive]
    extra = len(tokens) - due
    if extra <= 0:
        return []
    ranked = removal_order(state, gmap, fid, tokens, preference)[:extra]
    status = LIST_SHELVED if rules["tokens.shelve_removed_lists"] else LIST_ELIMINATED
    removals = []
    for token, by_preference in ranked:
        del state.tokens[token.id]
        lst = state.list_of(token)
        if lst is not None:
            lst.status = status
        removals.append(Removal(token.id, fid, token.territory, "" if defensive else status, "count", by_preference))
    return removals


def removal_order(state: DRState, gmap: GameMap, fid: str, tokens: list[Token],
                  preference: list[str]) -> list[tuple[Token, bool]]:
    """The faction's ranked tokens first, then the default: highest defensive number, or the
    list token farthest from the stronghold in adjacency steps (G-8), ties to the higher slot."""
    by_id = {t.id: t for t in tokens}
    chosen = [by_id[name] for name in dict.fromkeys(preference) if name in by_id]
    stronghold = state.factions[fid].stronghold

    def default(token: Token) -> tuple[int, int]:
        if token.defensive:
            return (0, -token.sort_key[1])
        steps = gmap.distance(token.territory, stronghold)
        return (-(FAR if steps < 0 else steps), -token.slot)

    rest = sorted((t for t in tokens if t.id not in {c.id for c in chosen}), key=default)
    return [(t, True) for t in chosen] + [(t, False) for t in rest]


def add_list_tokens(state: DRState, gmap: GameMap, rules: RuleBook, fid: str, due: int,
                    placement: list[str], report: EndOfTurn) -> None:
    """DR-TOK-7..11 and G-3: pick the lists, then place them in ascending slot order."""
    missing = due - sum(1 for t in state.tokens_of(fid) if not t.defensive)
    if missing <= 0:
        return
    for slot, source in sorted(choose_lists(state, rules, fid)[:missing]):
        where = free_territory(state, gmap, rules, fid, placement, replacement=source == REPLACEMENT)
        name = token_id(fid, slot)
        if not where:
            report.deferred.append(Deferred(name, fid, source, _no_room(source)))
            continue
        lst = _ready_list(state, rules, fid, slot, source)
        state.tokens[name] = Token(name, fid, where)
        report.placements.append(Placement(name, fid, where, source, lst.points))


def choose_lists(state: DRState, rules: RuleBook, fid: str) -> list[tuple[int, str]]:
    """DR-TOK-8: (slot, source) candidates in `tokens.add_list_priority` order."""
    on_map = {t.slot for t in state.tokens_of(fid) if not t.defensive}
    status = {slot: _slot_status(state, fid, slot) for slot in range(1, int(rules["lists.max_lists"]) + 1)}
    wanted = {SHELVED: LIST_SHELVED, REPLACEMENT: LIST_ELIMINATED, NEW: LIST_UNUSED}
    out = []
    for kind in rules["tokens.add_list_priority"]:
        source = PRIORITY_SOURCES[kind]
        out += [(slot, source) for slot, s in status.items() if s == wanted[source] and slot not in on_map]
    return out


def _slot_status(state: DRState, fid: str, slot: int) -> str:
    lst = state.lists.get(token_id(fid, slot))
    return LIST_UNUSED if lst is None else lst.status


def _ready_list(state: DRState, rules: RuleBook, fid: str, slot: int, source: str) -> ArmyList:
    """The list behind an added token: a shelved one as it was, or a fresh one (DR-TOK-8)."""
    key = token_id(fid, slot)
    if source == SHELVED:
        lst = state.lists[key]
        lst.status = LIST_ACTIVE
    else:
        points = int(rules["lists.replacement_points" if source == REPLACEMENT else "lists.points"])
        lst = ArmyList(fid, slot, status=LIST_ACTIVE, points=points, replacement=source == REPLACEMENT)
        state.lists[key] = lst
    lst.arrival_turn = state.turn + 1
    return lst


def add_defensive_tokens(state: DRState, gmap: GameMap, rules: RuleBook, fid: str, due: int,
                         placement: list[str], report: EndOfTurn) -> None:
    """DR-TOK-7: defensive tokens after list tokens, lowest free number first."""
    taken = {t.sort_key[1] for t in state.tokens_of(fid) if t.defensive}
    missing = due - len(taken)
    numbers = [n for n in range(1, len(taken) + missing + 1) if n not in taken][:max(0, missing)]
    for number in numbers:
        name = defensive_id(fid, number)
        where = free_territory(state, gmap, rules, fid, placement, replacement=False)
        if not where:
            report.deferred.append(Deferred(name, fid, DEFENSIVE, _no_room(DEFENSIVE)))
            continue
        state.tokens[name] = Token(name, fid, where)
        report.placements.append(Placement(name, fid, where, DEFENSIVE))


def free_territory(state: DRState, gmap: GameMap, rules: RuleBook, fid: str,
                   placement: list[str], *, replacement: bool) -> str:
    """DR-TOK-9: where an added token goes, or "" when nowhere is allowed (DR-TOK-11)."""
    faction = state.factions[fid]

    def free(territory: str) -> bool:
        owned = not rules["placement.require_control"] or state.control.get(territory) == fid
        return owned and state.token_at(territory) is None

    pool = [t for t in faction.originals if free(t)]
    if replacement and faction.stronghold in pool:
        return faction.stronghold
    if replacement:
        pool = [t for t in pool if gmap.adjacent(faction.stronghold, t)]
    ranked = [t for t in dict.fromkeys(placement) if t in pool]
    default = [t for t in [faction.stronghold, *gmap.sorted(pool)] if t in pool]
    return next(iter(ranked + default), "")


def _no_room(source: str) -> str:
    if source == REPLACEMENT:
        return "the stronghold and the original territories next to it are occupied"
    return "every original home territory is occupied"


# --- 4. the replacement raise ------------------------------------------------------------

def raise_replacements(state: DRState, rules: RuleBook, facts: TurnFacts) -> list[Raise]:
    """DR-REP-9: a 2200 replacement whose token held, unattacked, in the home stronghold."""
    target = int(rules["repair.replacement_raise_to"])
    raises = []
    for lst in _lists_in_order(state):
        if lst.status == LIST_ACTIVE and lst.replacement and lst.points < target \
                and _raise_qualifies(state, rules, facts, lst):
            raises.append(Raise(lst.key, lst.faction, lst.points, target))
            lst.points, lst.replacement = target, False
    return raises


def _raise_qualifies(state: DRState, rules: RuleBook, facts: TurnFacts, lst: ArmyList) -> bool:
    token = state.tokens.get(lst.key)
    if token is None or token.territory != state.factions[lst.faction].stronghold:
        return False
    if lst.arrival_turn > state.turn:
        return False
    if rules["repair.replacement_raise_when"] == "arrival_turn_only" and lst.arrival_turn != state.turn:
        return False
    default_ok = rules["repair.default_hold_qualifies"] or token.id not in facts.default_held
    return token.id in facts.held and default_ok and token.territory not in facts.attacked


def _lists_in_order(state: DRState) -> list[ArmyList]:
    order = {f: i for i, f in enumerate(state.ordered_factions())}
    return sorted(state.lists.values(), key=lambda lst: (order.get(lst.faction, len(order)), lst.slot))


def lists_requested(state: DRState, placements: list[Placement]) -> list[ListRequest]:
    """Every list still awaiting registration, new this turn or a reminder (DR-TOK-15)."""
    placed = {p.token for p in placements}
    return [ListRequest(lst.key, lst.faction, lst.points, lst.replacement, lst.key in placed)
            for lst in _lists_in_order(state)
            if lst.status == LIST_ACTIVE and not lst.approved and not state.factions[lst.faction].eliminated]


# --- 5. scores and the turn counter ------------------------------------------------------

def advance(state: DRState, gmap: GameMap, rules: RuleBook, report: EndOfTurn) -> None:
    """DR-GEN-1: the next turn's orders window, or the end after `campaign.turns`."""
    report.final = state.turn >= int(rules["campaign.turns"])
    if report.final:
        state.phase = PHASE_OVER
        report.scores = final_standings(state, gmap, rules)
    else:
        state.turn += 1
        state.phase = PHASE_ORDERS
        report.scores = scores(state, gmap, rules)
        report.next_turn = state.turn
    report.phase = state.phase
