"""Winter: spending in purchase cycles (MK-SPD-1..7).

In each cycle, in player order, every player makes at most one purchase: the first item of
his list that is legal and affordable at that moment is executed and leaves the list
(MK-SPD-1, MK-SPD-7). An item that cannot be bought yet stays in its place and is tried again
in the next cycle; one that can never be bought this winter (a second tithe to the same
player, a second recruit at the same fortress, a tile that is not his) is dropped with its
reason (MK-SPD-7, A32). Cycles repeat until one passes with no purchase (MK-SPD-3); a player
who bought nothing in a cycle may buy in a later one (`spend.passing_player_may_return`,
A23). What is still on a list then is dropped and reported. Costs are paid in full at once,
so no stock goes below 0 (MK-SPD-5), and gold and food never turn into each other but by
tithes (MK-SPD-6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.rulesets.mighty_kingdoms import recruit, settlements, tithes
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import FORTRESS, MKView
from pbem.rulesets.mighty_kingdoms.purchase import BUILD, NOW, RECRUIT, Item, Verdict, line, short


def verdict(view: MKView, player: str, item: Item) -> Verdict:
    """Whether `player` can buy `item` right now, must wait, or never can this winter."""
    state, gmap, rules = view.state, view.map, view.rules
    if item["verb"] == RECRUIT:
        return recruit.verdict(state, gmap, rules, player, item)
    if item["verb"] != BUILD:
        return tithes.verdict(state, rules, player, item)
    kind, tile = item["settlement"], item["tile"]
    never = settlements.never(state, gmap, rules, player, kind, tile)
    if never:
        return Verdict(never=never)
    later = settlements.not_now(state, gmap, rules, kind, tile)
    if later:
        return Verdict(later=later)
    price, kingdom = settlements.price(state, gmap, rules, kind, tile), state.kingdoms[player]
    lack = short(kingdom.gold, price.gold, "gold") or short(kingdom.food, price.food, "food")
    return Verdict(later=lack) if lack else NOW


def execute(view: MKView, player: str, item: Item, section: Section) -> str:
    """Buy an item its verdict allows; returns the report line."""
    state, gmap, rules = view.state, view.map, view.rules
    if item["verb"] == RECRUIT:
        return recruit.recruit(state, gmap, rules, player, item, section)
    if item["verb"] != BUILD:
        return tithes.give(state, player, item)
    kind, tile, kingdom = item["settlement"], item["tile"], state.kingdoms[player]
    price = settlements.price(state, gmap, rules, kind, tile)
    kingdom.gold, kingdom.food = kingdom.gold - price.gold, kingdom.food - price.food
    before = settlements.build(state, kind, tile)
    if kind == FORTRESS:
        state.winter.fortresses_built.append(tile)
    replaced = f", replacing a {before}," if before else ""
    capital = f"; {gmap.label(tile)} is {kingdom.name}'s capital again" if state.capital_of(player) == tile else ""
    return (f"{kingdom.name} builds a {kind} on {gmap.label(tile)}{replaced} for {price.text()}{capital}; "
            f"now {kingdom.gold} gold and {kingdom.food} food")


def run(view: MKView, lists: Mapping[str, Sequence[Item]], sections: list[Section]) -> None:
    """The purchase cycles over every player's list, in player order, until a cycle buys nothing."""
    state, section = view.state, Section("Purchases")
    pending = {p: list(lists.get(p, [])) for p in state.order}
    if not any(pending.values()):
        section.add("Nobody sent a purchase list; nothing is bought this winter")
        sections.append(section)
        return
    active, waiting = list(state.order), {p: "" for p in state.order}
    while True:
        state.winter.cycles += 1
        bought = [p for p in active if turn(view, p, pending[p], waiting, section)]
        if not bought:
            section.add(f"Cycle {state.winter.cycles}: no purchase is made; spending ends")
            break
        if not view.rules["spend.passing_player_may_return"]:
            passed(view, [p for p in active if p not in bought], pending, waiting)
            active = bought
    leftovers(view, pending, waiting, section)
    sections.append(section)


def turn(view: MKView, player: str, items: list[Item], waiting: dict[str, str], section: Section) -> bool:
    """One player's turn in a cycle: drops what can never be bought, buys the first item that can be
    bought now; `waiting` keeps why each held item waits. Returns whether he bought something."""
    state, cycle = view.state, view.state.winter.cycles
    name = state.kingdoms[player].name
    for item in list(items):
        found = verdict(view, player, item)
        if found.never:
            items.remove(item)
            section.add(f"Cycle {cycle}: {name}'s {line(item)} is dropped: {found.never}")
        elif found.ok:
            items.remove(item)
            section.add(f"Cycle {cycle}: {execute(view, player, item, section)}")
            return True
        else:
            waiting[_key(player, item)] = found.later
    if items:
        held = "; ".join(f"{line(i)} ({waiting[_key(player, i)]})" for i in items)
        section.add(f"Cycle {cycle}: {name} buys nothing yet: {held}")
    return False


def passed(view: MKView, players: Sequence[str], pending: Mapping[str, list[Item]], waiting: dict[str, str]) -> None:
    """A23's other reading: a player who bought nothing in a cycle buys nothing more this winter."""
    for player in players:
        for item in pending[player]:
            waiting[_key(player, item)] = (f"nothing was bought in cycle {view.state.winter.cycles}, and passing is "
                                           "final under these rules")


def leftovers(view: MKView, pending: Mapping[str, list[Item]], waiting: Mapping[str, str], section: Section) -> None:
    """Items still waiting when spending ends are dropped, each with why it could not be bought (A32)."""
    for player, items in pending.items():
        for item in items:
            why = waiting.get(_key(player, item), "")
            section.add(f"{view.state.kingdoms[player].name}'s {line(item)} is dropped at the end of spending"
                        + (f": {why}" if why else ""))


def _key(player: str, item: Item) -> str:
    return f"{player} {line(item)} {id(item)}"
