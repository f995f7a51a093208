"""A Daemon Rift campaign started from a position written by hand (`pbem import`, `pbem new --position`).

The format is documented in docs/positions/daemon_rift.md. The factions, their strongholds and
original territories come from the campaign's players and map, as for a new campaign; the
position says where the campaign stands: the turn, who controls what, the tokens on the map, the
army lists with their rosters, and the records the rules score and lock on (DR-VP, DR-ROL).
Every problem is reported at once, each naming its key.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pbem.kit.orders import OrderProblem
from pbem.kit.roster import Change, Entry, Mark, Roster, parse_entry
from pbem.kit.rulebook import RuleBook
from pbem.kit.territories import GameMap
from pbem.rulesets.base import PositionError, Settings
from pbem.rulesets.daemon_rift import losses, position_records, repairs, rosters, setup
from pbem.rulesets.daemon_rift.game_state import DRGame
from pbem.rulesets.daemon_rift.model import (
    LIST_ACTIVE,
    LIST_ELIMINATED,
    LIST_SHELVED,
    LIST_UNUSED,
    ArmyList,
    DRState,
    PairBattle,
    Token,
)

T = TypeVar("T")

TOP_KEYS = ("turn", "phase", "factions", "control", "tokens", "lists", "battles_fought", "records")
PHASES = ("orders", "lists", "battles", "retreats")
"""The windows a position opens: a hand-written one the orders window; one `pbem export-position`
wrote any window a turn waits in, with the turn's `[records]` (position_records)."""
FACTION_KEYS = {"defeated": list, "defeated_by_rolloff": list, "tokens_eliminated": int, "eliminated": bool,
                "owed_list_tokens": int, "owed_defensive_tokens": int}
LIST_KEYS = {"name": str, "status": str, "approved": bool, "points": int, "artillery": bool, "fast": bool,
             "battles": int, "replacement": bool, "arrival_turn": int, "declared": list, "repair_saved": str,
             "repaired_turn": int, "entries": list, "marks": list, "counters": dict, "history": list}
# What a roster entry carries between battles, by the word the roster stores (docs: "marks"):
# pending losses are temporary (cleared by the list's next battle), the rest permanent.
MARK_KINDS = {losses.MISSING: False, losses.WOUNDS: False, losses.LOST_ITEM: True, losses.GREEN: True,
              losses.UPGRADE: True, losses.TRAUMA: True, losses.CHOICE: True}
MARK_KEYS = {"entry": str, "kind": str, "name": str, "value": int, "turn": int, "permanent": bool}
STATUSES = (LIST_ACTIVE, LIST_SHELVED, LIST_ELIMINATED, LIST_UNUSED)
_BEFORE_BATTLES = ("orders", "lists")
_TOKEN = re.compile(r"^(?P<faction>[^-\s]+)-(?P<defensive>D?)(?P<number>\d+)$")


class Reader:
    """Collects the problems of one position while reading it."""

    def __init__(self, gmap: GameMap, rules: RuleBook, state: DRState) -> None:
        self.gmap, self.rules, self.state = gmap, rules, state
        self.problems: list[str] = []

    def problem(self, key: str, text: str) -> None:
        self.problems.append(f"{key}: {text}")

    def typed(self, key: str, value: Any, kind: type[T]) -> T | None:
        """`value` when it is of `kind` (TOML's integers are not booleans), else a problem and None."""
        if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
            return value
        self.problem(key, f"must be {_KIND_NAMES.get(kind, kind.__name__)}, not {value!r}")
        return None

    def table(self, key: str, value: Any) -> Mapping[str, Any]:
        got = self.typed(key, value, dict)
        return got if got is not None else {}

    def unknown_keys(self, key: str, table: Mapping[str, Any], known: Any) -> None:
        for name in table:
            if name not in known:
                self.problem(f"{key}.{name}" if key else name, f"unknown key (known: {', '.join(known)})")

    def faction(self, key: str, value: Any) -> str:
        if isinstance(value, str) and value in self.state.factions:
            return value
        self.problem(key, f"{value!r} is not a faction of this campaign ({', '.join(self.state.ordered_factions())})")
        return ""

    def territory(self, key: str, value: Any) -> str:
        if isinstance(value, str) and value in self.gmap.territories:
            return value
        self.problem(key, f"{value!r} is not a territory of the map {self.gmap.name}")
        return ""


_KIND_NAMES = {int: "a whole number", bool: "true or false", str: "a string", list: "an array", dict: "a table"}


def read(gmap: GameMap, rules: RuleBook, settings: Settings, data: Mapping[str, Any], source: str,
         home_of: Callable[[Any], str]) -> DRGame:
    """The campaign's typed state from a position; raises `PositionError` with every problem."""
    specs = [(p.faction, p.faction_name or p.name, p.id, home_of(p)) for p in settings.players]
    try:
        state = setup.new_state(gmap, rules, specs)
    except setup.SetupError as exc:
        raise PositionError(source, [f"players: {p}" for p in exc.problems]) from exc
    reader = Reader(gmap, rules, state)
    reader.unknown_keys("", data, TOP_KEYS)
    _turn(reader, data)
    _factions(reader, reader.table("factions", data.get("factions", {})))
    _control(reader, reader.table("control", data.get("control", {})))
    _tokens(reader, reader.table("tokens", data.get("tokens", {})))
    _lists(reader, reader.table("lists", data.get("lists", {})))
    _battles_fought(reader, data.get("battles_fought", []))
    _consistency(reader)
    game, problems = position_records.read(data.get("records", {}), state)
    reader.problems += problems
    if reader.problems:
        raise PositionError(source, reader.problems)
    return game


def _turn(reader: Reader, data: Mapping[str, Any]) -> None:
    if "turn" not in data:
        reader.problem("turn", "missing: the turn whose orders are open next")
    turn = reader.typed("turn", data.get("turn", 1), int)
    last = int(reader.rules["campaign.turns"])
    if turn is not None and not 1 <= turn <= last:
        reader.problem("turn", f"must be from 1 to {last} (campaign.turns), not {turn}")
    reader.state.turn = turn or 1
    phase = data.get("phase", "orders")
    if phase not in PHASES:
        reader.problem("phase", f"the window open next, one of {', '.join(PHASES)} (a position written by hand: "
                                f"\"orders\"), not {phase!r}")
    elif phase not in _BEFORE_BATTLES and not data.get("records"):
        reader.problem("phase", f"the {phase} window goes on from the turn's [records], as `pbem export-position` "
                                "writes them; a position written by hand starts at \"orders\"")
    reader.state.phase = phase if phase in PHASES else "orders"


def _factions(reader: Reader, table: Mapping[str, Any]) -> None:
    for fid, raw in table.items():
        key = f"factions.{fid}"
        if not reader.faction(key, fid):
            continue
        record = reader.table(key, raw)
        reader.unknown_keys(key, record, FACTION_KEYS)
        faction = reader.state.factions[fid]
        for name, kind in FACTION_KEYS.items():
            if name in record and (value := reader.typed(f"{key}.{name}", record[name], kind)) is not None:
                if kind is list:
                    value = [reader.faction(f"{key}.{name}", other) for other in value]
                if kind is int and value < 0:
                    reader.problem(f"{key}.{name}", f"cannot be negative, not {value}")
                setattr(faction, name, value)


def _control(reader: Reader, table: Mapping[str, Any]) -> None:
    """Territories not listed are unclaimed; the strongholds' and originals' control is as given too."""
    reader.state.control = {}
    for territory, fid in table.items():
        key = f"control.{territory}"
        if reader.territory(key, territory) and reader.faction(key, fid):
            reader.state.control[territory] = fid


def _tokens(reader: Reader, table: Mapping[str, Any]) -> None:
    reader.state.tokens = {}
    where: dict[str, str] = {}
    max_lists = int(reader.rules["lists.max_lists"])
    for token, territory in table.items():
        key = f"tokens.{token}"
        match = _TOKEN.match(token)
        if not match:
            reader.problem(key, "a token is <faction>-<list slot> (R-1) or <faction>-D<number> (R-D1)")
            continue
        fid, slot = match["faction"], int(match["number"])
        if not reader.faction(key, fid):
            continue
        if not match["defensive"] and not 1 <= slot <= max_lists:
            reader.problem(key, f"list slots are 1 to {max_lists} (lists.max_lists)")
            continue
        if not reader.territory(key, territory):
            continue
        if territory in where:
            reader.problem(key, f"{territory} already holds {where[territory]}: one token a territory")
            continue
        where[territory] = token
        reader.state.tokens[token] = Token(token, fid, territory)


def _lists(reader: Reader, table: Mapping[str, Any]) -> None:
    state = reader.state
    for key in state.lists:
        lst = state.lists[key]
        lst.status = LIST_ACTIVE if key in state.tokens else LIST_UNUSED
        lst.approved = key in state.tokens
        lst.arrival_turn = 0
    for token, raw in table.items():
        key = f"lists.{token}"
        if token not in state.lists:
            reader.problem(key, f"not a list slot of this campaign ({', '.join(sorted(state.lists))})")
            continue
        record = reader.table(key, raw)
        reader.unknown_keys(key, record, LIST_KEYS)
        _list(reader, key, state.lists[token], record)


def _list(reader: Reader, key: str, lst: ArmyList, record: Mapping[str, Any]) -> None:
    values: dict[str, Any] = {}
    for name, kind in LIST_KEYS.items():
        if name in record and (value := reader.typed(f"{key}.{name}", record[name], kind)) is not None:
            values[name] = value
    if values.get("status", lst.status) not in STATUSES:
        reader.problem(f"{key}.status", f"one of {', '.join(STATUSES)}, not {values['status']!r}")
        values.pop("status")
    if "repair_saved" in values and not _points(values["repair_saved"]):
        reader.problem(f"{key}.repair_saved",
                       f"repair points like \"36 2/3\" or \"12\", not {values['repair_saved']!r}")
        values.pop("repair_saved")
    for name in ("points", "battles", "arrival_turn", "repaired_turn"):
        if values.get(name, 0) < 0:
            reader.problem(f"{key}.{name}", f"cannot be negative, not {values.pop(name)}")
    entries = values.pop("entries", [])
    marks, counters, history = values.pop("marks", []), values.pop("counters", {}), values.pop("history", [])
    for name, value in values.items():
        setattr(lst, name, value)
    lst.roster = _roster(reader, key, lst, entries) if entries or marks or history else Roster("")   # as never sent
    _marks(reader, key, lst.roster, marks)
    _counters(reader, key, lst.roster, counters)
    lst.roster.history = _history(reader, key, history)


def _points(text: str) -> bool:
    try:
        return repairs.read_cost(text) >= 0
    except (ValueError, ZeroDivisionError):
        return False


def _roster(reader: Reader, key: str, lst: ArmyList, lines: list[Any]) -> Roster:
    """The list's entries, written as in a list mail (`U1 infantry 20 Orc Boyz @6`)."""
    roster = Roster(lst.key, lst.name, lst.points)
    for n, line in enumerate(lines, start=1):
        if not isinstance(line, str):
            reader.problem(f"{key}.entries[{n}]", f"an entry is one line of text, not {line!r}")
            continue
        try:
            roster.entries.append(rosters.with_defaults(parse_entry(line, rosters.KINDS)))
        except OrderProblem as problem:
            reader.problem(f"{key}.entries[{n}]", f"{line!r}: {problem.reason}")
    if roster.points > lst.points:
        reader.problem(f"{key}.entries", f"{roster.points} points, over the list's {lst.points} (DR-LST-2)")
    return roster


def _marks(reader: Reader, key: str, roster: Roster, raw: list[Any]) -> None:
    """Pending losses, scars and experience on the entries, exactly as the roster keeps them."""
    for n, record in enumerate(raw, start=1):
        at = f"{key}.marks[{n}]"
        table = reader.table(at, record)
        reader.unknown_keys(at, table, MARK_KEYS)
        values: dict[str, Any] = {}
        for name, kind in MARK_KEYS.items():
            if name in table and (got := reader.typed(f"{at}.{name}", table[name], kind)) is not None:
                values[name] = got
        entry = _mark_entry(reader, at, roster, values)
        if entry is None:
            continue
        if values.get("kind") not in MARK_KINDS:
            reader.problem(f"{at}.kind", f"one of {', '.join(MARK_KINDS)}, not {values.get('kind')!r}")
            continue
        mark = Mark(values["kind"], values.get("name", ""), values.get("value", 0),
                    values.get("permanent", MARK_KINDS[values["kind"]]), values.get("turn", 0))
        if (problem := _mark_problem(entry, mark)):
            reader.problem(at, problem)
            continue
        entry.add_mark(mark)


def _mark_entry(reader: Reader, at: str, roster: Roster, values: Mapping[str, Any]) -> Entry | None:
    entry = roster.get(str(values.get("entry", "")).upper())
    if entry is None:
        reader.problem(f"{at}.entry", f"{values.get('entry', '(missing)')!r} is not an entry of the list "
                                      f"({', '.join(e.id for e in roster.entries) or 'none'})")
    return entry


def _mark_problem(entry: Entry, mark: Mark) -> str:
    """A loss the entry could not have taken: more models or wounds than it has, an item without points."""
    if mark.value < 0 and mark.kind != losses.TRAUMA:
        return f"value cannot be negative, not {mark.value}"
    if mark.kind == losses.MISSING and entry.total(losses.MISSING) + mark.value >= entry.models:
        return f"{entry.id} has {entry.models} models: fewer than that may be missing (DR-LOS-11)"
    if mark.kind == losses.WOUNDS and entry.total(losses.WOUNDS) + mark.value >= entry.models * entry.wounds:
        return f"{entry.id} has {entry.models * entry.wounds} wounds: fewer than that may be lost"
    if mark.kind == losses.LOST_ITEM and (not mark.name or mark.value <= 0):
        return "a lost item has its name and its points (value), e.g. name = \"Armour of Gork\", value = 35"
    return ""


def _counters(reader: Reader, key: str, roster: Roster, raw: Mapping[str, Any]) -> None:
    """`counters = { C1 = { deaths = 1 } }`: running numbers kept on an entry (DR-LOS-7)."""
    for ident, table in raw.items():
        at = f"{key}.counters.{ident}"
        entry = roster.get(ident.upper())
        if entry is None:
            reader.problem(at, f"{ident!r} is not an entry of the list")
            continue
        for name, value in reader.table(at, table).items():
            if (count := reader.typed(f"{at}.{name}", value, int)) is not None:
                entry.counters[name] = count


def _history(reader: Reader, key: str, raw: list[Any]) -> list[Change]:
    """The list's story as its report tells it: `{ turn = 3, entry = "U1", text = "..." }`."""
    out = []
    for n, record in enumerate(raw, start=1):
        at = f"{key}.history[{n}]"
        table = reader.table(at, record)
        reader.unknown_keys(at, table, ("turn", "entry", "text"))
        turn = reader.typed(f"{at}.turn", table.get("turn", 0), int)
        entry = reader.typed(f"{at}.entry", table.get("entry", ""), str)
        text = reader.typed(f"{at}.text", table.get("text", ""), str)
        if turn is not None and entry is not None and text is not None:
            out.append(Change(turn, entry, text))
    return out


def _battles_fought(reader: Reader, raw: Any) -> None:
    for n, entry in enumerate(reader.typed("battles_fought", raw, list) or [], start=1):
        key = f"battles_fought[{n}]"
        record = reader.table(key, entry)
        reader.unknown_keys(key, record, ("turn", "factions"))
        turn = reader.typed(f"{key}.turn", record.get("turn"), int)
        last = reader.state.turn - (reader.state.phase in _BEFORE_BATTLES)    # this turn's, once fought
        if turn is not None and not 1 <= turn <= last:
            reader.problem(f"{key}.turn", f"a battle already fought: a turn from 1 to {last}")
        pair = reader.typed(f"{key}.factions", record.get("factions"), list) or []
        factions = sorted({reader.faction(f"{key}.factions", f) for f in pair} - {""})
        if len(pair) != 2 or len(factions) != 2:
            reader.problem(f"{key}.factions", "the two different factions that fought")
        elif turn is not None:
            reader.state.battles_fought.append(PairBattle(turn, factions))


def _consistency(reader: Reader) -> None:
    """Tokens and lists agree: a list token on the map has an active list, an active list has its token."""
    state = reader.state
    for token in state.tokens.values():
        lst = state.list_of(token)
        if lst is not None and lst.status != LIST_ACTIVE:
            reader.problem(f"lists.{token.id}.status", f"{token.id} is on the map, so its list is active")
        if state.factions[token.faction].eliminated:
            reader.problem(f"tokens.{token.id}", f"faction {token.faction} is eliminated and has no tokens")
    for key, lst in state.lists.items():
        if lst.status == LIST_ACTIVE and key not in state.tokens:
            reader.problem(f"tokens.{key}", f"the list {key} is active, so its token is on the map")
