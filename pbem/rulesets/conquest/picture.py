"""The map picture of a Campaigns of Conquest round: tiles by owning empire, capitals and the
buildings raised on them, sieges and siege assaults. Reads only the typed state."""

from __future__ import annotations

from collections.abc import Iterable

from pbem.kit.scene import BATTLE, SIEGE, Clash, Marker, Scene, Side
from pbem.rulesets.conquest.model import (
    W_CAMPAIGN,
    W_CAPITALS,
    W_CONQUEST,
    W_OVER,
    W_RESULTS,
    W_SETUP,
    ConquestState,
)

WINDOWS = {W_CAPITALS: "capitals", W_CAMPAIGN: "events and challenges", W_SETUP: "battle setup",
           W_RESULTS: "battle results", W_CONQUEST: "conquest and building", W_OVER: "campaign over"}


def scene(state: ConquestState, campaign: str) -> Scene:
    empires = list(state.empires.values())
    window = state.round.window
    return Scene(
        title=f"{campaign}: Round {state.round.number}" if state.round.number else f"{campaign}: setup",
        stage=WINDOWS.get(window, window),
        sides=tuple(Side(e.player, e.name, e.colour) for e in empires),
        owners={t: tile.owner for t, tile in state.tiles.items() if tile.owner},
        markers=tuple(_markers(state)),
        clashes=tuple(_clashes(state)),
        notes=tuple(_notes(state)),
    )


def _markers(state: ConquestState) -> Iterable[Marker]:
    for empire in state.empires.values():
        if empire.capital:
            yield Marker(empire.capital, "capital")
    for tile_id, tile in sorted(state.tiles.items()):
        if tile.building:
            yield Marker(tile_id, tile.building)


def _clashes(state: ConquestState) -> Iterable[Clash]:
    names = {e.player: e.name for e in state.empires.values()}
    assaulted = {b.tile: b.id for b in state.round.battles if b.tile}
    for siege in state.sieges:
        label = assaulted.get(siege.tile, "") or f"{names.get(siege.besieger, siege.besieger)} besieges"
        yield Clash(siege.tile, BATTLE if siege.tile in assaulted else SIEGE, label)


def _notes(state: ConquestState) -> Iterable[str]:
    """Field battles are fought between empires, not on a tile: the legend lists them."""
    names = {e.player: e.name for e in state.empires.values()}
    for battle in state.round.battles:
        if not battle.tile:
            sides = [" and ".join(names.get(p, p) for p in group) for group in (battle.attackers, battle.defenders)]
            yield f"{battle.id} ({battle.kind} battle): {sides[0]} against {sides[1]}"
