"""What a Daemon Rift welcome mail shows of a player's start: the army lists the campaign opens
with (DR-SET-5), their points limit, and the faction's home territories with their neighbours."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pbem.campaign import Player
    from pbem.rulesets.daemon_rift.ruleset import Game


def welcome(game: Game, player: Player) -> dict[str, Any]:
    faction = game.faction_of(player)
    home = game.state.factions.get(faction)
    if home is None:
        return {}
    places = [(_place(game, t), [_place(game, n) for n in sorted(game.gmap.neighbours(t))])
              for t in [home.stronghold, *(t for t in home.originals if t != home.stronghold)]]
    return {"first_step": _first_step(game, faction), "places": places}


def _first_step(game: Game, faction: str) -> str:
    tokens = [t.id for t in game.state.tokens_of(faction)]
    owed = [game.state.lists[t] for t in tokens if t in game.state.lists and not game.state.lists[t].approved]
    if game.state.phase != "lists" or not owed:
        return f"Send your orders for turn {game.state.turn}, one line per token ({', '.join(tokens)})."
    limit = max(lst.points for lst in owed)
    names = ", ".join(f"{lst.faction}-{lst.slot}" for lst in owed)
    return (f"The campaign opens with army lists: send the list for {names}, at most {limit} points: a "
            f"`LIST {names.split(', ')[0]} <name>` line, the ARTILLERY and FAST lines, then one line per "
            "entry (see below). The game master approves each list; when every list is approved, turn 1's "
            "orders open and you are told their deadline.")


def _place(game: Game, territory: str) -> str:
    known = game.gmap.territories.get(territory)
    return f"{territory} {known.name}" if known is not None and known.name != territory else territory
