"""Step D: spending Empire Points in ascending order (COC-SPD, COC-BLD, COC-WIN, COC-GEN-9).

Each player's ordered actions, each with alternates, are tried at his turn
(COC-SPD-3) through `pbem.kit.sequential.carry_out`. Adjacency, control and costs
are checked at the moment an action is carried out, so claims chain outward
(COC-SPD-21). After every action the victory checks run and a win stops the
phase at once (COC-SPD-25, COC-WIN-6). Whatever a player leaves unspent above
`spending.carry_over_max` is lost (COC-SPD-22).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.kit.rulebook import RuleBook
from pbem.kit.sequential import carry_out
from pbem.kit.texts import counted
from pbem.rulesets.conquest import tiles as tilesmod
from pbem.rulesets.conquest.empire import (
    GAIN_BUILD,
    GAIN_CLAIM,
    GAIN_CONQUER,
    declare_winner,
    eliminate_if_empty,
    size_victory,
)
from pbem.rulesets.conquest.model import (
    FORTIFIED,
    ActionRecord,
    ConquestState,
    Siege,
    Spending,
)

VERBS = ("claim", "conquer", "siege", "build", "replace", "raid", "plunder")


@dataclass(frozen=True)
class Action:
    """One window-4 action: `claim T5`, `build castle T5`, `replace port T5`, `raid T9`..."""

    verb: str
    tile: str
    building: str = ""

    def __str__(self) -> str:
        return f"{self.verb} {self.building} {self.tile}" if self.building else f"{self.verb} {self.tile}"


class Treasury(Exception):
    """Internal: an action that cannot be done, with the reason the report shows."""


class Phase:
    """The Conquest & Build phase of one round: budgets, tallies and the actions themselves."""

    def __init__(self, state: ConquestState, gmap: HexMap, rules: RuleBook, dice: Dice) -> None:
        self.state = state
        self.gmap = gmap
        self.rules = rules
        self.dice = dice
        self.budget: dict[str, int] = {}
        self.claims: dict[str, int] = {}
        self.plunders: dict[tuple[str, str], int] = {}
        self.raids: dict[str, int] = {}
        self.records: dict[str, Spending] = {}
        self.current: ActionRecord | None = None

    # -- costs ---------------------------------------------------------------------
    def claim_cost(self, player: str, tile: str) -> int:
        """COC-SPD-4, -6, -8, COC-EVT-17."""
        base = int(self.rules["spending.costs.claim"])
        mountain = int(self.rules["spending.extra.mountain_claim"]) if tilesmod.is_mountain(self.gmap, tile) else 0
        if self.state.round.holds(player, "land_grab") and not self.claims.get(player):
            base = int(self.rules["events.land_grab_first_claim_base"])
            if not self.rules["events.land_grab_surcharges_apply"]:
                mountain = 0
        return base + mountain

    def conquer_cost(self, player: str, tile: str, owner: str, base: int, fortified_extra: int) -> int:
        """COC-SPD-5..8, COC-NAV-6/7/14."""
        cost = base + fortified_extra
        if tilesmod.is_mountain(self.gmap, tile):
            cost += int(self.rules["spending.extra.mountain_conquer"])
        return cost + self.naval_modifier(player, tile, owner)

    def naval_modifier(self, player: str, tile: str, owner: str) -> int:
        if not self.rules["naval.enabled"] or not tilesmod.is_shore(self.gmap, tile):
            return 0
        change = 0
        port_ok = self.rules["naval.no_port_effect"] != "discount_requires_port" or self.shore_port(player)
        if self.state.has_advantage(player, owner) and port_ok:
            change -= int(self.rules["naval.advantage_discount"])
        if self.state.has_advantage(owner, player):
            change += int(self.rules["naval.advantage_penalty"])
        return change

    def shore_port(self, player: str) -> bool:
        return any(t.owner == player and t.building == "port" and tilesmod.is_shore(self.gmap, i)
                   for i, t in self.state.tiles.items() if not self.state.siege_at(i))

    # -- reach -----------------------------------------------------------------------
    def reachable(self, player: str, tile: str) -> bool:
        """Next to one of his tiles, or a river/shore tile reached through his port (COC-SPD-20)."""
        if any(self.state.tiles.get(n) and self.state.tiles[n].owner == player for n in self.gmap.neighbours(tile)):
            return True
        return self.port_reach(player, tile)

    def port_reach(self, player: str, tile: str) -> bool:
        if not self.gmap.tiles[tile].has(*self.rules["buildings.port.reach_terrain"]):
            return False
        ports = [i for i, t in self.state.tiles.items() if t.owner == player and t.building == "port"
                 and not self.state.siege_at(i)]
        if self.rules["buildings.port.reach"] == "same_water":
            return any(self.gmap.tiles[p].water and self.gmap.tiles[p].water == self.gmap.tiles[tile].water
                       for p in ports)
        return bool(ports)

    def adjacent(self, player: str, tile: str) -> bool:
        return any(self.state.tiles.get(n) and self.state.tiles[n].owner == player for n in self.gmap.neighbours(tile))

    # -- one action --------------------------------------------------------------------
    def attempt(self, player: str, action: Action) -> str:
        """Carry out `action` for `player`, or say why not (and change nothing)."""
        record = ActionRecord(player, str(action), False)
        self.records[player].actions.append(record)
        self.current = record
        try:
            if self.state.empires[player].eliminated:
                raise Treasury(f"{self.who(player)} is out of the game")
            if action.tile not in self.state.tiles:
                raise Treasury(f"{action.tile} is not a land tile")
            siege = self.state.siege_at(action.tile)
            if siege and player not in (siege.besieger, siege.defender):
                raise Treasury(f"{self.label(action.tile)} is under siege; only {self.who(siege.besieger)} and "
                               f"{self.who(siege.defender)} may act on it")
            getattr(self, f"do_{action.verb}")(player, action)
        except Treasury as exc:
            record.reason = str(exc)
            return record.reason
        record.done = True
        self.records[player].spent += record.cost
        return ""

    def pay(self, player: str, cost: int) -> None:
        if cost > self.budget[player]:
            raise Treasury(f"costs {cost} EP, {self.budget[player]} left")
        self.budget[player] -= cost
        assert self.current is not None
        self.current.cost = cost

    def who(self, player: str) -> str:
        """An empire by its name: the reasons below are read in the public report too, so they
        name the empire rather than say "you"."""
        empire = self.state.empires.get(player)
        return empire.name if empire else player

    def label(self, tile: str) -> str:
        return self.gmap.label(tile)

    def do_claim(self, player: str, action: Action) -> None:
        tile = self.state.tiles[action.tile]
        if tile.owner:
            raise Treasury(f"{self.label(action.tile)} is held by {self.who(tile.owner)}")
        if not self.reachable(player, action.tile):
            raise Treasury(f"{self.label(action.tile)} is not next to {self.who(player)}'s tiles")
        self.pay(player, self.claim_cost(player, action.tile))
        tile.owner = player                              # COC-SPD-24: markers on it stay
        self.claims[player] = self.claims.get(player, 0) + 1
        self.check_size(player, GAIN_CLAIM, f"claims {self.label(action.tile)}")

    def owner_beaten(self, player: str, tile: str, verb: str) -> str:
        owner = self.state.tiles[tile].owner
        if not owner or owner == player:
            raise Treasury(f"{self.label(tile)} is not another player's tile")
        if not self.state.round.wins_against(player, owner):
            raise Treasury(f"{self.who(player)} did not win a battle against {self.who(owner)} this round, so may not "
                           f"{verb} their tiles")
        return owner

    def do_conquer(self, player: str, action: Action) -> None:
        siege = self.state.siege_at(action.tile)
        if siege and siege.defender == player:
            return self.reconquer(player, action, siege)
        owner = self.owner_beaten(player, action.tile, "conquer")
        if not self.reachable(player, action.tile):
            raise Treasury(f"{self.label(action.tile)} is not next to {self.who(player)}'s tiles")
        self.shore_allowed(player, action.tile, owner)
        tile = self.state.tiles[action.tile]
        fortified = int(self.rules["spending.extra.fortified_conquer"]) if tile.building in FORTIFIED else 0
        self.pay(player, self.conquer_cost(player, action.tile, owner, int(self.rules["spending.costs.conquer"]),
                                           fortified))
        tile.owner = player
        if tile.building == "mine" and self.rules["buildings.mine.destroyed_on_conquest"]:
            tile.building = ""                           # COC-SPD-19
        self.after_loss(player, owner, knockout=True)
        self.check_size(player, GAIN_CONQUER, f"conquers {self.label(action.tile)}")

    def shore_allowed(self, player: str, tile: str, owner: str) -> None:
        """`naval.no_port_effect = "no_shore_conquest"`: naval players need a shore port (COC-NAV-12)."""
        naval = self.rules["naval.players"]
        if (self.rules["naval.enabled"] and self.rules["naval.no_port_effect"] == "no_shore_conquest"
                and player in naval and owner in naval and tilesmod.is_shore(self.gmap, tile)
                and not self.shore_port(player)):
            raise Treasury(f"{self.who(player)} needs a port on a shore tile to conquer shore tiles "
                           "(naval.no_port_effect)")

    def reconquer(self, player: str, action: Action, siege: Siege) -> None:
        """COC-SIE-12: the defender takes the tile back; the siege ends."""
        if not self.state.round.wins_against(player, siege.besieger):
            raise Treasury(f"{self.who(player)} did not win a battle against {self.who(siege.besieger)} this round")
        if self.rules["siege.defender_reconquest_needs_adjacency"] and not self.reachable(player, action.tile):
            raise Treasury(f"{self.label(action.tile)} is not next to {self.who(player)}'s tiles")
        cost = self.conquer_cost(player, action.tile, siege.besieger, int(self.rules["spending.costs.conquer"]),
                                 int(self.rules["siege.defender_reconquest_fortified_extra"]))
        self.pay(player, cost)
        self.state.sieges.remove(siege)
        self.state.tiles[action.tile].owner = player
        self.after_loss(player, siege.besieger, knockout=True)
        self.check_size(player, GAIN_CONQUER, f"reconquers {self.label(action.tile)}")

    def do_siege(self, player: str, action: Action) -> None:
        """COC-SIE-2..5: like a conquest of a castle or city, if the owner consents."""
        if not self.rules["siege.enabled"]:
            raise Treasury("sieges are not used in this campaign (siege.enabled)")
        tile = self.state.tiles[action.tile]
        if self.state.siege_at(action.tile):
            raise Treasury(f"{self.label(action.tile)} is already under siege")
        if tile.building not in FORTIFIED:
            raise Treasury(f"{self.label(action.tile)} has no castle or city to besiege")
        owner = self.owner_beaten(player, action.tile, "besiege")
        if not self.reachable(player, action.tile):
            raise Treasury(f"{self.label(action.tile)} is not next to {self.who(player)}'s tiles")
        if player not in self.state.round.siege_consent.get(owner, []):
            raise Treasury(f"{self.who(owner)} did not consent to a siege by {self.who(player)}")
        self.shore_allowed(player, action.tile, owner)
        cost = int(self.rules["siege.start_cost"]) + int(self.rules["siege.start_fortified_extra"])
        if tilesmod.is_mountain(self.gmap, action.tile):
            cost += int(self.rules["siege.start_mountain_extra"])
        self.pay(player, cost + self.naval_modifier(player, action.tile, owner))
        tile.owner = player                              # COC-SIE-4
        self.state.sieges.append(Siege(action.tile, player, owner, self.state.round.number))
        self.check_size(player, GAIN_CONQUER, f"besieges {self.label(action.tile)}")

    def own_unbesieged(self, player: str, tile: str) -> None:
        if self.state.tiles[tile].owner != player:
            raise Treasury(f"{self.who(player)} does not control {self.label(tile)}")
        if self.state.siege_at(tile):
            raise Treasury(f"{self.label(tile)} is under siege; nobody may build there")   # COC-SIE-14

    def placement(self, tile: str, building: str) -> None:
        if building not in ("castle", "city", "mine", "port"):
            raise Treasury(f"{building!r} is not a building (castle, city, mine, port)")
        if not tilesmod.building_allowed(self.gmap, tile, building, self.rules):
            raise Treasury(f"a {building} cannot stand on {'/'.join(self.gmap.tiles[tile].terrains)} "
                           f"({self.label(tile)})")

    def do_build(self, player: str, action: Action) -> None:
        """COC-BLD-2, -4..10, -12: on an empty tile he controls; a city only on his castle."""
        self.own_unbesieged(player, action.tile)
        tile = self.state.tiles[action.tile]
        needs = self.rules["buildings.city.requires"]
        if action.building == "city":
            if tile.building != needs:
                raise Treasury(f"a city needs a {needs} on {self.label(action.tile)}")
        elif tile.building:
            raise Treasury(f"{self.label(action.tile)} already has a {tile.building}; a tile holds "
                           f"{self.rules['buildings.max_per_tile']} building (buildings.max_per_tile); use replace")
        self.put(player, action, "build")

    def do_replace(self, player: str, action: Action) -> None:
        """COC-BLD-3, -13: swap the building for a different one under the same placement rules."""
        self.own_unbesieged(player, action.tile)
        tile = self.state.tiles[action.tile]
        if not tile.building:
            raise Treasury(f"{self.label(action.tile)} has no building to replace (use build)")
        if tile.building == action.building:
            raise Treasury(f"{self.label(action.tile)} already has a {tile.building}")
        needs = self.rules["buildings.city.requires"]
        if action.building == "city" and tile.building != needs:
            raise Treasury(f"a city needs a {needs} on {self.label(action.tile)}")
        self.put(player, action, "replace")

    def put(self, player: str, action: Action, cost: str) -> None:
        """The placement rules, the price (`spending.costs.<cost>`), and a city's size check."""
        self.placement(action.tile, action.building)
        self.pay(player, int(self.rules[f"spending.costs.{cost}"]))
        self.state.tiles[action.tile].building = action.building
        if action.building == "city":
            self.check_size(player, GAIN_BUILD, f"builds a city on {self.label(action.tile)}")

    def do_raid(self, player: str, action: Action) -> None:
        """COC-SPD-10..15."""
        tile = self.state.tiles[action.tile]
        if tile.owner == player:
            raise Treasury(f"{self.who(player)} cannot raid its own tile")
        if self.rules["raid.requires_adjacency"] and not self.adjacent(player, action.tile):
            raise Treasury(f"{self.label(action.tile)} is not next to {self.who(player)}'s tiles")
        limit = int(self.rules["raid.max_per_tile_per_round"])
        if limit and self.raids.get(action.tile, 0) >= limit:
            raise Treasury(f"{self.label(action.tile)} was already raided {counted(limit, 'time')} this round")
        self.pay(player, int(self.rules["spending.costs.raid"]))
        self.raids[action.tile] = self.raids.get(action.tile, 0) + 1
        mult, sides = int(self.rules["raid.multiplier"]), int(self.rules["raid.sides"])
        assert self.current is not None
        if not tile.owner:
            roll = self.dice.roll(f"Raid by {player} on free {action.tile}", int(self.rules["raid.free_dice"]), sides)
            gain = roll.total * mult
        else:
            victim = tile.owner
            roll = self.dice.roll(f"Raid by {player} on {victim}'s {action.tile}", int(self.rules["raid.player_dice"]),
                                  sides)
            gain = min(roll.total * mult, self.unguarded(victim, action.tile))
            self.state.empires[victim].treasury -= gain
        self.state.empires[player].treasury += gain
        self.current.faces = list(roll.faces)
        self.current.gold = gain

    def unguarded(self, victim: str, tile: str) -> int:
        """COC-SPD-12: treasury minus 25 per castle and per city (all of them, or the raided tile's)."""
        tiles = [tile] if self.rules["raid.guard_scope"] == "tile" else list(self.state.tiles)
        guard = 0
        for ident in tiles:
            building = self.state.tiles[ident].building
            if building in FORTIFIED and self.state.fortification_owner(ident) == victim:
                guard += int(self.rules[f"raid.guard_per_{building}"])
        return max(0, self.state.empires[victim].treasury - guard)

    def do_plunder(self, player: str, action: Action) -> None:
        """COC-SPD-16..18: needs a win (`plunder.requires_win`), no adjacency; one per win against that
        owner. Without the win requirement a victim counts as beaten once, so the limit still holds."""
        tile = self.state.tiles[action.tile]
        if self.rules["plunder.requires_win"]:
            owner = self.owner_beaten(player, action.tile, "plunder")
        else:
            owner = tile.owner
            if not owner or owner == player:
                raise Treasury(f"{self.label(action.tile)} is not another player's tile")
        if tile.building in self.rules["plunder.blocked_by"]:
            raise Treasury(f"{self.label(action.tile)} has a {tile.building} and cannot be plundered")
        if self.rules["plunder.requires_adjacency"] and not self.adjacent(player, action.tile):
            raise Treasury(f"{self.label(action.tile)} is not next to {self.who(player)}'s tiles")
        per_win = int(self.rules["plunder.limit_per_win"])
        used = self.plunders.get((player, owner), 0)
        if per_win and used >= per_win * plunder_wins(self.state, self.rules, player, owner):
            if self.rules["plunder.requires_win"]:
                raise Treasury(f"{self.who(player)} already plundered {self.who(owner)} once for each battle "
                               "won against it")
            raise Treasury(f"{self.who(player)} already plundered {self.who(owner)} {counted(used, 'time')} this round "
                           "(plunder.limit_per_win)")
        self.pay(player, int(self.rules["spending.costs.plunder"]))
        self.plunders[(player, owner)] = used + 1
        if tile.building in self.rules["plunder.removes_buildings"]:
            tile.building = ""
        else:
            tile.owner = ""
            self.after_loss(player, owner, knockout=bool(self.rules["victory.plunder_knockout_wins"]))

    # -- consequences ------------------------------------------------------------------
    def after_loss(self, player: str, owner: str, knockout: bool) -> None:
        """COC-GEN-9, COC-WIN-4, COC-WIN-8."""
        if eliminate_if_empty(self.state, owner, self.state.round.number):
            self.state.round.log.append(f"{owner} has lost his last tile and is out of the game")
            if knockout and self.rules["victory.knockout_by_conquest_wins"]:
                declare_winner(self.state, player, f"knocked {owner} out of the game")

    def check_size(self, player: str, gain: str, what: str) -> None:
        if size_victory(self.state, player, gain, self.rules):
            declare_winner(self.state, player, f"{what} and reaches the victory size "
                                               f"{self.rules['victory.target_size']}")


def plunder_wins(state: ConquestState, rules: RuleBook, player: str, owner: str) -> int:
    """How many wins the plunder limit counts against `owner` (COC-SPD-18): the real ones, and
    at least one when `plunder.requires_win` is false."""
    wins = state.round.wins_against(player, owner)
    return wins if rules["plunder.requires_win"] else max(1, wins)


def may_plunder(state: ConquestState, rules: RuleBook, player: str, owner: str) -> bool:
    """Whether `player` may plunder tiles of `owner` at all this round (COC-SPD-16)."""
    return bool(owner) and owner != player and plunder_wins(state, rules, player, owner) > 0


def run_spending(state: ConquestState, gmap: HexMap, rules: RuleBook, orders: Mapping[str, Sequence[Sequence[Action]]],
                 dice: Dice) -> list[Spending]:
    """COC-SPD-1..3, -22, -23, -25: every player's list in ascending order; carry-over applied."""
    phase = Phase(state, gmap, rules, dice)
    players = [p for p in state.round.order if p in state.active()]
    carry_max = int(rules["spending.carry_over_max"])

    def before(player: str) -> None:
        award = state.round.award(player)
        available = award.available if award else state.empires[player].carried_ep
        phase.budget[player] = available
        phase.records[player] = Spending(player, available)

    def after(player: str) -> None:
        record = phase.records[player]
        left = phase.budget[player]
        record.carried = min(left, carry_max)
        record.lost = left - record.carried
        state.empires[player].carried_ep = record.carried

    run = carry_out(players, orders, phase.attempt, stop=lambda: bool(state.winner), before=before, after=after)
    if run.stopped_after:
        after(run.stopped_after)
        for player in run.not_reached:
            state.round.log.append(f"{player}'s conquest orders were not carried out: the campaign is won")
    state.round.spending = [phase.records[p] for p in players if p in phase.records]
    return state.round.spending
