"""Driving the rule system through its hooks as the engine does: stage, parse, resolve."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from pbem.kit.dice import Dice
from pbem.rulesets.base import Context, Parsed, Resolution, Stage
from pbem.rulesets.star_wars_miniatures.model import SWMState
from pbem.rulesets.star_wars_miniatures.ruleset import RULESET
from pbem.state.campaign import Player, Settings
from pbem.state.schedule import Schedule

NOW = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
PLAYERS = ("alice", "bob", "cara")
NO_CLOCK = {"battle": {"gm_grace_hours": 0}}
"""The hooks are driven here without the engine's clock: a single battle report applies as the window
resolves (the GM's grace is played with the real tick in test_deadlines.py)."""


def person(pid: str) -> Player:
    return Player(pid, pid.title(), (f"{pid}@pbem.test",), "", "", "")


def settings(players: tuple[str, ...] = PLAYERS, rules: dict[str, Any] | None = None) -> Settings:
    return Settings("swm", "Galactic Test", "star_wars_miniatures", "swm_ten_factions", "swm@pbem.test", "pbem.test",
                    Schedule.from_settings({}), {}, {}, {}, Player("gm", "GM", ("gm@pbem.test",), ""),
                    tuple(person(p) for p in players), NO_CLOCK if rules is None else rules)


class Game:
    def __init__(self, players: tuple[str, ...] = PLAYERS) -> None:
        self.settings = settings(players)
        self.game: dict[str, Any] = RULESET.create(self.settings)
        self.now = NOW
        self.submissions: dict[str, dict[str, Any]] = {}
        self.results: list[Resolution] = []

    def ctx(self, decisions: dict[str, str] | None = None) -> Context:
        return Context(self.settings, self.game, self.now, self.now + timedelta(days=3), decisions or {})

    @property
    def state(self) -> SWMState:
        return RULESET.load_state(self.game)

    def stage(self) -> Stage:
        return RULESET.stage(self.ctx())

    def send(self, player: str, text: str) -> Parsed:
        lines = [(n, ln.strip()) for n, ln in enumerate(text.strip().splitlines(), 1) if ln.strip()]
        parsed = RULESET.parse(self.ctx(), person(player), lines)
        if parsed.payload:
            self.submissions[player] = parsed.payload
        return parsed

    def resolve(self, dice: Dice, decisions: dict[str, str] | None = None) -> Resolution:
        res = RULESET.resolve(self.ctx(decisions), self.submissions, dice)
        self.game, self.submissions = res.game, {}
        self.results.append(res)
        self.now += timedelta(days=1)
        return res
