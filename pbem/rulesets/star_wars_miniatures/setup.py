"""Setup (SWM-SET): the pick-order roll, factions and start regions handed out in pick order,
unchosen regions made inactive, and each player's starting squad with the army's 100 XP."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.kit.dice import Dice, dice_spec
from pbem.kit.roster import Entry, Roster
from pbem.rulesets.star_wars_miniatures import composition as comp
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures import upgrades as up
from pbem.rulesets.star_wars_miniatures.cleanup import factor
from pbem.rulesets.star_wars_miniatures.model import BANKED, Squad
from pbem.rulesets.star_wars_miniatures.orders import card_list
from pbem.rulesets.star_wars_miniatures.regions import RegionMap
from pbem.rulesets.star_wars_miniatures.world import World


def pick_order(world: World, players: Sequence[str], dice: Dice) -> list[str]:
    """SWM-SET-2/3: a d20 each, highest first; tied players re-roll among themselves."""
    count, sides = dice_spec(world.book["setup.pick_order_die"])
    rolls = {p: dice.roll(f"pick order: {p}", count, sides).total for p in players}
    world.say("Pick order rolls: " + ", ".join(f"{p} {v}" for p, v in rolls.items()))
    out: list[str] = []
    for value in sorted(set(rolls.values()), reverse=bool(world.book["setup.pick_order_high_first"])):
        tied = [p for p in players if rolls[p] == value]
        out += pick_order(world, tied, dice) if len(tied) > 1 else tied
    return out


def assign(world: World, order: Sequence[str], factions: Mapping[str, Sequence[str]],
           regions: Mapping[str, Sequence[tuple[str, str]]], dice: Dice) -> None:
    """SWM-SET-1/4..7, window S1: in pick order, the first free faction listed (or drawn from a
    hat in "random" mode; silent: the lowest-numbered free one), then the first free legal
    region listed (silent: the lowest-numbered free legal one); regions nobody took go inactive."""
    keys = list(world.book.section("factions"))
    taken: dict[str, str] = {}
    for player in order:
        free = [k for k in keys if k not in {world.state.players[p].faction for p in order}]
        if world.book["setup.faction_assignment"] == "random":
            pick = free[dice.roll(f"faction draw: {player}", 1, len(free)).total - 1] if len(free) > 1 else free[0]
        else:
            pick = next((f for f in factions.get(player, ()) if f in free), free[0])
        world.state.players[player].faction = pick
        region = _region(world, pick, taken, regions.get(player, ()))
        taken[region] = player
        _take(world, player, region)
        world.say(f"{player} leads the {world.book[f'factions.{pick}.name']} from {region} "
                  f"({world.places.regions[region].name}), capital {world.places.regions[region].capital}.")
    if _by_territory(world):
        _inactive_territories(world)
        return
    for spec in world.places.regions.values():
        if spec.id not in taken:
            for place in spec.territories:
                world.state.lands[place].active, world.state.lands[place].owner = False, ""
            world.say(f"{spec.id} ({spec.name}) is inactive: nobody started there (SWM-SET-7).")


def _by_territory(world: World) -> bool:
    """A7: `setup.start_location_unit = "territory"`: a start location is a single capital
    territory (named by its region, which has exactly one); the player holds it and the
    territories whose map field `owner_of_start` names it. Default "region" (SWM-SET-6)."""
    return bool(world.book["setup.start_location_unit"] == "territory")


def _inactive_territories(world: World) -> None:
    """SWM-SET-7 under A7's "territory" reading: every territory nobody holds after the picks (an
    unchosen capital, one whose owner_of_start names it, one with no owner_of_start) is inactive."""
    idle = [t for t in world.places.places() if not world.state.lands[t].owner]
    for place in idle:
        world.state.lands[place].active = False
    if idle:
        world.say(f"Inactive: {', '.join(idle)}; nobody holds them from the start (SWM-SET-7).")


def _region(world: World, faction: str, taken: Mapping[str, str], wanted: Sequence[tuple[str, str]]) -> str:
    """SWM-SET-5: a later pick adjoins a location already taken: a region any of whose territories
    borders one of a taken region, or under A7's "territory" reading a capital bordering a taken
    capital. When no free location adjoins one, any free one may be taken."""
    free = [r for r in world.places.regions if r not in taken]
    legal = [r for r in free if not taken or not world.book["setup.start_must_adjoin_taken"] or
             any(_locations_adjacent(world, r, t) for t in taken)]
    listed = next((r for r, cond in wanted if r in (legal or free) and cond in ("", faction)), "")
    return listed or (legal or free)[0]


def _locations_adjacent(world: World, a: str, b: str) -> bool:
    places = world.places
    if _by_territory(world):
        return places.adjacent(places.regions[a].capital, places.regions[b].capital)
    return places.regions_adjacent(a, b)


def _take(world: World, player: str, region: str) -> None:
    spec = world.places.regions[region]
    me = world.state.players[player]
    me.region, me.capital = region, spec.capital
    me.treasury = int(world.book["setup.starting_treasury"])
    for place in start_holdings(world.places, _by_territory(world), region):
        land = world.state.lands[place]
        land.owner, land.active = player, True
        land.fortified = land.fortified or (place == spec.capital and world.book["setup.capitals_start_fortified"])


def start_holdings(places: RegionMap, by_territory: bool, region: str) -> list[str]:
    """The territories a player who starts at `region` holds from setup: the whole region
    (SWM-SET-6), or under A7's "territory" reading its capital and the territories whose
    owner_of_start names that capital."""
    capital = places.regions[region].capital
    if not by_territory:
        return list(places.regions[region].territories)
    return [t for t in places.places() if t == capital or places.territories[t].owner_of_start == capital]


def starting_problems(world: World, player: str, lines: Sequence[str]) -> list[str]:
    """Why a starting squad cannot stand (SWM-SET-8/9): every reason at once."""
    squads = [ln for ln in lines if ln.startswith("SQUAD ")]
    if len(squads) != 1:
        return ["send exactly one SQUAD line: your starting squad"]
    troops = _troops(world, squads[0])
    faction = world.faction(player)
    out = comp.problems(faction, troops, world.catalog, world.book) + comp.army_problems(troops, world.catalog)
    size, total = int(world.book["setup.starting_squad_points"]), sum(t.points for t in troops)
    if world.book["setup.starting_squad_exact"] and total != size:      # A33's other reading
        out.append(f"a starting squad is exactly {size} points; this one is {total}")
    elif total > size:
        out.append(f"a starting squad is at most {size} points")
    shares = _shares(lines, len(troops))
    if isinstance(shares, str):
        return out + [shares]
    return out + _upgrade_problems(world, player, troops, shares, lines)


def _troops(world: World, line: str) -> list[Entry]:
    text = line.split(":", 1)[1]
    out = []
    for n, (card, label) in enumerate(card_list(text), 1):
        mini = world.catalog.lookup(card)
        out.append(tr.new_troop(str(n), mini, label or mini.labels[0], 0))
    return out


def _shares(lines: Sequence[str], size: int) -> dict[int, int] | str:
    shares: dict[int, int] = {}
    for line in lines:
        if line.startswith("XP "):
            _, n, amount = line.split()
            if not 1 <= int(n) <= size:
                return f"XP {n}: the squad has troops 1 to {size}"
            shares[int(n)] = shares.get(int(n), 0) + int(amount)
    return shares


def _upgrade_problems(world: World, player: str, troops: list[Entry], shares: Mapping[int, int],
                      lines: Sequence[str]) -> list[str]:
    total = sum(shares.values())
    out = [f"the XP shared out comes to {total}, over the army's {world.book['setup.starting_army_xp']}"
           ] if total > int(world.book["setup.starting_army_xp"]) else []
    for n, amount in shares.items():
        troops[n - 1].counters[BANKED] = amount * _starting_factor(world, player, troops[n - 1])
    rows = up.rows(world.book)
    for line in lines:
        if line.startswith("UPGRADE "):
            body, _, detail = line.partition(": ")
            number, name = body.split(" ", 2)[1:]
            n = int(number)
            troop = troops[n - 1] if 1 <= n <= len(troops) else None
            why = "no such troop" if troop is None else up.refusal(
                rows[name], troop, detail, world.faction(player), world.catalog, world.book)
            if not why and troop is not None and up.price(rows[name], troop) > tr.banked(troop):
                why = f"it costs {up.price(rows[name], troop)} XP and troop {n} has {tr.banked(troop)}"
            if why:
                out.append(f"{line}: {why}")
            elif troop is not None:
                up.buy(rows[name], troop, detail, 0)
    return out


def _starting_factor(world: World, player: str, troop: Entry) -> int:
    """SWM-XP-17 (A21): the starting XP is not doubled; with `xp.double_starting_xp = true` a
    Mandalorian troop of the Mandalorian faction banks twice its share, as Cleanup awards are."""
    return factor(world, player, troop) if world.book["xp.double_starting_xp"] else 1


def place_start(world: World, player: str, lines: Sequence[str]) -> Squad:
    """The starting squad in the capital, XP shared out, upgrades bought (SWM-SET-8/9, SWM-XP-17:
    the 100 XP are not doubled); unassigned XP is lost."""
    line = next(ln for ln in lines if ln.startswith("SQUAD "))
    name = line.split(":", 1)[0][len("SQUAD "):].strip()
    troops = _troops(world, line)
    shares = _shares(lines, len(troops))
    assert not isinstance(shares, str)
    _upgrade_problems(world, player, troops, shares, lines)
    state = world.state
    ident = f"{player[:1].upper()}{state.next_squad}"
    state.next_squad += 1
    squad = Squad(ident, player, state.players[player].capital, name, roster=Roster(ident, name))
    for troop in troops:
        troop.id = f"t{state.next_troop}"
        state.next_troop += 1
        squad.roster.entries.append(troop)
    state.squads[ident] = squad
    state.arrive(squad, squad.place)
    world.recheck(squad)
    world.say(f"{player}'s starting squad {ident} \u201c{name}\u201d ({squad.points} points) stands in {squad.place}.")
    return squad
