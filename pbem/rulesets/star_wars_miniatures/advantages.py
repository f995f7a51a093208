"""Strategic advantages bought in Economics (SWM-ADV): officers (one per faction held at a time),
fortifications and minefields (one per territory, own territories only), the Special Operative
(used when bought, once per faction per turn, a d20 save by the target's owner) and the
Transport Shuttle (one squad, friendly to friendly, no path)."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.kit.dice import Dice, dice_spec
from pbem.rulesets.star_wars_miniatures.world import World

OFFICERS = ("intelligence_officer", "logistics_officer", "training_officer", "medical_officer")
ON_LAND = ("fortify", "minefield")


def _pay(world: World, player: str, cost: int) -> str:
    treasury = world.state.players[player].treasury
    if cost > treasury:
        return f"it costs {cost} and the treasury holds {treasury}"
    world.state.players[player].treasury = treasury - cost
    return ""


def cost(world: World, key: str) -> int:
    return int(world.book[f"advantages.{key}.cost"])


def buy(world: World, player: str, args: Sequence[str]) -> str:
    """BUY advantage [territory] (SWM-ADV-2..4, SWM-ADV-9..14)."""
    key = args[0] if args else ""
    if key in OFFICERS:
        if _holds(world, player, key):
            return f"you already hold a {world.book[f'advantages.{key}.name']} (one per faction)"
        why = _pay(world, player, cost(world, key))
        if not why:
            world.state.players[player].officers.append(key)
            name = world.book[f"advantages.{key}.name"]
            world.say(f"{player} buys {'an' if name[:1].lower() in 'aeiou' else 'a'} {name}.")
            if key == "logistics_officer" and world.book["advantages.logistics_officer.first_income"] == "immediate":
                world.state.players[player].treasury += int(world.book["advantages.logistics_officer.income"])
        return why
    if key in ON_LAND:
        return _on_land(world, player, key, args[1] if len(args) > 1 else "")
    return f"{key!r} is not an advantage to BUY (operatives and shuttles have their own orders)"


def _holds(world: World, player: str, key: str) -> bool:
    """SWM-ADV-17: one granted by a special territory counts toward the one per faction unless
    `special_territories.counts_toward_limits` is false; then he may buy his own beside it (kept
    when the territory is lost; while both are held the officer works once)."""
    if world.book["special_territories.counts_toward_limits"]:
        return world.state.held(player, key)
    return key in world.state.players[player].officers


def _on_land(world: World, player: str, key: str, place: str) -> str:
    land = world.state.lands.get(place)
    flag = "fortified" if key == "fortify" else "minefield"
    if land is None:
        return f"name the territory: BUY {key} <territory>"
    if world.book[f"advantages.{key}.own_territory_only"] and land.owner != player:
        return f"{place} is not yours"
    if getattr(land, flag):
        return f"{place} already has one (one per territory)"
    why = _pay(world, player, cost(world, key))
    if not why:
        setattr(land, flag, True)
        world.say(f"{player} buys {world.book[f'advantages.{key}.name']} for {place}.")
    return why


def operative(world: World, player: str, args: Sequence[str], dice: Dice) -> str:
    """OPERATIVE ASSASSINATE player advantage [territory] | OPERATIVE DISRUPT territory (SWM-ADV-5..8)."""
    me = world.state.players[player]
    if me.operative_turn == world.state.turn:
        return "one Special Operative per faction per turn"
    mode = args[0].upper() if args else ""
    target, why = _target(world, player, mode, args[1:])
    if why or (why := _pay(world, player, cost(world, "special_operative"))):
        return why
    me.operative_turn = world.state.turn
    count, sides = dice_spec(world.book["advantages.special_operative.save_die"])
    save = dice.roll(f"operative save: {target} against {player}", count, sides).total
    held = save >= int(world.book["advantages.special_operative.save_target"])
    world.say(f"{player}'s operative ({' '.join(args).replace('_', ' ')}): {target}'s save d20 {save}, "
              + ("nothing happens." if held else "it succeeds."))
    if not held:
        _strike(world, mode, args[1:])
    return ""


def _target(world: World, player: str, mode: str, rest: Sequence[str]) -> tuple[str, str]:
    """The owner who rolls the save, or why the operative cannot be sent."""
    state = world.state
    if mode == "DISRUPT" and rest and rest[0] in state.lands:
        place = rest[0]
        near = any(state.friendly(player, t) for t in world.places.neighbours(place))
        if not state.enemy(player, place) or not near:
            return "", f"{place} is not an enemy territory next to one of yours"
        return state.owner(place), ""
    if mode == "ASSASSINATE" and len(rest) >= 2 and rest[0] in state.players:
        victim, key = rest[0], rest[1]
        if victim in state.allies(player) and not world.book["advantages.special_operative.may_target_allies"]:
            return "", f"{victim} is your ally this turn"
        if key in OFFICERS and state.held(victim, key):
            return victim, ""
        place = rest[2] if len(rest) > 2 else ""
        flag = {"fortify": "fortified", "minefield": "minefield"}.get(key, "")
        if flag and place in state.lands and state.owner(place) == victim and getattr(state.lands[place], flag):
            return victim, ""
        return "", f"{victim} holds no {key}{' in ' + place if place else ''}"
    return "", "write OPERATIVE ASSASSINATE <player> <advantage> [territory] or OPERATIVE DISRUPT <territory>"


def _strike(world: World, mode: str, rest: Sequence[str]) -> None:
    state = world.state
    if mode == "DISRUPT":
        state.lands[rest[0]].disrupted = True
        for squad in state.squads_in(rest[0]):
            squad.disrupted = True            # only the squads present (SWM-ADV-7)
    elif rest[1] in OFFICERS:
        state.players[rest[0]].officers.remove(rest[1])
    else:
        setattr(state.lands[rest[2]], "fortified" if rest[1] == "fortify" else "minefield", False)


def shuttle(world: World, player: str, args: Sequence[str]) -> str:
    """SHUTTLE squad TO territory (SWM-ADV-13): 100, damaged squads too, not from a disrupted territory."""
    squad = world.state.squads.get(args[0]) if args else None
    goal = args[-1] if len(args) >= 2 else ""
    if squad is None or squad.owner != player:
        return "name one of your squads: SHUTTLE <squad> TO <territory>"
    if squad.disrupted:
        return f"{squad.id} stands in a territory disrupted this turn"
    if squad.damaged and not world.book["advantages.transport_shuttle.damaged_allowed"]:
        return f"{squad.id} is damaged, and this campaign's shuttles carry active squads only (SWM-ADV-13)"
    if goal not in world.state.lands or not world.state.friendly(player, goal) or goal == squad.place:
        return f"{goal} is not another friendly territory"
    why = _pay(world, player, cost(world, "transport_shuttle"))
    if not why:
        world.say(f"{player} shuttles {squad.id} from {squad.place} to {goal}.")
        world.state.arrive(squad, goal)
    return why
