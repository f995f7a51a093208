"""The map picture of a Mighty Kingdoms stage: tiles by kingdom, capitals, settlements, wizard's
towers, every army with its id (laid on its side drawn askew), this month's orders as arrows and
this month's battles as clashes. Unexplored tiles are those with no owner and no tower (MK-GEN-2).
Reads only the typed state."""

from __future__ import annotations

from collections.abc import Iterable

from pbem.kit.scene import BATTLE, MOVE, RETREAT, Clash, Marker, Move, Piece, Scene, Side
from pbem.rulesets.mighty_kingdoms.chronicle import when
from pbem.rulesets.mighty_kingdoms.model import CITY, DEPLOYMENT, FORTRESS, ORDERS, SETUP, VILLAGE, MKState, MKView

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
NAMED = (*COLOURS, "black", "white", "brown", "grey", "gray", "pink", "cyan", "teal", "gold")
SETTLEMENT_MARKS = {CITY: "city", FORTRESS: "fortress", VILLAGE: "village"}
STAGES = {"setup": "setup", "orders": "orders", "battle": "battles", "purchases": "winter purchases",
          "deployment": "winter deployment", "over": "campaign over"}


def scene(view: MKView) -> Scene:
    state = view.state
    players = state.order or list(state.kingdoms)
    title, stage = heading(view)
    return Scene(
        title=title,
        stage=stage,
        sides=tuple(Side(p, state.kingdoms[p].name, colour(state, p)) for p in players),
        owners={t: s.owner for t, s in state.tiles.items() if s.owner},
        pieces=tuple(Piece(a.id, a.tile, a.owner, "army", dislodged=not a.upright)
                     for p in players for a in state.armies_of(p)),
        moves=tuple(moves(state)) if month_shown(state) else (),
        clashes=tuple(clashes(state)) if month_shown(state) else (),
        markers=tuple(markers(state)),
        notes=tuple(notes(view)),
    )


def heading(view: MKView) -> tuple[str, str]:
    """The title names the month whose moves the picture shows: after a month's last battle the
    calendar has moved on (Reform opened the next month), so "Year 1, month 1" with "resolved;
    next: Year 1, month 2 orders" rather than the month that has not been played yet."""
    state, cal = view.state, view.state.calendar
    now = f"{when(view)} {STAGES.get(cal.window, cal.window)}"
    shown = state.month.turn
    if not (month_shown(state) and state.month.resolved and shown and shown != cal.turn):
        return f"{view.settings.name}: {when(view)}", STAGES.get(cal.window, cal.window)
    year = (shown - 1) // (cal.summer + 1) + 1
    return f"{view.settings.name}: Year {year}, month {shown - (year - 1) * (cal.summer + 1)}", f"resolved; next: {now}"


def colour(state: MKState, player: str) -> str:
    """The colour the kingdom's name says ("Red Realm" is red), else one by the order of the player list."""
    words = [w.casefold() for w in state.kingdoms[player].name.split()]
    named = next((w for w in words if w in NAMED), "")
    return named or COLOURS[list(state.kingdoms).index(player) % len(COLOURS)]


def markers(state: MKState) -> Iterable[Marker]:
    for player in state.kingdoms:
        capital = state.capital_of(player)
        if capital:
            yield Marker(capital, "capital")
    for tile, s in sorted(state.tiles.items()):
        if s.tower:
            yield Marker(tile, "tower")
        elif s.settlement:
            yield Marker(tile, SETTLEMENT_MARKS[s.settlement])


def month_shown(state: MKState) -> bool:
    """Whether the last summer month's moves and battles are this picture's news: yes until the
    winter's purchases are resolved; from deployment on (and in the next year's month 1) they are
    a season old, so the picture leaves them out."""
    return state.calendar.window not in (DEPLOYMENT, SETUP) and not (
        state.calendar.window == ORDERS and state.calendar.month == 1)


def moves(state: MKState) -> Iterable[Move]:
    """This month's Move orders from where each army started; a cancelled one is drawn as failed,
    and armies a battle moved off their tile as retreats."""
    for order in state.month.orders:
        if order.verb == "move" and order.tile:
            start = order.start or (state.armies[order.army].tile if order.army in state.armies else "")
            if start and start != order.tile:
                yield Move(start, order.tile, MOVE, succeeded=not order.cancelled, piece=order.army)
    for battle in state.battle.battles:
        for army, tile in sorted(battle.moves.items()):
            if tile and tile != battle.tile:
                yield Move(battle.tile, tile, RETREAT, piece=army)


def clashes(state: MKState) -> Iterable[Clash]:
    for battle in state.battle.battles:
        yield Clash(battle.tile, BATTLE, battle.id if battle.kind == "battle" else f"{battle.id} slaughter")


def notes(view: MKView) -> Iterable[str]:
    state = view.state
    explored = len(state.tiles)
    yield f"{len(view.map.tiles) - explored} of {len(view.map.tiles)} tiles unexplored (no colour, no mark)"
    razed = [t for t, s in sorted(state.tiles.items()) if s.razed]
    if razed:
        yield "Raze pending (settlement upside down): " + ", ".join(razed)
    askew = [a.id for a in state.armies.values() if not a.upright]
    if askew:
        yield "Laid on their side: " + ", ".join(sorted(askew))
    if state.order:
        yield "Player order: " + ", ".join(state.kingdoms[p].name for p in state.order)
