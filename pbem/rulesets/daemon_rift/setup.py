"""Daemon Rift campaign creation and list registration (DR-SET, DR-LST-3, DR-LST-9).

`new_state` builds the opening position and refuses an unusable map or faction
set with every problem at once. The campaign waits in the `lists` phase until
the GM has approved every faction's list 1 (DR-SET-5); approving the last one
opens the orders window of turn 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pbem.kit.orders import quoted
from pbem.kit.roster import Roster
from pbem.kit.rulebook import RuleBook
from pbem.kit.territories import GameMap
from pbem.rulesets.daemon_rift.model import (
    LIST_ACTIVE,
    LIST_SHELVED,
    LIST_UNUSED,
    ArmyList,
    DRState,
    Faction,
    Token,
    token_id,
)

PHASE_LISTS = "lists"        # window 0: list 1 registration, before turn 1 (DR-SET-5)
PHASE_ORDERS = "orders"

FactionSpec = tuple[str, str, str, str]   # (faction id, display name, player id, map home key)


class SetupError(ValueError):
    """A campaign that cannot start; `problems` lists every reason."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


def new_state(gmap: GameMap, rules: RuleBook, factions: list[FactionSpec]) -> DRState:
    """The opening position of turn 1 (DR-SET-1..4), waiting for list approval (DR-SET-5)."""
    problems = map_problems(gmap, rules) + faction_problems(gmap, factions)
    if problems:
        raise SetupError(problems)
    state = DRState(turn=1, phase=PHASE_LISTS, faction_order=[spec[0] for spec in factions])
    for spec in factions:
        _add_faction(state, gmap, rules, spec)
    return state


def map_problems(gmap: GameMap, rules: RuleBook) -> list[str]:
    """DR-SET-4: exactly 2 special territories and 1 main objective, all distinct."""
    wanted = int(rules["vp.special_count"])
    problems = []
    if len(set(gmap.special)) != wanted or len(gmap.special) != wanted:
        problems.append(f"the map must mark exactly {wanted} different special territories, "
                        f"not {list(gmap.special)}")
    if not gmap.objective:
        problems.append("the map must mark exactly 1 main objective territory")
    elif gmap.objective in gmap.special:
        problems.append(f"the main objective {gmap.objective} is also a special territory")
    return problems


def faction_problems(gmap: GameMap, factions: list[FactionSpec]) -> list[str]:
    """Faction ids usable as token prefixes, each on its own known home realm."""
    problems = []
    if not factions:
        problems.append("no factions")
    if len(factions) > len(gmap.homes):
        problems.append(f"{len(factions)} factions but the map has only {len(gmap.homes)} homes")
    ids = Counter(spec[0] for spec in factions)
    homes = Counter(spec[3] for spec in factions)
    problems += [f"faction id {f!r} is used {n} times" for f, n in ids.items() if n > 1]
    problems += [f"faction id {f!r} must be non-empty without '-' or spaces"
                 for f in ids if not f or "-" in f or " " in f]
    problems += [f"home {h!r} is given to {n} factions" for h, n in homes.items() if n > 1]
    problems += [f"home {h!r} is not on the map (homes: {', '.join(sorted(gmap.homes))})"
                 for h in homes if h not in gmap.homes]
    return problems + _overlap_problems(gmap, [spec[3] for spec in factions if spec[3] in gmap.homes])


def _overlap_problems(gmap: GameMap, keys: list[str]) -> list[str]:
    """Two realms in play may not share a territory: each starts controlled by one faction."""
    owner: dict[str, str] = {}
    problems = []
    for key in dict.fromkeys(keys):
        for territory in gmap.homes[key].originals:
            if territory in owner:
                problems.append(f"homes {owner[territory]!r} and {key!r} share {territory}")
            owner.setdefault(territory, key)
    return problems


def _add_faction(state: DRState, gmap: GameMap, rules: RuleBook, spec: FactionSpec) -> None:
    """Originals controlled (DR-SET-2), token 1 on the stronghold tied to list 1 (DR-SET-3)."""
    fid, name, player, home_key = spec
    home = gmap.homes[home_key]
    state.factions[fid] = Faction(fid, name, player, home.stronghold, list(home.originals))
    for territory in home.originals:
        state.control[territory] = fid
    first = token_id(fid, 1)
    state.tokens[first] = Token(first, fid, home.stronghold)
    points = int(rules["lists.points"])
    for slot in range(1, int(rules["lists.max_lists"]) + 1):
        status = LIST_ACTIVE if slot == 1 else LIST_UNUSED
        arrival = 1 if slot == 1 else 0
        state.lists[token_id(fid, slot)] = ArmyList(fid, slot, status=status, points=points, arrival_turn=arrival)


def ready_to_start(state: DRState) -> list[str]:
    """Factions whose list 1 still awaits GM approval (DR-SET-5); empty when turn 1 may open."""
    return [f for f in state.ordered_factions()
            if not (lst := state.lists.get(token_id(f, 1))) or not lst.approved]


def approve_list(state: DRState, token_id: str, *, name: str, artillery: bool, fast: bool,
                 declared: list[str], roster: Roster | None = None, rules: RuleBook | None = None) -> list[str]:
    """Record a list the GM approved (DR-LST-9) and return warnings for the GM (DR-LST-3).

    A special character or unique magic item declared in another active or shelved
    list of the faction is flagged, not refused: the GM rules on it. A list sent
    again (entries added after a raise) keeps the ledger of entries with the same
    id. Turn 1's orders window opens when the lists stage resolves (`open_turn_one`).
    """
    lst = state.lists.get(token_id)
    if lst is None or lst.status not in (LIST_ACTIVE, LIST_SHELVED):
        raise ValueError(f"{token_id} has no list awaiting registration")
    names = [d.strip() for d in declared if d.strip()]
    if roster is not None:
        roster.army, roster.name = token_id, name
        roster.carry_over(lst.roster)
        roster.note(state.turn, "",
                    f"list {quoted(name)} approved: {len(roster.entries)} entries, {roster.points} points")
        given = {n.casefold() for n in names}
        names += [n for n in roster_names(roster) if n.casefold() not in given]
        lst.roster = roster
    warnings = _shared_declarations(state, lst, guarded_names(rules, lst.roster, names))
    lst.name, lst.artillery, lst.fast, lst.declared, lst.approved = name, artillery, fast, names, True
    return warnings


def open_turn_one(state: DRState) -> bool:
    """DR-SET-5: once every list 1 is approved, the lists window gives way to turn 1's orders.
    Called when the lists stage resolves, never by the approval itself: the engine then opens the
    orders stage with its own deadline (an approval flipping the phase left turn 1 under the lists
    window's deadline, resolved at once with everyone missing when the GM approved late)."""
    if state.phase != PHASE_LISTS or ready_to_start(state):
        return False
    state.phase = PHASE_ORDERS
    return True


def roster_names(roster: Roster) -> list[str]:
    """Special characters (entries tagged `special`) and magic items of a roster (DR-LST-3)."""
    return [e.name for e in roster.entries if e.has("special")] + [i.name for e in roster.entries for i in e.items]


def guarded_names(rules: RuleBook | None, roster: Roster, names: Iterable[str]) -> list[str]:
    """The names DR-LST-3 forbids sharing: special characters unless `lists.share_special_characters`,
    magic items unless `lists.share_unique_magic_items`. A declared name that is neither in the
    roster stays guarded unless both may be shared. No rule book: the source rule, both guarded."""
    share_characters = bool(rules and rules["lists.share_special_characters"])
    share_items = bool(rules and rules["lists.share_unique_magic_items"])
    characters = {e.name.casefold() for e in roster.entries if e.has("special")}
    items = {i.name.casefold() for e in roster.entries for i in e.items}

    def guarded(name: str) -> bool:
        key = name.casefold()
        if key in characters:
            return not share_characters
        if key in items:
            return not share_items
        return not (share_characters and share_items)

    return [n for n in names if guarded(n)]


def _shared_declarations(state: DRState, lst: ArmyList, names: list[str]) -> list[str]:
    """DR-LST-3: names repeated within the list or found in the faction's other lists."""
    warnings = [f"{lst.key}: {quoted(n)} is declared twice in this list"
                for n, k in Counter(n.casefold() for n in names).items() if k > 1]
    for other in state.lists.values():
        if other.faction != lst.faction or other.slot == lst.slot:
            continue
        if other.status not in (LIST_ACTIVE, LIST_SHELVED):
            continue
        theirs = {d.casefold() for d in other.declared}
        warnings += [f"{lst.key}: {quoted(n)} is also declared in {other.key} ({other.status})"
                     for n in dict.fromkeys(names) if n.casefold() in theirs]
    return warnings
