"""The Economics Phase (SWM-ECO, SWM-ADV): in turn order each side collects its income and runs
its ordered list; an item (or its first ELSE alternative) is carried out only if it is legal and
affordable at that moment, and otherwise skipped with the reason logged (SWM-ECO-4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby

from pbem.kit.dice import Dice
from pbem.kit.roster import Entry as Troop
from pbem.kit.roster import Roster
from pbem.kit.texts import counted
from pbem.rulesets.star_wars_miniatures import composition as comp
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures.advantages import buy, operative, shuttle
from pbem.rulesets.star_wars_miniatures.model import Squad
from pbem.rulesets.star_wars_miniatures.supply import build_sites, supplied
from pbem.rulesets.star_wars_miniatures.world import World


@dataclass(frozen=True)
class Item:
    """One order of an economics list: `verb` GIVE, ELIMINATE, BUILD, REINFORCE, BUY, OPERATIVE,
    SHUTTLE or TRANSFER with its words; `cards` the (card, label) pairs bought by BUILD and REINFORCE."""

    verb: str
    args: tuple[str, ...] = ()
    cards: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        """The canonical line: `BUILD S4: Elite Trooper x5, Mas Amedda (Imperial)`."""
        bought = ", ".join(_card(card, len(list(run))) for card, run in groupby(self.cards))
        return " ".join((self.verb, *self.args)) + (f": {bought}" if bought else "")


def _card(card: tuple[str, str], times: int) -> str:
    name, label = card
    return name + (f" ({label})" if label else "") + (f" x{times}" if times > 1 else "")


@dataclass
class Line:
    """An item with its ELSE alternatives, in order."""

    choices: list[Item] = field(default_factory=list)


def income(world: World, player: str) -> int:
    """SWM-ECO-1/2: every territory he controls now, plus 50 for a Logistics Officer held now."""
    land = sum(world.places.territories[t].income for t, land in world.state.lands.items()
               if land.owner == player and land.active)
    officer = world.state.held(player, "logistics_officer")
    extra = int(world.book["advantages.logistics_officer.income"]) if officer else 0
    return land + extra


def collect(world: World, player: str) -> None:
    gained = income(world, player)
    state = world.state.players[player]
    state.treasury += gained
    world.say(f"{player} collects {gained} ({state.treasury} in the treasury).")


def run_side(world: World, members: Sequence[str], lists: Mapping[str, Sequence[Line]], dice: Dice) -> None:
    """SWM-ECO-16: every member collects, then all GIVE items, then each member's list."""
    for player in members:
        world.state.players[player].built_this_turn = 0
        collect(world, player)
    for player in members:
        for entry in lists.get(player, ()):
            if entry.choices and entry.choices[0].verb == "GIVE":
                run_entry(world, player, entry, dice)
    for player in members:
        for entry in lists.get(player, ()):
            if not (entry.choices and entry.choices[0].verb == "GIVE"):
                run_entry(world, player, entry, dice)
        world.say(f"{player} carries {world.state.players[player].treasury} into later turns.")


def run_entry(world: World, player: str, entry: Line, dice: Dice) -> None:
    for item in entry.choices:
        why = carry_out(world, player, item, dice)
        if not why:
            return
        world.say(f"{player}: {str(item).replace('_', ' ')}: skipped, {why}.")    # keys read as words


def carry_out(world: World, player: str, item: Item, dice: Dice) -> str:
    """Do `item` now, or say why not (nothing is spent then)."""
    verbs = {"GIVE": give, "ELIMINATE": eliminate, "BUILD": build, "REINFORCE": reinforce, "TRANSFER": transfer}
    if item.verb in verbs:
        return verbs[item.verb](world, player, item)
    if item.verb == "BUY":
        return buy(world, player, item.args)
    if item.verb == "OPERATIVE":
        return operative(world, player, item.args, dice)
    if item.verb == "SHUTTLE":
        return shuttle(world, player, item.args)
    return f"{item.verb} is not an economics order"


def pay(world: World, player: str, cost: int) -> str:
    treasury = world.state.players[player].treasury
    if cost > treasury:
        return f"it costs {cost} and the treasury holds {treasury}"
    world.state.players[player].treasury = treasury - cost
    return ""


def give(world: World, player: str, item: Item) -> str:
    """SWM-ALL-7: any amount up to the whole treasury, to an ally of this turn."""
    target, amount = item.args[0], int(item.args[1])
    if target == player or target not in world.state.allies(player):
        return f"{target} is not your ally this turn"
    why = pay(world, player, amount)
    if not why:
        world.state.players[target].treasury += amount
        world.say(f"{player} gives {amount} to {target}.")
    return why


def eliminate(world: World, player: str, item: Item) -> str:
    """SWM-SQD-9 (A32): any of his own troops, in his own Economics step; with
    `economy.voluntary_elimination = "to_legalize_only"` only from a squad whose make-up is
    illegal (over 150 points, or breaking its faction table or the unique rules): losing troops
    cannot lift a squad above 75 points."""
    found = world.state.troop(item.args[0])
    if found is None or found[0].owner != player:
        return f"{item.args[0]} is not a troop of yours"
    squad, troop = found
    if world.book["economy.voluntary_elimination"] == "to_legalize_only" and not _illegal(world, squad):
        return f"{squad.id}'s make-up is legal, and troops are eliminated only to make a squad legal (A32)"
    world.say(f"{player} eliminates {troop.id} {troop.name} from {squad.id}.")
    world.remove_troop(squad, troop.id)
    if squad.id in world.state.squads:
        world.recheck(squad)
    return ""


def _illegal(world: World, squad: Squad) -> bool:
    faction, troops = world.faction(squad.owner), squad.troops
    return squad.points > int(world.book["squad.max_points"]) or bool(
        comp.share_problems(faction, troops, world.catalog, world.book) + comp.person_problems(troops, world.catalog)
        + comp.ban_problems(faction, troops, world.catalog, world.book))


def _new_troops(world: World, cards: Sequence[tuple[str, str]]) -> list[Troop]:
    out: list[Troop] = []
    for card, label in cards:
        mini = world.catalog.lookup(card)
        ident = f"t{world.state.next_troop + len(out)}"
        out.append(tr.new_troop(ident, mini, label or mini.labels[0], world.state.turn))
    return out


def build(world: World, player: str, item: Item) -> str:
    """SWM-ECO-6..10: a legal new squad of new troops in his own controlled capital (A28: or, with
    `economy.capital_lost_can_build`, the first capital he controls with room), with room there,
    at most two a turn."""
    state, me = world.state, world.state.players[player]
    sites, name = build_sites(world, player), item.args[0]
    if not sites:
        return "you do not control your capital, where new squads are built"
    if me.built_this_turn >= int(world.book["economy.max_new_squads_per_turn"]):
        return f"at most {world.book['economy.max_new_squads_per_turn']} new squads a turn"
    capital = next((t for t in sites if world.room(t)), sites[0])
    if world.book["economy.build_requires_room"] and not world.room(capital):
        return f"{capital} already holds {counted(len(world.stacked(capital)), 'squad')}, its stacking limit"
    troops = _new_troops(world, item.cards)
    why = _legal(world, player, troops, [])
    if why or (why := pay(world, player, sum(t.points for t in troops))):
        return why
    ident = _squad_id(world, name)
    squad = Squad(ident, player, capital, name, roster=Roster(ident, name))
    _enlist(world, squad, troops)
    state.squads[squad.id] = squad
    state.arrive(squad, capital)
    me.built_this_turn += 1
    world.say(f"{player} builds {squad.id} in {capital} ({squad.points} points).")
    return ""


def _squad_id(world: World, name: str) -> str:
    """The player's name when it is a free id (letters and digits), else the next S<n>."""
    taken = {s.casefold() for s in world.state.squads}
    if name.isalnum() and name.casefold() not in taken:
        return name
    while f"s{world.state.next_squad}" in taken:
        world.state.next_squad += 1
    world.state.next_squad += 1
    return f"S{world.state.next_squad - 1}"


def _enlist(world: World, squad: Squad, troops: Sequence[Troop]) -> None:
    for troop in troops:
        troop.id = f"t{world.state.next_troop}"
        world.state.next_troop += 1
        squad.roster.entries.append(troop)
    world.recheck(squad)


def _allied_uniques(world: World, player: str, new: Sequence[Troop]) -> list[str]:
    """SWM-UNQ-6 with `uniques.alliances_merge`: an alliance counts as one army for the unique
    limit, so a unique card an ally fields now cannot be bought (copies fielded before the
    alliance formed stay)."""
    if not world.book["uniques.alliances_merge"]:
        return []
    held = {t.name.casefold(): p for p in sorted(world.state.allies(player) - {player})
            for s in world.state.squads_of(p) for t in s.troops}
    return [f"your ally {held[t.name.casefold()]} already fields {t.name}: one copy of a unique card per alliance"
            for t in new if world.catalog.minis[t.name].unique and t.name.casefold() in held]


def _legal(world: World, player: str, new: Sequence[Troop], old: Sequence[Troop]) -> str:
    faction = world.faction(player)
    army = [t for s in world.state.squads_of(player) for t in s.troops] + list(new)
    problems = comp.army_problems(army, world.catalog) + _allied_uniques(world, player, new)
    problems += comp.ban_problems(faction, new, world.catalog, world.book)
    whole = [*old, *new]
    if not old or comp.active(faction, old, world.catalog, world.book):
        problems += comp.problems(faction, whole, world.catalog, world.book)
    elif sum(t.points for t in whole) > world.book["squad.max_points"]:
        problems.append(comp.size_problem(sum(t.points for t in whole), world.book))
    return "; ".join(problems)


def reinforce(world: World, player: str, item: Item) -> str:
    """SWM-ECO-11/12, SWM-SQD-8/11: troops added to his squad, at most 150 points, with a supply
    line unless in his capital, never where disrupted; a damaged squad may be rebuilt in part."""
    squad = world.state.squads.get(item.args[0])
    if squad is None or squad.owner != player:
        return f"{item.args[0]} is not a squad of yours"
    if squad.disrupted:
        return f"{squad.id} stands in a territory disrupted this turn"
    if world.book["economy.reinforce_requires_supply_line"] and squad.place not in build_sites(world, player) \
            and not supplied(world, player, squad.place):
        where = "a capital you control" if world.book["economy.capital_lost_can_build"] else "your capital"
        return f"{squad.id} in {squad.place} has no supply line to {where}"
    troops = _new_troops(world, item.cards)
    why = _legal(world, player, troops, squad.troops)
    if why or (why := pay(world, player, sum(t.points for t in troops))):
        return why
    _enlist(world, squad, troops)
    state = "damaged" if squad.damaged else "active"
    world.say(f"{player} reinforces {squad.id} to {squad.points} points ({state}).")
    return ""


def transfer(world: World, player: str, item: Item) -> str:
    """A32's other reading (`squad.allow_transfers = true`; SWM-UPG-17 keeps troops where they were
    bought by default): TRANSFER <troop> TO <squad> moves one of his troops, with its XP and
    upgrades, into another squad of his in the same territory, in his own Economics step. Neither
    squad may be disrupted (SWM-ADV-7: no reinforcing, and no troop leaving to move with another
    squad); the receiving squad takes it as a reinforcement would: never above 150 points, an
    active squad only if it stays legal. No supply line is needed: nothing
    is bought. The squad left behind is checked again, and removed when empty (SWM-SQD-10)."""
    if not world.book["squad.allow_transfers"]:
        return "troops stay in the squad they were bought into in this campaign (A32)"
    found, target = world.state.troop(item.args[0]), world.state.squads.get(item.args[-1])
    if found is None or found[0].owner != player:
        return f"{item.args[0]} is not a troop of yours"
    if target is None or target.owner != player:
        return f"{item.args[-1]} is not a squad of yours"
    source, troop = found
    if why := _transfer_refusal(world, source, target) or _joins(world, player, troop, target):
        return why
    world.remove_troop(source, troop.id)
    target.roster.entries.append(troop)
    world.recheck(target)
    if source.id in world.state.squads:
        world.recheck(source)
    world.say(f"{player} transfers {troop.id} {troop.name} from {source.id} to {target.id} ({target.points} "
              f"points, {'damaged' if target.damaged else 'active'}).")
    return ""


def _transfer_refusal(world: World, source: Squad, target: Squad) -> str:
    if source.id == target.id:
        return f"the troop is already in {target.id}"
    if source.place != target.place:
        return f"{source.id} stands in {source.place} and {target.id} in {target.place}; a troop changes squads " \
               "only within one territory"
    stuck = next((s for s in (source, target) if s.disrupted), None)     # else a disrupted troop walks off
    return f"{stuck.id} stands in a territory disrupted this turn" if stuck else ""


def _joins(world: World, player: str, troop: Troop, target: Squad) -> str:
    """Why `troop` may not join `target`: an active squad must stay legal, any at most 150."""
    faction, whole = world.faction(player), [*target.troops, troop]
    if comp.active(faction, target.troops, world.catalog, world.book):
        return "; ".join(comp.problems(faction, whole, world.catalog, world.book))
    total = sum(t.points for t in whole)
    return comp.size_problem(total, world.book) if total > world.book["squad.max_points"] else ""
