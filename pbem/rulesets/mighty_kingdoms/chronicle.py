"""What a step tells the players: sections of plain lines, gathered into one report per resolution.

Every automatic step (resolution, battle selection, reform, gather, purchases, quests, deploy)
appends a `Section` with one line per event, each die named with its purpose and faces
("T12 explored: 2D6 = 3+5 = 8, a village"). Lines are plain text: the template escapes them.
`report` turns the sections of one resolution into the public report every player gets,
with the board as it now stands and what to send next.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.kit.dice import Roll
from pbem.rulesets.base import Report
from pbem.rulesets.mighty_kingdoms.final import standings
from pbem.rulesets.mighty_kingdoms.model import OVER, WINTER, MKView

CALLS: dict[str, Callable[[MKView], dict[str, Any]]] = {}
"""window -> what its `_call_<window>.md.j2` shows beyond the board, as `mk.call` (each window
module registers its own)."""


@dataclass
class Section:
    title: str
    lines: list[str] = field(default_factory=list)

    def add(self, line: str) -> None:
        self.lines.append(line)


def dice_text(roll: Roll) -> str:
    """`2D6 = 3+5 = 8`, or `D6 = 4` for one die."""
    faces = list(roll.faces)
    name = f"{len(faces)}D{roll.sides}" if len(faces) > 1 else f"D{roll.sides}"
    shown = "+".join(str(f) for f in faces)
    return f"{name} = {shown} = {roll.total}" if len(faces) > 1 else f"{name} = {shown}"


def when(view: MKView) -> str:
    """`Year 1, month 3`, `Year 1, winter` or `Setup`."""
    cal = view.state.calendar
    if cal.month == 0:
        return "Setup"
    return f"Year {cal.year}, " + ("winter" if cal.month == WINTER else f"month {cal.month}")


def report(view: MKView, title: str, sections: Sequence[Section], key: str) -> Report:
    """The public report of one resolution: its sections, then the board and what comes next."""
    context = {"mk": {"title": title, "sections": [s for s in sections if s.lines], **board(view)}}
    # the subject's "[campaign]" prefix names the campaign already; its title would say it twice
    return Report("report", title, ("*",), context, public=True, key=key)


def board(view: MKView) -> dict[str, Any]:
    """The board as every report shows it: kingdoms, armies, player order."""
    state, gmap = view.state, view.map
    kingdoms = []
    for player in state.order or list(state.kingdoms):
        k = state.kingdoms[player]
        kingdoms.append({
            "name": k.name, "capital": gmap.label(state.capital_of(player)) if state.capital_of(player) else "none",
            "tiles": len(state.kingdom_tiles(player)),
            "settlements": {kind: len(state.settlements_of(player, kind)) for kind in ("village", "city", "fortress")},
            "gold": k.gold, "food": k.food, "armies": len(state.armies_of(player))})
    armies = [{"id": a.id, "kingdom": state.kingdoms[a.owner].name, "tile": gmap.label(a.tile),
               "status": ("upright" if a.upright else "on its side") + (", defending" if a.defend else ""),
               "points": a.roster.points, "units": len(a.roster.entries)}
              for p in state.order or list(state.kingdoms) for a in state.armies_of(p)]
    call = CALLS.get(state.calendar.window)
    final = {"final": standings(state)} if state.calendar.window == OVER else {}
    return {"when": when(view), "kingdoms": kingdoms, "armies": armies,
            "order": [state.kingdoms[p].name for p in state.order], "window": state.calendar.window,
            "call": call(view) if call else {}, **final}
