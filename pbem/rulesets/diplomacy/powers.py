"""Who plays which power.

Each player names a power in the faction field (or the faction name, or the player id), by
name, adjective or a unique beginning ("England", "English", "eng"). When no player names a
power, the powers are dealt in map order to the players in the order listed. Powers without a
player stand in civil disorder: their units hold, they build nothing, and they lose units by
the civil disorder rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pbem.kit.orders import OrderProblem
from pbem.rulesets.base import Player
from pbem.rulesets.diplomacy.board import Board


class AssignmentError(ValueError):
    """Players and powers do not match up; the message names every problem."""


def assign_powers(board: Board, players: Sequence[tuple[str, Sequence[str]]]) -> dict[str, str]:
    """Power -> player id, from (player id, [names the player goes by, best first])."""
    if len(players) > len(board.powers):
        raise AssignmentError(f"{len(players)} players, but the map has only {len(board.powers)} powers")
    named: dict[str, str] = {}
    problems: list[str] = []
    unnamed: list[tuple[str, str]] = []
    for pid, names in players:
        power = _named_power(board, names)
        if power is None:
            unnamed.append((pid, _hint(board, names)))
        elif power in named:
            problems.append(f"{power} is chosen by both {named[power]!r} and {pid!r}")
        else:
            named[power] = pid
    if named and unnamed:
        problems += [f"player {pid!r} names no power{hint}" for pid, hint in unnamed]
        problems.append("give every player a power (" + ", ".join(board.powers) + ") or none to deal them in order")
    if problems:
        raise AssignmentError("; ".join(problems))
    if not named:
        named = {power: pid for power, (pid, _) in zip(board.powers, players, strict=False)}
    return {power: named.get(power, "") for power in board.powers}


def _named_power(board: Board, names: Iterable[str]) -> str | None:
    for name in names:
        if not name.strip():
            continue
        try:
            return board.power_names.lookup(name)
        except OrderProblem:
            continue
    return None


def _hint(board: Board, names: Sequence[str]) -> str:
    for name in names:
        close = board.power_names.suggest(name) if name.strip() else ""
        if close:
            return f" ({name!r}: did you mean {close}?)"
    return ""


def player_names(player: Player) -> list[str]:
    return [player.faction, player.faction_name, player.id]
