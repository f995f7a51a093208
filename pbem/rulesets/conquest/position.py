"""A Campaigns of Conquest position written by hand (`pbem import`, `pbem new --position`).

The format is documented in docs/positions/conquest.md. The map starts as drawn, nobody
holding anything; the position names the round and the window to open, who holds which
tile with which building, each empire's capital, treasury and carried EP, sieges, Naval
Advantage, the campaign's records (events taken, history, order of play) and, for a
window in the middle of a round, the round's battles, set-ups, settled outcomes, EP and
wins. Every problem is reported at once, each with the key it is about.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from typing import Any, TypeVar

from pbem.kit.hexes import HexMap
from pbem.kit.orders import OrderProblem
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.base import PositionError, Settings
from pbem.rulesets.conquest import position_dice, position_round, setup
from pbem.rulesets.conquest.empire import holdings
from pbem.rulesets.conquest.model import (
    BUILDINGS,
    DRAW,
    EVENTS,
    FORTIFIED,
    HIGHER_VP,
    LAND,
    LOSE,
    SEA,
    SIDES,
    SIEGE,
    TARGETED_EVENTS,
    TEAM,
    VICTORIES,
    W_CAMPAIGN,
    W_CAPITALS,
    W_CONQUEST,
    W_RESULTS,
    W_SETUP,
    Army,
    Battle,
    BattleOutcome,
    BattleSetup,
    ConquestState,
    EventPick,
    NavalAdvantage,
    Siege,
    SizeEntry,
)

OPEN_WINDOWS = (W_CAPITALS, W_CAMPAIGN, W_SETUP, W_RESULTS, W_CONQUEST)
KINDS = (LAND, TEAM, SIEGE, SEA)
CATEGORIES = (LOSE, DRAW, *VICTORIES, HIGHER_VP)
TOP = ("round", "window", "order", "capital_order", "events_taken", "history", "empires", "tiles", "sieges",
       "naval", "events", "battles", "setups", "outcomes", "ep", "wins", "capital_rolls", "tiebreaks",
       *position_round.KEYS, *position_round.ANY_WINDOW)
ROUND_RECORDS = {"events": (W_SETUP, W_RESULTS, W_CONQUEST), "battles": (W_SETUP, W_RESULTS, W_CONQUEST),
                 "setups": (W_RESULTS, W_CONQUEST), "outcomes": (W_RESULTS, W_CONQUEST),
                 "ep": (W_CONQUEST,), "wins": (W_CONQUEST,)} | {name: (W_SETUP, W_RESULTS, W_CONQUEST)
                                                                   for name in position_round.KEYS}
"""The round's records, and the windows that open after them."""

T = TypeVar("T")


class Reading:
    """The position being read: the problems found so far, and typed reads that add to them."""

    def __init__(self, gmap: HexMap, rules: RuleBook, players: Sequence[str]) -> None:
        self.gmap, self.rules, self.players = gmap, rules, list(players)
        self.problems: list[str] = []

    def fail(self, key: str, text: str) -> None:
        self.problems.append(f"{key}: {text}")

    def get(self, data: Mapping[str, Any], name: str, where: str, kind: type[T], default: T) -> T:
        """`data[name]` when it is a `kind`, else `default` (and a problem when it was given wrongly)."""
        value = data.get(name, default)
        if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
            return value
        self.fail(f"{where}{name}", f"must be {_KIND_WORDS.get(kind, kind.__name__)}, not {value!r}")
        return default

    def number(self, data: Mapping[str, Any], name: str, where: str, least: int = 0) -> int:
        value = self.get(data, name, where, int, least)
        if value < least:
            self.fail(f"{where}{name}", f"must be {least} or more, not {value}")
            return least
        return value

    def texts(self, data: Mapping[str, Any], name: str, where: str) -> list[str]:
        values = self.get(data, name, where, list, [])
        if not all(isinstance(v, str) for v in values):
            self.fail(f"{where}{name}", "must be a list of strings")
            return []
        return list(values)

    def tables(self, data: Mapping[str, Any], name: str) -> list[tuple[str, Mapping[str, Any]]]:
        """`[[name]]` entries with their keys (`name[0].`, ...)."""
        entries = self.get(data, name, "", list, [])
        out = []
        for i, entry in enumerate(entries):
            if isinstance(entry, Mapping):
                out.append((f"{name}[{i}].", entry))
            else:
                self.fail(f"{name}[{i}]", "must be a table")
        return out

    def known(self, data: Mapping[str, Any], allowed: Sequence[str], where: str) -> None:
        for key in data:
            if key not in allowed:
                self.fail(f"{where}{key}", f"is not a key here; the keys are {', '.join(allowed)}")

    def player(self, value: Any, key: str) -> str:
        if value in self.players:
            return str(value)
        self.fail(key, f"{value!r} is not a player of this campaign ({', '.join(self.players)})")
        return ""

    def tile(self, value: Any, key: str, state: ConquestState) -> str:
        try:
            tile = self.gmap.lookup(str(value))
        except OrderProblem as problem:
            hint = f" (did you mean {problem.suggestion}?)" if problem.suggestion else ""
            self.fail(key, problem.reason + hint)
            return ""
        if tile not in state.tiles:
            self.fail(key, f"{self.gmap.label(tile)} is sea, not a tile anyone can hold")
            return ""
        return tile

    def choice(self, value: Any, allowed: Sequence[str], key: str) -> str:
        if value in allowed:
            return str(value)
        self.fail(key, f"{value!r} is not one of {', '.join(allowed)}")
        return ""


_KIND_WORDS: dict[type, str] = {int: "a whole number", str: "a string", bool: "true or false", list: "a list",
                                dict: "a table"}


def read(settings: Settings, gmap: HexMap, rules: RuleBook, data: Mapping[str, Any], source: str) -> ConquestState:
    """The campaign state `data` describes, or PositionError naming every problem."""
    players = [(p.id, p.name, p.faction_name or p.name) for p in settings.players]
    try:
        state = setup.new_state(gmap, rules, players)
    except ValueError as exc:
        raise PositionError(source, [str(exc)]) from exc
    r = Reading(gmap, rules, [p for p, _, _ in players])
    r.known(data, TOP, "")
    _moment(r, state, data)
    if state.round.window != W_CAPITALS:
        state.round.log = []          # new_state's notes are for the capitals report only
    _tiles(r, state, data)
    _empires(r, state, data)
    _sieges(r, state, data)
    _capitals(r, state)
    _records(r, state, data)
    _round(r, state, data)
    position_round.last(r, state, data)
    if r.problems:
        raise PositionError(source, r.problems)
    return state


def _moment(r: Reading, state: ConquestState, data: Mapping[str, Any]) -> None:
    """`round` and `window`: window S is round 0, every other window round 1 or later."""
    number = r.number(data, "round", "")
    window = r.choice(data.get("window", ""), OPEN_WINDOWS, "window")
    if window == W_CAPITALS and number:
        r.fail("round", f"window {W_CAPITALS!r} (the capital picks) is round 0, not {number}")
    if window and window != W_CAPITALS and not number:
        r.fail("round", f"window {window!r} needs a round of 1 or more; round 0 is the capital picks")
    state.round.number, state.round.window = number, window or W_CAPITALS


def _tiles(r: Reading, state: ConquestState, data: Mapping[str, Any]) -> None:
    """`[tiles.T3]`: `owner` (a player, or "" for a free tile) and `building` ("" for none) over the map as drawn."""
    for key, entry in r.get(data, "tiles", "", dict, {}).items():
        where = f"tiles.{key}."
        tile = r.tile(key, f"tiles.{key}", state)
        if not isinstance(entry, Mapping):
            r.fail(f"tiles.{key}", "must be a table, e.g. { owner = \"anna\", building = \"castle\" }")
            continue
        r.known(entry, ("owner", "building"), where)
        owner = r.get(entry, "owner", where, str, "")
        owner = r.player(owner, f"{where}owner") if owner else ""
        building = r.get(entry, "building", where, str, state.tiles[tile].building if tile else "")
        if building:
            building = r.choice(building, BUILDINGS, f"{where}building")
        if tile:
            state.tiles[tile].owner, state.tiles[tile].building = owner, building


def _empires(r: Reading, state: ConquestState, data: Mapping[str, Any]) -> None:
    """`[empires.anna]`: capital, treasury, carried_ep, eliminated, eliminated_round."""
    allowed = ("name", "capital", "treasury", "carried_ep", "eliminated", "eliminated_round")
    for player, entry in r.get(data, "empires", "", dict, {}).items():
        where = f"empires.{player}."
        if not r.player(player, f"empires.{player}"):
            continue
        if not isinstance(entry, Mapping):
            r.fail(f"empires.{player}", "must be a table")
            continue
        r.known(entry, allowed, where)
        empire = state.empires[player]
        empire.name = r.get(entry, "name", where, str, empire.name) or empire.name
        empire.treasury = r.number(entry, "treasury", where) if "treasury" in entry else empire.treasury
        empire.carried_ep = r.number(entry, "carried_ep", where) if "carried_ep" in entry else empire.carried_ep
        empire.eliminated = r.get(entry, "eliminated", where, bool, False)
        empire.eliminated_round = r.number(entry, "eliminated_round", where)
        if "capital" in entry:
            empire.capital = r.tile(entry["capital"], f"{where}capital", state)


def _capitals(r: Reading, state: ConquestState) -> None:
    """Window S: a capital picked is a city its empire holds (COC-SET-9). Once picked it has no
    special rules (COC-SET-13): later it may be conquered, besieged, destroyed or built over, as
    play leaves it, or left out when nobody remembers it; two empires never share one."""
    seen: dict[str, str] = {}
    for player, empire in state.empires.items():
        key = f"empires.{player}.capital"
        if not empire.capital:
            continue
        if empire.capital in seen:
            r.fail(key, f"{r.gmap.label(empire.capital)} is already the capital of {seen[empire.capital]}")
        seen[empire.capital] = player
        if state.round.window != W_CAPITALS:
            continue
        if state.fortification_owner(empire.capital) != player and state.tiles[empire.capital].owner != player:
            r.fail(key, f"{r.gmap.label(empire.capital)} must be held by {player} (tiles.{empire.capital}.owner)")
        if state.tiles[empire.capital].building != "city":
            r.fail(key, f"{r.gmap.label(empire.capital)} has no city (tiles.{empire.capital}.building)")


def _sieges(r: Reading, state: ConquestState, data: Mapping[str, Any]) -> None:
    """`[[sieges]]` (tile, besieger, defender, started_round, assault_round) and `[[naval]]` (holder, subject)."""
    for where, entry in r.tables(data, "sieges"):
        r.known(entry, ("tile", "besieger", "defender", "started_round", "assault_round"), where)
        tile = r.tile(entry.get("tile", ""), f"{where}tile", state)
        besieger = r.player(entry.get("besieger", ""), f"{where}besieger")
        defender = r.player(entry.get("defender", ""), f"{where}defender")
        started = r.number(entry, "started_round", where, least=1)
        if started > state.round.number:
            r.fail(f"{where}started_round", f"{started} is after the position's round {state.round.number}")
        if tile and state.tiles[tile].building not in FORTIFIED:
            r.fail(f"{where}tile", f"{r.gmap.label(tile)} has no castle or city to besiege")
        if tile and besieger and state.tiles[tile].owner != besieger:
            r.fail(f"{where}tile", f"a besieged tile is held by the besieger: tiles.{tile}.owner = {besieger!r}")
        if besieger and besieger == defender:
            r.fail(f"{where}defender", "an empire does not besiege itself")
        state.sieges.append(Siege(tile, besieger, defender, started, r.number(entry, "assault_round", where)))
    for where, entry in r.tables(data, "naval"):
        r.known(entry, ("holder", "subject"), where)
        pair = NavalAdvantage(r.player(entry.get("holder", ""), f"{where}holder"),
                              r.player(entry.get("subject", ""), f"{where}subject"))
        if not r.rules["naval.enabled"]:
            r.fail(where.rstrip("."), "Naval Advantage needs naval.enabled in the campaign's rules")
        state.naval.append(pair)


def _records(r: Reading, state: ConquestState, data: Mapping[str, Any]) -> None:
    """The campaign's records: events taken (COC-EVT-3), history, and the orders of play."""
    for i, event in enumerate(r.texts(data, "events_taken", "")):
        state.events_taken.append(r.choice(event, EVENTS, f"events_taken[{i}]"))
    state.history = r.texts(data, "history", "")
    state.capital_order = [r.player(p, f"capital_order[{i}]")
                           for i, p in enumerate(r.texts(data, "capital_order", ""))]
    state.capital_rolls = position_dice.rolls(r, data, "capital_rolls")
    if state.round.window == W_CAPITALS:
        for name in ("order", "tiebreaks"):
            if name in data:
                r.fail(name, "the order of play is fixed when round 1 opens; window S has the capital_order")
        return
    if state.round.window == W_CAMPAIGN and "order" not in data:
        return                        # the round opens here: pbem counts sizes and rolls the tie-breaks
    _order(r, state, r.texts(data, "order", ""))
    for entry in state.round.sizes:
        entry.tiebreak = position_dice.rolls(r, data, "tiebreaks").get(entry.player, [])


def _order(r: Reading, state: ConquestState, order: list[str]) -> None:
    """`order`: the round's order of play, smallest empire first (COC-ORD-8), ties as the dice broke them."""
    active = state.active()
    if sorted(order) != sorted(active):
        r.fail("order", f"must list every empire still in the game once, smallest first: {', '.join(active)}")
        return
    entries = {}
    for player in order:
        h = holdings(state, player, r.rules)
        entries[player] = SizeEntry(player, h.size, h.tiles, h.cities, h.castles)
    for smaller, larger in pairwise(order):
        if entries[smaller].size > entries[larger].size:
            r.fail("order", f"{smaller} (size {entries[smaller].size:g}) comes before {larger} "
                            f"(size {entries[larger].size:g}); the order is smallest first")
    ranked = [entries[p] for p in reversed(order)]
    for rank, entry in enumerate(ranked, start=1):
        entry.rank = rank
    state.round.order, state.round.sizes, state.round.largest = order, ranked, order[-1] if order else ""


def _round(r: Reading, state: ConquestState, data: Mapping[str, Any]) -> None:
    """The round's records, for a window in the middle of a round."""
    for name, windows in ROUND_RECORDS.items():
        if name in data and state.round.window not in windows:
            r.fail(name, f"only a position at window {' or '.join(windows)} has {name}")
    for where, entry in r.tables(data, "events"):
        state.round.events.append(_event(r, where, entry))
    for where, entry in r.tables(data, "battles"):
        state.round.battles.append(_battle(r, state, where, entry))
    _unique(r, [b.id for b in state.round.battles], "battles", "id")
    _each_battle(r, state, data, "setups", _setup, state.round.setups)
    _each_battle(r, state, data, "outcomes", _outcome, state.round.outcomes)
    position_round.awards(r, state, data)
    position_round.read(r, state, data)


def _event(r: Reading, where: str, entry: Mapping[str, Any]) -> EventPick:
    r.known(entry, ("player", "event", "target"), where)
    event = r.choice(entry.get("event", ""), EVENTS, f"{where}event")
    target = entry.get("target", "")
    if event in TARGETED_EVENTS and not target:
        r.fail(f"{where}target", f"{event} names the empire it targets")
    return EventPick(r.player(entry.get("player", ""), f"{where}player"), event,
                     r.player(target, f"{where}target") if target else "")


def _battle(r: Reading, state: ConquestState, where: str, entry: Mapping[str, Any]) -> Battle:
    """`[[battles]]`: id ("B1"), kind (land, team, siege, sea), attackers, defenders, tile (of a siege)."""
    r.known(entry, ("id", "kind", "attackers", "defenders", "tile"), where)
    ident = r.get(entry, "id", where, str, "")
    if not (ident.startswith("B") and ident[1:].isdigit()):
        r.fail(f"{where}id", f"a battle is named B1, B2, ..., not {ident!r}")
    sides = [[r.player(p, f"{where}{side}s[{i}]") for i, p in enumerate(r.texts(entry, f"{side}s", where))]
             for side in SIDES]
    for side, members in zip(SIDES, sides, strict=True):
        if not members:
            r.fail(f"{where}{side}s", "names one or more players")
    if set(sides[0]) & set(sides[1]):
        r.fail(f"{where}defenders", "a player fights on one side only")
    battle = Battle(ident, r.choice(entry.get("kind", ""), KINDS, f"{where}kind"), sides[0], sides[1])
    if battle.kind == SIEGE:
        battle.tile = r.tile(entry.get("tile", ""), f"{where}tile", state)
        if battle.tile and not state.siege_at(battle.tile):
            r.fail(f"{where}tile", f"no [[sieges]] entry besieges {r.gmap.label(battle.tile)}")
    return battle


def _unique(r: Reading, values: Sequence[str], table: str, key: str) -> None:
    for i, value in enumerate(values):
        if value and value in values[:i]:
            r.fail(f"{table}[{i}].{key}", f"{value} is given twice")


def _each_battle(r: Reading, state: ConquestState, data: Mapping[str, Any], name: str,
                 make: Callable[[Reading, Battle, str, Mapping[str, Any]], T], into: list[T]) -> None:
    """`[[setups]]` and `[[outcomes]]`: one entry per battle of `[[battles]]`."""
    seen = []
    for where, entry in r.tables(data, name):
        battle = state.round.battle(str(entry.get("battle", "")))
        if battle is None:
            r.fail(f"{where}battle", f"{entry.get('battle', '')!r} is not one of the [[battles]]")
            continue
        seen.append(battle.id)
        into.append(make(r, battle, where, entry))
    _unique(r, seen, name, "battle")


def _setup(r: Reading, battle: Battle, where: str, entry: Mapping[str, Any]) -> BattleSetup:
    """`[[setups]]`: battle, points, and `[[setups.armies]]` (player, share, gold, total)."""
    r.known(entry, ("battle", "points", "armies", *position_round.SETUP_EXTRA), where)
    made = BattleSetup(battle.id, r.number(entry, "points", where, least=1))
    for i, army in enumerate(r.get(entry, "armies", where, list, [])):
        key = f"{where}armies[{i}]."
        if not isinstance(army, Mapping):
            r.fail(key.rstrip("."), "must be a table")
            continue
        r.known(army, ("player", "share", "gold", "total", *position_round.ARMY_EXTRA), key)
        player = r.player(army.get("player", ""), f"{key}player")
        if player and player not in battle.players:
            r.fail(f"{key}player", f"{player} does not fight in {battle.id}")
        share = r.number(army, "share", key, least=1)
        gold = r.number(army, "gold", key)
        made.armies.append(Army(player, battle.side_of(player), share, gold=gold,
                                total=r.number(army, "total", key) or share))
    return made


def _outcome(r: Reading, battle: Battle, where: str, entry: Mapping[str, Any]) -> BattleOutcome:
    """`[[outcomes]]`: a battle already settled, with each side's result (lose, draw, minor_victory, ...)."""
    r.known(entry, ("battle", "attacker", "defender", "note", *position_round.OUTCOME_EXTRA), where)
    return BattleOutcome(battle.id, r.choice(entry.get("attacker", ""), CATEGORIES, f"{where}attacker"),
                         r.choice(entry.get("defender", ""), CATEGORIES, f"{where}defender"), how="gm",
                         note=r.get(entry, "note", where, str, "settled before the position was imported"))
