"""The map picture: territories by owner (inactive ones uncoloured), capitals, fortifications and
minefields, every squad with its id (a damaged one marked dislodged), and this turn's moves,
retreats and battles. Reads only the typed state; nothing is hidden (SWM-GEN-9)."""

from __future__ import annotations

from pbem.kit.scene import Marker, Piece, Scene, Side
from pbem.rulesets.phases import View
from pbem.rulesets.star_wars_miniatures.model import SWMState
from pbem.rulesets.star_wars_miniatures.regions import RegionMap
from pbem.rulesets.star_wars_miniatures.report import names_of, side

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "teal", "pink", "brown", "grey")


def scene(view: View[SWMState, RegionMap]) -> Scene:
    state, names = view.state, names_of(view.settings)
    sides = tuple(Side(p, view.rules.get(f"factions.{me.faction}.name", p) if me.faction else names.get(p, p),
                       COLOURS[n % len(COLOURS)]) for n, (p, me) in enumerate(state.players.items()))
    markers = [Marker(t, "capital") for t in view.map.capitals()]
    markers += [Marker(t, "castle") for t, land in state.lands.items() if land.fortified]
    markers += [Marker(t, "mine") for t, land in state.lands.items() if land.minefield]
    notes = [f"Turn {state.turn}, {state.window}"]
    if state.sides:
        notes.append("Turn order: " + ", ".join(side(names, s) for s in state.sides))       # players by name
    inactive = [r for r, g in view.map.regions.items() if not any(state.lands[t].active for t in g.territories)]
    if inactive and state.turn:
        notes.append("Inactive regions (never entered, uncoloured): " + ", ".join(inactive))
    return Scene(
        title=f"{view.settings.name}: turn {state.turn}", stage=state.window, sides=sides,
        owners={t: land.owner for t, land in state.lands.items() if land.owner},
        pieces=tuple(Piece(s.id, s.place, s.owner, "squad", dislodged=s.damaged)
                     for s in sorted(state.squads.values(), key=lambda s: s.id)),
        moves=state.last.moves, clashes=state.last.clashes, markers=tuple(markers), notes=tuple(notes))
