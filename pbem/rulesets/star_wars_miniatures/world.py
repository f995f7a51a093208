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

    def faction(self, player: str) -> str:
        return self.state.players[player].faction

    def recheck(self, squad: Squad) -> None:
        """SWM-SQD-4/5, SWM-FAC-21: active while over 75 points with a legal make-up."""
        squad.damaged = not comp.active(self.faction(squad.owner), squad.troops, self.catalog, self.book)

    def stacking(self, place: str) -> int:
        return self.places.territories[place].stacking

    def room(self, place: str) -> bool:
        return len(self.state.squads_in(place)) < self.stacking(place)

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
    """SWM-STK-3/4/6: at a phase's end each overstacked territory loses squads: the owners'
    standing OVERSTACK choices first, then the last to arrive."""
    for place in world.places.places():
        here = world.state.squads_in(place)
        excess = len(here) - world.stacking(place)
        if excess <= 0:
            continue
        named = [s for s in here for p in world.state.players.values() if s.id in p.overstack.get(place, [])]
        rest = sorted((s for s in here if s not in named), key=lambda s: -s.arrived)
        for squad in [*named, *rest][:excess]:
            world.eliminate(squad, f"over the stacking limit of {place} at the end of the {phase} phase")


def active_squads(world: World, player: str) -> list[Squad]:
    return [s for s in world.state.squads_of(player) if not s.damaged]


def troop_names(world: World, squad: Squad) -> list[str]:
    return [tr.describe(t, world.catalog) for t in squad.troops]
