"""Combining (WT-CMB): a player's stacks in one tile merge under the lowest army-marker id; excess
markers over a type's maximum go first, then markers until the stack is within the points cap,
never breaking the army's composition (minimums, the General, mounts, a character, the Knights
of a Bretonnian stack) unless nothing else can bring it down (WT-CMB-10)."""

from __future__ import annotations

import itertools
from collections import Counter

from pbem.kit.places import natural_key
from pbem.rulesets.wandering_tribes.armylist import characters, mounts_ok, over_max
from pbem.rulesets.wandering_tribes.model import Marker, Stack, State
from pbem.rulesets.wandering_tribes.nations import Nation
from pbem.rulesets.wandering_tribes.rules import Rules

SEARCH_LIMIT = 200_000


def number(marker: Marker) -> int:
    return marker.no


def merge(state: State, stacks: list[Stack]) -> Stack:
    """WT-CMB-1/2: one stack under the lowest id, holding every marker."""
    ordered = sorted(stacks, key=lambda s: natural_key(s.id))
    keeper = ordered[0]
    for other in ordered[1:]:
        keeper.markers += other.markers
        del state.stacks[other.id]
    return keeper


def _knight_rule(rules: Rules, nation: Nation) -> bool:
    return nation.key in rules["destruction.knight_rule_nations"]


def removable(rules: Rules, nation: Nation, stack: Stack, marker: Marker, baseline: Counter[str]) -> bool:
    """A marker may go when its removal keeps the composition (judged against the stack before
    this removal: a type already below its minimum is not taken lower)."""
    rest = [m.type for m in stack.markers if m is not marker]
    counts = Counter(rest)
    entry = nation.entries[marker.type]
    least = max(entry.min, 1 if nation.kind(marker.type) == "general" else 0)
    if least and counts[marker.type] < least:
        return False
    if characters(nation, rest) < 1 or not mounts_ok(nation, rest):
        return False
    knights = rules["destruction.knight_rule_types"]
    return not (_knight_rule(rules, nation) and any(baseline[k] for k in knights)
                and not any(counts[k] for k in knights))


def drop(stack: Stack, marker: Marker, log: list[str], why: str) -> None:
    stack.markers.remove(marker)
    log.append(f"{stack.id}: removes {marker.id} {marker.type} ({marker.points} pts, {why}) -> {stack.points} pts")


def pick(stack: Stack, entry: str) -> Marker | None:
    """A removal-list entry: a marker id, or a type (its marker with the fewest points, the
    highest id on a tie; gap 27)."""
    by_id = next((m for m in stack.markers if m.id.casefold() == entry.casefold()), None)
    if by_id:
        return by_id
    of_type = [m for m in stack.markers if m.type.casefold() == entry.casefold()]
    return min(of_type, key=lambda m: (m.points, -m.no), default=None)


def trim_excess(rules: Rules, nation: Nation, stack: Stack, wishes: list[str], log: list[str]) -> None:
    """WT-CMB-3: excess markers of a type over its maximum go, the removal list's first, else the
    highest ids."""
    for type_, extra in over_max(nation, stack.types()).items():
        chosen = [m for m in (pick(stack, w) for w in wishes) if m is not None and m.type == type_]
        rest = sorted((m for m in stack.markers if m.type == type_ and m not in chosen), key=number, reverse=True)
        unique = list({m.id: m for m in [*chosen, *rest]}.values())
        for marker in unique[:extra]:
            drop(stack, marker, log, f"over the maximum of {type_}")


def trim_points(rules: Rules, nation: Nation, stack: Stack, wishes: list[str], log: list[str]) -> list[str]:
    """WT-CMB-4..10: bring the stack within the cap; returns GM alerts."""
    baseline = Counter(stack.types())
    for wish in wishes:
        marker = pick(stack, wish)
        if stack.points <= rules.cap:
            return []
        if marker is not None and removable(rules, nation, stack, marker, baseline):
            drop(stack, marker, log, "by the removal list")
    if stack.points <= rules.cap:
        return []
    chosen = _default_set(rules, nation, stack, baseline)
    if chosen is not None:
        for marker in chosen:
            drop(stack, marker, log, "to keep within the cap")
        return []
    return _relaxed(rules, stack, log)


def _default_set(rules: Rules, nation: Nation, stack: Stack, baseline: Counter[str]) -> list[Marker] | None:
    """The removable set with the smallest points total bringing the stack within the cap (ties:
    fewer markers, then higher ids), or cheapest first; None when no allowed set does it."""
    if rules["combine.default_removal"] == "cheapest_first":
        return _cheapest_first(rules, nation, stack, baseline)
    groups = _groups(stack)
    need = stack.points - rules.cap
    best: tuple[int, int, list[int]] | None = None
    chosen: list[Marker] = []
    for counts in itertools.islice(itertools.product(*(range(len(g) + 1) for g in groups)), SEARCH_LIMIT):
        taken = [m for g, n in zip(groups, counts, strict=True) for m in g[:n]]
        total = sum(m.points for m in taken)
        if total < need or not _allowed(rules, nation, stack, taken, baseline):
            continue
        key = (total, len(taken), sorted(-m.no for m in taken))
        if best is None or key < best:
            best, chosen = key, taken
    return chosen if best is not None else None


def _groups(stack: Stack) -> list[list[Marker]]:
    """Markers by type, highest ids first (the ones to go first within a type)."""
    by_type: dict[str, list[Marker]] = {}
    for marker in stack.markers:
        by_type.setdefault(marker.type, []).append(marker)
    return [sorted(ms, key=number, reverse=True) for _, ms in sorted(by_type.items())]


def _allowed(rules: Rules, nation: Nation, stack: Stack, taken: list[Marker], baseline: Counter[str]) -> bool:
    rest = [m.type for m in stack.markers if all(m is not t for t in taken)]
    counts = Counter(rest)
    for type_, entry in nation.entries.items():
        least = max(entry.min, 1 if nation.kind(type_) == "general" else 0)
        if least and counts[type_] < min(least, baseline[type_]):
            return False
    if characters(nation, rest) < 1 or not mounts_ok(nation, rest):
        return False
    knights = rules["destruction.knight_rule_types"]
    return not (_knight_rule(rules, nation) and any(baseline[k] for k in knights)
                and not any(counts[k] for k in knights))


def _cheapest_first(rules: Rules, nation: Nation, stack: Stack, baseline: Counter[str]) -> list[Marker] | None:
    taken: list[Marker] = []
    for marker in sorted(stack.markers, key=lambda m: (m.points, -m.no)):
        if stack.points - sum(m.points for m in taken) <= rules.cap:
            break
        if _allowed(rules, nation, stack, [*taken, marker], baseline):
            taken.append(marker)
    return taken if stack.points - sum(m.points for m in taken) <= rules.cap else None


def _relaxed(rules: Rules, stack: Stack, log: list[str]) -> list[str]:
    """WT-CMB-10: minimums broken, cheapest marker first, and the GM alerted."""
    if not rules["combine.relax_minimums_if_stuck"]:
        return [f"{stack.id} stays over {rules.cap} points: no allowed removal brings it down; GM decision needed"]
    while stack.points > rules.cap and len(stack.markers) > 1:
        drop(stack, min(stack.markers, key=lambda m: (m.points, number(m))), log, "minimums relaxed")
    return [f"{stack.id}: no allowed removal brought it to {rules.cap} points; minimums were broken "
            "(cheapest first) - GM, please check"]


def combine_tile(state: State, rules: Rules, stacks: list[Stack], wishes: list[str], log: list[str]) -> list[str]:
    """Merge, trim the excess, trim the points (WT-CMB-1..12); returns GM alerts."""
    keeper = merge(state, stacks)
    nation = rules.nations[state.players[keeper.owner].nation]
    log.append(f"{', '.join(s.id for s in stacks)} combine into {keeper.id} ({len(keeper.markers)} markers, "
               f"{keeper.points} pts)")
    trim_excess(rules, nation, keeper, wishes, log)
    return trim_points(rules, nation, keeper, wishes, log)
