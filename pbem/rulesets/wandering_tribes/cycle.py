"""The campaign's cycle (WT-GEN-1, WT-VIC-1/2): strategic rounds until the battle trigger, a battle
phase, again; the end after a set number of rounds or at a set date; and the round's report text
(WT-PBEM-12) with the dice, the sequence, every step, and stack contents as visibility allows."""

from __future__ import annotations

from datetime import date

from pbem.kit.dice import Roll
from pbem.rulesets.wandering_tribes.model import State
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.strategic import counters


def campaign_over(state: State, rules: Rules, today: date) -> bool:
    """WT-VIC-1: after `end_after_rounds` rounds or on `end_date`, whichever is set and first."""
    rounds = int(rules["campaign.end_after_rounds"])
    if rounds and state.round >= rounds:
        return True
    end = str(rules["campaign.end_date"])
    return bool(end) and today >= date.fromisoformat(end)


def final_battles_due(state: State, rules: Rules) -> bool:
    """WT-VIC-2: locked stacks left at the end fight one last battle phase first."""
    return bool(state.locks) and bool(rules["campaign.fight_outstanding_battles_at_end"])


def stack_lines(state: State, rules: Rules, reader: str = "") -> list[str]:
    """Every stack with its markers and points (WT-GEN-12, WT-NAT-5): contents are public by
    default; with "owner" other players' stacks show only their id, tile and owner."""
    public = rules["visibility.stack_contents"] == "public"
    out = []
    for player in state.seats:
        status = "out" if state.players[player].out else ("resting" if state.players[player].resting else "active")
        out.append(f"{player} ({rules.nations[state.players[player].nation].name}, {status}):")
        for stack in state.stacks_of(player):
            lock = state.lock_of(stack.id)
            where = f"{stack.id} in {stack.tile}" + (f", locked in combat in {lock.tile}" if lock else "")
            if public or player == reader:
                markers = ", ".join(f"{m.id} {m.type} {m.points}" for m in stack.markers)
                out.append(f"  {where}: {stack.points} pts ({markers})")
            else:
                out.append(f"  {where}")
    return out


def report(state: State, rules: Rules, sequence: list[str], log: list[str], rolls: list[Roll],
           reader: str = "") -> list[str]:
    """WT-PBEM-12: the round's report lines."""
    out = [f"Strategic round {state.round}", "Sequence: " + (", ".join(sequence) or "nobody plays"), ""]
    out += log + ["", "Stacks:"] + stack_lines(state, rules, reader)
    out += ["", counters(state, rules), "", "Dice rolled:"] + [f"  {roll}" for roll in rolls]
    return out
