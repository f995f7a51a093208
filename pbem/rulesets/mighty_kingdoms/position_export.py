"""A Mighty Kingdoms campaign written as a position (`pbem export-position`), in the format
`position.read` reads (docs/positions/mighty_kingdoms.md): at the start of a summer month's
Orders or a winter's purchases (W1), every kingdom, explored tile, army and artefact."""

from __future__ import annotations

from typing import Any

from pbem.kit.tomlio import to_data
from pbem.rulesets.base import PositionError
from pbem.rulesets.mighty_kingdoms import armylist, position_records
from pbem.rulesets.mighty_kingdoms.model import ORDERS, PURCHASES, WINTER, Army, Kingdom, MKState
from pbem.rulesets.mighty_kingdoms.position import OPENS


def export(state: MKState) -> dict[str, Any]:
    calendar = state.calendar
    if calendar.window not in OPENS:
        raise PositionError("export", [f"the campaign is over: a Mighty Kingdoms position is written while one of "
                                       f"its windows ({', '.join(OPENS)}) is open"])
    out: dict[str, Any] = {"year": calendar.year, "month": calendar.month}
    if calendar.window != (PURCHASES if calendar.month == WINTER else ORDERS):
        out["window"] = calendar.window
    out["order"] = list(state.order)
    out["kingdoms"] = {pid: _kingdom(k) for pid, k in state.kingdoms.items()}
    out["tiles"] = {t: _tile(s) for t, s in state.tiles.items()}
    out["armies"] = {ident: _army(a) for ident, a in state.armies.items()}
    out["artefacts"] = {name: {"owner": h.owner} | ({"army": h.army, "unit": h.unit} if h.army else {})
                        for name, h in state.artefacts.items()}
    records = position_records.export(state)
    return out | ({"records": records} if records else {})


def _kingdom(k: Kingdom) -> dict[str, Any]:
    out = {"name": k.name, "start": k.start_tile, "gold": k.gold, "food": k.food, "armies_raised": k.armies_raised}
    standing = {name: value for name, value in to_data(k.standing).items() if value}
    return out | ({"standing": standing} if standing else {})


def _tile(s: Any) -> dict[str, Any]:
    if s.tower:
        return {"tower": True}
    out: dict[str, Any] = {"owner": s.owner}
    if s.settlement:
        out["settlement"] = s.settlement
    if s.razed:
        out["razed"] = True
    return out


def _army(a: Army) -> dict[str, Any]:
    out: dict[str, Any] = {"owner": a.owner, "tile": a.tile}
    if not a.upright:
        out["upright"] = False
    if a.defend:
        out["defend"] = True
    if a.roster.name:
        out["name"] = a.roster.name
    out["units"] = [armylist.unit_line(e) for e in a.roster.entries]
    if a.roster.history:
        out["history"] = [{"turn": c.turn, "unit": c.entry, "text": c.text} for c in a.roster.history]
    return out
