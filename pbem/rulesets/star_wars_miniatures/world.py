"""What every rule step reads: the state with the map, the catalog and the rule book, and the
squad-level rules several phases share (active or damaged, retreat destinations, stacking)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.kit.places import natural_key
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.star_wars_miniatures import composition as comp
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.model import Squad, SWMState
from pbem.rulesets.star_wars_miniatures.regions import RegionMap


@dataclass
class World:
    state: SWMState
    places: RegionMap
    catalog: Catalog
    book: RuleBook

    def say(self, line: str) -> None:
        """A line of the public report (SWM-PBM-14)."""
        self.state.log.append(line)

    def __post_init__(self) -> None:
        self.grant()             # derived from control: the same whichever hook builds the world

    def grant(self) -> None:
        """SWM-ADV-17: each special territory's advantage to its controller while he holds it; one he
        already holds bought gives no second (the per-faction maximum counts it)."""
        granted: dict[str, list[str]] = {}
        for place, spec in self.places.territories.items():
            owner = self.state.lands[place].owner
            if spec.grants and owner and self.state.lands[place].active:
                granted.setdefault(owner, []).append(spec.grants)
        self.state.granted = granted
        if not self.book["special_territories.grant_while_held"]:
            self._keep_grants(granted)

    def _keep_grants(self, granted: dict[str, list[str]]) -> None:
        """SWM-ADV-17 with `special_territories.grant_while_held` false: a player taking a special
        territory gets its advantage for good, as if bought (unless he already owns one), and keeps
        it when the territory changes hands; the next controller gets his own the same way."""
        for owner, keys in granted.items():
            mine = self.state.players[owner].officers
            mine += [k for k in dict.fromkeys(keys) if k not in mine]

    def faction(self, player: str) -> str:
        return self.state.players[player].faction

    def recheck(self, squad: Squad) -> None:
        """SWM-SQD-4/5, SWM-FAC-21: active while over 75 points with a legal make-up."""
        squad.damaged = not comp.active(self.faction(squad.owner), squad.troops, self.catalog, self.book)

    def stacking(self, place: str) -> int:
        return self.places.territories[place].stacking

    def passable(self, player: str, place: str) -> bool:
        """SWM-MOV-9: a territory his moving squad goes on through: one his side controls; with
        `movement.allied_territory_stops` only his own (entering an ally's ends the move)."""
        if self.book["movement.allied_territory_stops"] and self.state.lands[place].owner != player:
            return False
        return self.state.friendly(player, place)

    def stacked(self, place: str) -> list[Squad]:
        """SWM-STK-5: the squads that count toward `place`'s stacking limit, allies' together;
        damaged ones only while `stacking.damaged_count` is true."""
        here = self.state.squads_in(place)
        return here if self.book["stacking.damaged_count"] else [s for s in here if not s.damaged]

    def room(self, place: str) -> bool:
        return len(self.stacked(place)) < self.stacking(place)

    def eliminate(self, squad: Squad, why: str) -> None:
        """A squad and every troop in it are gone, XP and upgrades too (SWM-STK-6, SWM-XP-10)."""
        del self.state.squads[squad.id]
        self.say(f"{squad.id} ({_owner(self, squad)}) is eliminated with all its troops: {why}.")

    def remove_troop(self, squad: Squad, troop_id: str) -> None:
        squad.roster.entries = [t for t in squad.troops if t.id != troop_id]
        if not squad.troops:              # SWM-SQD-10
            del self.state.squads[squad.id]
            self.say(f"{squad.id} has no troops left and is removed from the map.")


def _owner(world: World, squad: Squad) -> str:
    return str(world.book[f"factions.{world.faction(squad.owner)}.name"])


def retreat_destination(world: World, squad: Squad, origin: str, ranking: Sequence[str] = ()) -> str:
    """Where a squad must retreat to from `origin`: the first of `ranking` adjacent and friendly,
    else by SWM-PBM-8 (room, own over an ally's, higher income, lower id); "" when there is none."""
    friendly = [t for t in world.places.neighbours(origin) if world.state.friendly(squad.owner, t)]
    for wanted in ranking:
        if wanted in friendly:
            return wanted
    if not friendly:
        return ""
    return min(friendly, key=lambda t: (not world.room(t), world.state.owner(t) != squad.owner,
                                        -world.places.territories[t].income, natural_key(t)))


def standing_retreat(world: World, squad: Squad) -> list[str]:
    mine = world.state.players[squad.owner].retreats
    return list(mine.get(squad.id, mine.get("ALL", [])))


def check_stacking(world: World, phase: str) -> None:
    """SWM-STK-3/4/6: at a phase's end each overstacked territory loses squads, in the order of
    `removal_order`, until it is within its limit."""
    for place in world.places.places():
        here = world.stacked(place)
        excess = len(here) - world.stacking(place)
        for squad in removal_order(world, place, here)[:max(excess, 0)]:
            world.eliminate(squad, f"over the stacking limit of {place} at the end of the {phase} phase")


def removal_order(world: World, place: str, here: Sequence[Squad]) -> list[Squad]:
    """A37, SWM-STK-4/5: the owner with more squads in `place` removes first (ties: the earlier in
    the turn order, allies by their initiative totals), each owner's squads in his own order."""
    owners = list(dict.fromkeys(s.owner for s in here))
    ranked = sorted(owners, key=lambda p: (-sum(s.owner == p for s in here), _initiative_rank(world, p)))
    return [s for owner in ranked for s in own_removals(world, place, [s for s in here if s.owner == owner])]


def own_removals(world: World, place: str, mine: Sequence[Squad]) -> list[Squad]:
    """SWM-STK-4, A31: the squads the owner named in his standing OVERSTACK choice for `place`, in
    his order; then by `stacking.nmr_elimination`: the last to arrive first ("last_arrived"), or
    the fewest points first, equal points the last to arrive first ("lowest_points")."""
    if not mine:
        return []
    named = world.state.players[mine[0].owner].overstack.get(place, [])
    chosen = [s for ident in named for s in mine if s.id == ident]
    if world.book["stacking.nmr_elimination"] == "lowest_points":
        rest = sorted((s for s in mine if s not in chosen), key=lambda s: (s.points, -s.arrived))
    else:
        rest = sorted((s for s in mine if s not in chosen), key=lambda s: -s.arrived)
    return [*chosen, *rest]


def _initiative_rank(world: World, player: str) -> tuple[int, int]:
    """A player's place in this turn's order: his side's slot, then his place among its members
    (state.sides lists them by initiative total, highest first)."""
    for slot, side in enumerate(world.state.sides):
        if player in side:
            return slot, side.index(player)
    return len(world.state.sides), 0


def active_squads(world: World, player: str) -> list[Squad]:
    return [s for s in world.state.squads_of(player) if not s.damaged]


def troop_names(world: World, squad: Squad) -> list[str]:
    return [tr.describe(t, world.catalog) for t in squad.troops]
