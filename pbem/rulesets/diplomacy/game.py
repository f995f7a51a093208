"""A Diplomacy campaign's stored game, its board and rules, and who plays which power.

The game is kept under `[game]` in state.toml in the notation players read:

    year = 1901
    season = "fall"                      # spring | fall | winter
    phase = "retreat"                    # movement | retreat | adjustment | over
    units = ["England: F NTH", "France: A BUR"]
    dislodged = ["Germany: A MUN <- BOH"]          # " VIA CONVOY" when the attacker sailed
    contested = ["SIL"]
    eliminated = []
    winner = ""
    draw = []
    draw_pending = []                    # a DRAW the game master declared, settled at once
    [game.centers]
    LON = "England"
    [game.powers]                        # power -> player id ("" = nobody: civil disorder)
    England = "eng"

Who plays which power: each player names a power in the faction field (or the
faction name, or the player id), by name, adjective or a unique beginning
("England", "English", "eng"). When no player names a power, the powers are
dealt in map order to the players in the order listed. Powers without a player
stand in civil disorder: their units hold, they build nothing, and they lose
units by the civil disorder rule.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pbem.campaign import Player, Settings
from pbem.orders import OrderProblem
from pbem.rulebook import RuleBook, load_rules
from pbem.rulesets.diplomacy.board import Board, MapError, standard_board
from pbem.rulesets.diplomacy.cycle import SPRING, GameState, opening
from pbem.rulesets.diplomacy.position import parse_dislodged
from pbem.rulesets.diplomacy.results import EDITIONS, DislodgedUnit
from pbem.rulesets.diplomacy.units import Unit


class AssignmentError(ValueError):
    """Players and powers do not match up; the message names every problem."""


def board_for(settings: Settings) -> Board:
    return board_named(settings.map)


def board_named(name: str) -> Board:
    """A Diplomacy map in rules/maps/ (e.g. `standard`)."""
    try:
        board = standard_board(name)
    except MapError as exc:
        raise ValueError(f"map {name!r} is not a Diplomacy map ({exc}); use e.g. --map standard") from exc
    if not board.powers:
        raise ValueError(f"map {name!r} has no powers; Diplomacy needs a map like 'standard'")
    return board


def rules_for(settings: Settings) -> RuleBook:
    rules = load_rules("diplomacy", settings.rules)
    if rules["edition"] not in EDITIONS:
        raise ValueError(f"rules.edition: {rules['edition']!r} is not one of {', '.join(EDITIONS)}")
    return rules


# ---------------------------------------------------------------- players and powers


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
        named = {power: pid for power, (pid, _) in zip(board.powers, players)}
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


# ---------------------------------------------------------------- stored form


def new_game(settings: Settings) -> dict[str, Any]:
    board = board_for(settings)
    rules = rules_for(settings)
    powers = assign_powers(board, [(p.id, player_names(p)) for p in settings.players])
    data = dump_state(opening(board, int(rules["start_year"])))
    return data | {"start_year": int(rules["start_year"]), "powers": powers, "draw_pending": []}


def dump_state(state: GameState) -> dict[str, Any]:
    return {
        "year": state.year, "season": state.season, "phase": state.phase,
        "units": [str(u) for u in state.units],
        "dislodged": [dislodged_text(d) for d in state.dislodged],
        "contested": list(state.contested), "centers": dict(sorted(state.centers.items())),
        "eliminated": list(state.eliminated), "winner": state.winner, "draw": list(state.draw),
    }


def load_state(board: Board, data: Mapping[str, Any]) -> GameState:
    return GameState(
        year=int(data["year"]), season=str(data["season"]), phase=str(data["phase"]),
        units=tuple(Unit.parse(t, board) for t in data.get("units", [])),
        centers=dict(data.get("centers", {})),
        dislodged=tuple(parse_dislodged(t, board) for t in data.get("dislodged", [])),
        contested=tuple(data.get("contested", [])), eliminated=tuple(data.get("eliminated", [])),
        winner=str(data.get("winner", "")), draw=tuple(data.get("draw", [])),
    )


def dislodged_text(d: DislodgedUnit) -> str:
    return f"{d}{' VIA CONVOY' if d.by_convoy else ''}"


class Game:
    """The stored game as typed objects for one hook call; `dump` gives the new stored form."""

    def __init__(self, data: Mapping[str, Any], settings: Settings) -> None:
        self.data = copy.deepcopy(dict(data))
        self.settings = settings
        self.board = board_for(settings)
        self.rules = rules_for(settings)
        self.state = load_state(self.board, self.data)
        self.powers: dict[str, str] = dict(self.data.get("powers", {}))

    @property
    def edition(self) -> str:
        return str(self.rules["edition"])

    @property
    def victory(self) -> int:
        return int(self.rules["victory_centres"])

    @property
    def turn(self) -> int:
        """Spring of the first year is turn 1, its Fall (with the Winter after it) turn 2, and so on."""
        years = self.state.year - int(self.data.get("start_year", self.state.year))
        return years * 2 + (1 if self.state.season == SPRING else 2)

    @property
    def powers_by_player(self) -> dict[str, str]:
        return {pid: power for power, pid in self.powers.items() if pid}

    def power_of(self, player: Player) -> str:
        return self.powers_by_player.get(player.id, "")

    def player_of(self, power: str) -> str:
        return self.powers.get(power, "")

    def set_state(self, state: GameState) -> None:
        self.state = state

    def dump(self) -> dict[str, Any]:
        self.data.update(dump_state(self.state))
        self.data["powers"] = self.powers
        return self.data
