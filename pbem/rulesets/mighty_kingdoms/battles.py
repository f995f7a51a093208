"""Battle selection (MK-BAT-1..12, MK-PBM-3): who fights where, slaughters applied at once.

The chooser is the next player in round-robin player order (from `state.battle.next_chooser`)
with an eligible contested tile (MK-BAT-2, MK-BAT-3). His pick is the first entry of his
standing battle preference that is eligible now, else the lowest eligible tile id with the
first enemy kingdom there in player order (MK-PBM-3). An opponent with only on-side armies
there is slaughtered at once (MK-BAT-9..11); otherwise the pair fights a KoW game and window
B opens. Selection goes on until no contested tile remains (MK-BAT-4): tiles that become
contested through a result's moves (MK-BRS-11) are found afresh on every turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pbem.kit.places import natural_key as natural
from pbem.rulesets.mighty_kingdoms import artefacts
from pbem.rulesets.mighty_kingdoms.battle_state import Battle, BattlePhase
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import Army, MKState, MKView
from pbem.rulesets.mighty_kingdoms.standing import ANY

SKIP, SLAUGHTER_OWN, LITERAL = "skip", "slaughter_own", "literal"   # battle.chooser_all_on_side (A11)


@dataclass(frozen=True)
class Pick:
    tile: str
    opponent: str


def select(view: MKView, sections: list[Section]) -> bool:
    """Run the selection loop on from `state.battle.next_chooser`: slaughters are applied and
    logged; when a tabletop battle is chosen it is recorded (pending) in `state.battle.battles`
    and True is returned (window B opens). False once no contested tile remains."""
    state = view.state
    phase = month_phase(state)
    section = Section("Battle selection")
    sections.append(section)
    if phase.pending():
        return True
    passes = 0
    while contested(state) and passes < len(state.order):
        chooser = state.order[phase.next_chooser % len(state.order)]
        phase.next_chooser = (phase.next_chooser + 1) % len(state.order)
        pick = choose(view, chooser)
        if pick is None:
            passes += 1
            continue
        passes = 0
        if fight(view, chooser, pick, section):
            if view.rules["battle.schedule"] == "independent_waves":
                wave(view, section)
            return True
    if not contested(state):
        section.add("No contested tile remains: the battle phase ends.")
    return False


def month_phase(state: MKState) -> BattlePhase:
    """The battle phase of this month; a new month starts with no battles and the first player."""
    key = f"Y{state.calendar.year}M{state.calendar.month}"
    if state.battle.month != key:
        state.battle = BattlePhase(month=key)
    return state.battle


# -- what is contested, and who may pick it ------------------------------------------------------
def kingdoms_in(state: MKState, tile: str) -> list[str]:
    """The kingdoms with armies in the tile, in player order."""
    present = {a.owner for a in state.armies_in(tile)}
    return [p for p in state.order if p in present] + sorted(present - set(state.order))


def contested(state: MKState) -> list[str]:
    """Tiles holding armies, upright or on their side, of two or more kingdoms (MK-BAT-1), by tile id."""
    tiles = {a.tile for a in state.armies.values()}
    return sorted((t for t in tiles if len(kingdoms_in(state, t)) > 1), key=natural)


def upright(state: MKState, tile: str, player: str) -> list[Army]:
    return [a for a in state.armies_in(tile) if a.owner == player and a.upright]


def on_side(state: MKState, tile: str, player: str) -> list[Army]:
    return [a for a in state.armies_in(tile) if a.owner == player and not a.upright]


def eligible(view: MKView, chooser: str) -> list[Pick]:
    """Every (tile, opponent) the chooser may pick now, by tile id then opponent in player order
    (MK-BAT-2, MK-BAT-5 with `battle.upright_opponent_scope`, MK-BAT-12 with A11)."""
    state, rules = view.state, view.rules
    picks = []
    for tile in contested(state):
        if chooser not in kingdoms_in(state, tile):
            continue
        enemies = [p for p in kingdoms_in(state, tile) if p != chooser]
        standing_up = [p for p in enemies if upright(state, tile, p)]
        for enemy in standing_up or enemies:
            if standing_up and not upright(state, tile, chooser) and rules["battle.chooser_all_on_side"] == SKIP:
                continue
            picks.append(Pick(tile, enemy))
    if rules["battle.upright_opponent_scope"] == "global":
        fighting = [p for p in picks if upright(state, p.tile, p.opponent)]
        picks = fighting or picks
    return picks


def choose(view: MKView, chooser: str, where: Callable[[str], bool] = lambda tile: True) -> Pick | None:
    """The chooser's pick: his first eligible standing preference, else MK-PBM-3's default (among the
    tiles `where` allows: a wave picks only far from the battles already briefed)."""
    picks = [p for p in eligible(view, chooser) if where(p.tile)]
    if not picks:
        return None
    for wish in view.state.kingdoms[chooser].standing.battles:
        tile, _, who = wish.partition(" ")
        found = next((p for p in picks if tile in (ANY, p.tile) and who in (ANY, p.opponent)), None)
        if found:
            return found
    return picks[0]


# -- carrying a pick out ----------------------------------------------------------------------------
def next_id(state: MKState) -> str:
    cal = state.calendar
    return f"Y{cal.year}M{cal.month}-B{len(state.battle.battles) + 1}"


def fight(view: MKView, chooser: str, pick: Pick, section: Section) -> bool:
    """Record the pick: a slaughter is applied at once (False), a KoW game waits for window B (True)."""
    state = view.state
    names = state.kingdoms
    battle = Battle(next_id(state), pick.tile, chooser, pick.opponent)
    for player in battle.players:
        battle.armies[player] = [a.id for a in upright(state, pick.tile, player)]
        battle.on_side[player] = [a.id for a in on_side(state, pick.tile, player)]
    state.battle.battles.append(battle)
    where = view.map.label(pick.tile)
    if not battle.armies[pick.opponent]:
        slaughter(view, battle, pick.opponent, section)
        return False
    if not battle.armies[chooser] and view.rules["battle.chooser_all_on_side"] == SLAUGHTER_OWN:
        slaughter(view, battle, chooser, section)
        return False
    section.add(f"{battle.id}: {names[chooser].name} chooses {where} against {names[pick.opponent].name}: "
                f"a KoW game, {points(state, battle, chooser)} points against {points(state, battle, pick.opponent)}.")
    return True


def points(state: MKState, battle: Battle, player: str) -> int:
    """A side's points: its fighting armies' list points, artefacts never counted (MK-BAT-7, MK-ART-10)."""
    return sum(state.armies[a].roster.points for a in battle.armies.get(player, []) if a in state.armies)


def slaughter(view: MKView, battle: Battle, victim: str, section: Section) -> None:
    """MK-BAT-9..11: no game; the chosen on-side armies of `victim` are removed, nothing else happens
    (no control change unless `battle.slaughter_transfers_control`, no medals, no win move)."""
    state, rules = view.state, view.rules
    battle.kind = "slaughter"
    killer = battle.opponent if victim == battle.chooser else battle.chooser
    chosen = slaughter_targets(view, battle, victim, killer)
    battle.removed = " ".join(chosen)
    battle.result = killer
    names = state.kingdoms
    section.add(f"{battle.id}: {names[battle.chooser].name} chooses {view.map.label(battle.tile)} against "
                f"{names[battle.opponent].name}; {names[victim].name} has only armies on their side there, "
                f"so no game is played: a slaughter removes {', '.join(chosen)}.")
    for ident in chosen:
        artefacts.release(state, ident, "", section)
        del state.armies[ident]
    if rules["battle.slaughter_transfers_control"] and state.owner(battle.tile) != killer:
        state.tiles[battle.tile].owner = killer
        section.add(f"{view.map.label(battle.tile)} passes to {names[killer].name}.")


def slaughter_targets(view: MKView, battle: Battle, victim: str, killer: str) -> list[str]:
    """Which on-side armies go (MK-BAT-11): the picker's standing SLAUGHTER list first, then the
    lowest army ids. With `battle.slaughter_pick = "owner"` the owner keeps his armies in id order
    and loses the lowest (he has no list naming his own armies)."""
    candidates = battle.on_side[victim]
    count = min(view.rules["battle.slaughter_removes"], len(candidates))
    wishes = view.state.kingdoms[killer].standing.slaughter if view.rules["battle.slaughter_pick"] == "chooser" else []
    ranked = [a for a in wishes if a in candidates] + [a for a in candidates if a not in wishes]
    return ranked[:count]


# -- independent waves (MK-PBM-12, A9) ----------------------------------------------------------------
def wave(view: MKView, section: Section) -> None:
    """Brief more battles with the first: the next choosers in round robin pick among the tiles at
    least `battle.wave_min_distance` from every open battle, while each pick is a KoW game. The
    first that is not (a slaughter, nobody able to pick a far tile) waits for the results, and its
    chooser keeps his turn. Each wave pick is kept so that, once the earlier results are known,
    it can be checked against the pick the chooser would make then (`window_battle.wave_check`)."""
    state, phase = view.state, view.state.battle
    while True:
        turn = phase.next_chooser
        found = next_pick(view)
        if found is None or not upright(state, found[1].tile, found[1].opponent) \
                or not upright(state, found[1].tile, found[0]):
            phase.next_chooser = turn
            return
        chooser, pick = found
        fight(view, chooser, pick, section)
        phase.wave_picks[phase.battles[-1].id] = f"{pick.tile} {pick.opponent}"


def next_pick(view: MKView) -> tuple[str, Pick] | None:
    """The next chooser in round robin with a pick far from the open battles, and that pick."""
    state, phase = view.state, view.state.battle
    for _ in state.order:
        chooser = state.order[phase.next_chooser % len(state.order)]
        phase.next_chooser = (phase.next_chooser + 1) % len(state.order)
        pick = choose(view, chooser, lambda tile: far(view, tile))
        if pick is not None:
            return chooser, pick
    return None


def far(view: MKView, tile: str) -> bool:
    """At least `battle.wave_min_distance` from every open battle (tiles with no path between are far)."""
    least = view.rules["battle.wave_min_distance"]
    return all(not 0 <= view.map.distance(tile, b.tile) < least for b in view.state.battle.pending())
