"""The map picture of a Campaigns of Conquest round: tiles by owning empire, capitals and the
buildings raised on them, sieges and siege assaults, and what the last resolved window did: the
claims, conquests and sieges of the Conquest & Build phase as arrows from a tile of the empire
next to them (actions not carried out dashed), and in the legend the battles with their outcomes,
the raids and the buildings. Reads only the typed state.

The round's scratch is cleared when the next round opens, so what the picture needs is kept as
the game's `last` record (`round_marks`), written as a window closes.
"""

from __future__ import annotations

from collections.abc import Iterable

from pbem.kit.hexes import HexMap
from pbem.kit.scene import BATTLE, MOVE, SIEGE, Clash, Marker, Move, Resolved, Scene, Side, headline
from pbem.rulesets.conquest.model import (
    W_CAMPAIGN,
    W_CAPITALS,
    W_CONQUEST,
    W_OVER,
    W_RESULTS,
    W_SETUP,
    ActionRecord,
    ConquestState,
)

WINDOWS = {W_CAPITALS: "capitals", W_CAMPAIGN: "events and challenges", W_SETUP: "battle setup",
           W_RESULTS: "battle results", W_CONQUEST: "conquest and building", W_OVER: "campaign over"}
TAKING = ("claim", "conquer", "siege")
"""Actions that take a tile: drawn as arrows."""
OUTCOMES = {"attacker": "won by", "defender": "held by"}


def scene(state: ConquestState, campaign: str) -> Scene:
    window = state.round.window
    opened = f"{campaign}: Round {state.round.number}" if state.round.number else f"{campaign}: setup"
    title, stage = headline(campaign, state.last, opened, WINDOWS.get(window, window))
    return Scene(
        title=title,
        stage=stage,
        sides=tuple(Side(e.player, e.name, e.colour) for e in state.empires.values()),
        owners={t: tile.owner for t, tile in state.tiles.items() if tile.owner},
        markers=tuple(_markers(state)),
        moves=state.last.moves,
        clashes=tuple(_clashes(state)),
        notes=state.last.notes if state.last.stage else tuple(_battle_notes(state)),
    )


def _markers(state: ConquestState) -> Iterable[Marker]:
    for empire in state.empires.values():
        if empire.capital:
            yield Marker(empire.capital, "capital")
    for tile_id, tile in sorted(state.tiles.items()):
        if tile.building:
            yield Marker(tile_id, tile.building)


def _clashes(state: ConquestState) -> Iterable[Clash]:
    """The assaults and sieges the last window saw, and every siege standing now."""
    shown = {c.place for c in state.last.clashes}
    yield from state.last.clashes
    yield from (c for c in _sieges(state) if c.place not in shown)


def _sieges(state: ConquestState) -> Iterable[Clash]:
    names = _names(state)
    assaulted = {b.tile: b.id for b in state.round.battles if b.tile}
    for siege in state.sieges:
        label = assaulted.get(siege.tile, "") or f"{names.get(siege.besieger, siege.besieger)} besieges"
        yield Clash(siege.tile, BATTLE if siege.tile in assaulted else SIEGE, label)


def _names(state: ConquestState) -> dict[str, str]:
    return {e.player: e.name for e in state.empires.values()}


# -- what the round did so far ---------------------------------------------------------------


def stage_of(state: ConquestState) -> str:
    """The window about to close, as the record names it ("Round 2: conquest and building")."""
    when = f"Round {state.round.number}" if state.round.number else "Setup"
    return f"{when}: {WINDOWS.get(state.round.window, state.round.window)}"


def round_marks(state: ConquestState, gmap: HexMap) -> Resolved:
    """The round so far: its battles (on a tile when a siege is assaulted, in the legend otherwise)
    with their outcomes, and the Conquest & Build actions once they were carried out."""
    records = [r for s in state.round.spending for r in s.actions]
    return Resolved(
        moves=tuple(m for r in records if (m := _taking(state, gmap, r)) is not None),
        clashes=tuple(_sieges(state)),
        notes=(*_battle_notes(state), *_action_notes(state, records)),
    )


def _taking(state: ConquestState, gmap: HexMap, record: ActionRecord) -> Move | None:
    """A claim, conquest or siege as an arrow from a tile of the empire next to it (or its port,
    for a tile reached over water); None for other actions or with no such tile."""
    words = record.text.split()
    if words[0] not in TAKING or words[-1] not in state.tiles:
        return None
    tile = words[-1]
    mine = sorted((n for n in gmap.neighbours(tile) if n in state.tiles and state.tiles[n].owner == record.player
                   and n != tile), key=_natural)
    ports = sorted((t for t, s in state.tiles.items() if s.owner == record.player and s.building == "port"),
                   key=_natural)
    start = (mine or ports or [""])[0]
    return Move(start, tile, MOVE, record.done, state.empires[record.player].name) if start else None


def _natural(tile: str) -> tuple[int, str]:
    return (len(tile), tile)


def _battle_notes(state: ConquestState) -> Iterable[str]:
    """Every battle of the round with its sides and, once settled, its outcome."""
    names = _names(state)
    for battle in state.round.battles:
        sides = [" and ".join(names.get(p, p) for p in group) for group in (battle.attackers, battle.defenders)]
        where = f" at {battle.tile}" if battle.tile else ""
        outcome = state.round.outcome(battle.id)
        verdict = ""
        if outcome is not None:
            winner = outcome.winner
            verdict = f"; {OUTCOMES[winner]} {sides[0] if winner == 'attacker' else sides[1]}" if winner else "; drawn"
        yield f"{battle.id} ({battle.kind} battle{where}): {sides[0]} against {sides[1]}{verdict}"


def _action_notes(state: ConquestState, records: list[ActionRecord]) -> Iterable[str]:
    names = _names(state)
    for record in records:
        verb = record.text.split()[0]
        if record.done and verb not in TAKING:
            gold = f" ({record.gold} gold)" if record.gold else ""
            yield f"{names.get(record.player, record.player)}: {record.text}{gold}"
