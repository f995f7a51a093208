"""Battle briefings (WT-BAT-8, 11..19): the players, both stacks with every marker and total,
the tile and its terrain as the table terrain, the defender, deployment and game length, the
acting General, victory, an ambush's points cap, and the report deadline and format."""

from __future__ import annotations

from pbem.rulesets.wandering_tribes.armylist import acting_general, general_candidates
from pbem.rulesets.wandering_tribes.battle_setup import AMBUSH, Battle
from pbem.rulesets.wandering_tribes.model import Stack, State
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.squares import SquareMap


def stack_lines(state: State, rules: Rules, stack: Stack) -> list[str]:
    nation = rules.nations[state.players[stack.owner].nation]
    lines = [f"{stack.id} ({stack.owner}, {nation.name}), {stack.points} pts:"]
    lines += [f"  {m.id} {m.type} ({m.points} pts)" for m in stack.markers]
    acting = acting_general(nation, stack)
    tied = [m.id for m in general_candidates(nation, stack)]
    if acting:
        lines.append(f"  No General marker: {acting} acts as General (unlimited command range; a failed order "
                     "from him ends all ordering that turn; if he is lost the army withdraws; he keeps his own "
                     "profile and special rules)")
    if len(tied) > 1:
        lines.append(f"  {' and '.join(tied)} tie for the highest command value: {stack.owner} names the acting "
                     f"General among them in his report (the GENERAL line below); without it {acting}, the lowest "
                     "marker id, acts")
    return lines


def general_choice(state: State, rules: Rules, battle: Battle, player: str) -> list[str]:
    """WT-BAT-17: the line a player writes to name his acting General when characters tie, with
    who acts without it; [] when there is nothing to choose."""
    stack = next((state.stacks[s] for s in battle.stacks() if s in state.stacks and state.stacks[s].owner == player),
                 None)
    tied = [m.id for m in general_candidates(rules.nations[state.players[player].nation], stack)] if stack else []
    if len(tied) < 2:
        return []
    return [f"GENERAL {battle.id} <{' or '.join(tied)}>   ({stack.id if stack else ''}: who acts as General; "
            f"without this line {tied[0]}, the lowest marker id)"]


def briefing(state: State, rules: Rules, gmap: SquareMap, battle: Battle, deadline: str) -> list[str]:
    defender = state.stacks[battle.defender]
    players = [defender.owner] + ([state.stacks[battle.attacker].owner] if battle.attacker else [battle.ambusher])
    lines = [f"Battle {battle.id}: {players[0]} v {players[1]}",
             f"Tile {gmap.label(battle.tile)}, terrain {gmap.terrain(battle.tile)}: lay out the table as "
             f"{gmap.terrain(battle.tile)}.",
             f"Defender: {defender.id} ({defender.owner}) places the first unit.", ""]
    lines += stack_lines(state, rules, defender)
    if battle.attacker:
        lines += stack_lines(state, rules, state.stacks[battle.attacker])
    else:
        cap = defender.points + rules["battle.ambush_points_margin"]
        lines += [f"Ambusher: {battle.ambusher} brings an ordinary Warmaster army of any nation, at most {cap} pts "
                  f"({defender.points} + {rules['battle.ambush_points_margin']}). It is discarded after the battle "
                  "whatever the result and never appears on the map."]
    lines += ["", *_rules_lines(rules), "", f"Report by {deadline}, each side, in this form:",
              f"  RESULT {battle.id} WINNER <player>   or   RESULT {battle.id} DRAW",
              "  WITHDRAWN <player>                 (an army that withdrew)",
              "  LOST <player> <marker ids>         (units destroyed completely, characters killed)",
              f"  IFWIN {battle.id} RECRUIT <n> <type>   IFLOSE {battle.id} RETREAT <N,E,S,W ranked>"]
    lines += ["  " + line for player in players for line in general_choice(state, rules, battle, player)]
    if battle.kind == AMBUSH:
        lines.append("Only the ambushed stack recruits or retreats after an ambush.")
    return lines


def _rules_lines(rules: Rules) -> list[str]:
    return [f"Deploy at least {rules['battle.deploy_min_distance_cm']} cm apart; the players set up one unit "
            "(marker) at a time in turn, the defender first.",
            f"The battle lasts {rules['battle.max_turns']} turns, or ends when one army has lost "
            f"{int(rules['battle.break_fraction'] * 100)}% of its units or its General.",
            "Victory by Warmaster victory points; an army that withdrew can never win."]
