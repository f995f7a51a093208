"""Simulated factions and GM of a Star Wars Miniatures season (tests/season/agents.py lists it).

Three players on the Ten Factions map: each ranks his own faction first and a start region;
sends a starting squad legal for his faction with the 100 XP and an upgrade; in each turn's
initiative window he may ally and names a stance, buys an upgrade when a troop can afford one;
in economics he reinforces or builds or buys an advantage; in action his squads march on the
nearest enemy territory (so battles come), with a strategic move; both sides of a battle report
the result they draw from the battle's own seed (agreeing) unless one remembers it otherwise
(the GM is asked and answers). The GM ends the campaign after a few turns (quick) or more.
"""

from __future__ import annotations

from random import Random
from typing import Any

from pbem.rulesets.base import Stage
from tests.season.agents import SCHEDULE, command_of, players, typo_of
from tests.season.harness import Season, Setup

FACTIONS = {"red": "Imperial", "blue": "Rebel", "green": "Mandalorian"}
SQUADS = {"Imperial": "SQUAD Vanguard: Darth Vader, Sith Lord, Elite Trooper x5, Stormtrooper x6",
          "Rebel": "SQUAD Rogues: Luke Skywalker, Jedi Knight, Rebel Commando, Rebel Trooper x12",
          "Mandalorian": "SQUAD Clan: Mandalorian Captain, Mandalorian Soldier x8",
          "Old Republic": "SQUAD Order: Jedi Knight x2, Republic Trooper x6",
          "Republic": "SQUAD Legion: Clone Trooper x9", "Sith": "SQUAD Legion: Sith Trooper x9",
          "Separatist": "SQUAD Legion: Battle Droid x16", "New Republic": "SQUAD Legion: New Republic Trooper x10",
          "Yuuzhan Vong": "SQUAD Legion: Yuuzhan Vong Warrior x6", "Fringe": "SQUAD Legion: Bounty Hunter x4"}
REINFORCE = {"Imperial": "Stormtrooper", "Rebel": "Rebel Trooper", "Mandalorian": "Mandalorian Soldier"}
BUILD = {"Imperial": "Elite Trooper x5, Stormtrooper x10", "Rebel": "Rebel Commando, Rebel Trooper x12",
         "Mandalorian": "Mandalorian Soldier x6"}
CHEAP = ("Attack", "Defense", "Demolish", "Gunner")


class StarWarsMiniatures:
    max_ticks = 400

    def __init__(self, quick: bool = False) -> None:
        self.turns = 3 if quick else 6
        self.setup = Setup("swm_ten_factions", players([(p, f, f[0]) for p, f in FACTIONS.items()]),
                           SCHEDULE | {"factions": "2d", "squads": "2d", "initiative": "2d", "economics": "2d",
                                       "action": "2d", "battle": "3d"})

    def _view(self, season: Season) -> Any:
        from pbem.rulesets.star_wars_miniatures.ruleset import RULESET

        return RULESET.view(season.context())

    def orders(self, season: Season, pid: str, stage: Stage) -> list[str]:
        make = {"factions": self._factions, "squads": self._squads, "initiative": self._initiative,
                "economics": self._economics, "action": self._action, "battle": self._battle}
        return make[stage.kind](season.rng, self._view(season), pid) if stage.kind in make else []

    def _factions(self, rng: Random, view: Any, pid: str) -> list[str]:
        regions = rng.sample(sorted(view.map.regions), 3)
        lines = [f"PICK {FACTIONS[pid]}", *(f"REGION {r}" for r in regions)]
        return lines + (["PICK Jedi Council"] if rng.random() < 0.1 else [])    # a typo: answered as a problem

    def _squads(self, rng: Random, view: Any, pid: str) -> list[str]:
        faction = view.rules[f"factions.{view.state.players[pid].faction}.name"]
        if view.state.squads_of(pid) or faction not in SQUADS:
            return []
        others = [p for p in view.state.players if p != pid]
        ally = [f"ALLY {pid} {rng.choice(others)}"] if rng.random() < 0.4 else []
        return [SQUADS[faction], "XP 1 60", "XP 2 40", f"UPGRADE 1 {rng.choice(CHEAP[:2])}",
                f"STANCE {rng.choice(['early', 'late'])}", *ally]

    def _initiative(self, rng: Random, view: Any, pid: str) -> list[str]:
        from pbem.rulesets.star_wars_miniatures import troops

        lines = []
        for squad in view.state.squads_of(pid):
            for troop in squad.troops:
                if troops.banked(troop) + troops.pending(troop) >= 50 and rng.random() < 0.5:
                    lines.append(f"UPGRADE {troop.id} {rng.choice(CHEAP)}")
        others = [p for p in view.state.players if p != pid]
        if rng.random() < 0.4:
            lines.append(f"ALLY {pid} {rng.choice(others)}")
        return lines + [f"STANCE {rng.choice(['early', 'late'])}"] if lines or rng.random() < 0.7 else []

    def _economics(self, rng: Random, view: Any, pid: str) -> list[str]:
        state = view.state
        faction = view.rules[f"factions.{state.players[pid].faction}.name"]
        mine = state.squads_of(pid)
        lines = []
        damaged = [s for s in mine if s.damaged]
        if damaged:
            lines.append(f"REINFORCE {damaged[0].id}: {REINFORCE.get(faction, 'Stormtrooper')} x3")
        if rng.random() < 0.5 and faction in BUILD:
            lines.append(f"BUILD N{state.turn}{pid[:1]}: {BUILD[faction]}")
        if rng.random() < 0.3:
            lines.append(rng.choice(["BUY medical_officer", "BUY training_officer ELSE BUY logistics_officer",
                                     f"BUY fortify {state.players[pid].capital}"]))
        return lines or ["BUY nothing"]            # a line the ack refuses: the faction spends nothing

    def _action(self, rng: Random, view: Any, pid: str) -> list[str]:
        state, places = view.state, view.map
        enemy = [t for t, land in state.lands.items() if land.active and land.owner and land.owner != pid]
        lines = []
        for squad in state.squads_of(pid):
            if squad.damaged or not enemy:
                continue
            near = min(enemy, key=lambda t: (_distance(places, state, squad.place, t), t))
            path = _path(places, state, pid, squad.place, near)
            if path and rng.random() < 0.8:
                lines.append(f"MOVE {squad.id} {' '.join(path[:3])}")
        home = state.players[pid].capital
        if state.squads_of(pid) and rng.random() < 0.3:
            lines.append(f"STRATEGIC {state.squads_of(pid)[0].id} TO {home}")
        return lines

    def _battle(self, rng: Random, view: Any, pid: str) -> list[str]:
        state = view.state
        lines = []
        for battle in state.battles:
            squads = [state.squads[s] for s in battle.attackers + battle.defenders if s in state.squads]
            if pid not in {s.owner for s in squads} | set(battle.side) | {state.owner(battle.place)}:
                continue
            agreed = Random(f"{state.turn}-{battle.id}")
            pick = rng if rng.random() < 0.15 else agreed
            lines.append(f"WINNER {battle.id} {pick.choice(['attacker', 'defender'])}")
            troops = sorted(t.id for s in squads for t in s.troops)
            for victim in pick.sample(troops, min(3, len(troops))):
                lines.append(f"KILLED {victim} BY none")
        return lines

    def ruling(self, season: Season, task: str) -> str:
        return command_of(task)

    def typo(self, rng: Random) -> str:
        return typo_of(rng, ["EXTNED 1d", "RESLOVE"], ["RESULT B9-9-9 attacker"])

    def end(self, season: Season) -> list[str]:
        state = self._view(season).state
        return ["FINISH the season has run long enough"] if state.turn >= self.turns else []


def _distance(places: Any, state: Any, start: str, goal: str) -> int:
    path = _bfs(places, state, start, goal)
    return len(path) if path else 99


def _path(places: Any, state: Any, pid: str, start: str, goal: str) -> list[str]:
    return _bfs(places, state, start, goal)


def _bfs(places: Any, state: Any, start: str, goal: str) -> list[str]:
    seen = {start: [start]}
    queue = [start]
    while queue:
        here = queue.pop(0)
        if here == goal:
            return seen[here][1:]
        for nxt in sorted(places.neighbours(here)):
            if nxt not in seen and state.lands[nxt].active:
                seen[nxt] = seen[here] + [nxt]
                queue.append(nxt)
    return []
