"""A Mighty Kingdoms position written by hand (`pbem import`, `pbem new --position`).

The format is documented in docs/positions/mighty_kingdoms.md: the calendar and player order,
each kingdom's starting tile and stock, the explored tiles with owner, settlement or tower,
every army with its tile, status and list (stats as they stand after every medal and scar),
the medals and scars each unit has earned so far, and the artefacts held. The position opens
at the start of a summer month (window O) or at a winter's purchases (window W1, after
Gather). Every problem is reported at once, each with the key it is about.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.kit.hexes import HexMap
from pbem.kit.orders import OrderProblem
from pbem.kit.rulebook import RuleBook
from pbem.kit.tomlio import from_data
from pbem.rulesets.base import PositionError, Settings
from pbem.rulesets.mighty_kingdoms import armylist, position_records
from pbem.rulesets.mighty_kingdoms.model import (
    BATTLE,
    CONTROL,
    DEPLOYMENT,
    ORDERS,
    PURCHASES,
    SETTLEMENTS,
    SETUP,
    WINTER,
    Army,
    Calendar,
    Holding,
    Kingdom,
    MKState,
    Standing,
    TileState,
    army_id,
)
from pbem.rulesets.mighty_kingdoms.tiles import starting_tiles

STANDING_KEYS = ("battles", "slaughter", "retreats", "win_move", "reform", "quests")
TOP = ("year", "month", "window", "order", "kingdoms", "tiles", "armies", "artefacts", "records", "deadline")
OPENS = (SETUP, ORDERS, BATTLE, PURCHASES, DEPLOYMENT)
"""The windows a position opens: a hand-written one a month's Orders or a winter's purchases (by
`month`); one `pbem export-position` wrote any window, with its `[records]` (position_records)."""


class Reader:
    """One position file being read: the problems found so far, each with its key."""

    def __init__(self, settings: Settings, gmap: HexMap, rules: RuleBook, data: Mapping[str, Any]) -> None:
        self.settings, self.gmap, self.rules, self.data = settings, gmap, rules, data
        self.players = [p.id for p in settings.players]
        self.problems: list[str] = []

    def bad(self, key: str, text: str) -> None:
        self.problems.append(f"{key}: {text}")

    def tile(self, key: str, text: Any) -> str:
        try:
            return self.gmap.lookup(str(text))
        except OrderProblem as exc:
            self.bad(key, f"{text!r} is not a tile of the map {self.gmap.name} ({exc.reason})")
            return ""

    def player(self, key: str, text: Any) -> str:
        if text not in self.players:
            self.bad(key, f"{text!r} is not a player of this campaign ({', '.join(self.players)})")
            return ""
        return str(text)

    def number(self, key: str, value: Any, least: int, most: int = 10**6) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
            self.bad(key, f"{value!r} must be a whole number from {least} to {most}")
            return least
        return value


def read(settings: Settings, gmap: HexMap, rules: RuleBook, data: Mapping[str, Any], source: str) -> MKState:
    reader = Reader(settings, gmap, rules, data)
    for key in data:
        if key not in TOP:
            reader.bad(key, f"unknown key; a position has {', '.join(TOP)}")
    state = MKState()
    _calendar(reader, state)
    reader.problems += position_records.read(data.get("records", {}), state)
    if "setup" not in data.get("records", {}):        # a hand-written position: setup is long over
        state.setup.rolled = state.setup.placed = state.calendar.window != SETUP
    _kingdoms(reader, state)
    _tiles(reader, state)
    _armies(reader, state)
    _artefacts(reader, state)
    _check(reader, state)
    if reader.problems:
        raise PositionError(source, reader.problems)
    return state


def _calendar(reader: Reader, state: MKState) -> None:
    data, months = reader.data, reader.rules["campaign.summer_months"]
    year = reader.number("year", data.get("year", 1), 1)
    window = _window(reader)
    month = reader.number("month", data.get("month", 1), 0 if window == SETUP else 1, WINTER)
    if month != WINTER and month > months:
        reader.bad("month", f"{month}: a summer has {months} months here; {WINTER} is the winter")
    if (month == 0) != (window == SETUP) or (month == WINTER) != (window in (PURCHASES, DEPLOYMENT)):
        reader.bad("window", f"{window!r} is not a window of month {month} (setup is month 0, the winter {WINTER})")
    state.calendar = Calendar(year, month, window, months)
    order = list(data.get("order", []))
    if not order and window == SETUP and not data.get("records", {}).get("setup", {}).get("rolled"):
        return                         # the initial player order is not rolled yet (MK-SET-1)
    if sorted(map(str, order)) != sorted(reader.players):
        reader.bad("order", f"{order!r} must name every player once ({', '.join(reader.players)}), first to act first")
    state.order = [str(p) for p in order]


def _window(reader: Reader) -> str:
    """The window the position opens: the month's own unless `window` names another."""
    data = reader.data
    window = data.get("window", PURCHASES if data.get("month") == WINTER else ORDERS)
    if window not in OPENS:
        reader.bad("window", f"{window!r}; one of {', '.join(OPENS)}, or leave it out for the month's own")
        return ORDERS
    if window in (BATTLE, DEPLOYMENT) and not data.get("records"):
        reader.bad("window", f"the {window} window goes on from the [records] of the month or winter under way, as "
                             "`pbem export-position` writes them; a position written by hand opens at Orders or W1")
    return str(window)


def _kingdoms(reader: Reader, state: MKState) -> None:
    given = reader.data.get("kingdoms", {})
    for pid in given:
        reader.player(f"kingdoms.{pid}", pid)
    for p in reader.settings.players:
        spec = given.get(p.id, {})
        key = f"kingdoms.{p.id}"
        if not spec.get("start") and state.setup.placed:
            reader.bad(f"{key}.start", "missing; every kingdom claimed a starting tile at setup (start = \"T12\")")
        start = reader.tile(f"{key}.start", spec.get("start", "")) if spec.get("start") else ""
        if start and start not in starting_tiles(reader.gmap):
            reader.bad(f"{key}.start", f"{start} is not a starting tile of the map")
        state.kingdoms[p.id] = Kingdom(p.id, str(spec.get("name", p.faction_name or p.name)), start,
                                       reader.number(f"{key}.gold", spec.get("gold", 0), 0),
                                       reader.number(f"{key}.food", spec.get("food", 0), 0),
                                       reader.number(f"{key}.armies_raised", spec.get("armies_raised", 0), 0),
                                       _standing(reader, f"{key}.standing", spec.get("standing", {})))


def _standing(reader: Reader, key: str, spec: Any) -> Standing:
    """The standing preferences on file (BATTLE, SLAUGHTER, RETREAT, WIN, REFORM, QUEST lines), as
    `pbem export-position` writes them: `battles = ["T8 blue"]`, `reform = { RED1 = { U1 = "..." } }`."""
    try:
        if not isinstance(spec, Mapping) or set(spec) - set(STANDING_KEYS):
            raise TypeError(f"a table of {', '.join(STANDING_KEYS)}")
        return from_data(Standing, spec)
    except (TypeError, ValueError, KeyError) as exc:
        reader.bad(key, f"the standing preferences: {exc}")
        return Standing()


def _tiles(reader: Reader, state: MKState) -> None:
    for text, spec in reader.data.get("tiles", {}).items():
        key = f"tiles.{text}"
        tile = reader.tile(key, text)
        if not tile or not isinstance(spec, Mapping):
            continue
        tower = bool(spec.get("tower", False))
        owner = "" if tower else reader.player(f"{key}.owner", spec.get("owner", ""))
        settlement = str(spec.get("settlement", ""))
        if settlement in ("", CONTROL):
            settlement = ""
        elif settlement not in SETTLEMENTS:
            reader.bad(f"{key}.settlement", f"{settlement!r}; one of village, city, fortress, or leave it out")
            settlement = ""
        if tower and (settlement or spec.get("owner")):
            reader.bad(key, "a wizard's tower holds nothing and nobody controls it (MK-EXP-5, MK-EXP-8)")
        state.tiles[tile] = TileState(owner, tower, settlement, bool(spec.get("razed", False)))


def _armies(reader: Reader, state: MKState) -> None:
    for ident, spec in reader.data.get("armies", {}).items():
        key = f"armies.{ident}"
        owner = reader.player(f"{key}.owner", spec.get("owner", ""))
        tile = reader.tile(f"{key}.tile", spec.get("tile", ""))
        if not owner or not tile:
            continue
        number = _army_number(reader, key, ident, owner)
        lines = [(n, str(u)) for n, u in enumerate(spec.get("units", []), 1)]
        roster, wrong = armylist.read(ident, str(spec.get("name", "")), lines)
        for n, _, reason in wrong:
            reader.bad(f"{key}.units[{n - 1}]", reason)
        if not lines:
            reader.bad(f"{key}.units", "an army has at least one unit, one line each as an army list writes it")
        _record(reader, key, roster.entries, spec, roster)
        army = Army(ident, owner, tile, bool(spec.get("upright", True)), bool(spec.get("defend", False)), roster)
        state.armies[ident] = army
        kingdom = state.kingdoms[owner]
        kingdom.armies_raised = max(kingdom.armies_raised, number)


def _army_number(reader: Reader, key: str, ident: str, owner: str) -> int:
    """The number in the army's id: ids follow the owner's id (A32: never reused)."""
    prefix = army_id(owner, 0)[:-1]
    tail = ident[len(prefix):] if ident.upper().startswith(prefix) else ""
    if not tail.isdigit() or int(tail) < 1:
        reader.bad(key, f"army ids of {owner} read {army_id(owner, 1)}, {army_id(owner, 2)}, ...")
        return 0
    return int(tail)


def _record(reader: Reader, key: str, entries: list[Any], spec: Mapping[str, Any], roster: Any) -> None:
    """Medals and scars earned before the move, kept in the army's story (the stats already show
    their effect); `history` lines carry anything else the GM wants kept."""
    ids = {e.id for e in entries}
    for kind in ("medals", "scars"):
        for unit, count in spec.get(kind, {}).items():
            if unit not in ids:
                reader.bad(f"{key}.{kind}.{unit}", f"no unit {unit}; units are U1, U2, ... in list order")
                continue
            n = reader.number(f"{key}.{kind}.{unit}", count, 0)
            roster.note(0, unit, f"{n} {kind[:-1] if n == 1 else kind} before the campaign came to pbem")
    for n, line in enumerate(spec.get("history", [])):
        if isinstance(line, Mapping):          # as `pbem export-position` writes it: when, which unit, what
            turn = reader.number(f"{key}.history[{n}].turn", line.get("turn", 0), 0)
            roster.note(turn, str(line.get("unit", "")), str(line.get("text", "")))
        else:
            roster.note(0, "", str(line))


def _artefacts(reader: Reader, state: MKState) -> None:
    for name, spec in reader.data.get("artefacts", {}).items():
        key = f"artefacts.{name}"
        owner = reader.player(f"{key}.owner", spec.get("owner", ""))
        army, unit = str(spec.get("army", "")), str(spec.get("unit", ""))
        if army and army not in reader.data.get("armies", {}):
            reader.bad(f"{key}.army", f"{army!r} is no army of the position")
        elif army and reader.data["armies"][army].get("owner") != owner:
            reader.bad(f"{key}.army", f"{army} is not {owner}'s army")
        elif army and (not unit or (state.armies.get(army) and not state.armies[army].roster.get(unit))):
            reader.bad(f"{key}.unit", f"{unit!r}: name the unit of {army} that carries it (U1, U2, ...)")
        if owner:
            state.artefacts[str(name)] = Holding(owner, army, unit if army else "")


def _check(reader: Reader, state: MKState) -> None:
    """What no campaign could have come to: armies off their own ground, capitals of nobody."""
    for ident, army in state.armies.items():
        if not state.tile(army.tile).owner:
            reader.bad(f"armies.{ident}.tile", f"{army.tile} is unexplored or a tower; list it under [tiles] with "
                                               "its owner")
    for pid, kingdom in state.kingdoms.items():
        if kingdom.start_tile and not state.explored(kingdom.start_tile):
            reader.bad(f"kingdoms.{pid}.start", f"{kingdom.start_tile} is not under [tiles]; the starting tile is "
                                                "always explored")
