"""Supply lines (SWM-ECO-13, A34): a chain of adjacent territories, every one friendly to the
player (his and his allies'), from a squad to his own capital, which he must control; and the
capitals a player builds at (SWM-ECO-6, A28)."""

from __future__ import annotations

from collections import deque

from pbem.rulesets.star_wars_miniatures.world import World


def build_sites(world: World, player: str) -> list[str]:
    """Where a player builds, and where his supply lines may end (A28). By default
    (`economy.capital_lost_can_build = false`) only his own capital while he controls it. With
    true, every active capital he controls serves: his own first, then captured ones in map
    order, so a player who lost his capital still builds and reinforces from a captured one."""
    state = world.state
    own = state.players[player].capital
    sites = [own] if own and state.owner(own) == player else []
    if world.book["economy.capital_lost_can_build"]:
        sites += [t for t in world.places.capitals() if t != own and state.owner(t) == player
                  and state.lands[t].active]
    return sites


def supplied(world: World, player: str, place: str) -> bool:
    sites = set(build_sites(world, player))
    passable = _passable(world, player)
    if not sites or place not in passable:
        return False
    seen, queue = {place}, deque([place])
    while queue:
        here = queue.popleft()
        if here in sites:
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
