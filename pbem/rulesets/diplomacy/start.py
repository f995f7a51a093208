"""A Diplomacy campaign started from a position written by hand (`pbem import`, `pbem new
--position`); the format is documented in docs/positions/diplomacy.md:

    year = 1902
    season = "fall"                 # spring | fall | winter
    phase = "retreats"              # movement | retreats | adjustments
    contested = ["SIL"]             # retreats only: left empty by a standoff
    [units]
    England = ["F NTH", "A LVP"]
    [centres]
    England = ["LON", "LVP", "EDI"]
    [dislodged]                     # retreats only: the unit, then where its attacker came from
    Germany = ["A MUN <- BOH"]

Every problem of the file is collected and reported at once, each naming its key.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from pbem.kit.orders import InvalidOrder, OrderProblem
from pbem.kit.rulebook import RuleBook
from pbem.kit.scene import Resolved
from pbem.kit.tomlio import from_data, lean, to_data
from pbem.rulesets.base import PositionError
from pbem.rulesets.diplomacy.board import Board
from pbem.rulesets.diplomacy.cycle import ADJUSTMENT, FALL, MOVEMENT, RETREAT, SPRING, WINTER, GameState
from pbem.rulesets.diplomacy.position import parse_dislodged
from pbem.rulesets.diplomacy.results import DislodgedUnit, sort_units
from pbem.rulesets.diplomacy.state import DiplomacyState, dislodged_text
from pbem.rulesets.diplomacy.units import Unit

T = TypeVar("T")

KEYS = ("year", "season", "phase", "start_year", "contested", "units", "centres", "centers", "dislodged",
        "draw_pending", "last")
PHASE_NAMES = {"movement": MOVEMENT, "retreats": RETREAT, "retreat": RETREAT, "adjustments": ADJUSTMENT,
               "adjustment": ADJUSTMENT}
SEASONS = {MOVEMENT: (SPRING, FALL), RETREAT: (SPRING, FALL), ADJUSTMENT: (WINTER,)}


class Reader:
    """One position file read against one board, its problems gathered as it goes."""

    def __init__(self, board: Board, data: Mapping[str, Any]) -> None:
        self.board, self.data = board, data
        self.problems: list[str] = []

    def whole(self, key: str, default: int | None = None) -> int:
        value = self.data.get(key, default)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        self.problems.append(f"{key}: expected a year as a whole number, e.g. {key} = 1901")
        return 0

    def choice(self, key: str, options: Mapping[str, str], shown: str) -> str:
        value = self.data.get(key)
        if isinstance(value, str) and value.strip().casefold() in options:
            return options[value.strip().casefold()]
        self.problems.append(f"{key}: expected one of {shown}, got {value!r}" if key in self.data
                             else f"{key}: missing; one of {shown}")
        return ""

    def per_power(self, key: str, read: Callable[[str, str], T]) -> dict[str, list[T]]:
        """A table `Power = ["...", ...]`, each entry read as `read(power, text)`."""
        table = self.data.get(key, {})
        if not isinstance(table, Mapping):
            self.problems.append(f"{key}: expected a table of power = [...], e.g. [{key}] England = [...]")
            return {}
        out: dict[str, list[T]] = {}
        for name, items in table.items():
            power = self.power(f"{key}.{name}", name, out)
            if power:
                out[power] = self.entries(f"{key}.{name}", items, functools.partial(read, power))
        return out

    def power(self, where: str, name: str, seen: Mapping[str, Any]) -> str:
        try:
            power = self.board.power_names.lookup(name)
        except OrderProblem:
            close = self.board.power_names.suggest(name)
            hint = f"did you mean {close}?" if close else "one of " + ", ".join(self.board.powers)
            self.problems.append(f"{where}: {name!r} is not a power of this map ({hint})")
            return ""
        if power in seen:
            self.problems.append(f"{where}: {power} is listed twice")
            return ""
        return power

    def entries(self, where: str, items: Any, read: Callable[[str], T]) -> list[T]:
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            self.problems.append(f"{where}: expected a list of strings")
            return []
        out = []
        for i, text in enumerate(items):
            try:
                out.append(read(text))
            except OrderProblem as problem:
                self.problems.append(f"{where}[{i}] {text!r}: {problem}")
        return out


def read_position(board: Board, rules: RuleBook, powers: dict[str, str], data: Mapping[str, Any],
                  source: str) -> DiplomacyState:
    """The campaign state the position describes, `powers` playing; raises PositionError with every problem."""
    r = Reader(board, data)
    r.problems += [f"{key}: not part of a Diplomacy position (keys: {', '.join(KEYS)})" for key in data
                   if key not in KEYS]
    year, start_year = r.whole("year"), r.whole("start_year", int(rules["start_year"]))
    season = r.choice("season", {s: s for s in (SPRING, FALL, WINTER)}, "spring, fall, winter")
    phase = r.choice("phase", PHASE_NAMES, "movement, retreats, adjustments")
    if season and phase and season not in SEASONS[phase]:
        r.problems.append(f"phase: {r.data['phase']} is a phase of {' or '.join(SEASONS[phase])}, not of {season}")
    if year and start_year > year:
        r.problems.append(f"start_year: {start_year} is after the position's year {year}")
    units = [u for found in r.per_power("units", lambda p, t: Unit.parse(f"{p}: {t}", board)).values() for u in found]
    centers = _centres(r)
    dislodged, contested = _retreat(r, phase, units)
    _check_units(r, units)
    state = GameState(year, season, phase, tuple(sort_units(units)), centers, tuple(dislodged), tuple(contested))
    state = _eliminated(r, board, state)
    drawn, last = _draw_pending(r), _last(r)
    if r.problems:
        raise PositionError(source, r.problems)
    return DiplomacyState(state, start_year, powers, drawn, last)


def _draw_pending(r: Reader) -> list[str]:
    """The powers of a DRAW the game master declared, not yet settled: `draw_pending = ["England", "France"]`."""
    names = r.data.get("draw_pending", [])
    if not isinstance(names, list):
        r.problems.append(f"draw_pending: expected a list of powers, got {names!r}")
        return []
    seen: dict[str, bool] = {}
    for name in names:
        if power := r.power("draw_pending", str(name), seen):
            seen[power] = True
    return list(seen)


def _last(r: Reader) -> Resolved:
    """What the last resolution did, for its map picture, as `pbem export-position` writes it."""
    try:
        return from_data(Resolved, r.data.get("last", {}))
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        r.problems.append(f"last: not as pbem keeps it ({exc})")
        return Resolved()


def _centres(r: Reader) -> dict[str, str]:
    key = "centers" if "centers" in r.data else "centres"
    owners: dict[str, str] = {}
    for power, centres in r.per_power(key, lambda p, t: _supply_centre(r.board, t)).items():
        for centre in centres:
            if centre in owners:
                r.problems.append(f"{key}: {centre} is owned by both {owners[centre]} and {power}")
            owners[centre] = power
    return dict(sorted(owners.items()))


def _supply_centre(board: Board, text: str) -> str:
    province = board.province(text)
    if not board.provinces[province].supply:
        raise InvalidOrder(f"{board.provinces[province].name} is not a supply centre")
    return province


def _retreat(r: Reader, phase: str, units: list[Unit]) -> tuple[list[DislodgedUnit], list[str]]:
    """The dislodged units and contested provinces of a retreat phase (none in any other)."""
    dislodged = [d for found in r.per_power("dislodged", lambda p, t: parse_dislodged(f"{p}: {t}", r.board)).values()
                 for d in found]
    contested = r.entries("contested", r.data.get("contested", []), r.board.province)
    if phase and phase != RETREAT:
        r.problems += [f"{key}: only a retreats phase has {what}"
                       for key, what in (("dislodged", "dislodged units"), ("contested", "contested provinces"))
                       if r.data.get(key)]
        return [], []
    if phase == RETREAT and not dislodged and not any(p.startswith("dislodged") for p in r.problems):
        r.problems.append("dislodged: a retreats phase needs at least one dislodged unit")
    standing = {u.province: u for u in units}
    for d in dislodged:
        attacker = standing.get(d.unit.province)
        if attacker is None or attacker.power == d.unit.power:
            r.problems.append(f"dislodged.{d.unit.power}: {d.unit.kind} {d.unit.loc} was dislodged, so a unit of "
                              f"another power must stand in {d.unit.province}; list it under units")
    return dislodged, contested


def _check_units(r: Reader, units: list[Unit]) -> None:
    seen: dict[str, Unit] = {}
    for unit in units:
        if unit.province in seen:
            r.problems.append(f"units: two units in {unit.province} ({seen[unit.province]} and {unit})")
        seen[unit.province] = unit


def _eliminated(r: Reader, board: Board, state: GameState) -> GameState:
    """Powers with no unit and no centre are out; a game needs two powers still in it."""
    present = {u.power for u in state.units} | {d.unit.power for d in state.dislodged} | set(state.centers.values())
    if len(present) < 2 and not r.problems:
        r.problems.append("units: a position needs units or centres of at least two powers")
    return replace(state, eliminated=tuple(p for p in board.powers if p not in present))


def export_position(state: DiplomacyState) -> dict[str, Any]:
    """The campaign's state in the position format `read_position` reads (docs/positions/diplomacy.md)."""
    pos = state.position
    name = {MOVEMENT: "movement", RETREAT: "retreats", ADJUSTMENT: "adjustments"}
    out: dict[str, Any] = {"year": pos.year, "season": pos.season, "phase": name.get(pos.phase, pos.phase),
                           "start_year": state.start_year}
    if pos.contested:
        out["contested"] = list(pos.contested)
    out["units"] = _by_power((u.power, f"{u.kind} {u.loc}") for u in pos.units)
    out["centres"] = _by_power((owner, centre) for centre, owner in pos.centers.items())
    if pos.dislodged:
        out["dislodged"] = _by_power((d.unit.power, dislodged_text(d).split(": ", 1)[1]) for d in pos.dislodged)
    if state.draw_pending:
        out["draw_pending"] = list(state.draw_pending)
    if state.last != Resolved():
        out["last"] = lean(Resolved, to_data(state.last))
    return out


def _by_power(pairs: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for power, text in pairs:
        out.setdefault(power, []).append(text)
    return out
