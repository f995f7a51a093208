"""A Daemon Rift campaign written as a position (`pbem export-position`), in the format
`position.read` reads (docs/positions/daemon_rift.md): at the orders window, everything the
rules keep between turns, each list with its roster, marks, counters and story."""

from __future__ import annotations

from typing import Any

from pbem.kit.roster import Roster, format_entry
from pbem.rulesets.base import PositionError
from pbem.rulesets.daemon_rift import position_records
from pbem.rulesets.daemon_rift.game_state import DRGame
from pbem.rulesets.daemon_rift.model import LIST_ACTIVE, LIST_UNUSED, ArmyList, DRState, Faction
from pbem.rulesets.daemon_rift.position import FACTION_KEYS, PHASES

LIST_DEFAULTS: dict[str, Any] = {"name": "", "points": 2250, "artillery": False, "fast": False, "battles": 0,
                                 "replacement": False, "arrival_turn": 0, "declared": [], "repair_saved": "0",
                                 "repaired_turn": 0}


def export(game: DRGame) -> dict[str, Any]:
    state = game.dr
    if state.phase not in PHASES:
        raise PositionError("export", [f"the campaign is over: a Daemon Rift position is written while one of "
                                       f"its windows ({', '.join(PHASES)}) is open"])
    out: dict[str, Any] = {"turn": state.turn, "phase": state.phase}
    factions = {fid: _faction(f) for fid, f in state.factions.items()}
    out["factions"] = {fid: f for fid, f in factions.items() if f}
    out["control"] = dict(state.control)
    out["tokens"] = {t.id: t.territory for t in state.tokens.values()}
    out["lists"] = {key: _list(state, lst) for key, lst in state.lists.items() if _list(state, lst)}
    out["battles_fought"] = [{"turn": b.turn, "factions": list(b.factions)} for b in state.battles_fought]
    records = position_records.export(game)
    return out | ({"records": records} if records else {})


def _faction(f: Faction) -> dict[str, Any]:
    return {name: getattr(f, name) for name in FACTION_KEYS if getattr(f, name)}


def _list(state: DRState, lst: ArmyList) -> dict[str, Any]:
    """Every key away from what the position reader assumes for the slot."""
    on_map = lst.key in state.tokens
    out = {name: getattr(lst, name) for name, default in LIST_DEFAULTS.items() if getattr(lst, name) != default}
    if lst.status != (LIST_ACTIVE if on_map else LIST_UNUSED):
        out["status"] = lst.status
    if lst.approved != on_map:
        out["approved"] = lst.approved
    return out | _roster(lst.roster)


def _roster(roster: Roster) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if roster.entries:
        out["entries"] = [format_entry(e) for e in roster.entries]
    marks = [{"entry": e.id, "kind": m.kind, "name": m.name, "value": m.value, "turn": m.turn,
              "permanent": m.permanent} for e in roster.entries for m in e.marks]
    if marks:
        out["marks"] = marks
    counters = {e.id: dict(e.counters) for e in roster.entries if e.counters}
    if counters:
        out["counters"] = counters
    if roster.history:
        out["history"] = [{"turn": c.turn, "entry": c.entry, "text": c.text} for c in roster.history]
    return out
