"""A Campaigns of Conquest campaign written as a position (`pbem export-position`), in the format
`position.read` reads (docs/positions/conquest.md): every key the campaign's state has a value
for, the round's records only at the windows that read them."""

from __future__ import annotations

from typing import Any

from pbem.rulesets.base import PositionError
from pbem.rulesets.conquest import position_round
from pbem.rulesets.conquest.model import W_CAPITALS, W_OVER, ConquestState, Empire
from pbem.rulesets.conquest.position import OPEN_WINDOWS, ROUND_RECORDS


def export(state: ConquestState) -> dict[str, Any]:
    rnd = state.round
    if rnd.window == W_OVER or rnd.window not in OPEN_WINDOWS:
        raise PositionError("export", [f"the campaign is at window {rnd.window!r}: a position is written while "
                                       f"one of {', '.join(OPEN_WINDOWS)} is open"])
    out: dict[str, Any] = {"round": rnd.number, "window": rnd.window}
    if rnd.window != W_CAPITALS:
        out["order"] = list(rnd.order)
        if any(e.tiebreak for e in rnd.sizes):
            out["tiebreaks"] = {e.player: list(e.tiebreak) for e in rnd.sizes if e.tiebreak}
    if state.capital_rolls:
        out["capital_rolls"] = {p: list(faces) for p, faces in state.capital_rolls.items()}
    for name, value in (("capital_order", state.capital_order), ("events_taken", state.events_taken),
                        ("history", state.history)):
        if value:
            out[name] = list(value)
    out["empires"] = {p: _empire(e) for p, e in state.empires.items()}
    out["tiles"] = {t: {"owner": s.owner, "building": s.building} for t, s in state.tiles.items()
                    if s.owner or s.building}
    if state.sieges:
        out["sieges"] = [{"tile": s.tile, "besieger": s.besieger, "defender": s.defender,
                          "started_round": s.started_round, "assault_round": s.assault_round} for s in state.sieges]
    if state.naval:
        out["naval"] = [{"holder": n.holder, "subject": n.subject} for n in state.naval]
    out |= _round(state)
    if rnd.window in position_round_windows():
        position_round.export(state, out)
    position_round.export_last(state, out)
    return out


def position_round_windows() -> tuple[str, ...]:
    return ROUND_RECORDS["challenges"]


def _empire(e: Empire) -> dict[str, Any]:
    out: dict[str, Any] = {"name": e.name, "treasury": e.treasury, "carried_ep": e.carried_ep}
    if e.capital:
        out["capital"] = e.capital
    if e.eliminated:
        out |= {"eliminated": True, "eliminated_round": e.eliminated_round}
    return out


def _round(state: ConquestState) -> dict[str, Any]:
    """The round's records the position's window reads (ROUND_RECORDS)."""
    rnd, window = state.round, state.round.window
    out: dict[str, Any] = {}
    wanted = {name for name, windows in ROUND_RECORDS.items() if window in windows}
    if "events" in wanted and rnd.events:
        out["events"] = [{"player": e.player, "event": e.event} | ({"target": e.target} if e.target else {})
                         for e in rnd.events]
    if "battles" in wanted and rnd.battles:
        out["battles"] = [{"id": b.id, "kind": b.kind, "attackers": list(b.attackers), "defenders": list(b.defenders)}
                          | ({"tile": b.tile} if b.tile else {}) for b in rnd.battles]
    if "setups" in wanted and rnd.setups:
        out["setups"] = [{"battle": s.battle, "points": s.points,
                          "armies": [{"player": a.player, "share": a.share, "gold": a.gold, "total": a.total}
                                     for a in s.armies]} for s in rnd.setups]
    if "outcomes" in wanted and rnd.outcomes:
        out["outcomes"] = [{"battle": o.battle, "attacker": o.attacker, "defender": o.defender, "note": o.note}
                           for o in rnd.outcomes]
    if "ep" in wanted and rnd.ep:
        out["ep"] = {a.player: a.earned for a in rnd.ep}
    if "wins" in wanted and rnd.wins:
        out["wins"] = [{"winner": w.winner, "loser": w.loser, "count": w.count} for w in rnd.wins]
    return out
