"""What a Diplomacy welcome mail shows of a player's start: the phase the game opens with and
what to send in it, and each of the power's units with the provinces it can reach."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.rulesets.diplomacy.board import province_of

if TYPE_CHECKING:
    from pbem.rulesets.base import Player
    from pbem.rulesets.diplomacy.state import DipView


def welcome(view: DipView, player: Player) -> dict[str, Any]:
    power = view.state.power_of(player)
    if not power:
        return {}
    position = view.state.position
    units = position.units_of(power)
    shown = ", ".join(f"{u.kind} {u.loc}" for u in units)
    first = (f"The game opens with {position.title}: send one order for each of your units ({shown}), "
             "one per line as shown below. A unit without an order holds.")
    board = view.map
    places = []
    for unit in units:
        reach = board.army_adj if unit.kind == "A" else board.fleet_reach
        near = sorted({province_of(p) for p in reach.get(unit.loc, frozenset())})
        places.append((f"{unit.kind} {_name(view, unit.loc)}", [_name(view, p) for p in near]))
    return {"first_step": first, "places": places}


def _name(view: DipView, loc: str) -> str:
    province = view.map.provinces.get(province_of(loc))
    return f"{loc} {province.name}" if province is not None else loc
