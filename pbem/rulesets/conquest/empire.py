"""Empire size, holdings, elimination and the victory checks (COC-ORD-1, COC-GEN-9, COC-WIN).

Size is counted from the map as it stands: a city tile 2, any other tile 1,
a besieged tile `siege.besieged_tile_weight` (or `besieged_city_weight`) to
each of besieger and defender (COC-SIE-6).
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.kit.rulebook import RuleBook
from pbem.rulesets.conquest.model import ConquestState

# What kind of gain an action is, for `victory.trigger` (COC-WIN-5).
GAIN_CLAIM, GAIN_CONQUER, GAIN_BUILD, GAIN_SIEGE = "claim", "conquer", "build", "siege"
TRIGGERS = {
    "any_gain": (GAIN_CLAIM, GAIN_CONQUER, GAIN_BUILD, GAIN_SIEGE),
    "claim_only": (GAIN_CLAIM,),
    "claim_or_conquer": (GAIN_CLAIM, GAIN_CONQUER),
}


@dataclass(frozen=True)
class Holdings:
    size: float
    tiles: int
    cities: int
    castles: int                  # castles, plus cities when they count as castles in the tie-break


def holdings(state: ConquestState, player: str, rules: RuleBook, besieged_counts: bool = True) -> Holdings:
    """COC-ORD-1, COC-ORD-4/5, COC-SIE-6, COC-SIE-15."""
    size = 0.0
    tiles = cities = castles = 0
    city_weight = float(rules["size.city_tile_weight"])
    tile_weight = float(rules["size.tile_weight"])
    for ident, tile in state.tiles.items():
        siege = state.siege_at(ident)
        fort = state.fortification_owner(ident)
        if fort == player and tile.building in ("castle", "city"):
            cities += tile.building == "city"
            castles += tile.building == "castle"
        if siege and player in (siege.besieger, siege.defender):
            if besieged_counts:
                key = "siege.besieged_city_weight" if tile.building == "city" else "siege.besieged_tile_weight"
                size += float(rules[key])
            tiles += player == siege.besieger
        elif not siege and tile.owner == player:
            tiles += 1
            size += city_weight if tile.building == "city" else tile_weight
    if rules["size.cities_count_as_castles_in_tiebreak"]:
        castles += cities
    return Holdings(size, tiles, cities, castles)


def size_of(state: ConquestState, player: str, rules: RuleBook) -> float:
    return holdings(state, player, rules).size


def has_anything(state: ConquestState, player: str) -> bool:
    """A tile with his banner, or a castle or city he still holds under siege (COC-GEN-9)."""
    return any(t.owner == player for t in state.tiles.values()) or any(s.defender == player for s in state.sieges)


def eliminate_if_empty(state: ConquestState, player: str, round_no: int) -> bool:
    """COC-GEN-9: out of the game, treasury and carried EP discarded. True if he went out now."""
    empire = state.empires[player]
    if empire.eliminated or has_anything(state, player):
        return False
    empire.eliminated = True
    empire.eliminated_round = round_no
    empire.treasury = 0
    empire.carried_ep = 0
    state.naval = [n for n in state.naval if player not in (n.holder, n.subject)]
    return True


def size_victory(state: ConquestState, player: str, gain: str, rules: RuleBook) -> bool:
    """COC-WIN-2/3/5/9: does this gain bring `player` to the victory size?"""
    if gain not in TRIGGERS[str(rules["victory.trigger"])]:
        return False
    size = holdings(state, player, rules, besieged_counts=bool(rules["victory.besieged_counts"])).size
    return size >= float(rules["victory.target_size"])


def declare_winner(state: ConquestState, player: str, reason: str) -> None:
    """COC-WIN-6: the campaign ends; later actions are not carried out."""
    if not state.winner:
        state.winner = player
        state.win_reason = reason
