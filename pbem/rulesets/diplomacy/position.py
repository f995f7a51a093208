"""Positions as TOML: a board state plus the orders of one phase.

    variant = "standard"
    edition = "3.0"                          # or "2.4"
    phase = "movement"                       # movement | retreat | adjustment
    units = ["England: F NTH", "France: A PIC"]
    dislodged = ["Germany: A MUN <- BOH"]    # retreat phase
    contested = ["SIL"]                      # retreat phase
    centers = ["England: LON EDI LVP NWY"]   # adjustment phase
    [orders]
    England = ["F NTH - PIC"]

Reading reports every problem of a file at once, each with its key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.kit.orders import InvalidOrder, OrderProblem
from pbem.rulesets.base import UserError
from pbem.rulesets.diplomacy.adjustments import adjudicate_adjustments
from pbem.rulesets.diplomacy.board import Board, MapError, standard_board
from pbem.rulesets.diplomacy.movement import adjudicate_movement
from pbem.rulesets.diplomacy.orders import PHASES
from pbem.rulesets.diplomacy.results import (
    EDITIONS,
    DislodgedUnit,
    PhaseResult,
    Submitted,
)
from pbem.rulesets.diplomacy.retreats import adjudicate_retreats
from pbem.rulesets.diplomacy.units import Unit


class PositionError(UserError):
    """A position file that cannot be adjudicated; the message lists every problem."""


@dataclass
class Position:
    board: Board
    phase: str = "movement"
    edition: str = "3.0"
    units: list[Unit] = field(default_factory=list)
    dislodged: list[DislodgedUnit] = field(default_factory=list)
    contested: list[str] = field(default_factory=list)
    centers: dict[str, str] = field(default_factory=dict)
    orders: list[Submitted] = field(default_factory=list)


def adjudicate(position: Position) -> PhaseResult:
    """Resolve the position's phase with the rules of its edition."""
    p = position
    if p.phase == "movement":
        return adjudicate_movement(p.board, p.units, p.orders, p.edition)
    if p.phase == "retreat":
        return adjudicate_retreats(p.board, p.units, p.dislodged, p.contested, p.orders, p.edition)
    return adjudicate_adjustments(p.board, p.units, p.centers, p.orders, p.edition)


def load_position(path: Path | str) -> Position:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PositionError(f"{path}: {exc}") from exc
    return position_from_data(data, str(path))


def position_from_data(data: Mapping[str, Any], where: str = "position") -> Position:
    """Build a position from TOML data, collecting every problem before failing."""
    errors: list[str] = []
    try:
        board = standard_board(str(data.get("variant", "standard")))
    except MapError as exc:
        raise PositionError(f"{where}: variant: {exc}") from exc
    pos = Position(board, str(data.get("phase", "movement")), str(data.get("edition", "3.0")))
    if pos.phase not in PHASES:
        errors.append(f"phase: must be one of {', '.join(PHASES)}")
    if pos.edition not in EDITIONS:
        errors.append(f"edition: must be one of {', '.join(EDITIONS)}")
    pos.units = _each(data, "units", errors, lambda t: Unit.parse(t, board))
    pos.dislodged = _each(data, "dislodged", errors, lambda t: parse_dislodged(t, board))
    pos.contested = _each(data, "contested", errors, board.province)
    for owner, centres in _each(data, "centers", errors, lambda t: parse_centers(t, board)):
        pos.centers.update(dict.fromkeys(centres, owner))
    pos.orders = _orders(data.get("orders", {}), errors)
    _check_occupancy(pos, errors)
    if errors:
        raise PositionError(f"{where}: " + "; ".join(errors))
    return pos


def _each(data: Mapping[str, Any], key: str, errors: list[str], read: Any) -> list[Any]:
    items = data.get(key, [])
    if not isinstance(items, list):
        errors.append(f"{key}: expected a list of strings")
        return []
    out = []
    for i, text in enumerate(items):
        try:
            out.append(read(str(text)))
        except OrderProblem as problem:
            errors.append(f"{key}[{i}] {text!r}: {problem}")
    return out


def _orders(table: Any, errors: list[str]) -> list[Submitted]:
    if not isinstance(table, dict):
        errors.append("orders: expected a table of power = [orders]")
        return []
    out: list[Submitted] = []
    for power, lines in table.items():
        if isinstance(lines, str):
            lines = [lines]
        if not isinstance(lines, list):
            errors.append(f"orders.{power}: expected a list of strings")
            continue
        out += [(power, str(line)) for line in lines]
    return out


def _check_occupancy(pos: Position, errors: list[str]) -> None:
    seen: dict[str, Unit] = {}
    for unit in pos.units:
        if unit.province in seen:
            errors.append(f"units: two units in {unit.province}")
        seen[unit.province] = unit


def parse_dislodged(text: str, board: Board) -> DislodgedUnit:
    """Read "Power: T LOC <- ORIGIN" (with " VIA CONVOY" when the attacker was convoyed)."""
    unit_text, sep, origin = text.partition("<-")
    words = origin.split()
    by_convoy = len(words) > 2 and " ".join(words[-2:]).casefold() == "via convoy"
    if by_convoy:
        words = words[:-2]
    if not sep or not words:
        raise InvalidOrder(f"expected 'Power: T LOC <- ORIGIN', got {text!r}")
    return DislodgedUnit(Unit.parse(unit_text, board), board.province(" ".join(words)), by_convoy)


def parse_centers(text: str, board: Board) -> tuple[str, list[str]]:
    """Read "Power: LON EDI LVP" -> (power, centres)."""
    power, sep, rest = text.partition(":")
    if not sep:
        raise InvalidOrder(f"expected 'Power: CENTRE CENTRE ...', got {text!r}")
    return board.power(power.strip()), [board.province(w) for w in rest.split()]
