"""What the players read: the public report of each resolution (its lines, every side's
treasury, the territories in play, every squad with its full roster, the turn order, and the call
for the next window) and each battle's briefing to both sides (SWM-GEN-9, SWM-PBM-14, SWM-BAT-13).

Players are shown by their names (campaign.toml's `name`). The rules' log speaks of them by id,
and so do the dice purposes, which seed every roll of a campaign and must never change: the names
are put in here, where a report is written, and only in what players read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.kit.texts import named_lines as named
from pbem.rulesets.base import Report, Settings
from pbem.rulesets.star_wars_miniatures import movement as mv
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures import upgrades as up
from pbem.rulesets.star_wars_miniatures.model import Battle
from pbem.rulesets.star_wars_miniatures.world import World

CALLS = {"factions": "window S1: rank factions and start regions", "squads": "window S2: each player's starting squad",
         "initiative": "window CI: cleanup and initiative", "economics": "window E: economics",
         "action": "window A: action orders", "battle": "window B: battle results", "over": "the campaign is over"}


def names_of(settings: Settings) -> dict[str, str]:
    """Player id -> the name the campaign shows him by (campaign.toml's `name`, else the id)."""
    return settings.names()


def side(names: Mapping[str, str], members: Sequence[str]) -> str:
    """A player or an alliance by name: `Ben + Cara`."""
    return " + ".join(names.get(p, p) for p in members)


def listed(names: Mapping[str, str], player: str) -> str:
    """A player as the Players table lists him: by name, with the id that orders naming a player
    (ALLY, GIVE, OPERATIVE ASSASSINATE) take when the name is not that id."""
    name = names.get(player, player)
    return name if name.casefold() == player.casefold() else f"{name} ({player})"


def board(world: World, names: Mapping[str, str]) -> dict[str, Any]:
    state, places, book = world.state, world.places, world.book
    players = [{"id": p.id, "name": listed(names, p.id),
                "faction": book.get(f"factions.{p.faction}.name", "-") if p.faction else "-",
                "capital": p.capital or "-", "treasury": p.treasury,
                "income": sum(places.territories[t].income for t, land in state.lands.items()
                              if land.owner == p.id and land.active),
                "officers": ", ".join(book[f"advantages.{k}.name"] for k in p.officers) or "none",
                "squads": len(state.squads_of(p.id))} for p in state.players.values()]
    return {"players": players, **territories(world, names),
            "squads": [squad(world, s.id, names) for s in sorted(state.squads.values(), key=lambda s: s.id)],
            "order": [side(names, s) for s in state.sides], "alliances": [side(names, a) for a in state.alliances],
            "winners": [names.get(p, p) for p in state.winners]}


def territories(world: World, names: Mapping[str, str]) -> dict[str, Any]:
    """The territories in play (controlled, or holding a squad), and how many are inactive: the
    rows of factions nobody plays would fill a phone's screen (the map picture shows them all)."""
    state, places = world.state, world.places
    shown = [t for t in places.places() if state.lands[t].owner or state.squads_in(t)]
    lands = [{"id": t, "name": places.name_of(t), "owner": names.get(state.lands[t].owner, state.lands[t].owner) or "-",
              "income": places.territories[t].income, "stacking": places.territories[t].stacking,
              "marks": ", ".join(m for m, on in (("capital", places.territories[t].capital),
                                                 ("fortified", state.lands[t].fortified),
                                                 ("minefield", state.lands[t].minefield),
                                                 ("disrupted", state.lands[t].disrupted)) if on) or "-",
              "squads": ", ".join(s.id for s in state.squads_in(t)) or "-"} for t in shown]
    return {"lands": lands, "inactive": sum(not land.active for land in state.lands.values()),
            "territory_count": len(state.lands)}


def squad(world: World, ident: str, names: Mapping[str, str]) -> dict[str, Any]:
    s = world.state.squads[ident]
    return {"id": s.id, "name": s.name, "owner": names.get(s.owner, s.owner), "place": world.places.label(s.place),
            "points": s.points, "state": "damaged" if s.damaged else "active",
            "moves": mv.allowance(s.troops, world.catalog, world.book) if not s.damaged else 0,
            "troops": [tr.describe(t, world.catalog, notes(world)) for t in s.troops]}


def notes(world: World) -> dict[str, str]:
    """SWM-UPG-16: the bracketed rules text of the tables, printed beside each upgrade bought."""
    return {name: row.note for name, row in up.rows(world.book).items() if row.note}


def public(world: World, title: str, key: str, call: dict[str, Any], names: Mapping[str, str]) -> Report:
    context = {"swm": {"title": title, "lines": named(names, world.state.log), "window": world.state.window,
                       "call_title": CALLS.get(world.state.window, ""), "call": call, **board(world, names)},
               "dice_names": names}   # the dice list by name; the purposes themselves keep the ids
    return Report("report", title, ("*",), context, public=True, key=key)


def table_rules(world: World, battle: Battle) -> dict[str, Any]:
    """SWM-BAT-12..14, SWM-BAT-17: the campaign's reading of the rules the players apply at the
    table (who picks the mapboard, the first initiative, what stops mine damage)."""
    book = world.book
    kind = "fortified" if battle.fortified else "unfortified"
    mines = ("Lightsaber Deflect and Block " + ("may be used against" if book["minefield.deflect_block_apply"]
                                                else "do not stop") + " mine damage; Damage Reduction "
             + ("reduces it" if book["minefield.damage_reduction_applies"] else "does not reduce it")
             + " and Shields " + ("apply" if book["minefield.shields_apply"] else "do not apply") + ".")
    return {"defender_chooses": bool(book[f"battle.{kind}.defender_chooses_mapboard"]),
            "first_initiative": bool(book["battle.fortified.defender_wins_first_initiative"]), "mine_rules": mines}


def briefing(world: World, battle: Battle, names: Mapping[str, str]) -> Report:
    """SWM-BAT-8..22: to both sides and public, with the result fields and the fortified rules; the
    template states the report deadline (the battle window's, which the engine passes as
    `next_deadline`)."""
    state, places = world.state, world.places
    spec = places.territories[battle.place]
    defenders = sorted({state.owner(battle.place)} | {state.squads[s].owner for s in battle.defenders})
    attackers = sorted(set(battle.side) | {state.squads[s].owner for s in battle.attackers})
    context = {"briefing": {
        "id": battle.id, "place": places.label(battle.place), "income": spec.income, "stacking": spec.stacking,
        "fortified": battle.fortified, "mined": battle.mined, "mapboards": list(spec.mapboards) or ["any"],
        "scenario": spec.scenario or world.book["battle.default_scenario"].replace("_", " "),
        "attacker": side(names, attackers), "attackers_many": len(attackers) > 1,
        "defender": side(names, defenders),
        "mine_hits": battle.mine_hits, "force_spent": battle.force_spent,
        "attackers": [squad(world, s, names) for s in battle.attackers],
        "defenders": [squad(world, s, names) for s in battle.defenders],
        "attack_points": sum(state.squads[s].points for s in battle.attackers),
        "defence_points": sum(state.squads[s].points for s in battle.defenders),
        "tiles": world.book["battle.fortified.defender_extra_tiles"],
        "redeploy": world.book["battle.fortified.defender_redeploy_troops"], **table_rules(world, battle)}}
    return Report("briefing", f"Battle {battle.id} in {places.label(battle.place)}", (*attackers, *defenders),
                  context, public=True, key=f"briefing-{battle.id}")
