"""Victory (SWM-WIN): six capitals held by a player or an alliance as a whole at the end of a
phase, or, at the end of Economics, one side alone with an active squad. Two sides meeting a
condition at the same check go to the GM (SWM-WIN-7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.kit.rulebook import RuleBook
from pbem.rulesets.phases import ask
from pbem.rulesets.star_wars_miniatures.regions import RegionMap
from pbem.rulesets.star_wars_miniatures.world import World, active_squads


def sides(world: World) -> list[list[str]]:
    """This turn's sides: alliances and lone players (SWM-GEN-6)."""
    grouped = [list(a) for a in world.state.alliances]
    allied = {p for a in grouped for p in a}
    return grouped + [[p] for p in world.state.players if p not in allied]


def capitals_held(world: World, side: Sequence[str]) -> int:
    """SWM-WIN-1/6: active capitals controlled by the side's members."""
    return sum(1 for t in world.places.capitals()
               if world.state.lands[t].active and world.state.owner(t) in side)


def check_capitals(world: World, decisions: Mapping[str, str] | None = None) -> list[str]:
    needed = int(world.book["victory.capitals_needed"])
    return _decide(world, [s for s in sides(world) if capitals_held(world, s) >= needed],
                   f"holding {needed} capitals", decisions or {})


def check_last_active(world: World) -> list[str]:
    """SWM-WIN-2/5: exactly one side with an active squad wins; none: nobody wins."""
    alive = [s for s in sides(world) if any(active_squads(world, p) for p in s)]
    return _decide(world, alive if len(alive) == 1 else [], "being the only side left with an active squad", {})


def _decide(world: World, winners: list[list[str]], how: str, decisions: Mapping[str, str]) -> list[str]:
    if len(winners) > 1:
        labels = ["+".join(s) for s in winners]
        chosen = ask(decisions, f"victory_turn_{world.state.turn}",
                     f"{', '.join(labels)} all meet a victory condition ({how}) at the same check: who wins?", labels)
        winners = [s for s in winners if "+".join(s) == chosen]
    if not winners:
        return []
    world.state.winners = list(winners[0])
    verb = "win" if len(winners[0]) > 1 else "wins"           # an alliance wins as a whole (SWM-WIN-3)
    world.say(f"Victory: {' and '.join(winners[0])} {verb} the campaign by {how}.")
    return world.state.winners


def most_capitals(places: RegionMap, players: int) -> int:
    """The most capitals `players` start regions can hold: only a region a player starts in stays
    active (SWM-SET-7), so no more capitals than those of the regions richest in them can count."""
    per_region = sorted((sum(places.territories[t].capital for t in r.territories) for r in places.regions.values()),
                        reverse=True)
    return sum(per_region[:players])


def creation_warning(places: RegionMap, book: RuleBook, players: int) -> str:
    """SWM-WIN-6 told at `pbem new`, when the GM can still change the rule before anyone plays:
    with fewer players than the source's ten, the capital condition may never be met."""
    most, needed = most_capitals(places, players), int(book["victory.capitals_needed"])
    if most >= needed:
        return ""
    return (f"victory: {players} players can hold at most {most} active capitals and victory needs {needed} "
            f"(SWM-WIN-6): add `[rules.victory] capitals_needed = {most}` to campaign.toml before the first tick, "
            "or only being the last side with an active squad wins")


def setup_warning(world: World) -> str:
    """SWM-WIN-6: with fewer active capitals than needed the capital condition cannot be met."""
    active = sum(1 for t in world.places.capitals() if world.state.lands[t].active)
    needed = int(world.book["victory.capitals_needed"])
    if active >= needed:
        return ""
    return (f"only {active} capitals are active and victory needs {needed}: lower [rules.victory] "
            "capitals_needed or the capital condition can never be met")
