"""The Cleanup Phase (SWM-XP-7): pending XP credited (Mandalorians doubled), the Training
Officer's award, then each player's UPGRADE list in order, each item skipped with its reason
when unaffordable or illegal. Stacking and the capital victory check follow (turn.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pbem.kit.places import natural_key
from pbem.kit.roster import Entry
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures import upgrades as up
from pbem.rulesets.star_wars_miniatures.model import BANKED, PENDING, Squad
from pbem.rulesets.star_wars_miniatures.world import World


@dataclass(frozen=True)
class Purchase:
    troop: str
    upgrade: str
    detail: str = ""


def factor(world: World, owner: str, troop: Entry, award: str = "") -> int:
    """SWM-XP-4/5: double for the Mandalorian label in the Mandalorian faction's army; an `award`
    ("kills", "training_officer") only when xp.double_applies_to lists it."""
    if award and award not in world.book["xp.double_applies_to"]:
        return 1
    for rule in world.book["xp.double_rate"]:
        if world.faction(owner) == rule["faction"] and tr.label(troop) == rule["label"]:
            return int(world.book.get(f"factions.{rule['faction']}.xp_multiplier.factor", 2))
    return 1


def credit(world: World) -> None:
    """SWM-XP-3, SWM-XP-7 step 1: pending XP becomes banked."""
    for squad in sorted(world.state.squads.values(), key=lambda s: natural_key(s.id)):
        for troop in squad.troops:
            gained = tr.pending(troop) * factor(world, squad.owner, troop, "kills")
            if gained:
                troop.counters[BANKED] = tr.banked(troop) + gained
                world.say(f"{troop.id} {troop.name} is credited {gained} XP ({tr.banked(troop)} banked).")
            troop.counters[PENDING] = 0


def train(world: World, player: str, named: str) -> None:
    """SWM-XP-8, SWM-PBM-7: the Training Officer's 50 XP to the named troop, else the standing
    target, else the troop with the most banked XP (then the higher cost, then roster order)."""
    if not world.state.held(player, "training_officer"):
        return
    army = [(s.owner, t) for s in world.state.squads_of(player) for t in s.troops]
    if not army:
        return
    ids = {t.id.casefold(): (o, t) for o, t in army}
    for wanted in (named, world.state.players[player].train):
        if wanted and wanted.casefold() in ids:
            owner, troop = ids[wanted.casefold()]
            break
    else:
        owner, troop = min(army, key=lambda ot: (-tr.banked(ot[1]), -ot[1].points))
    award = int(world.book["advantages.training_officer.xp_per_turn"]) * factor(world, owner, troop, "training_officer")
    troop.counters[BANKED] = tr.banked(troop) + award
    world.say(f"Training Officer: {troop.id} {troop.name} gains {award} XP ({tr.banked(troop)} banked).")


def purchases(world: World, player: str, items: Sequence[Purchase]) -> list[str]:
    """SWM-UPG-1, SWM-XP-9: each item in order; returns the skipped ones with their reasons."""
    table = up.rows(world.book)
    skipped = []
    for item in items:
        found = world.state.troop(item.troop)
        row = table.get(item.upgrade)
        why = _why_not(world, player, found, row, item)
        if why:
            skipped.append(f"UPGRADE {item.troop} {item.upgrade}: skipped, {why}")
            world.say(skipped[-1])
            continue
        assert found is not None and row is not None
        up.buy(row, found[1], item.detail, world.state.turn)
        world.say(f"{found[1].id} buys {row.name} for {up.price(row, found[1])} XP ({tr.banked(found[1])} left).")
    return skipped


def _why_not(world: World, player: str, found: tuple[Squad, Entry] | None, row: up.Row | None,
             item: Purchase) -> str:
    if found is None or found[0].owner != player:
        return "not a troop of yours in service"
    if row is None:
        return "no such upgrade"
    troop = found[1]
    why = up.refusal(row, troop, item.detail, world.faction(player), world.catalog, world.book)
    if why:
        return why
    if up.price(row, troop) > tr.banked(troop):
        return f"it costs {up.price(row, troop)} XP and {troop.id} has {tr.banked(troop)} banked"
    return ""


def run(world: World, orders: Mapping[str, tuple[str, Sequence[Purchase]]]) -> None:
    """Steps 1-3 of SWM-XP-7 for every player: credit, train, upgrade (player -> (TRAIN, list))."""
    credit(world)
    for player in world.state.players:
        train(world, player, orders.get(player, ("", ()))[0])
    for player in world.state.players:
        purchases(world, player, orders.get(player, ("", ()))[1])
