"""What the report opening window W1 shows of each kingdom (the catalog's W1 "published before
the window opens"): gold and food after Gather, fortresses that may recruit, wizard's towers it
may quest at, and the artefacts no one owns."""

from __future__ import annotations

from typing import Any

from pbem.kit.hexes import HexMap
from pbem.rulesets.mighty_kingdoms.model import FORTRESS, MKState, MKView
from pbem.rulesets.mighty_kingdoms.settlements import EMPTY, Cost, table


def eligible_towers(state: MKState, gmap: HexMap, player: str) -> list[str]:
    """Towers adjacent to at least one tile the player controls (MK-QST-1)."""
    return gmap.sorted(t for t in state.towers() if any(state.owner(n) == player for n in gmap.neighbours(t)))


def context(view: MKView) -> dict[str, Any]:
    state, gmap = view.state, view.map
    kingdoms = []
    for player in state.order:
        k = state.kingdoms[player]
        kingdoms.append({
            "player": player, "name": k.name, "gold": k.gold, "food": k.food,
            "armies": len(state.armies_of(player)),
            "fortresses": [gmap.label(t) for t in state.settlements_of(player, FORTRESS)],
            "towers": [gmap.label(t) for t in eligible_towers(state, gmap, player)],
            "example": example(state, gmap, player)})
    pool = [{"name": a.get("name", ""), "points": a.get("points", 0)} for a in view.rules["artefacts.pool"]
            if a.get("name", "") not in state.artefacts]
    rules = view.rules
    return {"kingdoms": kingdoms, "pool": pool, "max_armies": rules["army_list.max_armies"],
            "costs": costs(view), "recruit": Cost(**rules["recruit.cost"]).text(), "points": rules["army_list.points"],
            "terrain_columns": joined([c.replace("_", "-") for c in rules["settlement_costs.terrain_columns"]]),
            "tithe": f"{rules['tithe.max_gold']} gold and {rules['tithe.max_food']} food"}


def example(state: MKState, gmap: HexMap, player: str) -> list[str]:
    """Purchase lines with the kingdom's own tiles and a neighbour's name, for the call to copy from."""
    lines = []
    empty = gmap.sorted(t for t in state.kingdom_tiles(player) if not state.tiles[t].settlement)
    if empty:
        lines.append(f"BUILD village {empty[0]}")
    fortresses = gmap.sorted(state.settlements_of(player, FORTRESS))
    if fortresses:
        lines.append(f"RECRUIT {fortresses[0]}")
    other = next((state.kingdoms[p].name for p in state.order if p != player), "")
    if other:
        lines.append(f"TITHE {other} 1g 0f")
    return lines


def costs(view: MKView) -> list[str]:
    """The settlement cost table of the preset in force, one line per cell that may be built."""
    return [f"a {kind} on {'an empty tile' if col == EMPTY else 'a ' + col}: {cost.text()}"
            for kind, row in table(view.rules).items() for col, cost in row.items()]


def joined(words: list[str]) -> str:
    """`swamp, all-mountains and sea`."""
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)
