"""Campaign creation and window S: the opening state and the capital picks (COC-SET).

Every player sends a ranked list of cities and, optionally, of tiles for a new
city. The pick order comes from the GM's list or a 1D6 roll-off (COC-SET-4);
in that order each player gets his first legal city, else a random legal city,
else (only when no legal city is left anywhere) his first legal new-city tile
(COC-SET-8). With nothing legal at all the GM places the city.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.kit.rulebook import RuleBook
from pbem.kit.sequential import ranked_choices
from pbem.rulesets.conquest import tiles as tilesmod
from pbem.rulesets.conquest.model import ConquestState, Empire, TileState
from pbem.rulesets.conquest.rules import dice_spec


@dataclass
class CapitalWish:
    """One player's window-S submission."""

    cities: list[str] = field(default_factory=list)
    new_city: list[str] = field(default_factory=list)


def new_state(gmap: HexMap, rules: RuleBook, players: Sequence[tuple[str, str, str]]) -> ConquestState:
    """The map as drawn, nobody holding anything yet; `players` are (id, name, colour)."""
    ids = [pid for pid, _, _ in players]
    problems = tilesmod.check_players(gmap, len(players), rules)
    problems += [f"setup.capital_order names {p!r}, who is not a player" for p in rules["setup.capital_order"]
                 if p not in ids]
    problems += naval_problems(gmap, rules, ids)
    if problems:
        raise ValueError("; ".join(problems))
    state = ConquestState()
    if len(players) < int(rules["campaign.recommended_players"]):
        state.round.log.append(f"{len(players)} players: the rules recommend {rules['campaign.recommended_players']} "
                               "or more (COC-GEN-1), but the campaign can be played")
    for ident in tilesmod.land_tiles(gmap):
        state.tiles[ident] = TileState("", gmap.tiles[ident].building)
    for pid, name, colour in players:
        state.empires[pid] = Empire(pid, name, colour, treasury=int(rules["setup.starting_gold"]),
                                    carried_ep=int(rules["setup.starting_carry_ep"]))
    return state


def naval_problems(gmap: HexMap, rules: RuleBook, players: Sequence[str]) -> list[str]:
    """COC-NAV-1: naval players are campaign players, at least two of them, on a map with sea."""
    if not rules["naval.enabled"]:
        return []
    problems = [f"naval.players names {p!r}, who is not a player" for p in rules["naval.players"] if p not in players]
    if len(set(rules["naval.players"])) < 2:
        problems.append("naval.enabled needs at least 2 players in naval.players (COC-NAV-1)")
    if not tilesmod.has_sea(gmap):
        problems.append(f"naval.enabled needs a map with sea; {gmap.name!r} has none (COC-NAV-1)")
    return problems


def pick_order(state: ConquestState, rules: RuleBook, dice: Dice) -> list[str]:
    """COC-SET-4: the GM's list, else a roll-off where tied players re-roll among themselves."""
    given = [p for p in rules["setup.capital_order"] if p in state.empires]
    if given:
        return given + [p for p in state.empires if p not in given]
    return _rolloff(list(state.empires), state, rules, dice)


def _rolloff(players: list[str], state: ConquestState, rules: RuleBook, dice: Dice) -> list[str]:
    if len(players) <= 1:
        return players
    count, sides = dice_spec(rules["setup.capital_order_die"])
    rolls = {}
    for p in players:
        rolls[p] = dice.roll(f"Capital pick order: {p}", count, sides).total
        state.capital_rolls.setdefault(p, []).append(rolls[p])
    order: list[str] = []
    for value in sorted(set(rolls.values()), reverse=True):
        order += _rolloff([p for p in players if rolls[p] == value], state, rules, dice)
    return order


def capital_gap_ok(state: ConquestState, gmap: HexMap, tile: str, rules: RuleBook) -> bool:
    """COC-SET-6: at least `capital_min_gap_tiles` tiles between two capitals."""
    need = int(rules["setup.capital_min_gap_tiles"]) + 1
    return all(gmap.distance(tile, e.capital) >= need for e in state.empires.values() if e.capital)


def legal_cities(state: ConquestState, gmap: HexMap, rules: RuleBook) -> list[str]:
    taken = {e.capital for e in state.empires.values()}
    return [t for t in gmap.sorted(state.tiles) if state.tiles[t].building == "city" and t not in taken
            and capital_gap_ok(state, gmap, t, rules)]


def city_reason(state: ConquestState, gmap: HexMap, rules: RuleBook, tile: str) -> str:
    if tile not in state.tiles:
        return f"{tile} is not a land tile"
    if state.tiles[tile].building != "city":
        return f"{gmap.label(tile)} has no city"
    if any(e.capital == tile for e in state.empires.values()):
        return f"{gmap.label(tile)} is already a capital"
    if not capital_gap_ok(state, gmap, tile, rules):
        return f"{gmap.label(tile)} is next to another capital"
    return ""


def new_city_reason(state: ConquestState, gmap: HexMap, rules: RuleBook, tile: str) -> str:
    if tile not in state.tiles:
        return f"{tile} is not a land tile"
    if not rules["setup.allow_new_city_when_none"]:
        return "new cities are not allowed (setup.allow_new_city_when_none)"
    if state.tiles[tile].owner:
        return f"{gmap.label(tile)} is already held"
    if not tilesmod.building_allowed(gmap, tile, "city", rules):
        return f"a city cannot stand on {gmap.label(tile)} ({'/'.join(gmap.tiles[tile].terrains)})"
    if not capital_gap_ok(state, gmap, tile, rules):
        return f"{gmap.label(tile)} is next to another capital"
    return ""


def assign_capitals(state: ConquestState, gmap: HexMap, rules: RuleBook, order: Sequence[str],
                    wishes: Mapping[str, CapitalWish], dice: Dice) -> list[str]:
    """COC-SET-5..10. Returns one report line per player; players still without a capital wait for the GM."""
    lines: list[str] = []

    def take(player: str, tile: str) -> None:
        found(state, player, tile)

    def fallback(player: str) -> str | None:
        legal = legal_cities(state, gmap, rules)
        if legal:
            pick = legal[dice.roll(f"Capital for {player}: random legal city", 1, len(legal)).total - 1]
            lines.append(f"{state.empires[player].name}: no city on the list is legal; a random legal city was drawn")
            return pick
        for tile in wishes.get(player, CapitalWish()).new_city:
            if not new_city_reason(state, gmap, rules, tile):
                state.tiles[tile].building = "city"
                lines.append(f"{state.empires[player].name}: no legal city is left; a new city is founded on "
                             f"{gmap.label(tile)}")
                return tile
        return None

    turns = ranked_choices(order, {p: w.cities for p, w in wishes.items()},
                           lambda p, t: city_reason(state, gmap, rules, t), take, fallback)
    for turn in turns:
        capital = state.empires[turn.player].capital
        if capital:
            lines.append(f"{state.empires[turn.player].name} takes {gmap.label(capital)} as capital")
        else:
            lines.append(f"{state.empires[turn.player].name}: nothing legal is left; the game master places the "
                         "capital")
    return lines


def found(state: ConquestState, player: str, tile: str) -> None:
    """The banner goes on the capital; nothing else is claimed (COC-SET-9)."""
    state.empires[player].capital = tile
    state.tiles[tile].owner = player
    state.tiles[tile].building = "city"


def all_placed(state: ConquestState) -> bool:
    return all(e.capital for e in state.empires.values())
