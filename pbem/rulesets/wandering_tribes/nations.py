"""The nation tables and the army-list data of `rules/wandering_tribes.toml` (WT-NAT, WT-GEN-6).

A `Nation` is what the rules need of one table: its starting force, one recruitment cell per
terrain, the kind of every marker type (general, character, unit, machine, mount) and the
army-list entry the game master fills in (points, minimum, maximum, command value, which
characters a mount may carry). Source spellings are matched to canonical names through the
alias table (WT-NAT-7) when the tables are read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

TERRAINS = ("hills", "woods", "towns", "desert", "plains", "villages")
KINDS = ("general", "character", "unit", "machine", "mount")
NO_LIMIT = -1


@dataclass(frozen=True)
class Entry:
    """One army-list entry: a marker type's points and limits per 1000-point army."""

    points: int
    min: int = 0
    max: int = NO_LIMIT
    command: int = 0
    mount_for: tuple[str, ...] = ()


@dataclass(frozen=True)
class Offer:
    """One entry of a recruitment cell: up to `max` markers of `type` (WT-REC-5)."""

    type: str
    max: int = 1


@dataclass(frozen=True)
class Ratio:
    """An extra army-list constraint: at most `factor` markers of `type` per `per` marker."""

    type: str
    per: str
    factor: int = 1


@dataclass(frozen=True)
class Nation:
    key: str
    name: str
    start: tuple[tuple[str, int], ...]
    recruit: Mapping[str, tuple[Offer, ...]]
    kinds: Mapping[str, str]
    entries: Mapping[str, Entry]
    ratios: tuple[Ratio, ...] = field(default=())

    def kind(self, type_: str) -> str:
        return self.kinds.get(type_, "unit")

    def is_character(self, type_: str) -> bool:
        return self.kind(type_) in ("general", "character")

    def is_mount(self, type_: str) -> bool:
        return self.kind(type_) == "mount"

    def is_unit(self, type_: str) -> bool:
        """Units, war machines and monsters: what keeps a stack from being all characters (WT-DES-2)."""
        return self.kind(type_) in ("unit", "machine")

    def points(self, type_: str) -> int:
        return self.entries[type_].points

    def cell(self, terrain: str) -> tuple[Offer, ...]:
        """The recruitment options in a terrain (WT-REC-3); an empty cell offers nothing (WT-NAT-2)."""
        return self.recruit.get(terrain, ())

    def types(self) -> list[str]:
        """Every marker type the table names, in first-seen order."""
        seen = [t for t, _ in self.start] + [o.type for c in self.recruit.values() for o in c]
        return list(dict.fromkeys(seen))


def canonical(name: str, aliases: Mapping[str, str]) -> str:
    """The canonical type a source spelling means (WT-NAT-7): "Chaos Spwan" -> "Chaos Spawn"."""
    return aliases.get(name.strip(), name.strip())


def read_nations(data: Mapping[str, Any], aliases: Mapping[str, str], problems: list[str]) -> dict[str, Nation]:
    """Every nation table of the rules' `[nations]`; each problem is appended with its key."""
    out = {}
    for key, table in data.items():
        if isinstance(table, Mapping):
            out[str(key)] = _nation(str(key), table, aliases, problems)
        else:
            problems.append(f"rules: nations.{key} should be a table")
    return out


def _nation(key: str, table: Mapping[str, Any], aliases: Mapping[str, str], problems: list[str]) -> Nation:
    where = f"nations.{key}"
    start = _start(table.get("start", []), aliases, str(table.get("start_variant", "literal")))
    recruit = {t: tuple(Offer(canonical(str(o.get("type", "")), aliases), int(o.get("max", 1)))
                        for o in table.get("recruit", {}).get(t, [])) for t in TERRAINS}
    kinds = {canonical(str(t), aliases): str(kind) for kind, names in table.get("kinds", {}).items()
             for t in names}
    entries = {canonical(str(t), aliases): _entry(f"{where}.list.{t}", e, aliases, problems)
               for t, e in table.get("list", {}).items()}
    ratios = tuple(Ratio(str(r.get("type", "")), str(r.get("at_most_per", "")), int(r.get("factor", 1)))
                   for r in table.get("ratio", []))
    nation = Nation(key, str(table.get("name", key)), start, recruit, kinds, entries, ratios)
    problems += _gaps(where, nation, table)
    return nation


def _start(rows: Sequence[Any], aliases: Mapping[str, str], variant: str) -> tuple[tuple[str, int], ...]:
    """The starting force; "dedupe" drops a later repeat of a type ([O1])."""
    out: list[tuple[str, int]] = []
    for row in rows:
        type_ = canonical(str(row.get("type", "")), aliases)
        if variant == "dedupe" and any(t == type_ for t, _ in out):
            continue
        out.append((type_, int(row.get("n", 1))))
    return tuple(out)


def _entry(where: str, spec: Any, aliases: Mapping[str, str], problems: list[str]) -> Entry:
    if not isinstance(spec, Mapping) or not isinstance(spec.get("points"), int):
        problems.append(f"rules: {where}: give at least points = <whole number>")
        return Entry(0)
    return Entry(int(spec["points"]), int(spec.get("min", 0)), int(spec.get("max", NO_LIMIT)),
                 int(spec.get("command", 0)),
                 tuple(canonical(str(c), aliases) for c in spec.get("mount_for", [])))


def _gaps(where: str, nation: Nation, table: Mapping[str, Any]) -> list[str]:
    """Every type of the table must have a kind and an army-list entry (A21); commands on characters."""
    out = []
    for terrain in table.get("recruit", {}):
        if terrain not in TERRAINS:
            out.append(f"rules: {where}.recruit.{terrain}: not a terrain; terrains are {', '.join(TERRAINS)}")
    for kind in table.get("kinds", {}):
        if kind not in KINDS:
            out.append(f"rules: {where}.kinds.{kind}: not a kind; kinds are {', '.join(KINDS)}")
    for type_ in nation.types():
        if type_ not in nation.entries:
            out.append(f"rules: {where}.list: {type_!r} has no entry; add \"{type_}\" = {{ points = ..., "
                       "min = 0, max = -1 }")
        elif nation.is_character(type_) and nation.entries[type_].command <= 0:
            out.append(f"rules: {where}.list.{type_}: a character needs its command value (command = 8)")
    if not any(nation.kind(t) == "general" for t in nation.types()):
        out.append(f"rules: {where}.kinds.general: name the General marker type")
    return out
