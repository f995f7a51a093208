"""Battle-phase setup (WT-BAT-1..7, 13): every locked pair fights; players with nothing locked are
paired at random (mode together) or ambushed (mode one_on_one); battles are numbered by tile id,
then defender stack id. Random picks follow WT-GEN-9: one dn over the candidates in order, no
roll for a single candidate; a random ordering draws d(n), d(n-1), ..."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.kit.dice import Dice, dice_spec
from pbem.kit.places import natural_key
from pbem.rulesets.wandering_tribes.model import State
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.squares import SquareMap

LOCKED = "locked"
PAIRED = "paired"
AMBUSH = "ambush"


@dataclass
class Battle:
    id: int
    kind: str
    tile: str
    defender: str                 # stack id
    attacker: str = ""            # stack id; "" in an ambush
    ambusher: str = ""            # the ambushing player (mode one_on_one)

    def stacks(self) -> list[str]:
        return [s for s in (self.defender, self.attacker) if s]


def pick_one(dice: Dice, items: Sequence[str], purpose: str, log: list[str]) -> str:
    """WT-GEN-9: a uniform choice, one dn over the items in their order; no roll when n = 1."""
    if len(items) == 1:
        log.append(f"{purpose}: {items[0]} (the only candidate, no roll)")
        return items[0]
    face = dice.roll(f"{purpose} (d{len(items)} over {', '.join(items)})", 1, len(items)).total
    log.append(f"{purpose}: d{len(items)} = {face} -> {items[face - 1]}")
    return items[face - 1]


def draw_order(dice: Dice, items: Sequence[str], purpose: str, log: list[str]) -> list[str]:
    """WT-GEN-9: a random ordering, first with dn, the next with d(n-1) from the rest, ..."""
    rest, out = list(items), list[str]()
    while rest:
        chosen = pick_one(dice, rest, f"{purpose}, draw {len(out) + 1}", log)
        out.append(chosen)
        rest.remove(chosen)
    return out


def setup(state: State, rules: Rules, gmap: SquareMap, dice: Dice,
          final: bool = False) -> tuple[list[Battle], list[str]]:
    """The phase's battles, numbered, and the log of every pick; `final` (the campaign's end,
    gap 27) fights only the locked pairs."""
    log: list[str] = []
    battles = [Battle(0, LOCKED, lock.tile, lock.defender, lock.attacker) for lock in state.locks]
    idle = [p for p in state.active() if state.stacks_of(p) and not state.locked_count(p)]
    how = "none" if final else str(rules.per_mode("battle.idle_players"))
    if how == "pairing":
        battles += _pairs(state, rules, dice, idle, log)
    elif how == "ambush":
        battles += _ambushes(state, rules, dice, idle, log)
    battles.sort(key=lambda b: (gmap.order(b.tile), natural_key(b.defender)))
    for number, battle in enumerate(battles, 1):
        battle.id = number
    return battles, log


def _pick_stacks(state: State, dice: Dice, players: list[str], log: list[str]) -> dict[str, str]:
    return {p: pick_one(dice, [s.id for s in state.stacks_of(p)], f"stack of {p} for the battle phase", log)
            for p in players}


def _pairs(state: State, rules: Rules, dice: Dice, idle: list[str], log: list[str]) -> list[Battle]:
    """WT-BAT-2..5: picks in seat order, a random order, pairs first with second, a location die."""
    picked = _pick_stacks(state, dice, idle, log)
    order = draw_order(dice, idle, "pairing", log)
    if len(order) % 2:
        log.append(f"{order[-1]} is the odd one out and fights no battle this phase")
    out = []
    count, sides = dice_spec(rules["battle.location_die"])
    for first, second in zip(order[::2], order[1::2], strict=False):
        face = dice.roll(f"battle location {first} v {second}", count, sides).total
        host, guest = (first, second) if face in rules["battle.location_first_on"] else (second, first)
        tile = state.stacks[picked[host]].tile
        log.append(f"location die {face}: {picked[host]}'s tile {tile} ({host} defends)")
        out.append(Battle(0, PAIRED, tile, picked[host], picked[guest]))
    return out


def _ambushes(state: State, rules: Rules, dice: Dice, idle: list[str], log: list[str]) -> list[Battle]:
    """WT-BAT-6/7: a random stack of each idle player, ambushed in its tile by a volunteer, else
    by any other player in the campaign."""
    out = []
    everyone = state.active() if rules["battle.ambush_attacker_pool"] == "active_players" else list(state.seats)
    for player in idle:
        stack = pick_one(dice, [s.id for s in state.stacks_of(player)], f"stack of {player} to be ambushed", log)
        others = [p for p in everyone if p != player]
        pool = [p for p in others if state.players[p].volunteer and not state.players[p].out] or others
        if not pool:
            log.append(f"nobody can ambush {stack}")
            continue
        ambusher = pick_one(dice, pool, f"ambusher of {stack}", log)
        out.append(Battle(0, AMBUSH, state.stacks[stack].tile, stack, "", ambusher))
    return out
