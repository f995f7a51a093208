"""Reform (MK-REF-1..10), in the order MK-REF-5 gives: stand up, settlements upright, markers off,
occupancy control, capital artefacts, medal and scar rolls, removals, player order.

Dice (A32): one D6 per unit with leftover medals or scars, in army-id order, then in the order
of the army's list; then the player-order roll-offs.
"""

from __future__ import annotations

from pbem.kit.dice import Dice
from pbem.kit.places import natural_key as natural
from pbem.kit.roster import Entry
from pbem.kit.texts import counted
from pbem.rulesets.mighty_kingdoms import artefacts, medals, player_order
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import MEDAL, SCAR, Army, MKState, MKView, TileState, unit_key


def run(view: MKView, dice: Dice, sections: list[Section]) -> None:
    state, section = view.state, Section("Reform")
    sections.append(section)
    laid = [a.id for a in sorted(state.armies.values(), key=lambda a: natural(a.id)) if not a.upright]
    stand_up(state, view.rules["orders.defend_marker_cleared"] == "reform")
    if laid:
        section.add(f"Armies on their side stand up: {', '.join(laid)}")
    taken = occupy(view, section)
    for tile, army in taken:
        artefacts.capital_taken(state, tile, army, section, view.rules)
    destroyed = [(army, entry) for army in sorted(state.armies.values(), key=lambda a: natural(a.id))
                 for entry in roll_units(view, army, dice, section)]
    remove_destroyed(state, destroyed, section)
    order_section = Section("Player order")
    sections.append(order_section)
    state.order = player_order.resort(state, dice, order_section)
    order_section.add("player order: " + ", ".join(state.kingdoms[p].name for p in state.order))


def stand_up(state: MKState, clear_markers: bool) -> None:
    """MK-REF-1..3: armies upright, razed settlements turned upright, defend markers removed."""
    for army in state.armies.values():
        army.upright = True
        if clear_markers:
            army.defend = False
    for tile in state.tiles.values():
        tile.razed = False


def occupy(view: MKView, section: Section) -> list[tuple[str, str]]:
    """MK-REF-4: a tile holding armies of exactly one kingdom becomes that kingdom's. Returns the
    capitals (tile, first taking army) that changed hands, for their artefacts (MK-ART-9)."""
    state, taken = view.state, []
    for tile in view.map.sorted({a.tile for a in state.armies.values()}):
        owners = {a.owner for a in state.armies_in(tile)}
        if len(owners) != 1:
            continue
        (owner,) = owners
        spot = state.tiles.setdefault(tile, TileState())
        if spot.owner == owner or spot.tower:
            continue
        was_capital = bool(spot.owner) and state.capital_of(spot.owner) == tile
        section.add(f"{view.map.label(tile)} holds only {state.kingdoms[owner].name}'s armies and becomes theirs")
        spot.owner = owner
        if was_capital:
            taken.append((tile, state.armies_in(tile)[0].id))
    return taken


def roll_units(view: MKView, army: Army, dice: Dice, section: Section) -> list[Entry]:
    """MK-REF-6/7, MED-1, SCR-1: medals and scars cancel one for one; the leftover pile is rolled once.
    Returns the units a scar result destroyed."""
    destroyed = []
    for entry in army.roster.entries:
        gained, suffered = entry.total(MEDAL), entry.total(SCAR)
        entry.drop_marks(MEDAL, SCAR)                       # MK-MED-9, MK-SCR-7: cleared whatever the roll
        if gained == suffered:
            if gained:
                both = f"{counted(gained, 'medal')} and {counted(suffered, 'scar')}"
                section.add(f"{_who(army, entry)}: {both} cancel out; no roll")
            continue
        if roll_one(view, army, entry, gained - suffered, dice, section):
            destroyed.append(entry)
    return destroyed


def roll_one(view: MKView, army: Army, entry: Entry, leftover: int, dice: Dice, section: Section) -> bool:
    """One medal or scar roll on a unit; True when the result destroys it."""
    kind = "medals" if leftover > 0 else "scars"
    count = abs(leftover)
    face = dice.d6(f"{kind[:-1]} roll for {unit_key(army.id, entry.id)}")
    total = face + count if leftover > 0 else face - count
    spec = medals.row(view.rules[f"{kind}.table"], total)
    wished = _wished(view.state, army, entry, kind, total)
    change = medals.apply(entry, spec, wished)
    sign = "+" if leftover > 0 else "-"
    text = change.text or "no effect"
    if change.destroyed:
        text += "; the unit is destroyed"
    section.add(f"{_who(army, entry)}: {count} leftover {kind if count > 1 else kind[:-1]}, "
                f"D6 = {face} {sign} {count} = {total}: {text}")
    army.roster.note(view.state.calendar.turn, entry.id, f"{kind[:-1]} roll {total}: {text}")
    return change.destroyed


def _wished(state: MKState, army: Army, entry: Entry, kind: str, total: int) -> str:
    """The owner's standing reform choice for this result (MK-PBM-5): keyed "2".."7" or "scar0"."""
    choices = state.kingdoms[army.owner].standing.reform.get(unit_key(army.id, entry.id), {})
    key = "scar0" if kind == "scars" else str(min(total, 7))
    return choices.get(key, "")


def _who(army: Army, entry: Entry) -> str:
    return f"{unit_key(army.id, entry.id)} {entry.name}"


def remove_destroyed(state: MKState, destroyed: list[tuple[Army, Entry]], section: Section) -> None:
    """MK-REF-8/9: destroyed units leave their list (whatever its composition); an army with no unit
    left is removed from the map. Their artefacts follow MK-ART-13."""
    for army, entry in destroyed:
        artefacts.release(state, army.id, entry.id, section)
        army.roster.entries.remove(entry)
    for army in {id(a): a for a, _ in destroyed}.values():
        if not army.roster.entries:
            artefacts.release(state, army.id, "", section)
            del state.armies[army.id]
            section.add(f"{army.id} has no unit left and is removed from the map")
