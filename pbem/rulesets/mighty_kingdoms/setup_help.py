"""What the setup tells a player: the HELP text and the call for window S in the report.

Both name the player's own starting tiles and directions, so the lines can be copied as
they stand (the call template `_call_setup.md.j2` reads `call_context`).
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.base import Player
from pbem.rulesets.mighty_kingdoms import armylist, tiles
from pbem.rulesets.mighty_kingdoms.model import DIRECTIONS, MKView


def help_text(view: MKView, player: Player) -> str:
    starts = tiles.starting_tiles(view.map)
    layout = " ".join(view.rules["setup.default_ring_layout"])
    if view.state.setup.placed:
        return (f"Your army list, one line per unit: `{armylist.FORMAT}`, for example `{armylist.EXAMPLE}`; "
                "`LIST <name>` names it. Nothing else is wanted in this stage.")
    return (f"Window S (setup), any order of lines: your first army's list, one line per unit "
            f"`{armylist.FORMAT}` (for example `{armylist.EXAMPLE}`, at most {view.rules['army_list.points']} "
            "points, no living legends, magic items, war engines or monsters), `LIST <name>` to name it; "
            f"`START {', '.join(starts[:3])}` (starting tiles, best first); `RING {layout}` (the six tiles "
            f"around your capital, {' '.join(DIRECTIONS)}: exactly 1 city, 1 fortress, 2 villages, 2 control), "
            f"or `RING {starts[0]} {layout}` for one starting tile; `ARMY capital` or `ARMY NE` (a ring "
            "tile with a settlement).")


def call_context(view: MKView) -> dict[str, Any]:
    """The setup's part of a report: the starting tiles, who holds them, what is still owed."""
    state, gmap = view.state, view.map
    starts = [{"number": n, "tile": gmap.label(t), "id": t,
               "terrain": tiles.terrain_class(gmap, t).replace("_", " "),
               "held": state.kingdoms[state.original_owner(t)].name if state.original_owner(t) else ""}
              for n, t in enumerate(tiles.starting_tiles(gmap), 1)]
    names = {p: k.name for p, k in state.kingdoms.items()}
    return {
        "placed": state.setup.placed,
        "starts": starts,
        "directions": list(DIRECTIONS),
        "layout": " ".join(view.rules["setup.default_ring_layout"]),
        "points": view.rules["army_list.points"],
        "format": armylist.FORMAT, "example": armylist.EXAMPLE,
        "missing": [{"name": names[p], "id": p, "why": state.setup.noted.get(p, "")} for p in state.setup.missing],
        "pending": [names[p] for p in state.setup.pending],
        "example_start": ", ".join(str(s["id"]) for s in starts[:2]),
    }


def welcome_text(view: MKView) -> str:
    """The welcome mail's first step: the roll-off comes first, then window S and what it wants."""
    starts = ", ".join(view.map.label(t) for t in tiles.starting_tiles(view.map))
    rolled = ("The initial player order is rolled first (a D6 each, MK-SET-1): the report naming it follows "
              "this mail and opens window S. " if not view.state.setup.rolled else "")
    return (f"The campaign opens with setup. {rolled}In window S send the army list of your first army (at most "
            f"{view.rules['army_list.points']} points; the game master confirms it), your starting tiles best "
            f"first (the map's starting tiles: {starts}), the layout of the six tiles around your capital and "
            "where your army starts. In player order each kingdom takes its best free starting tile, lays its "
            "ring and places its army. Sent nothing? The lowest-numbered free starting tile, the layout "
            f"{' '.join(view.rules['setup.default_ring_layout'])} and the capital are used for you (MK-PBM-1), but "
            "an army list cannot be made up: without one you are given more time and the game master is told.")
