"""Simulated tribes and GM of a Wandering Tribes season (tests/season/agents.py lists it).

Three players on the four-tribes map, mode together (quick) or one_on_one (long): at setup a nation
and ranked towns (a silent player is given a nation by the GM's NATION); each strategic round
every stack is tried with random first exits and camp-fire policies, now and then a division, a
rest when allowed and a recruit list for the terrain ahead; both sides of a battle report the
same result drawn from the battle's own seed, with losses and retreat preferences. The campaign
ends by itself after `campaign.end_after_rounds`.
"""

from __future__ import annotations

from random import Random
from typing import Any

from pbem.rulesets.base import Stage
from tests.season.agents import SCHEDULE, command_of, players, typo_of
from tests.season.harness import Season, Setup

SIDES = ["N", "E", "S", "W"]


class WanderingTribes:
    max_ticks = 400

    def __init__(self, quick: bool = False) -> None:
        mode = "together" if quick else "one_on_one"
        self.setup = Setup("wt_four_tribes", players([("anna", "Anna's Wanderers", "A"), ("ben", "Ben's Horde", "B"),
                                                     ("cara", "Cara's Host", "C")]),
                           SCHEDULE | {"setup": "2d", "orders": "2d", "battle": "2d"},
                           {"campaign": {"mode": mode, "end_after_rounds": 4 if quick else 10}})

    def _view(self, season: Season) -> Any:
        from pbem.rulesets.wandering_tribes.ruleset import RULESET

        return RULESET.view(season.context())

    def orders(self, season: Season, pid: str, stage: Stage) -> list[str]:
        make = {"setup": self._setup, "orders": self._orders, "battle": self._battle}
        return make[stage.kind](season.rng, self._view(season), pid) if stage.kind in make else []

    def _setup(self, rng: Random, view: Any, pid: str) -> list[str]:
        towns = list(view.map.towns())
        rng.shuffle(towns)
        nation = rng.choice(["empire", "undead", "chaos", "orcs_goblins", "high_elves", "dwarfs", "bretonnians",
                             "kislevites"])
        return [f"NATION {nation}", f"ARMY {pid.title()}'s tribe", "TOWNS " + ", ".join(towns[:3])]

    def _orders(self, rng: Random, view: Any, pid: str) -> list[str]:
        state, gmap = view.state.state, view.map
        mine = state.stacks_of(pid)
        lines = [rng.choice(["REST IF-ALLOWED", "REST NO"])]
        if mine and rng.random() < 0.2 and len(mine[0].markers) >= 6:
            lines.append(self._divide(rng, view, mine[0]))
        for stack in mine:
            first = ",".join(rng.sample(SIDES, 2))
            camp = rng.choice(["STOP", "PASS"])
            lines.append(f"TRY {stack.id} {rng.choice(['UNTIL-SUCCESS', 'ALWAYS'])} FIRST {first} CAMPFIRE {camp}")
        nation = view.rules["nations"][state.players[pid].nation]
        terrain = rng.choice(["towns", "villages", "plains", "woods", "hills"])
        cell = nation["recruit"][terrain]
        if cell:
            offer = rng.choice(cell)
            lines.append(f"RECRUIT ALL {terrain}: {rng.randint(1, 3)} {offer['type']}")
        if view.rules["campaign"]["mode"] == "one_on_one":
            lines.append(rng.choice(["VOLUNTEER YES", "VOLUNTEER NO"]))
        del gmap
        return lines

    def _divide(self, rng: Random, view: Any, stack: Any) -> str:
        """A random split (sometimes refused by the rules: the ack says why)."""
        ids = [m.id for m in stack.markers]
        rng.shuffle(ids)
        half = len(ids) // 2
        return f"DIVIDE {stack.id} INTO {stack.id}:{','.join(ids[:half])} {stack.id}x:{','.join(ids[half:])}"

    def _battle(self, rng: Random, view: Any, pid: str) -> list[str]:
        from pbem.rulesets.wandering_tribes.battle_results import sides

        game = view.state
        lines: list[str] = []
        for battle in game.battles:
            players = sides(game.state, battle)
            if pid not in players:
                continue
            fate = Random(f"{game.turn}-{battle.id}")           # both sides draw the same facts
            winner = fate.choice([*players, "DRAW"])
            lines.append(f"RESULT {battle.id} " + ("DRAW" if winner == "DRAW" else f"WINNER {winner}"))
            for stack_id in battle.stacks():
                stack = game.state.stacks[stack_id]
                lost = [m.id for m in stack.markers if fate.random() < 0.2]
                if lost:
                    lines.append(f"LOST {stack.owner} {', '.join(lost)}")
            lines.append(f"IFLOSE {battle.id} RETREAT {', '.join(rng.sample(SIDES, 4))}")
        return lines

    def ruling(self, season: Season, task: str) -> str:
        return command_of(task)

    def typo(self, rng: Random) -> str:
        return typo_of(rng, ["EXTNED 1d", "NATOIN anna empire"], ["NATION nobody empire"])

    def end(self, season: Season) -> list[str]:
        return []                                   # the campaign ends by itself after end_after_rounds
