"""One player's round (WT-ORD-7, WT-REST, WT-DIV, WT-MOV, WT-REC, WT-CMB): rest check, divisions,
attempts, recruiting, combining. `play` takes the state, one player's orders and the dice and
returns the new state with the round's log, so a round can be played one player at a time
(by the tick in the rolled order, or live at a table)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.kit.dice import Dice
from pbem.kit.texts import counted
from pbem.rulesets.wandering_tribes import combine, destroy, divide, recruit
from pbem.rulesets.wandering_tribes.model import State
from pbem.rulesets.wandering_tribes.movement import Outcome, Turn, attempt
from pbem.rulesets.wandering_tribes.plan import ALWAYS, UNTIL_SUCCESS, Attempt, RoundOrders
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.squares import SquareMap


@dataclass
class RoundResult:
    state: State
    log: list[str] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)


def play(state: State, rules: Rules, gmap: SquareMap, player: str, orders: RoundOrders, dice: Dice) -> RoundResult:
    """The player's round on a copy of `state`."""
    turn = Turn(state.copy(), rules, gmap, player, dice)
    done = RoundResult(turn.state, turn.log, turn.alerts)
    who = turn.state.players[player]
    if who.out or who.resting:
        turn.log.append(f"{player}: no round ({'out of the campaign' if who.out else 'resting'})")
        return done
    turn.log.append(f"{player}'s round:")
    if orders.rest and _may_rest(turn):
        return done
    _divide(turn, orders)
    done.outcomes = _attempts(turn, orders)
    _recruit(turn, orders, done.outcomes)
    _combine(turn, orders)
    return done


def defaults(rules: Rules, state: State, player: str) -> RoundOrders:
    """WT-PBEM-10: the orders of a player who sent nothing (`[defaults]`): rest if allowed, every
    stack tried in id order, stopping at the first camp fire, recruiting only what is forced."""
    mode = UNTIL_SUCCESS if rules["defaults.try_mode"] == "until_success" else ALWAYS
    return RoundOrders(rest=rules["defaults.rest"] == "if_allowed",
                       attempts=[Attempt(s.id, mode, campfire=str(rules["defaults.campfire"]))
                                 for s in state.stacks_of(player)])


def _may_rest(turn: Turn) -> bool:
    """WT-REST-1..5: REST IF-ALLOWED rests when enough stacks are locked; else the round goes on."""
    least = int(turn.rules.per_mode("rest.min_locked_to_declare"))
    locked = turn.state.locked_count(turn.player)
    if locked >= least:
        turn.state.rest(turn.player)
        turn.log.append(f"  {turn.player} declares resting ({counted(locked, 'stack')} locked); the round ends")
        return True
    turn.log.append(f"  REST IF-ALLOWED: not allowed ({counted(locked, 'stack')} locked, {least} needed); "
                    "the round goes on")
    return False


def _divide(turn: Turn, orders: RoundOrders) -> None:
    """WT-DIV-1..7: every division before the first attempt; a faulty one is refused whole."""
    for division in orders.divisions:
        wrong = divide.problems(turn.state, turn.rules, turn.player, division)
        if wrong:
            turn.log.append(f"  DIVIDE {division.stack} refused: {'; '.join(wrong)}")
            continue
        parts = divide.divide(turn.state, division)
        turn.log.append(f"  {division.stack} divides into " + ", ".join(f"{p.id} ({p.points} pts)" for p in parts))
        _sweep(turn, [p.id for p in parts])  # WT-DIV-12 with allow_self_destroying, A8: WT-DES at once


def _attempts(turn: Turn, orders: RoundOrders) -> list[Outcome]:
    """WT-MOV-1..9, WT-PBEM-3/5/6: the list top to bottom, then the move obligation."""
    done: list[Outcome] = []
    for entry in orders.attempts:
        if _ended(turn, done):
            return done
        if entry.mode == UNTIL_SUCCESS and any(o.moved for o in done):
            turn.log.append(f"  {entry.stack} not tried: a stack has already moved (UNTIL-SUCCESS)")
            continue
        if _eligible(turn, entry.stack, done, say=True):
            done.append(_try(turn, entry))
    for stack in turn.state.stacks_of(turn.player):
        if any(o.moved for o in done) or _ended(turn, done):
            break
        if _eligible(turn, stack.id, done, say=False):
            turn.log.append(f"  {stack.id} is tried as no stack has moved yet (WT-PBEM-6)")
            done.append(_try(turn, Attempt(stack.id, campfire=str(turn.rules["defaults.campfire"]))))
    return done


def _ended(turn: Turn, done: list[Outcome]) -> bool:
    return turn.state.players[turn.player].resting or any(o.ends_round for o in done)


def _eligible(turn: Turn, stack_id: str, done: list[Outcome], say: bool) -> bool:
    """WT-MOV-2/3, WT-PBEM-3: his own, unlocked, not yet attempted this round."""
    stack = turn.state.stacks.get(stack_id)
    why = ""
    if stack is None or stack.owner != turn.player:
        why = "is gone" if stack is None else "is not yours"
    elif turn.state.locked(stack_id):
        why = "is locked in combat"
    elif any(o.stack == stack_id for o in done):
        why = "has already been tried this round"
    if why and say:
        turn.log.append(f"  {stack_id} skipped: it {why}")
    return not why


def _try(turn: Turn, entry: Attempt) -> Outcome:
    turn.log.append(f"  {entry.stack} is tried ({'UNTIL-SUCCESS' if entry.mode == UNTIL_SUCCESS else 'ALWAYS'}):")
    return attempt(turn, entry.stack, entry)


def _recruit(turn: Turn, orders: RoundOrders, outcomes: list[Outcome]) -> None:
    """WT-REC-1/2/13: stacks that moved, ended away from their start, unlocked and alone among the
    player's stacks recruit once, all before combining (gap 18: "alone" judged now)."""
    state = turn.state
    for out in outcomes:
        stack = state.stacks.get(out.stack)
        if stack is None or not out.moved or out.no_recruit or state.locked(stack.id):
            continue
        back_home = stack.tile == out.start and turn.rules["recruit.requires_different_tile"]
        if back_home or len([s for s in state.stacks_in(stack.tile) if s.owner == turn.player]) > 1:
            continue
        terrain = turn.gmap.terrain(stack.tile)
        turn.log += ["  " + line for line in recruit.recruit(state, turn.rules, stack, terrain,
                                                             orders.picks(stack.id, terrain))]
        _sweep(turn, [stack.id])


def _combine(turn: Turn, orders: RoundOrders) -> None:
    """WT-CMB-1..13: every tile with two or more of his stacks ends with one."""
    state = turn.state
    tiles = sorted({s.tile for s in state.stacks_of(turn.player)})
    for tile in tiles:
        mine = [s for s in state.stacks_in(tile) if s.owner == turn.player]
        if len(mine) < 2:
            continue
        lines: list[str] = []
        turn.alerts += combine.combine_tile(state, turn.rules, mine, orders.removals([s.id for s in mine]), lines)
        turn.log += ["  " + line for line in lines]
        _sweep(turn, [s.id for s in mine])  # the stack kept, whichever id it has (WT-CMB-1)


def _sweep(turn: Turn, stack_ids: list[str]) -> None:
    """The destruction checks after a change of these stacks' markers (WT-DES, A17)."""
    turn.log += ["  " + line for line in destroy.sweep(turn.state, turn.rules, stack_ids)]
