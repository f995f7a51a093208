"""Step A.2: mine revenue and exhaustion (COC-REV).

Players are rolled for in ascending order and each player's mines in tile
order, so the dice log reads like the report. Mines are the only income
(COC-REV-8).
"""

from __future__ import annotations

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.kit.rulebook import RuleBook
from pbem.kit.territories import natural_key
from pbem.rulesets.conquest import tiles as tilesmod
from pbem.rulesets.conquest.model import ConquestState, MineRevenue


def collect(state: ConquestState, gmap: HexMap, rules: RuleBook, dice: Dice) -> list[MineRevenue]:
    fooled = {e.target for e in state.round.events if e.event == "fools_gold"}
    out: list[MineRevenue] = []
    for player in state.round.order:
        if player not in state.active():
            continue
        for ident in sorted(state.tiles, key=natural_key):
            tile = state.tiles[ident]
            if tile.owner == player and tile.building == "mine":
                out.append(_mine(state, gmap, rules, dice, player, ident, player in fooled))
    state.round.revenue = out
    return out


def _mine(state: ConquestState, gmap: HexMap, rules: RuleBook, dice: Dice, player: str, ident: str,
          fooled: bool) -> MineRevenue:
    rate = tilesmod.mine_rate(gmap, ident, rules)
    record = MineRevenue(player, ident, rate)
    if fooled and not rules["events.fools_gold_rolls_mines"]:
        record.skipped = "fools_gold"            # COC-REV-9: not rolled, cannot be exhausted
        return record
    table = rules[f"revenue.mines.{rate}"]
    roll = dice.roll(f"Mine at {ident} ({player}, {rate})", int(table["dice"]), int(table["sides"]))
    record.faces = list(roll.faces)
    if not fooled:
        record.gold = roll.total * int(table["multiplier"])
        state.empires[player].treasury += record.gold        # COC-REV-4
    else:
        record.skipped = "fools_gold"
    if rules["revenue.exhaust_when_all_dice_equal"] and len(set(roll.faces)) == 1:
        record.exhausted = True                  # COC-REV-5: paid, then removed; the banner stays
        state.tiles[ident].building = ""
    return record
