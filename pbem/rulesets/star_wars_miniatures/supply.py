"""Supply lines (SWM-ECO-13, A34): a chain of adjacent territories, every one friendly to the
player (his and his allies'), from a squad to his own capital, which he must control."""

from __future__ import annotations

from collections import deque

from pbem.rulesets.star_wars_miniatures.world import World


def supplied(world: World, player: str, place: str) -> bool:
    capital = world.state.players[player].capital
    if not capital or world.state.owner(capital) != player:
        return False
    passable = _passable(world, player)
    if place not in passable:
        return False
    seen, queue = {place}, deque([place])
    while queue:
        here = queue.popleft()
        if here == capital:
            return True
        for nxt in world.places.neighbours(here):
            if nxt in passable and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return False


def _passable(world: World, player: str) -> set[str]:
    state = world.state
    if world.book["economy.supply_line_through"] == "non_enemy":
        return {t for t in world.places.places() if not state.enemy(player, t) and state.lands[t].active}
    return {t for t in world.places.places() if state.friendly(player, t)}
