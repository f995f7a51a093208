"""Army composition: when a stack is legal, its command value, and what may be added or removed.

A stack is legal (WT-GEN-6) when no type exceeds its maximum, its points stay within the cap,
every mount/upgrade has a character able to take it (one each) and every extra ratio holds;
minimums are not part of legality. Counts are worked on lists of types, so a change can be
judged before it is made.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from pbem.rulesets.wandering_tribes.model import Marker, Stack
from pbem.rulesets.wandering_tribes.nations import NO_LIMIT, Nation


def over_max(nation: Nation, types: Iterable[str]) -> dict[str, int]:
    """Types above their maximum, with how many too many."""
    out = {}
    for type_, n in Counter(types).items():
        most = nation.entries[type_].max
        if most != NO_LIMIT and n > most:
            out[type_] = n - most
    return out


def mounts_ok(nation: Nation, types: Sequence[str]) -> bool:
    """Every mount can be given to a distinct character able to take it (WT-REC-12, WT-DIV-11):
    a bipartite matching of mounts to riders by augmenting paths."""
    riders = [i for i, t in enumerate(types) if nation.is_character(t)]
    taken: dict[int, int] = {}          # rider index -> mount index

    def place(mount: int, seen: set[int]) -> bool:
        for rider in riders:
            if types[rider] in nation.entries[types[mount]].mount_for and rider not in seen:
                seen.add(rider)
                if rider not in taken or place(taken[rider], seen):
                    taken[rider] = mount
                    return True
        return False

    return all(place(i, set()) for i, t in enumerate(types) if nation.is_mount(t))


def ratios_ok(nation: Nation, types: Sequence[str]) -> bool:
    counts = Counter(types)
    return all(counts[r.type] <= r.factor * counts[r.per] for r in nation.ratios)


def legal(nation: Nation, types: Sequence[str], cap: int) -> bool:
    points = sum(nation.points(t) for t in types)
    return points <= cap and not over_max(nation, types) and mounts_ok(nation, types) and ratios_ok(nation, types)


def addable(nation: Nation, stack: Stack, type_: str, wanted: int, cap: int) -> int:
    """How many of `wanted` markers of a type can join the stack and leave it legal (WT-REC-6)."""
    types = stack.types()
    n = 0
    while n < wanted and legal(nation, [*types, *[type_] * (n + 1)], cap):
        n += 1
    return n


def command_value(nation: Nation, stack: Stack) -> int:
    """WT-CMD-1: the General marker's command, else the best of its characters (0 with none)."""
    generals = [nation.entries[t].command for t in stack.types() if nation.kind(t) == "general"]
    if generals:
        return max(generals)
    return max((nation.entries[t].command for t in stack.types() if nation.is_character(t)), default=0)


def general_candidates(nation: Nation, stack: Stack) -> list[Marker]:
    """WT-BAT-17: with no General marker, the characters tied for the highest command value, in
    marker-id order (the owner may name one of them as acting General); [] when the stack has a
    General or no character."""
    if any(nation.kind(t) == "general" for t in stack.types()):
        return []
    chars = [m for m in stack.markers if nation.is_character(m.type)]
    if not chars:
        return []
    best = max(nation.entries[m.type].command for m in chars)
    return sorted((m for m in chars if nation.entries[m.type].command == best), key=lambda m: m.no)


def acting_general(nation: Nation, stack: Stack, chosen: str = "") -> str:
    """WT-BAT-17: the acting General: the owner's choice among the tied characters, else the lowest
    marker id; "" when the stack has a General or no character."""
    tied = [m.id for m in general_candidates(nation, stack)]
    return chosen if chosen in tied else (tied[0] if tied else "")


def minimum(nation: Nation, type_: str, general_counts: bool) -> int:
    """A type's army-list minimum; the General's counts only when asked (WT-NAT-4)."""
    if nation.kind(type_) == "general" and not general_counts:
        return 0
    return nation.entries[type_].min


def lacking(nation: Nation, stack: Stack, general_counts: bool) -> dict[str, int]:
    """Compulsory types present below their minimum, with the deficit (WT-REC-8)."""
    out = {}
    for type_, entry in nation.entries.items():
        least = minimum(nation, type_, general_counts) if entry.min else 0
        if least and stack.count(type_) < least:
            out[type_] = least - stack.count(type_)
    return out


def characters(nation: Nation, types: Iterable[str]) -> int:
    return sum(1 for t in types if nation.is_character(t))


def has_units(nation: Nation, types: Iterable[str]) -> bool:
    return any(nation.is_unit(t) for t in types)
