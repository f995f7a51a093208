"""The strategic round (WT-ORD, WT-RND): the order roll with its direction round the seats, each
player's round in that sequence, and the battle trigger at the end."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pbem.kit.dice import Dice, dice_spec
from pbem.kit.texts import counted
from pbem.rulesets.wandering_tribes.model import State
from pbem.rulesets.wandering_tribes.plan import RoundOrders
from pbem.rulesets.wandering_tribes.player_round import defaults, play
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.squares import SquareMap


@dataclass
class Opening:
    sequence: list[str]
    log: list[str] = field(default_factory=list)


def roll_off(players: list[str], dice: Dice, spec: str, why: str, log: list[str]) -> list[tuple[str, int]]:
    """Each player rolls; tied players reroll among themselves until settled (WT-ORD-3, WT-SET-6,
    WT-RES-13). Returns players highest first with each one's deciding total."""
    count, sides = dice_spec(spec)
    totals = {p: dice.roll(f"{why}: {p}", count, sides).total for p in players}
    log.append(f"{why}: " + ", ".join(f"{p} {t}" for p, t in totals.items()))
    out: list[tuple[str, int]] = []
    for total in sorted(set(totals.values()), reverse=True):
        tied = [p for p in players if totals[p] == total]
        out += roll_off(tied, dice, spec, f"{why} (tie on {total})", log) if len(tied) > 1 else [(tied[0], total)]
    return out


def open_round(state: State, rules: Rules, dice: Dice) -> tuple[State, Opening]:
    """WT-ORD-1..5: non-resting players roll; the first player's deciding total's parity sets
    the direction round the seats; resting players are skipped."""
    state = state.copy()
    state.round += 1
    log = [f"Strategic round {state.round}"]
    rolling = state.non_resting()
    if not rolling:
        return state, Opening([], log)
    first, total = roll_off(rolling, dice, rules["order_roll.dice"], f"order roll, round {state.round}", log)[0]
    way = rules["order_roll.even"] if total % 2 == 0 else rules["order_roll.odd"]
    seats = state.active()
    step = 1 if way == "clockwise" else -1
    start = seats.index(first)
    ring = [seats[(start + step * i) % len(seats)] for i in range(len(seats))]
    sequence = [p for p in ring if p in rolling]
    log.append(f"{first} is first with {total} ({'even' if total % 2 == 0 else 'odd'}): {way.replace('_', '-')}; "
               f"sequence {', '.join(sequence)}")
    return state, Opening(sequence, log)


def play_round(state: State, rules: Rules, gmap: SquareMap, sequence: list[str],
               orders: Mapping[str, RoundOrders], dice: Dice) -> tuple[State, list[str], list[str]]:
    """WT-ORD-6/10: each player's round in the sequence; a player resting by then loses his."""
    log: list[str] = []
    alerts: list[str] = []
    for player in sequence:
        done = play(state, rules, gmap, player, orders.get(player) or defaults(rules, state, player), dice)
        state = done.state
        log += done.log
        alerts += done.alerts
    return state, log, alerts


def battle_due(state: State, rules: Rules) -> bool:
    """WT-RND-2..4, checked only at the end of a round (WT-RND-1)."""
    awake = len(state.non_resting())
    resting = len(state.active()) - awake
    if awake <= rules["battle_trigger.max_non_resting"] and (
            resting or not rules["battle_trigger.require_at_least_one_resting"]):
        return True
    if not state.first_rest:
        return False
    played = state.round - state.first_rest + (1 if rules["battle_trigger.count_round_of_first_rest"] else 0)
    return played >= int(rules["battle_trigger.rounds_after_first_rest"])


def counters(state: State, rules: Rules) -> str:
    """The battle-trigger counters for the report (WT-PBEM-12)."""
    awake = len(state.non_resting())
    since = f"first rest in round {state.first_rest}" if state.first_rest else "nobody has rested yet"
    return (f"Battle trigger: {counted(awake, 'player')} not resting; battles come when "
            f"{rules['battle_trigger.max_non_resting']} or fewer are, or "
            f"{counted(int(rules['battle_trigger.rounds_after_first_rest']), 'round')} after the first rest; {since}")
