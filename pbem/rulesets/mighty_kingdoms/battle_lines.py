"""The lines of a battle report in window B (MK-PBM-7), read and written back as a pair.

    RESULT WIN Red                 the result: WIN <kingdom> or DRAW (RESULT <battle> ... when
                                   several battles are open; later lines belong to it)
    MEDALS A1.U2, B1.U3            units that earned a medal, at most once each (MEDALS NONE)
    SCARS A1.U4, B1.U1             every routed unit (SCARS NONE)
    MOVE B1 T7                     where an army of yours that must leave goes (on-side armies too)
    ADVANCE A2 T4                  the winner's optional move (ADVANCE NONE, the default)
    TAKE Blade of Slashing A1.U2   the unit of yours that takes a captured artefact

Both players send the same RESULT, MEDALS and SCARS (they must agree); each sends the moves
of his own armies; the winner sends ADVANCE and TAKE.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.kit.orders import IllegalOrder, InvalidOrder, quoted
from pbem.rulesets.mighty_kingdoms import standing
from pbem.rulesets.mighty_kingdoms.battle_state import Battle, BattleReport
from pbem.rulesets.mighty_kingdoms.model import DRAW, MKState, MKView

VERBS = ("RESULT", "MEDALS", "SCARS", "MOVE", "ADVANCE", "TAKE")
NONE = "NONE"
SYNTAX = {
    "RESULT": "RESULT WIN <kingdom> or RESULT DRAW (RESULT <battle> WIN <kingdom> when several are open)",
    "MEDALS": "MEDALS <army.unit>, ... or MEDALS NONE",
    "SCARS": "SCARS <army.unit>, ... or SCARS NONE",
    "MOVE": "MOVE <army> <tile>",
    "ADVANCE": "ADVANCE <army> <tile> or ADVANCE NONE",
    "TAKE": "TAKE <artefact> <army.unit>",
}


def battles_of(state: MKState, player: str) -> list[Battle]:
    """The open battles the player fights in, in canonical order."""
    return [b for b in state.battle.pending() if player in b.players]


def battle_named(state: MKState, player: str, text: str) -> Battle:
    found = state.battle.battle(text)
    if found is None or not found.pending:
        open_ = ", ".join(b.id for b in state.battle.pending()) or "none"
        raise InvalidOrder(f"there is no open battle {quoted(text)}; open now: {open_}")
    if player not in found.players:
        raise IllegalOrder(f"you do not fight in {found.id}; only its two kingdoms report it")
    return found


def read_result(view: MKView, player: str, words: Sequence[str]) -> tuple[Battle, str]:
    """`RESULT [<battle>] WIN <kingdom> | DRAW` -> the battle and the result (winner id or "draw")."""
    mine = battles_of(view.state, player)
    words = list(words)
    if words and words[0].upper() not in ("WIN", "DRAW"):
        battle = battle_named(view.state, player, words.pop(0))
    elif not mine:
        raise IllegalOrder("you fight in no open battle; only standing preferences (BATTLE, SLAUGHTER, RETREAT, "
                           "WINMOVE, REFORM) are read now")
    elif len(mine) == 1:
        battle = mine[0]
    else:
        ids = ", ".join(b.id for b in mine) or "none"
        raise InvalidOrder(f"name the battle: you fight in {ids}", suggestion=f"RESULT {mine[0].id} WIN ...")
    return battle, result_of(view.state, battle, words)


def result_of(state: MKState, battle: Battle, words: Sequence[str]) -> str:
    if len(words) == 1 and words[0].upper() == "DRAW":
        return DRAW
    if len(words) < 2 or words[0].upper() != "WIN":
        raise InvalidOrder(f"a result reads {SYNTAX['RESULT']}")
    winner = standing.kingdom(state, " ".join(words[1:]))
    if winner not in battle.players:
        raise IllegalOrder(f"{state.kingdoms[winner].name} does not fight in {battle.id}")
    return winner


def units(state: MKState, battle: Battle, words: Sequence[str], already: Sequence[str], what: str) -> list[str]:
    """Unit keys of the fighting armies, each at most once per battle (MK-BAT-15)."""
    if len(words) == 1 and words[0].upper() == NONE:
        return []
    fighting = [a for side in battle.armies.values() for a in side]
    out: list[str] = []
    for text in " ".join(words).replace(",", " ").split():
        key = standing.unit(state, text)
        if key.partition(".")[0] not in fighting:
            raise IllegalOrder(f"{key} did not fight in {battle.id}; its fighting armies are {', '.join(fighting)}")
        if key in out or key in already:
            raise IllegalOrder(f"{key} is named twice: a unit earns at most one {what} per battle (MK-BAT-15)")
        out.append(key)
    return out


def own_army_in_tile(view: MKView, player: str, battle: Battle, text: str) -> str:
    ident = standing.army(view.state, text, owner=player)
    if view.state.armies[ident].tile != battle.tile:
        raise IllegalOrder(f"{ident} is not in {view.map.label(battle.tile)}, where {battle.id} is fought")
    return ident


def move(view: MKView, player: str, battle: Battle, words: Sequence[str], verb: str) -> str:
    """`MOVE`/`ADVANCE <army> <tile>`: an army of yours in the battle tile, to an adjacent tile you control."""
    if len(words) != 2:
        raise InvalidOrder(f"{verb} names one army and one tile: {SYNTAX[verb]}")
    ident = own_army_in_tile(view, player, battle, words[0])
    tile = standing.tile(view, words[1])
    if not view.map.adjacent(battle.tile, tile) or view.state.owner(tile) != player:
        raise IllegalOrder(f"{view.map.label(tile)} is not a tile you control next to {view.map.label(battle.tile)}")
    return f"{ident} {tile}"


def capturable(state: MKState, battle: Battle, player: str) -> list[str]:
    """Artefacts this battle could hand to the player: on the enemy's fighting armies (MK-ART-6),
    or held at a capital that is the battle tile (MK-ART-9)."""
    enemy = next(p for p in battle.players if p != player)
    on_units = [n for n, h in state.artefacts.items() if h.army in battle.armies.get(enemy, [])]
    at_capital = [n for n, h in state.artefacts.items() if not h.army and state.capital_of(h.owner) == battle.tile
                  and h.owner != player]
    return on_units + at_capital


def take(state: MKState, player: str, battle: Battle, words: Sequence[str]) -> tuple[str, str]:
    """`TAKE <artefact> <army.unit>`: which of your units that fought takes a captured artefact."""
    if len(words) < 2:
        raise InvalidOrder(f"TAKE names an artefact and a unit: {SYNTAX['TAKE']}")
    text = " ".join(words[:-1])
    name = next((n for n in capturable(state, battle, player) if n.casefold() == text.casefold()), "")
    if not name:
        shown = ", ".join(capturable(state, battle, player)) or "none"
        raise IllegalOrder(f"{quoted(text)} cannot be captured in {battle.id}; capturable: {shown}")
    key = standing.unit(state, words[-1], owner=player)
    if key.partition(".")[0] not in battle.armies.get(player, []):
        raise IllegalOrder(f"{key} did not fight in {battle.id}; a captured artefact goes to a unit that fought")
    return name, key


def lines_of(state: MKState, report: BattleReport, battle: Battle, several: bool) -> list[str]:
    """A stored report as the lines that give it back (`several`: RESULT names the battle)."""
    head = "RESULT " + (f"{battle.id} " if several else "")
    winner = state.kingdoms[report.result].name if report.result in state.kingdoms else report.result
    out = [head + ("DRAW" if report.result == DRAW else f"WIN {winner}")] if report.result else []
    out.append("MEDALS " + (", ".join(report.medals) or NONE))
    out.append("SCARS " + (", ".join(report.scars) or NONE))
    out += [f"MOVE {army} {tile}" for army, tile in report.moves.items()]
    out += [f"ADVANCE {m}" for m in report.win_moves]
    out += [f"TAKE {name} {unit}" for name, unit in report.allot.items()]
    return out
