"""Setup (WT-SET): the clockwise seating, deployment rolls, starting stacks placed in empty towns.

Each player's starting stack holds his nation's starting force (WT-SET-4) and takes the id of
his army marker: the first letter of his name and 1 ("A1"), more letters where two names share
one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbem.kit.dice import Dice
from pbem.rulesets.wandering_tribes.battle_setup import draw_order, pick_one
from pbem.rulesets.wandering_tribes.model import Player, Stack, State
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.squares import SquareMap
from pbem.rulesets.wandering_tribes.strategic import roll_off


@dataclass
class Choice:
    """What a player sent in window W0."""

    nation: str = ""
    army_name: str = ""
    towns: list[str] = field(default_factory=list)


class SetupProblem(ValueError):
    """Setup cannot go on: the GM must act (too few towns, a player without a nation)."""


def seats(players: Sequence[str], rules: Rules, dice: Dice, log: list[str]) -> list[str]:
    """WT-SET-11: the configured seating, else a random permutation (logged)."""
    fixed = [str(p) for p in rules["players.seat_order"]]
    if fixed:
        if sorted(fixed) != sorted(players):
            raise SetupProblem("players.seat_order must name every player once: " + ", ".join(players))
        log.append("Seating (clockwise, from the rules): " + ", ".join(fixed))
        return fixed
    order = draw_order(dice, list(players), "seating", log)
    log.append("Seating (clockwise, drawn): " + ", ".join(order))
    return order


def prefixes(players: Sequence[str]) -> dict[str, str]:
    """Army-marker prefixes: the shortest leading letters no other player shares."""
    out = {}
    for player in players:
        letters = "".join(c for c in player.upper() if c.isalnum()) or "P"
        size = 1
        while size < len(letters) and any(q != player and q.upper().startswith(letters[:size]) for q in players):
            size += 1
        out[player] = letters[:size]
    return out


def deploy(rules: Rules, gmap: SquareMap, choices: Mapping[str, Choice], dice: Dice) -> tuple[State, list[str]]:
    """WT-SET-1..12: seats, deployment order, placement in empty towns, starting stacks."""
    players = list(choices)
    towns = starts(rules, gmap)
    if len(towns) < len(players):
        raise SetupProblem(f"the map has {len(towns)} town tiles for {len(players)} players (WT-SET-10); "
                           "choose a map with more towns")
    for player, choice in choices.items():
        if choice.nation not in rules.nations:
            raise SetupProblem(f"{player} has no nation; GM, assign one of {', '.join(rules.nations)}")
    log: list[str] = []
    volunteer = bool(rules["defaults.volunteer_ambush"])
    state = State(players={p: Player(p, c.nation, c.army_name, volunteer=volunteer) for p, c in choices.items()})
    state.seats = seats(players, rules, dice, log)
    order = [p for p, _ in roll_off(state.seats, dice, rules["setup.dice"], "deployment roll", log)]
    log.append("Deployment order: " + ", ".join(order))
    marks = prefixes(players)
    for player in order:
        tile = _town(state, starts(rules, gmap), choices[player].towns, dice, log, player)
        nation = rules.nations[choices[player].nation]
        markers = [state.new_marker(t, nation.points(t)) for t, n in nation.start for _ in range(n)]
        stack = Stack(f"{marks[player]}1", player, tile, markers)
        state.stacks[stack.id] = stack
        log.append(f"{player} ({nation.name}) deploys {stack.id} in {tile}: {stack.points} pts")
    return state, log


def starts(rules: Rules, gmap: SquareMap) -> list[str]:
    """The tiles a starting stack may be placed in (`setup.deploy_terrain`, towns by default)."""
    terrain = str(rules["setup.deploy_terrain"])
    return gmap.sorted(t for t in gmap.places() if gmap.terrain(t) == terrain)


def _town(state: State, towns: list[str], ranked: list[str], dice: Dice, log: list[str], player: str) -> str:
    """WT-SET-7..9: the first empty town of his list, else a random empty town."""
    empty = [t for t in towns if not state.stacks_in(t)]
    chosen = next((t for t in ranked if t in empty), "")
    return chosen or pick_one(dice, empty, f"random empty town for {player}", log)
