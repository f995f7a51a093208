"""Applying a battle's result (MK-BRS-1..13, MK-BAT-13..18, MK-ART-6..9, MK-ART-12), in MK-BRS-10's order:

1. control of the tile to the winner (MK-BRS-4);
2. forced moves of the loser, or of the draw side not controlling the tile, and destructions
   (MK-BRS-1..3, MK-BRS-6..9): a reported destination, else the army's standing RETREAT
   ranking, else MK-BRS-13's default; movers of a Loss are laid on their side, of a Draw
   they stay upright (`battle.draw_movers_on_side`, A13);
3. the winner's optional move (MK-BRS-5): the reported one, else his standing WINMOVE, else none;
4. medals and scars, as temporary roster marks, at most one of each per unit (MK-BAT-15);
5. artefacts: routed carriers of the losing side lose theirs to the winner (MK-ART-6, MK-ART-12),
   and a capital taken by the win hands its held artefacts to the taker (MK-ART-9).
"""

from __future__ import annotations

from collections.abc import Iterable

from pbem.kit.places import natural_key as natural
from pbem.kit.roster import Mark
from pbem.rulesets.mighty_kingdoms import artefacts
from pbem.rulesets.mighty_kingdoms.battle_state import Battle, BattleReport
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import DRAW, MEDAL, SCAR, Army, Holding, MKState, MKView
from pbem.rulesets.mighty_kingdoms.standing import ANY

HOW = {"reports": "both reports agree", "single report": "only one side reported", "gm": "the GM's ruling",
       "no report": "nobody reported, so a draw without medals or scars"}


def apply(view: MKView, battle: Battle, report: BattleReport, section: Section) -> None:
    """Apply `report` to `battle` (its result, moves, marks and allocations), logging each step."""
    state = view.state
    captured = set_aside_captures(view, battle, report)
    battle.result, battle.medals, battle.scars = report.result, list(report.medals), list(report.scars)
    how = f" ({HOW[battle.how]})" if battle.how in HOW else ""
    section.add(f"{battle.id} at {view.map.label(battle.tile)}: {outcome_text(state, battle)}{how}.")
    takes_capital = control_change(view, battle, section)
    for player in battle.players:
        if must_leave(view, battle, player):
            for army in fighters_and_on_side(state, battle, player):
                forced_move(view, battle, army, report.moves.get(army.id, ""), section)
    win_move(view, battle, report.win_moves, section)
    record_marks(view, battle, report, section)
    for name, unit in captured.items():
        place_captured(view, battle, name, report.allot.get(name, ""), section, f"captured from {unit}")
    if takes_capital:
        capital_taken(view, battle, takes_capital, report.allot, section)


def outcome_text(state: MKState, battle: Battle) -> str:
    names = {p: k.name for p, k in state.kingdoms.items()}
    if battle.result == DRAW:
        return f"a draw between {names[battle.chooser]} and {names[battle.opponent]}"
    return f"{names[battle.result]} wins against {names[loser(battle)]}"


def loser(battle: Battle) -> str:
    return "" if battle.result == DRAW else next(p for p in battle.players if p != battle.result)


def fighters_and_on_side(state: MKState, battle: Battle, player: str) -> list[Army]:
    """The player's armies still in the battle tile, upright or on their side, by army id."""
    return [a for a in state.armies_in(battle.tile) if a.owner == player]


# -- 1. control --------------------------------------------------------------------------------
def control_change(view: MKView, battle: Battle, section: Section) -> str:
    """MK-BRS-4: a Win hands the tile and its settlement to the winner. Returns the player whose
    capital this tile was ("" when it was nobody's), for MK-ART-9."""
    state = view.state
    if battle.result == DRAW or state.owner(battle.tile) == battle.result:
        return ""
    before = state.owner(battle.tile)
    was_capital = before if before and state.capital_of(before) == battle.tile else ""
    state.tiles[battle.tile].owner = battle.result
    settlement = state.tiles[battle.tile].settlement
    held = f" with its {settlement}" if settlement else ""
    section.add(f"{view.map.label(battle.tile)}{held} passes to {state.kingdoms[battle.result].name}.")
    return was_capital


# -- 2. forced moves ----------------------------------------------------------------------------
def must_leave(view: MKView, battle: Battle, player: str) -> bool:
    """MK-BRS-1 (the loser) and MK-BRS-6..8 (a draw side that does not control the tile)."""
    if battle.result == DRAW:
        return view.state.owner(battle.tile) != player
    return player == loser(battle)


def destinations(view: MKView, army: Army) -> list[str]:
    """The tiles the army may move to after a battle: adjacent, controlled by its kingdom, and
    free of enemy armies unless `battle.allow_move_into_contested` (MK-BRS-11, A14)."""
    state = view.state
    open_ = view.rules["battle.allow_move_into_contested"]
    return sorted((t for t in view.map.neighbours(army.tile)
                   if state.owner(t) == army.owner and (open_ or not state.enemies_in(t, army.owner))), key=natural)


def default_destination(view: MKView, army: Army, choices: Iterable[str]) -> str:
    """MK-BRS-13: a tile with no enemy army, then one with an own settlement, then the lowest tile id."""
    state = view.state
    ranked = sorted(choices, key=lambda t: (bool(state.enemies_in(t, army.owner)),
                                            not state.tile(t).settlement, natural(t)))
    return ranked[0] if ranked else ""


def retreat_to(view: MKView, army: Army, reported: str) -> tuple[str, str]:
    """Where the army goes, and why: the reported tile, the standing ranking, or MK-BRS-13."""
    legal = destinations(view, army)
    if reported in legal:
        return reported, "as reported"
    kept = view.state.kingdoms[army.owner].standing.retreats
    for tile in kept.get(army.id, []) + kept.get(ANY, []):
        if tile in legal:
            return tile, "by standing retreat order"
    return default_destination(view, army, legal), "by default"


def forced_move(view: MKView, battle: Battle, army: Army, reported: str, section: Section) -> None:
    state = view.state
    tile, why = retreat_to(view, army, reported)
    if not tile:
        battle.moves[army.id] = ""
        section.add(f"{army.id} has no adjacent tile of its kingdom to move to and is destroyed.")
        artefacts.release(state, army.id, "", section)
        del state.armies[army.id]
        return
    rule = "battle.draw_movers_on_side" if battle.result == DRAW else "battle.loss_movers_on_side"
    army.tile = tile
    army.upright = army.upright and not view.rules[rule]
    battle.moves[army.id] = tile
    status = "upright" if army.upright else "on its side"
    section.add(f"{army.id} moves to {view.map.label(tile)} ({why}) and is {status}.")


# -- 3. the winner's move -----------------------------------------------------------------------
def win_move(view: MKView, battle: Battle, reported: list[str], section: Section) -> None:
    """MK-BRS-5: up to `battle.win_free_moves` of the winner's armies in the tile move to an adjacent
    tile he controls, keeping their status. The reported moves, else his standing WINMOVE."""
    if battle.result == DRAW:
        return
    kept = view.state.kingdoms[battle.result].standing.win_move
    wanted = reported or ([kept] if kept else [])
    moved = 0
    for move in wanted:
        ident, _, tile = move.partition(" ")
        army = view.state.armies.get(ident)
        if moved >= view.rules["battle.win_free_moves"] or army is None or army.owner != battle.result \
                or army.tile != battle.tile or tile not in destinations(view, army):
            section.add(f"The win move {move} cannot be made now and is left out.")
            continue
        army.tile = tile
        moved += 1
        battle.moves[ident] = tile
        section.add(f"{ident} makes the winner's move to {view.map.label(tile)}.")
    if not moved:
        section.add(f"{view.state.kingdoms[battle.result].name} makes no win move.")


# -- 4. medals and scars ------------------------------------------------------------------------
def record_marks(view: MKView, battle: Battle, report: BattleReport, section: Section) -> None:
    """MK-BAT-13..17: one temporary mark per medal or scar; a unit gets at most
    `battle.medals_per_unit_per_battle` medals and `battle.scars_per_unit_per_battle` scars."""
    for kind, keys, limit in ((MEDAL, report.medals, view.rules["battle.medals_per_unit_per_battle"]),
                              (SCAR, report.scars, view.rules["battle.scars_per_unit_per_battle"])):
        given: dict[str, int] = {}
        for key in keys:
            if given.get(key, 0) < limit and mark(view.state, battle, key, kind):
                given[key] = given.get(key, 0) + 1
        if given:
            section.add(f"{kind.capitalize()}s: " + ", ".join(given) + ".")


def mark(state: MKState, battle: Battle, key: str, kind: str) -> bool:
    """Put one medal or scar on the unit `key`; False when its army is gone (destroyed in step 2)."""
    army_id, _, unit_id = key.partition(".")
    army = state.armies.get(army_id)
    entry = army.roster.get(unit_id) if army else None
    if army is None or entry is None:
        return False
    turn = state.calendar.turn
    entry.add_mark(Mark(kind, battle.id, 1, permanent=False, turn=turn))
    army.roster.note(turn, unit_id, f"{kind} in {battle.id}")
    return True


# -- 5. artefacts -------------------------------------------------------------------------------
def set_aside_captures(view: MKView, battle: Battle, report: BattleReport) -> dict[str, str]:
    """MK-ART-6, MK-ART-12: the artefacts on the losing side's routed units of the fighting armies
    (a Win only). They leave the loser now, so a destruction while retreating cannot release them
    (MK-ART-13 is for losses other than a capture). Returns artefact -> the unit it came from."""
    if report.result == DRAW:
        return {}
    lost = next(p for p in battle.players if p != report.result)
    out: dict[str, str] = {}
    for key in report.scars:
        army_id, _, unit_id = key.partition(".")
        if army_id in battle.armies.get(lost, []):
            for name in artefacts.carried_by(view.state, army_id, unit_id):
                out[name] = key
                del view.state.artefacts[name]
    return out


def suits(view: MKView, name: str, army: Army, unit: str) -> bool:
    """May the unit take the artefact: the pool entry's restrictions (MK-ART-11) and a free slot
    (`artefacts.max_per_unit`, MK-ART-14), as the artefacts module judges every allocation."""
    entry = army.roster.get(unit)
    return entry is not None and artefacts.why_not(view.state, view.rules, name, army, entry) == ""


def takers(view: MKView, battle: Battle) -> list[Army]:
    """The winner's armies that fought in this battle and still stand (A20: on-side armies do not count)."""
    return [view.state.armies[a] for a in battle.armies.get(battle.result, []) if a in view.state.armies]


def place_captured(view: MKView, battle: Battle, name: str, wanted: str, section: Section, how: str) -> None:
    """MK-ART-6..8: to the allocated unit of a winning army that fought, else the first unit that
    can take it (lowest army id, then list order), else held at the winner's capital, else the pool."""
    state, winner = view.state, battle.result
    units = [(a, e.id) for a in takers(view, battle) for e in a.roster.entries]
    fitting = [(a, u) for a, u in units if suits(view, name, a, u)]
    chosen = next(((a, u) for a, u in fitting if f"{a.id}.{u}" == wanted), fitting[0] if fitting else None)
    who = state.kingdoms[winner].name
    if chosen:
        state.artefacts[name] = Holding(winner, chosen[0].id, chosen[1])
        section.add(f"{name} ({how}) goes to {who}'s {chosen[0].id}.{chosen[1]}.")
    elif state.capital_of(winner):
        state.artefacts[name] = Holding(winner)
        section.add(f"{name} ({how}) goes to {who}, held at the capital: no unit that fought can take it.")
    else:
        section.add(f"{name} ({how}) goes back to the pool: no unit that fought can take it and "
                    f"{who} holds no capital.")


def capital_taken(view: MKView, battle: Battle, previous: str, allot: dict[str, str], section: Section) -> None:
    """MK-ART-9 for a battle win: the artefacts held at the captured capital go to a unit of the
    taking armies (the winner's allocation, else the first that can take one; A20), else MK-ART-7/8.
    The same rule for a Move or Reform takeover belongs to the artefacts module (A32's pin)."""
    state = view.state
    held = [n for n, h in state.artefacts.items() if h.owner == previous and not h.army]
    for name in held:
        del state.artefacts[name]
        place_captured(view, battle, name, allot.get(name, ""), section,
                       f"held at {state.kingdoms[previous].name}'s captured capital")
