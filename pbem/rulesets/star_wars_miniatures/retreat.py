"""Retreats and the strategic move (SWM-PBC-12..17, SWM-STR): once every battle, walk-over and
capture of a slot is settled, the losing squads retreat in ascending squad id order, judged on
the control map of that moment; then the acting side may make its one free strategic move."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pbem.kit.places import natural_key
from pbem.rulesets.star_wars_miniatures.world import World, retreat_destination, standing_retreat


def carry_out(world: World, retreating: Sequence[tuple[str, str]],
              reported: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """Each squad to its reported destination, else its standing ranking, else SWM-PBM-8; a squad
    with no friendly neighbour is eliminated (SWM-PBC-12). Returns (squad, from, to) moves."""
    moves = []
    for squad_id, origin in sorted(set(retreating), key=lambda r: natural_key(r[0])):
        squad = world.state.squads.get(squad_id)
        if squad is None:
            continue               # SWM-PBC-17: removed by the chart, no retreat
        ranking = [reported[squad_id]] if squad_id in reported else []
        goal = retreat_destination(world, squad, origin, ranking + standing_retreat(world, squad))
        if not goal:
            world.eliminate(squad, f"it must retreat from {origin} and no neighbour is friendly")
            continue
        world.say(f"{squad_id} retreats from {origin} to {goal}.")
        world.state.arrive(squad, goal)
        moves.append((squad_id, origin, goal))
    return moves


@dataclass(frozen=True)
class Strategic:
    squad: str
    to: str


def strategic(world: World, side: Sequence[str],
              orders: Sequence[Sequence[Strategic]]) -> tuple[str, str, str] | None:
    """SWM-STR-1..6, SWM-ALL-9: the first legal alternative of the side's STRATEGIC orders (the
    members' orders in order of their totals) moves one squad, friendly to friendly, no path."""
    for alternatives in orders:
        for order in alternatives:
            why = refusal(world, side, order)
            if why:
                world.say(f"STRATEGIC {order.squad} TO {order.to}: not carried out, {why}.")
                continue
            squad = world.state.squads[order.squad]
            origin = squad.place
            world.state.arrive(squad, order.to)
            world.say(f"Strategic move: {order.squad} from {origin} to {order.to}.")
            return (order.squad, origin, order.to)
    return None


def refusal(world: World, side: Sequence[str], order: Strategic) -> str:
    squad = world.state.squads.get(order.squad)
    if squad is None or squad.owner not in side:
        return "not a squad of this side"
    if squad.disrupted:
        return f"{squad.place} is disrupted this turn (SWM-STR-4)"
    if order.to not in world.places.territories or not world.state.friendly(squad.owner, order.to):
        return f"{order.to} is not friendly"
    if not world.state.friendly(squad.owner, squad.place):
        return f"{squad.place} is not friendly"
    if order.to == squad.place:
        return f"{order.squad} is already in {order.to}"
    return ""
