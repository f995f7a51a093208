"""The map picture of a Wandering Tribes stage: tiles by terrain, camp fires, every stack with its
id and owner, this round's moves (retreats after battles), locked pairs and the phase's battles."""

from __future__ import annotations

from pbem.kit.scene import BATTLE, MOVE, RETREAT, Clash, Marker, Move, Piece, Scene, Side
from pbem.rulesets.wandering_tribes.game import WTView

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "brown", "teal")


def scene(view: WTView) -> Scene:
    game = view.state
    state = game.state
    names = {p.id: p.faction_name or p.name for p in view.settings.players}
    sides = tuple(Side(p, state.players[p].army_name or names.get(p, p), COLOURS[i % len(COLOURS)])
                  for i, p in enumerate(state.seats))
    pieces = tuple(Piece(s.id, s.tile, s.owner, "stack") for p in state.seats for s in state.stacks_of(p))
    moves = tuple(Move(m.start, m.path[-1], RETREAT if m.retreat else MOVE, piece=m.stack)
                  for m in game.moves if m.path and m.path[-1] != m.start)
    clashes = tuple(Clash(lock.tile, BATTLE, f"{lock.defender} v {lock.attacker}") for lock in state.locks)
    clashes += tuple(Clash(b.tile, BATTLE, f"B{b.id}") for b in game.battles if not any(
        lock.tile == b.tile for lock in state.locks))
    fires = tuple(Marker(t, "campfire") for t in view.map.places() if view.map.tiles[t].campfire)
    notes = [f"Round {state.round}", "Camp fires: " + (", ".join(m.place for m in fires) or "none")]
    if state.first_rest:
        notes.append(f"First rest in round {state.first_rest}")
    resting = [p for p in state.active() if state.players[p].resting]
    if resting:
        notes.append("Resting: " + ", ".join(resting))
    return Scene(title=f"{view.settings.name}: {game.resolved or 'setup'}", stage=game.phase, sides=sides,
                 pieces=pieces, moves=moves, clashes=clashes, markers=fires, notes=tuple(notes))
