"""Simulated players and GM rulings for each registered rule system.

An agent reads the rule system's public state (`Season.context()` and the ruleset's own views)
and chooses plausible legal orders at random, from the season's seeded generator: Daemon Rift
tokens hold or move to a neighbouring territory and report battles (sometimes disagreeing),
Diplomacy units hold, move or support among legal adjacencies and build or disband as owed,
Conquest empires pick capitals, events and challenges, set battles up, report results and claim
neighbouring tiles; Mighty Kingdoms (tests/season/agent_mk.py) kingdoms set up, march, report battles
and spend their winters. Every agent also fills in what the GM is asked to rule (`pbem status`'s
"waiting for the GM" tasks), names one typo the GM makes, and says when the GM ends the game.
"""

from __future__ import annotations

from datetime import timedelta
from random import Random
from typing import Any, Protocol

from pbem.gm.creation import NewPlayer
from pbem.rulesets.base import Stage
from tests.season.harness import Season, Setup
from tests.season.known_defects import known


class Agent(Protocol):
    """`__init__(quick: bool)`: quick seasons are the short ones the normal test suite plays."""

    setup: Setup
    max_ticks: int

    def orders(self, season: Season, pid: str, stage: Stage) -> list[str]:
        """The lines player `pid` sends for the stage (empty: nothing to say)."""

    def ruling(self, season: Season, task: str) -> str:
        """The GM's command for one pending task (from `Ruleset.gm_pending`)."""

    def typo(self, rng: Random) -> str:
        """A GM command line with a mistake in it."""

    def end(self, season: Season) -> list[str]:
        """GM lines that end the campaign once it has run long enough ([] while it goes on)."""


SCHEDULE = {"timezone": "UTC", "at": "20:00", "reminder": "24h"}


def players(rows: list[tuple[str, str, str]], homes: tuple[str, ...] = ()) -> list[NewPlayer]:
    return [NewPlayer(pid, pid.title(), f"{pid}@players.localhost", faction, prefix,
                      {"home": homes[i]} if homes else {})
            for i, (pid, faction, prefix) in enumerate(rows)]


def typo_of(rng: Random, harmless: list[str], refused: list[str]) -> str:
    """A GM typo: one a rule system's parser refuses when that no longer crashes the tick, or one
    the engine itself refuses (an unknown word)."""
    return rng.choice(harmless + ([] if known("gm-typo-raises") else refused))


def command_of(task: str) -> str:
    """`approve the list of R-1: APPROVE R-1` -> `APPROVE R-1` (the command a task names)."""
    return task.rpartition(": ")[2].strip()


# -- Daemon Rift ---------------------------------------------------------------------------

class DaemonRift:
    """Four factions on the Rift Valley; the campaign is cut to 6 turns (quick) or plays all 15."""

    max_ticks = 400

    def __init__(self, quick: bool = False) -> None:
        turns = 6 if quick else 15                  # 15: the rules' own campaign length
        self.setup = Setup("rift_valley", players([("red", "Red", "R"), ("blue", "Blue", "B"),
                                                   ("green", "Green", "G"), ("yellow", "Yellow", "Y")],
                                   homes=("1", "5", "3", "7")),      # strongholds 4-6 moves apart: battles come soon
                           SCHEDULE | {"lists": "3d", "orders": "3d", "battles": "4d", "retreats": "2d"},
                           {"campaign": {"turns": turns}})

    def _game(self, season: Season) -> Any:
        from pbem.rulesets.daemon_rift.ruleset import RULESET

        return RULESET.view(season.context())

    def orders(self, season: Season, pid: str, stage: Stage) -> list[str]:
        game = self._game(season)
        player = season.camp.settings.player(pid)
        assert player is not None
        faction = player.faction
        make = {"lists": self._list, "orders": self._moves, "battles": self._results, "retreats": self._retreats}
        return make[stage.kind](season.rng, game, faction) if stage.kind in make else []

    def _list(self, rng: Random, game: Any, faction: str, token: str = "") -> list[str]:
        token = token or f"{faction}-1"
        return [f"LIST {token} The {faction} Host", f"ARTILLERY {token} {rng.choice(['yes', 'no'])}",
                f"FAST {token} {rng.choice(['yes', 'no'])}", "U1 infantry 20 Spearmen @6"]

    def _moves(self, rng: Random, game: Any, faction: str) -> list[str]:
        lines = []
        enemies = [t.territory for t in game.state.dr.tokens.values() if t.faction != faction]
        for token in game.state.dr.tokens_of(faction):
            around = sorted(game.map.neighbours(token.territory))
            roll = rng.random()
            if around and enemies and roll < 0.75:           # march on the nearest enemy: battles come
                lines.append(f"{token.id} M {self._towards(game, token.territory, around, enemies)}")
            elif around and roll < 0.9:
                lines.append(f"{token.id} M {rng.choice(around)}")
            else:
                lines.append(f"{token.id} H")
        if rng.random() < 0.1:
            lines.append("HLOD everything")        # a player's typo: answered as a problem line
        return lines + self._new_lists(rng, game, faction)

    def _new_lists(self, rng: Random, game: Any, faction: str) -> list[str]:
        """Lists for tokens that have none approved (new tokens, replacements): mid-game lists the GM
        must approve (DR-LST-8)."""
        pending = game.state.pending_lists
        lines = []
        for token in game.state.dr.tokens_of(faction):
            listed = game.state.dr.lists.get(token.id)
            if not token.defensive and listed is not None and not listed.approved and token.id not in pending:
                lines += self._list(rng, game, faction, token.id)
        return lines

    def _towards(self, game: Any, start: str, around: list[str], enemies: list[str]) -> str:
        goal = min(enemies, key=lambda e: (game.map.distance(start, e), e))
        return min(around, key=lambda n: (game.map.distance(n, goal), n))

    def _results(self, rng: Random, game: Any, faction: str) -> list[str]:
        from pbem.rulesets.daemon_rift import battle_window

        lines = []
        for battle in battle_window.tabletop_battles(game):
            sides = [s.faction for s in battle.sides]
            if faction in sides:
                # Both sides draw the winner from the battle's own seed: they agree unless a
                # player "remembers it differently" (a dispute for the GM).
                winner = Random(f"{game.state.dr.turn}-{battle.number}").choice(sides)
                if rng.random() < 0.2:
                    winner = rng.choice([*sides, "draw"])
                lines.append(f"RESULT {battle.number} {winner}")
        return lines

    def _retreats(self, rng: Random, game: Any, faction: str) -> list[str]:
        return [f"{r.token} R {rng.choice(r.options)}" for r in game.state.open_retreats() if r.faction == faction]

    def ruling(self, season: Season, task: str) -> str:
        command = command_of(task)
        if "<" not in command:
            return command
        from pbem.rulesets.daemon_rift import battle_window

        number = command.split()[1]
        battle = next(b for b in battle_window.tabletop_battles(self._game(season)) if str(b.number) == number)
        return f"RESULT {number} {season.rng.choice([s.faction for s in battle.sides])}"

    def typo(self, rng: Random) -> str:
        return typo_of(rng, ["EXTNED 1d", "APROVE ALL"], ["RESULT 7 Red", "APPROVE R1X"])

    def end(self, season: Season) -> list[str]:
        return []                                   # the campaign ends by itself after campaign.turns


# -- Diplomacy -----------------------------------------------------------------------------

class Diplomacy:
    """Seven powers on the standard map; the GM declares a draw among the survivors after 2 years
    (quick) or 9 (after 1910), unless someone wins alone first."""

    max_ticks = 400

    def __init__(self, quick: bool = False) -> None:
        self.years = 2 if quick else 9              # 9: a draw after 1910
        self.drawn = False
        self.setup = Setup("standard", players([(pid, power, power[0]) for pid, power in (
            ("eng", "England"), ("fra", "France"), ("ger", "Germany"), ("ita", "Italy"), ("aus", "Austria"),
            ("rus", "Russia"), ("tur", "Turkey"))]),
            SCHEDULE | {"orders": "3d", "retreats": "1d", "adjustments": "1d"})

    def _game(self, season: Season) -> Any:
        from pbem.rulesets.diplomacy.ruleset import RULESET

        return RULESET.view(season.context())

    def orders(self, season: Season, pid: str, stage: Stage) -> list[str]:
        from pbem.rulesets.diplomacy.cycle import ADJUSTMENT, MOVEMENT, RETREAT

        game = self._game(season)
        player = season.camp.settings.player(pid)
        assert player is not None
        power = game.state.power_of(player)
        phase = game.state.position.phase
        make = {MOVEMENT: self._moves, RETREAT: self._retreats, ADJUSTMENT: self._adjust}
        return make[phase](season.rng, game, power) if phase in make else []

    def _moves(self, rng: Random, game: Any, power: str) -> list[str]:
        board, units = game.map, game.state.position.units_of(power)
        lines = []
        for unit in units:
            reach = sorted((board.army_adj if unit.kind == "A" else board.fleet_adj).get(unit.loc, ()))
            friends = [u for u in units if u is not unit and board.can_reach(unit.kind, unit.loc, u.province)]
            roll = rng.random()
            if reach and roll < 0.55:
                lines.append(f"{unit.kind} {unit.loc} - {rng.choice(reach)}")
            elif friends and roll < 0.75:
                other = rng.choice(friends)
                lines.append(f"{unit.kind} {unit.loc} S {other.kind} {other.loc}")
            else:
                lines.append(f"{unit.kind} {unit.loc} H")
        if rng.random() < 0.1:
            lines.append("A XYZ - ABC")             # a player's typo: answered as a problem line
        return lines

    def _retreats(self, rng: Random, game: Any, power: str) -> list[str]:
        from pbem.rulesets.diplomacy.cycle import retreat_options

        lines = []
        for d in game.state.position.dislodged:
            if d.unit.power == power:
                options = retreat_options(game.map, game.state.position, d)
                where = rng.choice(options) if options and rng.random() < 0.8 else ""
                lines.append(f"{d.unit.kind} {d.unit.loc} " + (f"R {where}" if where else "D"))
        return lines

    def _adjust(self, rng: Random, game: Any, power: str) -> list[str]:
        from pbem.rulesets.diplomacy.cycle import adjustments_due

        position = game.state.position
        due = adjustments_due(game.map, position).get(power, 0)
        if due < 0:
            units = rng.sample(position.units_of(power), -due)
            return [f"{u.kind} {u.loc} D" for u in units]
        held = set(position.centres_of(power)) - {u.province for u in position.units}
        homes = sorted(held & set(game.map.powers[power].home))
        return [f"BUILD {rng.choice('AF') if game.map.locations(h) else 'A'} {h}" for h in homes[:due]]

    def ruling(self, season: Season, task: str) -> str:
        return command_of(task)

    def typo(self, rng: Random) -> str:
        return typo_of(rng, ["EXTNED 1d", "DRAWW ALL"], ["DRAW Turey France"])

    def end(self, season: Season) -> list[str]:
        game = self._game(season)
        if self.drawn or game.state.position.year < game.state.start_year + self.years:
            return []
        self.drawn = True
        return ["DRAW ALL"]


# -- Campaigns of Conquest -------------------------------------------------------------------

EVENTS = ("Fool's Gold", "Building Boom", "Disaster", "All or Nothing", "Scouts", "Diplomacy", "Land Grab",
          "Elite Army")


class Conquest:
    """Four empires on the Four Marches, playing for a small target size (6 quick, else 9) so a
    victory comes soon; a season that stalls is ended by the GM (FINISH) after round 8 (16)."""

    max_ticks = 400

    def __init__(self, quick: bool = False) -> None:
        target = 6 if quick else 9
        self.rounds = 8 if quick else 16            # the GM ends a season still going after this round
        self.setup = Setup("four_marches", players([(pid, colour, colour[0]) for pid, colour in (
            ("anna", "Red"), ("ben", "Blue"), ("cara", "Green"), ("dan", "Yellow"))]),
            SCHEDULE | {"capitals": "3d", "campaign": "3d", "setup": "2d", "results": "4d", "conquest": "3d"},
            {"victory": {"target_size": target}})

    def _game(self, season: Season) -> Any:
        from pbem.rulesets.conquest.ruleset import RULESET

        return RULESET.view(season.context())

    def orders(self, season: Season, pid: str, stage: Stage) -> list[str]:
        game = self._game(season)
        make = {"capitals": self._capital, "campaign": self._campaign, "setup": self._setup,
                "results": self._results, "conquest": self._conquest}
        return make[stage.kind](season.rng, game, pid) if stage.kind in make else []

    def _free_tiles(self, game: Any) -> list[str]:
        return sorted(t for t, tile in game.state.tiles.items() if not tile.owner)

    def _capital(self, rng: Random, game: Any, pid: str) -> list[str]:
        return [f"CAPITAL {', '.join(rng.sample(self._free_tiles(game), 2))}"]

    def _campaign(self, rng: Random, game: Any, pid: str) -> list[str]:
        others = [e.name for p, e in game.state.empires.items() if p != pid and not e.eliminated]
        lines = [f"EVENT {event}" for event in rng.sample(EVENTS, 2) if event not in (
            "Fool's Gold", "Disaster", "Diplomacy", "Building Boom")]
        if others and rng.random() < 0.7:
            lines.append(f"CHALLENGE {rng.choice(others)}")
        return lines or ["EVENT Scouts"]

    def _setup(self, rng: Random, game: Any, pid: str) -> list[str]:
        return [f"{b.id} SIZE {rng.choice([1000, 1500, 2000])}" + (" ABSTRACT" if rng.random() < 0.2 else "")
                for b in game.state.round.battles if pid in b.players and not game.state.round.outcome(b.id)]

    def _results(self, rng: Random, game: Any, pid: str) -> list[str]:
        from pbem.rulesets.conquest import results

        return [self._result_line(rng, b) for b in results.awaiting_reports(game.state) if pid in b.players]

    def _result_line(self, rng: Random, battle: Any) -> str:
        agreed = Random(f"{battle.id}-{'-'.join(battle.players)}")        # both sides saw the same battle
        pick = rng if rng.random() < 0.15 else agreed                     # ... unless one remembers it otherwise
        if battle.kind == "SIEGE":
            return f"RESULT {battle.id} {pick.choice(['YES', 'NO'])}"
        if battle.kind == "SEA":
            return f"RESULT {battle.id} WINNER {pick.choice(['attacker', 'defender'])}"
        side = pick.choice(["attacker", "defender"])
        return f"RESULT {battle.id} WITHDREW {side} VP " + ("300-700 BP 9-8 LOST 4-2" if side == "attacker"
                                                            else "700-300 BP 8-9 LOST 2-4")

    def _conquest(self, rng: Random, game: Any, pid: str) -> list[str]:
        mine = [t for t, tile in game.state.tiles.items() if tile.owner == pid]
        tiles = game.state.tiles
        near = sorted({n for t in mine for n in game.map.neighbours(t) if n in tiles and not tiles[n].owner})
        return [f"CLAIM {t}" for t in rng.sample(near, min(len(near), 2))]

    def ruling(self, season: Season, task: str) -> str:
        ident = command_of(task).split()[-1]
        return f"ABSTRACT {ident}" if season.rng.random() < 0.5 else f"RESULT {ident} WITHDREW none VP 500-400"

    def typo(self, rng: Random) -> str:
        return typo_of(rng, ["EXTNED 1d", "CAPTIAL anna T1"], ["CAPITAL Anan T1", "RESULT B9 WITHDREW none"])

    def end(self, season: Season) -> list[str]:
        """A season that stalls short of the target size is ended by the GM with a final report."""
        if self._game(season).state.round.number < self.rounds:
            return []
        return ["FINISH the season has run long enough; the largest empires lead"]


from tests.season.agent_mk import MightyKingdoms  # noqa: E402  (it builds on the helpers above)
from tests.season.agent_swm import StarWarsMiniatures  # noqa: E402
from tests.season.agent_wt import WanderingTribes  # noqa: E402

AGENTS: dict[str, type] = {"daemon_rift": DaemonRift, "diplomacy": Diplomacy, "conquest": Conquest,
                           "mighty_kingdoms": MightyKingdoms, "wandering_tribes": WanderingTribes,
                           "star_wars_miniatures": StarWarsMiniatures}
STEP_CHOICES = (timedelta(hours=6), timedelta(hours=12), timedelta(days=1), timedelta(days=2))
