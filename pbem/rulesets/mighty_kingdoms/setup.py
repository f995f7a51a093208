"""Setup: the initial player order, starting tiles, rings and first armies (MK-SET-1..13, MK-PBM-1).

In player order each player in turn claims his highest-ranked free starting tile (else the
lowest-numbered free one), lays his ring of 1 city, 1 fortress, 2 villages and 2 control
markers around it, and places his first army, before the next player claims (A32). Ring
tiles off the map or already held by an earlier player are skipped, settlements taking the
places meant for control markers first (A17, `setup.ring_conflict = "skip_taken"`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.kit.orders import InvalidOrder, quoted
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.mighty_kingdoms import armylist, player_order, tiles
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import (
    CITY,
    CONTROL,
    DIRECTIONS,
    SETTLEMENTS,
    Army,
    Kingdom,
    MKState,
    TileState,
    army_id,
)

CAPITAL = "capital"
UNBUILDABLE = ("swamp", "all_mountains", "sea")


@dataclass
class Wish:
    """What a player asked for in window S (each part may be missing: MK-PBM-1 fills it)."""

    starts: list[str] = field(default_factory=list)                 # ranked starting tiles
    rings: dict[str, list[str]] = field(default_factory=dict)       # tile or "*" -> six pieces, NE first
    army: str = CAPITAL                                             # "capital" or a direction


# -- the opening -------------------------------------------------------------------------------
def new_state(gmap: HexMap, rules: RuleBook, players: Sequence[tuple[str, str]]) -> MKState:
    """The campaign before the roll-off: kingdoms with their starting stock (MK-SET-12), no tile held."""
    problems = map_problems(gmap, len(players))
    if problems:
        raise ValueError("; ".join(problems))
    state = MKState()
    state.calendar.summer = rules["campaign.summer_months"]
    for player, name in players:
        state.kingdoms[player] = Kingdom(player, name, gold=rules["setup.start_gold"], food=rules["setup.start_food"])
    return state


def map_problems(gmap: HexMap, players: int) -> list[str]:
    """A map the setup cannot be played on: too few starting tiles for the players."""
    starts = tiles.starting_tiles(gmap)
    if len(starts) < players:
        return [f"the map {gmap.name} has {len(starts)} starting tiles for {players} players; mark at least one "
                "per player with objective = \"start\" or choose a map drawn for more players"]
    return []


def roll_order(state: MKState, dice: Dice, section: Section) -> list[str]:
    """MK-SET-1: a D6 roll-off in the order of the player list sets the initial player order."""
    kingdoms = {p: k.name for p, k in state.kingdoms.items()}
    state.order = player_order.roll_off(list(state.kingdoms), dice, "initial player order", section, kingdoms)
    state.setup.rolled = True
    names = ", ".join(state.kingdoms[p].name for p in state.order)
    section.add(f"The initial player order is {names} (MK-SET-1); it holds until the first Reform.")
    return state.order


# -- ring layouts --------------------------------------------------------------------------------
def layout_problem(pieces: Sequence[str], rules: RuleBook) -> str:
    """Why six pieces are no ring layout ("" when they are one): exactly the `setup.ring` counts."""
    wanted: Mapping[str, int] = rules["setup.ring"]
    if len(pieces) != len(DIRECTIONS):
        return f"a ring lays {len(DIRECTIONS)} pieces, one per direction {' '.join(DIRECTIONS)}; {len(pieces)} given"
    unknown = [p for p in pieces if p not in (*SETTLEMENTS, CONTROL)]
    if unknown:
        return f"unknown ring piece {quoted(unknown[0])}; each is city, fortress, village or control"
    off = [f"{pieces.count(kind)} {kind}" for kind, n in wanted.items() if pieces.count(kind) != n]
    whole = ", ".join(f"{n} {kind}" for kind, n in wanted.items())
    return f"a ring holds exactly {whole} (this one: {', '.join(off)})" if off else ""


def default_layout(rules: RuleBook) -> list[str]:
    return list(rules["setup.default_ring_layout"])


def layout_for(wish: Wish, tile: str, rules: RuleBook) -> list[str]:
    """The layout given for this tile, else the general one, else the default (MK-PBM-1)."""
    return list(wish.rings.get(tile) or wish.rings.get("*") or default_layout(rules))


# -- the placement -------------------------------------------------------------------------------
def free_starting_tiles(state: MKState, gmap: HexMap) -> list[str]:
    """Starting tiles nobody has claimed or holds, in tile-id order (MK-SET-3)."""
    return [t for t in tiles.starting_tiles(gmap) if not state.tile(t).owner and not state.original_owner(t)]


def claim(state: MKState, gmap: HexMap, player: str, ranked: Sequence[str], section: Section) -> str:
    """MK-SET-3 / MK-PBM-1: the highest-ranked free starting tile, else the lowest-numbered free one."""
    free = free_starting_tiles(state, gmap)
    if not free:
        section.add(f"{state.kingdoms[player].name} finds no free starting tile; the game master places the kingdom")
        return ""
    pick = next((t for t in ranked if t in free), "")
    why = "" if pick == (ranked[0] if ranked else "") else (
        " (the first free one on the list)" if pick else " (no choice on the list was free: the lowest-numbered free"
                                                         " starting tile)")
    pick = pick or free[0]
    state.kingdoms[player].start_tile = pick
    state.tiles[pick] = TileState(owner=player, settlement=CITY)
    section.add(f"{state.kingdoms[player].name} claims {gmap.label(pick)} and founds the capital there{why}.")
    return pick


def lay_ring(state: MKState, gmap: HexMap, rules: RuleBook, player: str, layout: Sequence[str],
             section: Section) -> dict[str, str]:
    """MK-SET-4/5 with A17: the ring around the capital; returns direction -> tile of what was laid."""
    capital = state.kingdoms[player].start_tile
    spots = {d: tiles.direction(gmap, capital, d) for d in DIRECTIONS}
    free = [d for d in DIRECTIONS if spots[d] and not state.tile(spots[d]).owner]
    plan = {d: layout[i] for i, d in enumerate(DIRECTIONS) if d in free}
    for i, d in enumerate(DIRECTIONS):
        if d not in free and layout[i] != CONTROL:
            room = next((f for f in free if plan.get(f) == CONTROL), "")
            if room:
                plan[room] = layout[i]      # settlements take the places meant for control markers first
    for d in DIRECTIONS:
        if d not in free:
            why = "off the map" if not spots[d] else f"{gmap.label(spots[d])} is already held"
            section.add(f"{state.kingdoms[player].name}'s ring: {d} is skipped ({why}; A17).")
    laid = {}
    for d in DIRECTIONS:
        if d in plan:
            laid[d] = spots[d]
            _lay(state, gmap, rules, player, spots[d], plan[d], section)
    return laid


def _lay(state: MKState, gmap: HexMap, rules: RuleBook, player: str, tile: str, piece: str, section: Section) -> None:
    unbuildable = tiles.terrain_class(gmap, tile) in UNBUILDABLE
    if piece != CONTROL and unbuildable and rules["setup.ring_unbuildable"] != "allow":
        section.add(f"{gmap.label(tile)} is {tiles.terrain_class(gmap, tile).replace('_', ' ')}: a control marker "
                    f"instead of the {piece} (setup.ring_unbuildable)")
        piece = CONTROL
    state.tiles[tile] = TileState(owner=player, settlement="" if piece == CONTROL else piece)


def army_place(state: MKState, gmap: HexMap, player: str, where: str, laid: Mapping[str, str],
               section: Section) -> str:
    """MK-SET-7: the capital, or the settled ring tile in the direction asked for."""
    capital = state.kingdoms[player].start_tile
    if where == CAPITAL or not where:
        return capital
    tile = laid.get(where, "")
    if tile and state.tile(tile).settlement:
        return tile
    section.add(f"{state.kingdoms[player].name}'s army cannot start {where} of the capital (no settlement of theirs "
                "there); it starts in the capital.")
    return capital


def raise_army(state: MKState, player: str, tile: str, lines: Sequence[str], name: str = "") -> Army:
    """The player's next army (ids are never reused, A32), with its list read from unit lines."""
    kingdom = state.kingdoms[player]
    kingdom.armies_raised += 1
    ident = army_id(player, kingdom.armies_raised)
    roster, problems = armylist.read(ident, name, enumerate(lines, 1))
    if problems:
        raise InvalidOrder(f"{ident}: " + "; ".join(reason for _, _, reason in problems))
    roster.note(0, "", f"raised at {tile}")
    army = Army(ident, player, tile, roster=roster)
    state.armies[ident] = army
    return army


def place(state: MKState, gmap: HexMap, rules: RuleBook, wishes: Mapping[str, Wish], section: Section) -> None:
    """Window S's automatic steps, player by player in player order (MK-SET-3..7, A32)."""
    for player in state.order:
        wish = wishes.get(player, Wish())
        capital = claim(state, gmap, player, wish.starts, section)
        if not capital:
            continue
        layout = layout_for(wish, capital, rules)
        laid = lay_ring(state, gmap, rules, player, layout, section)
        state.setup.army_at[player] = army_place(state, gmap, player, wish.army, laid, section)
        section.add(f"{state.kingdoms[player].name}'s ring: " + ", ".join(
            f"{d} {gmap.label(t)} {state.tile(t).settlement or CONTROL}" for d, t in laid.items()) + ".")
    state.setup.placed = True
