"""What a Daemon Rift welcome mail shows of a player's start: the army lists the campaign opens
with (DR-SET-5), their points limit, and the faction's home territories with their neighbours."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pbem.rulesets.base import Player
    from pbem.rulesets.daemon_rift.game_state import DRView


def welcome(view: DRView, player: Player) -> dict[str, Any]:
    faction = player.faction
    home = view.state.dr.factions.get(faction)
    if home is None:
        return {}
    places = [(_place(view, t), [_place(view, n) for n in sorted(view.map.neighbours(t))])
              for t in [home.stronghold, *(t for t in home.originals if t != home.stronghold)]]
    return {"first_step": _first_step(view, faction), "places": places}


def _first_step(view: DRView, faction: str) -> str:
    state = view.state.dr
    tokens = [t.id for t in state.tokens_of(faction)]
    owed = [state.lists[t] for t in tokens if t in state.lists and not state.lists[t].approved]
    if state.phase != "lists" or not owed:
        return f"Send your orders for turn {state.turn}, one line per token ({', '.join(tokens)})."
    limit = max(lst.points for lst in owed)
    names = ", ".join(f"{lst.faction}-{lst.slot}" for lst in owed)
    return (f"The campaign opens with army lists: send the list for {names}, at most {limit} points: a "
            f"`LIST {names.split(', ')[0]} <name>` line, the ARTILLERY and FAST lines, then one line per "
            "entry (see below). The game master approves each list; when every list is approved, turn 1's "
            "orders open and you are told their deadline.")


def _place(view: DRView, territory: str) -> str:
    known = view.map.territories.get(territory)
    return f"{territory} {known.name}" if known is not None and known.name != territory else territory
