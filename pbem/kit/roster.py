"""Army rosters that live through a campaign: entries, their marks, and what happened.

A roster belongs to one army token. Each entry (a unit, character, monster,
war machine...) has a kind, a model count and wounds per model, points per
model, magic items, free tags the rule system reads (`wizard`, `general`...),
and marks: scars, pending losses, upgrades, medals. A mark is either temporary
(the rule system clears it, e.g. after the next battle) or permanent. Counters
hold running numbers such as a character's deaths. `history` records every
change with its turn, so reports can tell an army's story.

Nothing here knows any rule system's tables: the kinds a roster may hold, the
points limit and what marks mean come from the rule system that uses it.

Entry lines (parse and format are a pair):

    U1 infantry 20 Orc Boyz @6
    M1 monster Wyvern @200 W5
    C1 character Orc Warboss @95 W3 general | Armour of Gork 50; Porko's Pigstikka 25

and a TOML file (`roster_to_toml` / `roster_from_toml`):

    army = "R-1"
    name = "Grimgor's Ironjaws"
    tags = ["artillery"]
    [[entries]]
    id = "U1"
    kind = "infantry"
    name = "Orc Boyz"
    models = 20
    points = 6
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import tomli_w

from pbem.kit.orders import InvalidOrder, NameIndex
from pbem.kit.tomlio import from_data, to_data


class RosterError(ValueError):
    """A roster that cannot be read; `problems` lists every reason with its place."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


@dataclass
class Item:
    name: str
    points: int


@dataclass
class Mark:
    """Something that stays on an entry: a pending loss, an upgrade, a scar, a medal."""

    kind: str                          # the rule system's word, e.g. "missing_models", "upgrade"
    name: str = ""                     # e.g. the stat "WS", or a lost item's name
    value: int = 0                     # how many models, wounds or points
    permanent: bool = True
    turn: int = 0                      # when it was gained


@dataclass
class Change:
    """One line of an army's story."""

    turn: int
    entry: str                         # entry id, "" for the roster as a whole
    text: str


@dataclass
class Entry:
    id: str                            # short and unique in the roster: U1, C2
    name: str
    kind: str
    models: int = 1
    wounds: int = 1                    # per model
    points: int = 0                    # per model, without magic items
    items: list[Item] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)

    @property
    def item_points(self) -> int:
        return sum(i.points for i in self.items)

    @property
    def cost(self) -> int:
        """Points the entry costs in the list: its models plus its magic items."""
        return self.models * self.points + self.item_points

    def has(self, tag: str) -> bool:
        return tag in self.tags

    def marks_of(self, kind: str) -> list[Mark]:
        return [m for m in self.marks if m.kind == kind]

    def total(self, kind: str) -> int:
        return sum(m.value for m in self.marks_of(kind))

    def add_mark(self, mark: Mark) -> None:
        self.marks.append(mark)

    def drop_marks(self, *kinds: str) -> list[Mark]:
        """Remove every mark of these kinds; returns what was removed."""
        gone = [m for m in self.marks if m.kind in kinds]
        self.marks = [m for m in self.marks if m.kind not in kinds]
        return gone

    def take(self, kind: str, amount: int) -> int:
        """Reduce the marks of one kind by `amount` (oldest first); returns how much was taken."""
        taken = 0
        for mark in self.marks_of(kind):
            step = min(mark.value, amount - taken)
            mark.value -= step
            taken += step
        self.marks = [m for m in self.marks if m.kind != kind or m.value > 0]
        return taken


@dataclass
class Roster:
    army: str                          # the army token it belongs to
    name: str = ""
    limit: int = 0                     # points allowed; 0 = no limit
    tags: list[str] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    history: list[Change] = field(default_factory=list)

    @property
    def points(self) -> int:
        return sum(e.cost for e in self.entries)

    @property
    def empty(self) -> bool:
        return not self.entries

    def entry(self, text: str) -> Entry:
        """The entry named by id or name (case-insensitive; a unique prefix will do)."""
        ident = self.names().lookup(text)
        return next(e for e in self.entries if e.id == ident)

    def names(self) -> NameIndex:
        """The entries' ids and names, for lookups."""
        return NameIndex({e.id: (e.name,) for e in self.entries}, what=f"entry of {self.army}")

    def get(self, ident: str) -> Entry | None:
        return next((e for e in self.entries if e.id == ident), None)

    def note(self, turn: int, entry: str, text: str) -> None:
        self.history.append(Change(turn, entry, text))

    def clear_temporary(self, *kinds: str) -> list[tuple[Entry, Mark]]:
        """Drop temporary marks (of these kinds, or all); returns what was dropped."""
        gone = []
        for e in self.entries:
            keep = []
            for m in e.marks:
                if not m.permanent and (not kinds or m.kind in kinds):
                    gone.append((e, m))
                else:
                    keep.append(m)
            e.marks = keep
        return gone

    def problems(self, kinds: Sequence[str] = ()) -> list[str]:
        """What makes the roster unusable: duplicate ids, bad numbers, unknown kinds, over the limit."""
        out = []
        seen: set[str] = set()
        for e in self.entries:
            if e.id.casefold() in seen:
                out.append(f"entry id {e.id} is used twice")
            seen.add(e.id.casefold())
            out += [f"{e.id}: {p}" for p in _entry_problems(e, kinds)]
        if self.limit and self.points > self.limit:
            out.append(f"{self.army} comes to {self.points} points, over its limit of {self.limit}")
        return out

    def carry_over(self, old: Roster) -> None:
        """A re-registered roster keeps the marks, counters and story of entries with the same id."""
        for e in self.entries:
            before = old.get(e.id)
            if before is not None:
                e.marks, e.counters = list(before.marks), dict(before.counters)
        self.history = list(old.history) + self.history


def _entry_problems(e: Entry, kinds: Sequence[str]) -> list[str]:
    out = []
    if kinds and e.kind not in kinds:
        out.append(f"unknown kind {e.kind!r} (kinds: {', '.join(kinds)})")
    if not e.name.strip():
        out.append("no name")
    if e.models < 1 or e.wounds < 1 or e.points < 0:
        out.append("models and wounds must be at least 1, points not negative")
    out += [f"item {i.name!r} has negative points" for i in e.items if i.points < 0]
    return out


# --- entry lines ---------------------------------------------------------------------

_ENTRY = re.compile(
    r"^(?P<id>[A-Za-z][A-Za-z0-9_]*)\s+(?P<kind>\S+)\s+(?:(?P<models>\d+)\s*x?\s+)?(?P<name>[^@|]+?)\s*"
    r"@\s*(?P<points>\d+)(?P<rest>[^|]*)(?:\|(?P<items>.*))?$")
_ITEM = re.compile(r"^(?P<name>.+?)\s+(?P<points>\d+)$")
_WOUNDS = re.compile(r"^W(\d+)$", re.IGNORECASE)


def parse_entry(line: str, kinds: Mapping[str, str] | None = None) -> Entry:
    """`<id> <kind> [<models>] <name> @<points per model> [W<wounds>] [tags] [| <item> <points>; ...]`.

    `kinds` maps every accepted spelling to the canonical kind; raises InvalidOrder.
    """
    match = _ENTRY.match(line.strip())
    if not match:
        raise InvalidOrder("an entry reads `<id> <kind> [<models>] <name> @<points per model> [W<wounds>] "
                           "[tags] [| <item> <points>; <item> <points>]`", suggestion="U1 infantry 20 Spearmen @6")
    kind = match["kind"].lower()
    if kinds is not None:
        if kind not in kinds:
            raise InvalidOrder(f"unknown kind {match['kind']!r}", suggestion=", ".join(sorted(set(kinds.values()))))
        kind = kinds[kind]
    wounds, tags = 1, []
    for word in match["rest"].split():
        found = _WOUNDS.match(word)
        if found:
            wounds = int(found.group(1))
        else:
            tags.append(word.lower())
    return Entry(match["id"].upper(), match["name"].strip(), kind, int(match["models"] or 1), wounds,
                 int(match["points"]), _items(match["items"] or ""), tags)


def _items(text: str) -> list[Item]:
    out = []
    for part in (p.strip() for p in text.replace(",", ";").split(";")):
        if not part:
            continue
        found = _ITEM.match(part)
        if not found:
            raise InvalidOrder(f"magic item {part!r} needs its points, like `Sword of Might 25`")
        out.append(Item(found["name"].strip(), int(found["points"])))
    return out


def format_entry(e: Entry) -> str:
    """The canonical entry line; `parse_entry` reads it back to the same entry."""
    text = f"{e.id} {e.kind} {e.models} {e.name} @{e.points}"
    text += f" W{e.wounds}" if e.wounds != 1 else ""
    text += "".join(f" {t}" for t in e.tags)
    if e.items:
        text += " | " + "; ".join(f"{i.name} {i.points}" for i in e.items)
    return text


# --- TOML ----------------------------------------------------------------------------

_ROSTER_KEYS = {"army", "name", "limit", "tags", "entries", "history"}
_ENTRY_KEYS = {"id", "name", "kind", "models", "wounds", "points", "items", "tags", "marks", "counters"}


def roster_to_toml(roster: Roster) -> str:
    return tomli_w.dumps(to_data(roster))


_LEDGER_KEYS = {"history", "marks", "counters"}


def roster_from_toml(text: str, kinds: Mapping[str, str] | None = None, *, ledger: bool = True) -> Roster:
    """A roster from TOML text; every problem is reported at once (RosterError)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RosterError([f"not valid TOML: {exc}"]) from exc
    except RecursionError as exc:      # tomllib reads nested arrays and tables by recursion
        raise RosterError(["not valid TOML: arrays or tables nested too deeply"]) from exc
    return roster_from_data(data, kinds, ledger=ledger)


def roster_from_data(data: Mapping[str, Any], kinds: Mapping[str, str] | None = None, *,
                     ledger: bool = True) -> Roster:
    """`ledger=False` reads a roster as a player sends it: marks, counters and history are
    the campaign's record and are refused."""
    allowed = _ROSTER_KEYS if ledger else _ROSTER_KEYS - _LEDGER_KEYS
    problems = [f"unknown key {k!r}" for k in data if k not in allowed]
    if not isinstance(data.get("army", ""), str) or not data.get("army"):
        problems.append("`army` (the token, e.g. \"R-1\") is missing")
    raw_entries = data.get("entries", [])
    if not isinstance(raw_entries, list):
        problems.append("`entries` must be an array of tables ([[entries]])")
        raw_entries = []
    for n, raw in enumerate(raw_entries, start=1):
        problems += [f"entry {n}: {p}" for p in _raw_entry_problems(raw, kinds, ledger)]
    if problems:
        raise RosterError(problems)
    entries = []
    for raw in raw_entries:
        entry = from_data(Entry, {**raw, "id": str(raw["id"]).upper()})
        entry.kind = kinds[entry.kind.lower()] if kinds else entry.kind
        entries.append(entry)
    return Roster(str(data["army"]), str(data.get("name", "")), int(data.get("limit", 0)),
                  [str(t).lower() for t in data.get("tags", [])], entries,
                  [from_data(Change, c) for c in data.get("history", [])])


def _raw_entry_problems(raw: Any, kinds: Mapping[str, str] | None, ledger: bool) -> list[str]:
    if not isinstance(raw, Mapping):
        return ["not a table"]
    allowed = _ENTRY_KEYS if ledger else _ENTRY_KEYS - _LEDGER_KEYS
    out = [f"unknown key {k!r}" for k in raw if k not in allowed]
    out += [f"`{k}` is missing" for k in ("id", "name", "kind") if not raw.get(k)]
    out += [f"`{k}` must be a whole number" for k in ("models", "wounds", "points")
            if k in raw and (not isinstance(raw[k], int) or isinstance(raw[k], bool))]
    if kinds is not None and raw.get("kind") and str(raw["kind"]).lower() not in kinds:
        out.append(f"unknown kind {raw['kind']!r} (kinds: {', '.join(sorted(set(kinds.values())))})")
    for item in raw.get("items", []):
        if not isinstance(item, Mapping) or not isinstance(item.get("name"), str) or \
                not isinstance(item.get("points"), int):
            out.append("each item needs a `name` and whole `points`")
    return out


_TOML_START = re.compile(r"^army\s*=")


def toml_blocks(lines: Sequence[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    """Numbered TOML lines cut into one block per roster: a top-level `army = ...` line
    starts a new roster once the block already has one (two files attached to one mail)."""
    blocks: list[list[tuple[int, str]]] = []
    has_start = False                  # whether the last block has its `army = ...` line yet
    for no, line in lines:
        starts = bool(_TOML_START.match(line.strip()))
        if not blocks or (starts and has_start):
            blocks.append([])
            has_start = False
        blocks[-1].append((no, line))
        has_start = has_start or starts
    return blocks
