"""Window B's briefing (MK-BAT-20, MK-BAT-21, the catalog's Windows B list) and its call.

The briefing of a battle goes to both its players and the public thread once, when the
battle is chosen: the tile (terrain, features, settlement, controller), each side's fighting
armies with their current lists (medals and scars so far), artefacts and defend markers, the
points totals (artefacts never counted, MK-ART-10), the on-side armies present, the medal
and scar rules, what can be captured, and what each side may move afterwards.
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.base import Report
from pbem.rulesets.mighty_kingdoms import armylist, artefacts, battle_lines, standing, tiles
from pbem.rulesets.mighty_kingdoms.battle_results import destinations
from pbem.rulesets.mighty_kingdoms.battle_state import Battle
from pbem.rulesets.mighty_kingdoms.battles import points
from pbem.rulesets.mighty_kingdoms.chronicle import when
from pbem.rulesets.mighty_kingdoms.model import MEDAL, SCAR, Army, MKView


def briefings(view: MKView) -> list[Report]:
    """The briefing of every open battle not briefed yet (each is marked briefed)."""
    out = []
    for battle in view.state.battle.pending():
        if not battle.briefed:
            battle.briefed = True
            names = " against ".join(view.state.kingdoms[p].name for p in battle.players)
            out.append(Report("briefing", f"Battle {battle.id}, {names}", battle.players,
                              {"briefing": brief(view, battle)}, public=True, key=f"briefing-{battle.id}"))
    return out


def brief(view: MKView, battle: Battle) -> dict[str, Any]:
    state, gmap = view.state, view.map
    spot = state.tile(battle.tile)
    owner = state.kingdoms[spot.owner].name if spot.owner else "nobody"
    return {
        "id": battle.id, "when": when(view), "tile": gmap.label(battle.tile),
        "terrain": tiles.terrain_class(gmap, battle.tile).replace("_", " "),
        "features": sorted(tiles.features(gmap, battle.tile)),
        "settlement": spot.settlement + (" (capital)" if state.capital_of(spot.owner) == battle.tile else ""),
        "controller": owner,
        "sides": [side(view, battle, p) for p in battle.players],
        "capturable": [f"{n} (on {h.army}.{h.unit})" if h.army else f"{n} (held at this capital)"
                       for n in battle_lines.capturable(state, battle, battle.chooser)
                       + battle_lines.capturable(state, battle, battle.opponent)
                       for h in (state.artefacts[n],)],
        "syntax": [battle_lines.SYNTAX[v] for v in battle_lines.VERBS],
        "several": len(state.battle.pending()) > 1,
        "example": example(view, battle),
        "defend_effect": _defend_effect(view),
    }


def _defend_effect(view: MKView) -> str:
    """The game master's house rule for defend markers, played at the table; "" when they have
    none, as the source gives them (A7)."""
    effect = str(view.rules["orders.defend_effect"]).strip()
    return "" if effect == "none" else effect


def example(view: MKView, battle: Battle) -> dict[str, list[str]]:
    """A filled-in report with this battle's own ids, as if the chooser won: what each player sends."""
    state = view.state
    winner, loser = battle.chooser, battle.opponent
    won = [state.armies[a] for a in battle.armies.get(winner, []) if a in state.armies]
    lost = [state.armies[a] for a in battle.armies.get(loser, []) if a in state.armies]
    head = f"RESULT {battle.id} " if len(state.battle.pending()) > 1 else "RESULT "
    both = [f"{head}WIN {state.kingdoms[winner].name}"]
    if won and lost and won[0].roster.entries and lost[0].roster.entries:
        both += [f"MEDALS {won[0].id}.{won[0].roster.entries[0].id}",
                 f"SCARS {lost[0].id}.{lost[0].roster.entries[-1].id}"]
    goes = destinations(view, lost[0]) if lost else []
    moves = [f"MOVE {lost[0].id} {goes[0]}"] if goes else []
    return {state.kingdoms[winner].name: [*both, "ADVANCE NONE"], state.kingdoms[loser].name: [*both, *moves]}


def side(view: MKView, battle: Battle, player: str) -> dict[str, Any]:
    state = view.state
    armies = [state.armies[a] for a in battle.armies.get(player, []) if a in state.armies]
    laid = [a for a in battle.on_side.get(player, []) if a in state.armies]
    controls = state.owner(battle.tile) == player
    return {
        "kingdom": state.kingdoms[player].name, "player": player,
        "points": points(state, battle, player),
        "armies": [army(view, a) for a in armies],
        "on_side": laid,
        "after_loss": _moves(view, armies + [state.armies[a] for a in laid]),
        "draw_stays": controls,
        "win_moves": view.rules["battle.win_free_moves"],
        "standing": standing.described(state.kingdoms[player]),
    }


def army(view: MKView, a: Army) -> dict[str, Any]:
    return {"id": a.id, "points": a.roster.points, "defend": a.defend, "name": a.roster.name,
            "units": [unit(view, a, e.id) for e in a.roster.entries]}


def unit(view: MKView, a: Army, ident: str) -> dict[str, Any]:
    entry = a.roster.get(ident)
    assert entry is not None      # `ident` is read off the same roster
    notes = [f"medals so far: {entry.total(MEDAL)}"] if entry.total(MEDAL) else []
    notes += [f"scars so far: {entry.total(SCAR)}"] if entry.total(SCAR) else []
    notes += [f"carries {name}" for name in artefacts.carried_by(view.state, a.id, ident)]
    return {"key": f"{a.id}.{ident}", "line": armylist.unit_line(entry), "notes": "".join(f"; {n}" for n in notes)}


def _moves(view: MKView, armies: list[Army]) -> list[str]:
    """Where each army could go if it must leave: its legal tiles now, or destroyed if none."""
    out = []
    for a in armies:
        legal = destinations(view, a)
        out.append(f"{a.id}: " + (", ".join(view.map.label(t) for t in legal) if legal else "no tile: destroyed"))
    return out


def call(view: MKView) -> dict[str, Any]:
    """What the report's call for window B shows: the open battles and the lines to send."""
    state = view.state
    return {"battles": [{"id": b.id, "tile": view.map.label(b.tile),
                         "kingdoms": [state.kingdoms[p].name for p in b.players]} for b in state.battle.pending()],
            "syntax": [battle_lines.SYNTAX[v] for v in battle_lines.VERBS],
            "standing": [standing.SYNTAX[v] for v in standing.VERBS]}
