"""A Star Wars Miniatures position (docs/positions/star_wars_miniatures.md): a campaign run by
hand moved in between two windows (`pbem import`), and the state written back out
(`pbem export-position`). Every problem is reported at once with its key."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pbem.kit.orders import OrderProblem
from pbem.kit.roster import Entry, Mark, Roster
from pbem.kit.rulebook import RuleBook
from pbem.kit.scene import Resolved
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.phases import PositionError
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures import upgrades as up
from pbem.rulesets.star_wars_miniatures.catalog import catalog_of
from pbem.rulesets.star_wars_miniatures.model import (
    ACTION,
    BANKED,
    ECONOMICS,
    INITIATIVE,
    PENDING,
    UPGRADE,
    Land,
    Player,
    Squad,
    SWMState,
)
from pbem.rulesets.star_wars_miniatures.regions import RegionMap
from pbem.rulesets.star_wars_miniatures.setup import start_holdings
from pbem.rulesets.star_wars_miniatures.world import World

WINDOWS = (INITIATIVE, ECONOMICS, ACTION)
PLAYER_KEYS = ("faction", "region", "treasury", "officers", "stance", "prefer", "train")


def read(players: list[str], places: RegionMap, book: RuleBook, data: Mapping[str, Any], source: str) -> SWMState:
    problems: list[str] = []
    window = str(data.get("window", INITIATIVE))
    if window not in WINDOWS:
        problems.append(f"window: {window!r}; a position opens one of {', '.join(WINDOWS)}")
    state = SWMState(turn=_int(data, "turn", 1, problems), window=window)
    _players(state, players, places, book, data.get("players", {}), problems)
    _lands(state, places, book, data.get("territories", {}), problems)
    _squads(state, places, book, data.get("squads", []), problems)
    _sides(state, data, problems)
    _kept(state, data)
    state.arrivals = max([_int(data, "arrivals", 0, problems), *(s.arrived for s in state.squads.values())])
    if problems:
        raise PositionError(source, problems)
    state.next_troop = 1 + max((int(t.id[1:]) for s in state.squads.values() for t in s.troops
                                if t.id[1:].isdigit()), default=0)
    state.next_squad = 1 + max((int(m[1]) for s in state.squads.values() if (m := re.search(r"(\d+)$", s.id))),
                               default=0)
    world = World(state, places, catalog_of(book), book)      # special territories' grants
    for squad in state.squads.values():
        world.recheck(squad)
    return state


def _int(data: Mapping[str, Any], key: str, default: int, problems: list[str], where: str = "") -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        problems.append(f"{where}{key}: {value!r} is not a whole number of at least 0")
        return default
    return value


def _players(state: SWMState, players: list[str], places: RegionMap, book: RuleBook, raw: Any,
             problems: list[str]) -> None:
    raw = raw if isinstance(raw, Mapping) else {}
    for extra in sorted(set(raw) - set(players)):
        problems.append(f"players.{extra}: not a player of campaign.toml ({', '.join(players)})")
    taken: dict[str, str] = {}
    for pid in players:
        spec = raw.get(pid)
        if not isinstance(spec, Mapping):
            problems.append(f"players.{pid}: missing; write [players.{pid}] with faction and region")
            continue
        faction, region = str(spec.get("faction", "")), str(spec.get("region", ""))
        if faction not in book.section("factions") or faction in taken.values():
            problems.append(f"players.{pid}.faction: {faction!r} is not a free faction key "
                            f"({', '.join(book.section('factions'))})")
        if region not in places.regions or region in taken:
            problems.append(f"players.{pid}.region: {region!r} is not a free region of the map")
        taken[region] = faction
        officers = [str(o) for o in spec.get("officers", [])]
        for officer in officers:
            if officer not in ("intelligence_officer", "logistics_officer", "training_officer", "medical_officer"):
                problems.append(f"players.{pid}.officers: {officer!r} is not an officer")
        state.players[pid] = Player(pid, faction, region, places.regions[region].capital if region in places.regions
                                    else "", _int(spec, "treasury", 0, problems, f"players.{pid}."), officers,
                                    str(spec.get("stance", "")), [str(x) for x in spec.get("prefer", [])],
                                    str(spec.get("train", "")), _lists(spec.get("retreats", {})),
                                    _lists(spec.get("overstack", {})),
                                    {str(k): int(v) for k, v in dict(spec.get("mine_rerolls", {})).items()},
                                    operative_turn=_int(spec, "operative_turn", 0, problems, f"players.{pid}."))


def _lists(raw: Any) -> dict[str, list[str]]:
    return {str(k): [str(x) for x in v] for k, v in dict(raw).items()} if isinstance(raw, Mapping) else {}


def _lands(state: SWMState, places: RegionMap, book: RuleBook, raw: Any, problems: list[str]) -> None:
    """Each player holds what his start region gives at setup (A7: the region, or with the
    "territory" reading its capital and the territories owner_of_start gives it); the rest is
    inactive. `[territories]` then says where control has changed since."""
    by_territory = book["setup.start_location_unit"] == "territory"
    holder = {t: p.id for p in state.players.values() if p.region in places.regions
              for t in start_holdings(places, by_territory, p.region)}
    for place in places.places():
        owner = holder.get(place, "")
        state.lands[place] = Land(owner, bool(owner), places.territories[place].capital and bool(owner))
    for place, spec in (raw if isinstance(raw, Mapping) else {}).items():
        land = state.lands.get(place)
        if land is None or not isinstance(spec, Mapping):
            problems.append(f"territories.{place}: not a territory of the map {places.name}")
            continue
        owner = str(spec.get("owner", land.owner))
        if owner not in state.players or not land.active:
            problems.append(f"territories.{place}.owner: {owner!r} is not a player, or the territory is inactive")
        land.owner = owner
        land.fortified = bool(spec.get("fortified", land.fortified))
        land.minefield = bool(spec.get("minefield", land.minefield))


def _squads(state: SWMState, places: RegionMap, book: RuleBook, raw: Any, problems: list[str]) -> None:
    catalog, rows = catalog_of(book), up.rows(book)
    for n, spec in enumerate(raw if isinstance(raw, list) else []):
        where = f"squads[{n}]"
        ident, owner, place = str(spec.get("id", "")), str(spec.get("owner", "")), str(spec.get("place", ""))
        if not ident or ident in state.squads:
            problems.append(f"{where}.id: {ident!r} is missing or used twice")
        if owner not in state.players:
            problems.append(f"{where}.owner: {owner!r} is not a player")
        if place not in state.lands or not state.lands[place].active:
            problems.append(f"{where}.place: {place!r} is not an active territory")
        squad = Squad(ident, owner, place, str(spec.get("name", "")), roster=Roster(ident, str(spec.get("name", ""))))
        for k, troop in enumerate(spec.get("troops", [])):
            entry = _troop(troop, catalog, rows, f"{where}.troops[{k}]", problems)
            if entry is not None:
                squad.roster.entries.append(entry)
        state.squads[ident] = squad
        state.arrive(squad, place)
        squad.arrived = _int(spec, "arrived", squad.arrived, problems, f"{where}.")


def _troop(spec: Mapping[str, Any], catalog: Any, rows: Mapping[str, up.Row], where: str,
           problems: list[str]) -> Entry | None:
    try:
        mini = catalog.lookup(str(spec.get("card", "")))
    except OrderProblem as exc:
        problems.append(f"{where}.card: {exc}")
        return None
    label = str(spec.get("label", mini.labels[0]))
    if label not in mini.labels:
        problems.append(f"{where}.label: {label!r} is not a label of {mini.name}")
    entry = tr.new_troop(str(spec.get("id", "")), mini, label, 0)
    entry.counters.update({BANKED: _int(spec, "banked", 0, problems, f"{where}."),
                           PENDING: _int(spec, "pending", 0, problems, f"{where}.")})
    for bought in spec.get("upgrades", []):
        name = str(bought).partition(": ")[0]
        if name not in rows:
            problems.append(f"{where}.upgrades: {name!r} is not an upgrade of the tables")
        else:
            entry.add_mark(Mark(UPGRADE, str(bought), up.price(rows[name], entry)))   # paid before
    return entry


def _sides(state: SWMState, data: Mapping[str, Any], problems: list[str]) -> None:
    alliances = [[str(p) for p in a] for a in data.get("alliances", [])]
    order = [str(s).split("+") for s in data.get("order", [])]
    named = sorted(p for side in order for p in side)
    if state.window != INITIATIVE and named != sorted(state.players):
        problems.append("order: the turn order must name every player once, allies joined by + (\"ben+cara\")")
    state.alliances, state.sides = alliances, order


def _kept(state: SWMState, data: Mapping[str, Any]) -> None:
    """What pbem keeps between windows beyond the board (optional, written by export-position):
    the setup pick order, the turn's initiative totals (its reports show them) and `[last]`, the
    previous resolution's moves and battles for the next picture."""
    state.pick_order = [str(p) for p in data.get("pick_order", [])]
    state.totals = {str(k): int(v) for k, v in data.get("totals", {}).items()}
    if "last" in data:
        state.last = from_data(Resolved, data["last"])


def export(state: SWMState) -> dict[str, Any]:
    if state.window not in WINDOWS:
        raise PositionError("export", [f"a position is written between windows ({', '.join(WINDOWS)}); "
                                       f"this campaign is at {state.window}"])
    players = {p.id: {"faction": p.faction, "region": p.region, "treasury": p.treasury, "officers": p.officers,
                      "stance": p.stance, "prefer": p.prefer, "train": p.train, "retreats": p.retreats,
                      "overstack": p.overstack, "mine_rerolls": p.mine_rerolls, "operative_turn": p.operative_turn}
               for p in state.players.values()}
    lands = {t: {"owner": land.owner, "fortified": land.fortified, "minefield": land.minefield}
             for t, land in state.lands.items() if land.active}
    squads = [{"id": s.id, "owner": s.owner, "place": s.place, "name": s.name, "arrived": s.arrived,
               "troops": [{"id": t.id, "card": t.name, "label": tr.label(t), "banked": tr.banked(t),
                           "pending": tr.pending(t),
                           "upgrades": [f"{b.name}: {b.detail}" if b.detail else b.name for b in tr.bought(t)]}
                          for t in s.troops]} for s in sorted(state.squads.values(), key=lambda s: s.arrived)]
    return {"turn": state.turn, "window": state.window, "arrivals": state.arrivals,
            "order": ["+".join(s) for s in state.sides], "alliances": state.alliances, "players": players,
            "territories": lands, "squads": squads, "pick_order": list(state.pick_order),
            "totals": dict(state.totals), "last": to_data(state.last)}
