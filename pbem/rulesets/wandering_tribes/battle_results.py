"""Battle resolution (WT-RES, WT-DES, WT-BAT-9/10): losses removed, the winner recruits, the
destruction checks, a draw's roll-off, the losers' retreats; then the phase ends and resting
ends for all (WT-REST-13)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.kit.dice import Dice
from pbem.rulesets.wandering_tribes import combine, destroy, recruit
from pbem.rulesets.wandering_tribes.armylist import acting_general
from pbem.rulesets.wandering_tribes.battle_setup import AMBUSH, Battle, pick_one
from pbem.rulesets.wandering_tribes.model import State
from pbem.rulesets.wandering_tribes.plan import Pick
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.squares import SIDES, SquareMap
from pbem.rulesets.wandering_tribes.strategic import roll_off


@dataclass
class Report:
    """What the players report of one battle (WT-RES-1, WT-PBEM-11)."""

    winner: str = ""                                          # a player; "" = draw
    withdrawn: list[str] = field(default_factory=list)        # players whose army withdrew
    lost: dict[str, list[str]] = field(default_factory=dict)  # player -> marker ids destroyed
    ifwin: dict[str, list[Pick]] = field(default_factory=dict)
    iflose: dict[str, list[str]] = field(default_factory=dict)
    general: dict[str, str] = field(default_factory=dict)     # player -> his acting General (WT-BAT-17)


def sides(state: State, battle: Battle) -> list[str]:
    """The battle's players: the defender's owner first."""
    owners = [state.stacks[s].owner for s in battle.stacks() if s in state.stacks]
    return owners + ([battle.ambusher] if battle.kind == AMBUSH else [])


def problems(state: State, battle: Battle, report: Report) -> list[str]:
    """WT-RES-3/4: a withdrawn winner, a player not in the battle, a marker not in that side's stack."""
    players = sides(state, battle)
    out = []
    if report.winner and report.winner not in players:
        out.append(f"{report.winner} does not fight battle {battle.id}")
    if report.winner and report.winner in report.withdrawn:
        out.append(f"{report.winner} cannot win battle {battle.id}: an army that withdrew can never win")
    for player, markers in report.lost.items():
        stack = next((state.stacks[s] for s in battle.stacks() if state.stacks[s].owner == player), None)
        ids = {m.id for m in stack.markers} if stack else set()
        out += [f"LOST {player} {m}: {m} is not a marker of {player}'s stack in battle {battle.id}"
                for m in markers if m not in ids]
    return out


def own_stack(state: State, battle: Battle, player: str) -> str:
    """The player's stack in the battle ("" for an ambusher, whose army is not on the map)."""
    return next((s for s in battle.stacks() if s in state.stacks and state.stacks[s].owner == player), "")


def acting(state: State, rules: Rules, battle: Battle, report: Report, player: str) -> str:
    """WT-BAT-17: the player's acting General in this battle ("" when his stack has a General)."""
    stack_id = own_stack(state, battle, player)
    if not stack_id:
        return ""
    stack = state.stacks[stack_id]
    return acting_general(rules.nations[state.players[player].nation], stack, report.general.get(player, ""))


def generals_lost(state: State, rules: Rules, battle: Battle, report: Report) -> str:
    """WT-BAT-17: a reported winner whose acting General was lost withdrew and cannot win; why, or ""."""
    winner = outcome(report)
    general = acting(state, rules, battle, report, winner) if winner else ""
    if general and general in report.lost.get(winner, []) and winner not in report.withdrawn:
        return (f"{winner} is reported the winner, but his acting General {general} was lost, and an army whose "
                "acting General is lost withdraws (WT-BAT-17): GM, set the result")
    return ""


def general_lines(state: State, rules: Rules, battle: Battle, report: Report) -> list[str]:
    """Who acted as General of each General-less stack, and whether the owner chose him."""
    out = []
    for player in sides(state, battle):
        general = acting(state, rules, battle, report, player)
        if general:
            how = "his choice" if report.general.get(player) == general else "the lowest marker id"
            out.append(f"{own_stack(state, battle, player)} of {player} fought under {general} as acting General "
                       f"({how}, WT-BAT-17)")
    return out


def outcome(report: Report) -> str:
    """The winner, or "" for a draw (both armies withdrew: a draw, WT-RES-3)."""
    return "" if len(report.withdrawn) >= 2 else report.winner


def resolve(state: State, rules: Rules, gmap: SquareMap, battle: Battle, report: Report,
            dice: Dice) -> tuple[State, list[str]]:
    """WT-RES-14, on a copy: losses, the winner's recruiting, destruction, roll-off, retreats."""
    state = state.copy()
    log = [f"Battle {battle.id} in {battle.tile}:", *general_lines(state, rules, battle, report)]
    winner = outcome(report)
    _losses(state, rules, battle, report, log)
    ours = [s for s in battle.stacks() if s in state.stacks]
    for stack_id in ours:
        stack = state.stacks[stack_id]
        if stack.owner == winner:
            terrain = gmap.terrain(stack.tile)
            log += recruit.recruit(state, rules, stack, terrain, report.ifwin.get(winner, []))  # WT-REC-14
    log += destroy.sweep(state, rules, ours, after_battle=True)
    state.locks = [lock for lock in state.locks if not any(lock.has(s) for s in battle.stacks())]
    losers = [s for s in ours if s in state.stacks and state.stacks[s].owner != winner]
    if len(losers) == 2:
        first = roll_off([state.stacks[s].owner for s in losers], dice, rules["retreat.draw_rolloff"],
                         f"draw roll-off, battle {battle.id}", log)[0][0]
        losers.sort(key=lambda s: state.stacks[s].owner != first)
    for stack_id in losers:
        log += retreat(state, rules, gmap, stack_id, report.iflose.get(state.stacks[stack_id].owner, []), dice)
    if battle.kind == AMBUSH:
        log.append(f"the ambushing army of {battle.ambusher} is discarded (WT-BAT-9)")
    return state, log


def _losses(state: State, rules: Rules, battle: Battle, report: Report, log: list[str]) -> None:
    """WT-RES-5..7: destroyed units and killed characters leave; the rest are restored in full."""
    for stack_id in battle.stacks():
        stack = state.stacks[stack_id]
        nation = rules.nations[state.players[stack.owner].nation]
        lost = set(report.lost.get(stack.owner, []))
        if not rules["battle.character_killed_removes_marker"]:
            lost = {m.id for m in stack.markers if m.id in lost and not nation.is_character(m.type)}
        gone = [m for m in stack.markers if m.id in lost]
        stack.markers = [m for m in stack.markers if m.id not in lost]
        if gone:
            log.append(f"{stack.id} loses " + ", ".join(f"{m.id} {m.type}" for m in gone) + f" -> {stack.points} pts")


def free(state: State, rules: Rules, tile: str, owner: str) -> bool:
    """WT-RES-10: no stack at all there (or, with "no_enemy", none of another player)."""
    here = state.stacks_in(tile)
    if rules["retreat.free_tile"] == "no_enemy":
        return all(s.owner == owner for s in here)
    return not here


def retreat(state: State, rules: Rules, gmap: SquareMap, stack_id: str, ranked: list[str], dice: Dice) -> list[str]:
    """WT-RES-9..12: the first free tile of the ranked directions, else a random free adjacent
    tile, else the stack is removed."""
    stack = state.stacks[stack_id]
    around = {s: gmap.toward(stack.tile, s) for s in SIDES}
    open_ = {s: t for s, t in around.items() if t and free(state, rules, t, stack.owner)}
    side = next((s for s in ranked if s in open_), "")
    log: list[str] = []
    if not side and open_:
        tiles = gmap.sorted(open_.values())
        chosen = pick_one(dice, tiles, f"retreat of {stack_id} from {stack.tile}", log)
        side = next(s for s, t in open_.items() if t == chosen)
    if not side:
        return [f"{stack_id} has no free tile to retreat to"] + state.remove_stack(stack_id)
    origin, stack.tile = stack.tile, open_[side]
    log.append(f"{stack_id} retreats {side} from {origin} to {stack.tile}")
    mine = [s for s in state.stacks_in(stack.tile) if s.owner == stack.owner]
    if len(mine) > 1:                    # retreat.free_tile = "no_enemy": into his own stack's tile
        combine.combine_tile(state, rules, mine, [], log)
        log += destroy.sweep(state, rules, [s.id for s in mine])      # WT-DES after the combining (A17)
    return log


def end_phase(state: State) -> State:
    """WT-REST-13, WT-RES-17: resting ends for all and the first-rest record is cleared."""
    state = state.copy()
    for player in state.players.values():
        player.resting = False
    state.first_rest = 0
    return state


def ranking(state: State) -> list[tuple[int, str, int]]:
    """WT-VIC-3..5: (place, player, score), equal scores sharing a place; dropped-out players
    score 0 and come after everyone still in."""
    inside = sorted(state.active(), key=lambda p: -state.score(p))
    out = []
    for player in inside:
        place = 1 + sum(1 for q in inside if state.score(q) > state.score(player))
        out.append((place, player, state.score(player)))
    gone = [p for p in state.seats if state.players[p].out]
    return out + [(len(inside) + 1, p, 0) for p in gone]
