"""Simulated kingdoms and GM of a Mighty Kingdoms season (tests/season/agents.py lists it).

Three kingdoms on the three-realm map play one campaign year of three summer months (quick, on
the starting tiles nearest each other) or two full years: window S with a
list, starting tiles, ring and army place; the GM approves (or sends a list back); each summer
month every kingdom orders its armies (mostly Moves towards unexplored tiles and its enemies,
so exploration and battles come); both sides of a battle report the result they draw from the
battle's own seed (agreeing) unless one "remembers it otherwise" (the GM rules), with medals,
scars and a win move; in winter they build, recruit at a fortress, tithe, quest and deploy.
"""

from __future__ import annotations

from random import Random
from typing import Any

from pbem.rulesets.base import Stage
from tests.season.agents import SCHEDULE, command_of, players, typo_of
from tests.season.harness import Season, Setup

LIST = ["Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100",
        "Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100",
        "Bowmen | Inf | 5 5+ 5+ 3+ 8 10/12 | | 90",
        "Knights | Cav | 8 3+ - 5+ 16 14/17 | Thunderous Charge (2) | 130",
        "Captain | Hero (Inf) | 5 3+ - 5+ 5 -/13 | Individual, Inspiring, Crushing Strength (1) | 80"]
TOO_BIG = "Dragon | Monster | 10 3+ - 5+ 12 -/19 | Fly | 300"     # over 500 points with the rest, and a monster
LAYOUT = ["city", "fortress", "village", "village", "control", "control"]
QUEST_TYPES = ["chance", "speed", "agility", "courage", "endurance", "combat"]


class MightyKingdoms:
    """Three kingdoms; the campaign ends by itself after campaign.years: quick seasons play one year
    of three summer months (a battle and a reform come by the second), the long ones two full years."""

    max_ticks = 400

    def __init__(self, quick: bool = False) -> None:
        self.quick = quick
        self.setup = Setup("mk_three_realms", players([("red", "Red Realm", "R"), ("blue", "Blue March", "B"),
                                                       ("green", "Green Hold", "G")]),
                           SCHEDULE | {"setup": "3d", "lists": "2d", "orders": "2d", "battle": "3d",
                                       "purchases": "2d", "deployment": "2d"},
                           {"campaign": {"years": 1, "summer_months": 3} if quick else {"years": 2}})

    def _view(self, season: Season) -> Any:
        from pbem.rulesets.mighty_kingdoms.ruleset import RULESET

        return RULESET.view(season.context())

    def orders(self, season: Season, pid: str, stage: Stage) -> list[str]:
        make = {"setup": self._setup, "lists": self._lists, "orders": self._orders, "battle": self._battle,
                "purchases": self._purchases, "deployment": self._deployment}
        return make[stage.kind](season.rng, self._view(season), pid) if stage.kind in make else []

    # -- window S and the lists ----------------------------------------------------------------
    def _setup(self, rng: Random, view: Any, pid: str) -> list[str]:
        from pbem.rulesets.mighty_kingdoms import tiles

        starts = tiles.starting_tiles(view.map)
        if self.quick:            # the three starting tiles 3 apart: a battle comes in a short summer
            starts = sorted(starts, key=lambda t: (view.map.distance(t, starts[0]) > 3, t))[:3]
        units = LIST + ([TOO_BIG] if rng.random() < 0.1 else [])    # an over-limit list: refused in the ack
        ring = rng.sample(LAYOUT, len(LAYOUT))
        army = rng.choice(["capital", *(d for d, k in zip(("NE", "E", "SE", "SW", "W", "NW"), ring, strict=True)
                                        if k not in ("control",))])
        lines = [f"LIST {pid.title()} Host", *units, f"START {', '.join(rng.sample(starts, 2))}",
                 f"RING {' '.join(ring)}", f"ARMY {army}"]
        if rng.random() < 0.1:
            lines.append("STRAT T1")              # a player's typo: answered as a problem line
        return lines

    def _lists(self, rng: Random, view: Any, pid: str) -> list[str]:
        return [f"LIST {pid.title()} Host", *LIST] if pid in view.state.setup.missing else []

    # -- a summer month ------------------------------------------------------------------------
    def _orders(self, rng: Random, view: Any, pid: str) -> list[str]:
        state, gmap = view.state, view.map
        enemies = [a.tile for a in state.armies.values() if a.owner != pid]
        lines = []
        for army in state.armies_of(pid):
            around = [t for t in sorted(gmap.neighbours(army.tile)) if not state.tile(t).tower]
            unexplored = [t for t in around if not state.explored(t)]
            spot = state.tile(army.tile)
            roll = rng.random()
            if spot.settlement and spot.owner != pid and roll < 0.3:
                lines.append(f"{army.id} RAZE")
            elif around and enemies and roll < 0.9:        # march on the nearest enemy: battles come
                goal = min(enemies, key=lambda e: (gmap.distance(army.tile, e), e))
                lines.append(f"{army.id} MOVE {min(around, key=lambda n: (gmap.distance(n, goal), n))}")
            elif (unexplored or around) and roll < 0.95:
                lines.append(f"{army.id} MOVE {rng.choice(unexplored or around)}")
            else:
                lines.append(f"{army.id} DEFEND")
        if rng.random() < 0.1:
            lines.append("A9 MOVE nowhere")       # a player's typo: answered as a problem line
        return lines + self._standing(rng, view, pid)

    def _standing(self, rng: Random, view: Any, pid: str) -> list[str]:
        """Now and then a standing preference: a battle choice or reform choices for a unit."""
        mine = view.state.armies_of(pid)
        roll = rng.random()
        if roll < 0.1:
            return ["BATTLE * *"]
        if roll < 0.2 and mine and mine[0].roster.entries:
            return [f"REFORM {mine[0].id}.{mine[0].roster.entries[0].id} 2=brutal 4=elite 5=piercing 6=ra scar0=me"]
        return []

    def _battle(self, rng: Random, view: Any, pid: str) -> list[str]:
        from pbem.rulesets.mighty_kingdoms import battle_lines

        state = view.state
        mine = battle_lines.battles_of(state, pid)
        lines = []
        for battle in mine:
            head = f"RESULT {battle.id} " if len(mine) > 1 else "RESULT "
            result, medals, scars = self._facts(rng, state, battle)
            lines += [head + result, "MEDALS " + (", ".join(medals) or "NONE"), "SCARS " + (", ".join(scars) or "NONE")]
            if result == f"WIN {state.kingdoms[pid].name}" and rng.random() < 0.3:
                lines.append("ADVANCE NONE")
        return lines

    def _facts(self, rng: Random, state: Any, battle: Any) -> tuple[str, list[str], list[str]]:
        """Both sides draw the result from the battle's own seed (they agree) unless one player
        remembers it otherwise (a dispute for the GM)."""
        agreed = Random(f"{state.calendar.turn}-{battle.id}")
        pick = rng if rng.random() < 0.2 else agreed
        result = pick.choice([*(f"WIN {state.kingdoms[p].name}" for p in battle.players), "DRAW"])
        units = [f"{a}.{e.id}" for side in battle.armies.values() for a in side for e in state.armies[a].roster.entries]
        medals = sorted(pick.sample(units, min(len(units), pick.randint(0, 2))))
        scars = sorted(pick.sample([u for u in units if u not in medals], min(len(units) - len(medals),
                                                                              pick.randint(0, 2))))
        return result, medals, scars

    # -- the winter ----------------------------------------------------------------------------
    def _purchases(self, rng: Random, view: Any, pid: str) -> list[str]:
        from pbem.rulesets.mighty_kingdoms import quests

        state, gmap = view.state, view.map
        bare = [t for t in state.kingdom_tiles(pid) if not state.tiles[t].settlement]
        lines = [f"BUILD village {rng.choice(bare)}"] if bare and rng.random() < 0.7 else []
        forts = state.settlements_of(pid, "fortress")
        if forts and rng.random() < 0.6:
            lines += [f"RECRUIT {forts[0]}", f"LIST {pid.title()} Reserve", *LIST[:3], "END LIST"]
        others = [k.name for p, k in state.kingdoms.items() if p != pid]
        if others and rng.random() < 0.4:
            lines.append(f"TITHE {rng.choice(others)} 1g 0f for peace")
        heroes = quests.heroes(state, pid)
        for tower, hero in zip(quests.eligible_towers(state, gmap, pid), heroes, strict=False):
            lines.append(f"QUEST {tower} {hero} {' '.join(rng.sample(QUEST_TYPES, 2))}")
        return lines or ["BUILD city nowhere"]      # a line the ack refuses: the kingdom buys nothing

    def _deployment(self, rng: Random, view: Any, pid: str) -> list[str]:
        from pbem.rulesets.mighty_kingdoms import deploy

        state = view.state
        places = deploy.fill_order(state, pid)
        room = {t: deploy.limit(state, view.rules, t) for t in places}
        lines = []
        for army in state.armies_of(pid):
            free = [t for t in places if room[t] > 0]
            if not free:
                break
            tile = rng.choice(free)
            room[tile] -= 1
            lines.append(f"DEPLOY {army.id} {tile}")
        return lines

    # -- the GM ---------------------------------------------------------------------------------
    def ruling(self, season: Season, task: str) -> str:
        command = command_of(task).split(" (or ")[0]
        words = command.split()
        if words[0] == "APPROVE":
            return command if season.rng.random() < 0.85 else f"REJECT {words[1]} the Knights cost more than that"
        if words[0] == "SETLIST":
            return f"SETLIST {words[1]} {' ; '.join(LIST)}" if season.rng.random() < 0.5 else f"NOARMY {words[1]}"
        if words[0] == "RESULT":
            return self._gm_result(season, words[1])
        return command

    def _gm_result(self, season: Season, ident: str) -> str:
        state = self._view(season).state
        battle = state.battle.battle(ident)
        sides = list(battle.players) if battle is not None else []
        reported = [p for p in sides if p in state.battle.reports.get(ident, {})]
        if reported and season.rng.random() < 0.5:       # the GM takes one side's report as it stands
            return f"RESULT {ident} AS {state.kingdoms[season.rng.choice(reported)].name}"
        pick = season.rng.choice([*(f"WIN {state.kingdoms[p].name}" for p in sides), "DRAW"])
        return f"RESULT {ident} {pick}"

    def typo(self, rng: Random) -> str:
        return typo_of(rng, ["EXTNED 1d", "APROVE ALL"], ["APPROVE nobody", "RESULT Y9M9-B9 WIN Red Realm"])

    def end(self, season: Season) -> list[str]:
        return []                                   # the campaign ends by itself after campaign.years
