"""Positions (docs/positions/wandering_tribes.md): a hand-run campaign moved to pbem between two
windows, read from TOML (`pbem import`) and written back (`pbem export-position`). Every problem
is reported at once with its key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.kit.dice import Dice
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.phases import PositionError
from pbem.rulesets.wandering_tribes import strategic
from pbem.rulesets.wandering_tribes.armylist import has_units
from pbem.rulesets.wandering_tribes.battle_results import Report
from pbem.rulesets.wandering_tribes.battle_setup import AMBUSH, LOCKED, PAIRED, Battle
from pbem.rulesets.wandering_tribes.game import BATTLE, ORDERS, SETUP, Move, WTGame
from pbem.rulesets.wandering_tribes.model import Lock, Marker, Player, Stack, State
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.squares import SquareMap

WINDOWS = (SETUP, ORDERS, BATTLE)


def read(players: list[str], gmap: SquareMap, rules: Rules, data: Mapping[str, Any], source: str) -> WTGame:
    if str(data.get("window", ORDERS)) == SETUP:
        return _setup(players, rules, data, source)
    problems: list[str] = []
    bad = [p for p in data.get("sequence", []) if p not in players]
    if bad:
        problems.append(f"sequence: {', '.join(map(str, bad))} not a player of the campaign")
    window = str(data.get("window", ORDERS))
    if window not in WINDOWS:
        problems.append(f"window: {window!r}; a position opens \"setup\", \"orders\" (a strategic round) or "
                        "\"battle\"")
    seats = [str(p) for p in data.get("seats", players)]
    if sorted(seats) != sorted(players):
        problems.append(f"seats: {seats} must name every player once ({', '.join(players)}), clockwise")
    state = State(seats=seats, round=int(data.get("round", 1)), first_rest=int(data.get("first_rest", 0)))
    for pid in players:
        state.players[pid] = _player(pid, data.get("players", {}).get(pid, {}), rules, problems)
    for n, raw in enumerate(data.get("stacks", [])):
        _stack(state, gmap, rules, n, raw, problems)
    state.locks = [_lock(state, n, raw, problems) for n, raw in enumerate(data.get("locks", []))]
    battles = [_battle(state, n, raw, problems) for n, raw in enumerate(data.get("battles", []))]
    if window == BATTLE and not battles:
        problems.append("battles: a position at the battle window lists its battles")
    if problems:
        raise PositionError(source, problems)
    state.next_marker = 1 + max((m.no for s in state.stacks.values() for m in s.markers), default=0)
    game = WTGame(phase=window, turn=int(data.get("turn", 1)), state=state, battles=battles,
                  sequence=[str(p) for p in data.get("sequence", [])],
                  opening=[str(x) for x in data.get("opening", [])],
                  final=bool(data.get("final", False)))
    _last(game, data.get("last", {}))
    _table(game, data.get("table", {}), problems)
    game.gm_results = {str(k): _result(v) for k, v in data.get("gm_results", {}).items()} if window == BATTLE else {}
    if problems:
        raise PositionError(source, problems)
    if window == ORDERS and not game.sequence:
        game.state.round -= 1          # the opening (position_opening) rolls for this round
    return game


def _setup(players: list[str], rules: Rules, data: Mapping[str, Any], source: str) -> WTGame:
    """The setup window (W0): nothing is deployed yet; `[players.<id>] nation` is a nation the GM
    assigned (the player may still send his own), `lacking` the players setup waits for a nation for."""
    problems: list[str] = []
    assigned = {}
    for pid, raw in data.get("players", {}).items():
        nation = str(raw.get("nation", ""))
        if pid not in players:
            problems.append(f"players.{pid}: not a player of the campaign")
        elif nation and nation not in rules.nations:
            problems.append(f"players.{pid}.nation: {nation!r}; choose one of {', '.join(rules.nations)}")
        elif nation:
            assigned[pid] = nation
    lacking = [str(p) for p in data.get("lacking", [])]
    problems += [f"lacking: {p} is not a player of the campaign" for p in lacking if p not in players]
    extra = [k for k in ("stacks", "locks", "battles", "sequence", "table") if k in data]
    if extra:
        problems.append(f"{', '.join(extra)}: nothing is deployed in the setup window; leave them out")
    if problems:
        raise PositionError(source, problems)
    return WTGame(phase=SETUP, turn=int(data.get("turn", 0)), assigned=assigned, lacking=lacking)


def _table(game: WTGame, raw: Mapping[str, Any], problems: list[str]) -> None:
    """`[table]`: a strategic round half played at the table (`pbem table`): who has played, and
    their rounds' log and alerts; the rest play at the table or from their mail."""
    played = [str(p) for p in raw.get("played", [])]
    wrong = [p for p in played if p not in game.sequence]
    if played and (game.phase != ORDERS or wrong):
        problems.append(f"table.played: {', '.join(wrong or played)}: only players of the open round's sequence "
                        "have played at the table, and only at an orders window")
    game.played = played
    game.round_log = [str(x) for x in raw.get("log", [])]
    game.round_alerts = [str(x) for x in raw.get("alerts", [])]


def _result(raw: Mapping[str, Any]) -> Report:
    return from_data(Report, raw)


def _player(pid: str, raw: Mapping[str, Any], rules: Rules, problems: list[str]) -> Player:
    nation = str(raw.get("nation", ""))
    if nation not in rules.nations:
        problems.append(f"players.{pid}.nation: {nation!r}; choose one of {', '.join(rules.nations)}")
    return Player(pid, nation, str(raw.get("army", "")), bool(raw.get("resting", False)), bool(raw.get("out", False)),
                  bool(raw.get("volunteer", False)))


def _stack(state: State, gmap: SquareMap, rules: Rules, n: int, raw: Mapping[str, Any], problems: list[str]) -> None:
    where = f"stacks[{n}]"
    sid, owner, tile = str(raw.get("id", "")), str(raw.get("owner", "")), str(raw.get("tile", ""))
    if owner not in state.players:
        problems.append(f"{where}.owner: {owner!r} is not a player")
        return
    if tile not in gmap.tiles:
        problems.append(f"{where}.tile: {tile!r} is not a tile of the map {gmap.name}")
    if not sid or sid in state.stacks:
        problems.append(f"{where}.id: {sid!r} is missing or used twice")
    nation = rules.nations.get(state.players[owner].nation)
    markers = []
    for text in raw.get("markers", []):
        mid, _, type_ = str(text).partition(" ")
        if nation is None or type_ not in nation.entries:
            problems.append(f"{where}.markers: {text!r}; write \"<marker id> <type>\" with a type of the nation")
            continue
        markers.append(Marker(mid, type_, nation.points(type_)))
    if not markers:
        problems.append(f"{where}.markers: a stack holds at least one marker")
    elif nation is not None and rules["destruction.character_only_anytime"] and not has_units(
            nation, [m.type for m in markers]):
        problems.append(f"{where}.markers: {sid} holds characters only, which destruction.character_only_anytime "
                        "destroys at once (WT-DES-2); leave the stack out")
    state.stacks[sid] = Stack(sid, owner, tile, markers)


def _lock(state: State, n: int, raw: Mapping[str, Any], problems: list[str]) -> Lock:
    lock = Lock(str(raw.get("defender", "")), str(raw.get("attacker", "")), "")
    a, b = state.stacks.get(lock.defender), state.stacks.get(lock.attacker)
    if a is None or b is None or a.tile != b.tile or a.owner == b.owner:
        problems.append(f"locks[{n}]: {lock.defender} and {lock.attacker} must be stacks of two players in one tile")
    else:
        lock.tile = a.tile
    return lock


def _battle(state: State, n: int, raw: Mapping[str, Any], problems: list[str]) -> Battle:
    battle = Battle(int(raw.get("id", n + 1)), str(raw.get("kind", LOCKED)), "", str(raw.get("defender", "")),
                    str(raw.get("attacker", "")), str(raw.get("ambusher", "")))
    if battle.kind not in (LOCKED, PAIRED, AMBUSH) or battle.defender not in state.stacks:
        problems.append(f"battles[{n}]: kind locked|paired|ambush and a defender stack")
        return battle
    battle.tile = state.stacks[battle.defender].tile
    return battle


def opening(game: WTGame, rules: Rules, dice: Dice) -> WTGame:
    """At an orders window: the round's order roll (WT-PBEM-4)."""
    if game.phase == ORDERS and not game.sequence:
        game.state, done = strategic.open_round(game.state, rules, dice)
        game.sequence, game.opening = done.sequence, done.log
    return game


def _last(game: WTGame, raw: Mapping[str, Any]) -> None:
    """`[last]`: what the previous resolution drew (its title and the stacks' paths), so that the
    next report's picture is the one pbem itself would draw; optional, as in the other formats."""
    game.resolved = str(raw.get("resolved", ""))
    game.moves = [Move(str(m["stack"]), str(m["start"]), [str(t) for t in m.get("path", [])],
                       bool(m.get("retreat", False))) for m in raw.get("moves", [])]


def export(game: WTGame) -> dict[str, Any]:
    if game.phase not in WINDOWS:
        raise PositionError("export", [f"a position holds the setup, strategic-orders or battle window, not "
                                       f"{game.phase}"])
    if game.phase == SETUP:
        return {"window": SETUP, "turn": game.turn, "lacking": list(game.lacking),
                "players": {p: {"nation": n} for p, n in game.assigned.items()}}
    state = game.state
    out: dict[str, Any] = {
        "window": game.phase, "round": state.round, "first_rest": state.first_rest, "seats": list(state.seats),
        "players": {p: {"nation": q.nation, "army": q.army_name, "resting": q.resting, "out": q.out,
                        "volunteer": q.volunteer} for p, q in state.players.items()},
        "stacks": [{"id": s.id, "owner": s.owner, "tile": s.tile, "markers": [f"{m.id} {m.type}" for m in s.markers]}
                   for s in state.stacks.values()],
        "locks": [{"defender": lock.defender, "attacker": lock.attacker} for lock in state.locks],
        "turn": game.turn, "sequence": list(game.sequence), "opening": list(game.opening), "final": game.final,
        "last": {"resolved": game.resolved, "moves": [{"stack": m.stack, "start": m.start, "path": list(m.path),
                                                        "retreat": m.retreat} for m in game.moves]}}
    if game.played:
        out["table"] = {"played": list(game.played), "log": list(game.round_log), "alerts": list(game.round_alerts)}
    if game.phase == BATTLE:
        out["battles"] = [{"id": b.id, "kind": b.kind, "defender": b.defender, "attacker": b.attacker,
                           "ambusher": b.ambusher} for b in game.battles]
        if game.gm_results:
            out["gm_results"] = {k: to_data(r) for k, r in game.gm_results.items()}
    return out
