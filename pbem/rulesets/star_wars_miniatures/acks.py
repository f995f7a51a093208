"""What an ack warns of beyond refused lines (SWM-PBM-2, SWM-STK-7): a path cut short, an item
the treasury cannot pay as things stand, a territory the orders would leave overstacked."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.rulesets.star_wars_miniatures.model import ACTION, ECONOMICS
from pbem.rulesets.star_wars_miniatures.orders import card_list
from pbem.rulesets.star_wars_miniatures.world import World


def warnings(world: World, player: str, window: str, kept: Sequence[str]) -> list[str]:
    """What the ack warns of (SWM-PBM-2): a path cut short, an item the treasury cannot pay as
    things stand."""
    out = []
    if window == ACTION:
        for line in kept:
            words = line.split()
            if words[0] == "MOVE":
                stop = next((i for i, t in enumerate(words[2:]) if not world.state.friendly(player, t)), None)
                if stop is not None and stop < len(words) - 3:
                    out.append(f"{line}: the squad stops in {words[2 + stop]}, which is not yours; the rest of "
                               "the path will be dropped (SWM-MOV-15)")
    if window in (ACTION, ECONOMICS):
        out += overstack(world, player, kept)
    if window == ECONOMICS:
        funds = world.state.players[player].treasury + _income(world, player)
        for line in kept:
            first = line.split(" ELSE ")[0]
            cost = _cost(world, first)
            if cost > funds:
                out.append(f"{first}: costs {cost} and you expect {funds} after collecting; it will be skipped "
                           "unless gifts come in first")
    return out


def overstack(world: World, player: str, kept: Sequence[str]) -> list[str]:
    """SWM-STK-7: his territories the orders, as understood, would leave over their stacking limit
    at the end of the phase (moves into enemy territory are attacks and not counted)."""
    where = {s.id: s.place for s in world.state.squads.values()}
    for line in kept:
        words = line.split(" ELSE ")[0].split()
        if words[0] == "MOVE":
            path = words[2:]
            stop = next((t for t in path if not world.passable(player, t)), path[-1])
            where[words[1]] = stop
        elif words[0] in ("SHUTTLE", "STRATEGIC"):
            where[words[1]] = words[3]
    out = []
    for place in sorted(set(where.values())):
        here = [s for s, t in where.items() if t == place and (world.book["stacking.damaged_count"]
                                                                 or not world.state.squads[s].damaged)]
        if world.state.friendly(player, place) and len(here) > world.stacking(place) and \
                any(world.state.squads[s].owner == player for s in here):
            out.append(f"{place} would hold {len(here)} squads ({', '.join(sorted(here))}) against its stacking limit "
                       f"of {world.stacking(place)}: one is removed at the end of the phase unless another leaves "
                       "(SWM-STK-4)")
    return out


def _income(world: World, player: str) -> int:
    return sum(world.places.territories[t].income for t, land in world.state.lands.items()
               if land.owner == player and land.active)


def _cost(world: World, line: str) -> int:
    words = line.split()
    if words[0] in ("BUILD", "REINFORCE"):
        return sum(world.catalog.minis[c].cost for c, _ in card_list(line.split(": ", 1)[1]))
    if words[0] == "BUY":
        return int(world.book[f"advantages.{words[1]}.cost"])
    if words[0] in ("OPERATIVE", "SHUTTLE"):
        key = "special_operative" if words[0] == "OPERATIVE" else "transport_shuttle"
        return int(world.book[f"advantages.{key}.cost"])
    return int(words[2]) if words[0] == "GIVE" else 0
