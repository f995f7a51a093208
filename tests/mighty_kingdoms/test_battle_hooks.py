"""Window B through the rule system's hooks, as the engine calls them: stage, parse, canonical,
resolve, and the GM's RESULT through `gm_command`."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.base import Context
from pbem.rulesets.mighty_kingdoms import battles
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import BATTLE, MKState
from pbem.rulesets.mighty_kingdoms.ruleset import RULESET
from tests.mighty_kingdoms.helpers_battle import NOW, army, board, player, settings, state_of, view_of

MAP = """
[tiles]
T = { q = 0, r = 0, terrain = "land" }
P = { q = 1, r = 0, terrain = ["land", "forest"] }
R = { q = 0, r = 1, terrain = "land", objective = "start" }
"""


def context(tmp_path: Path, state: MKState, hours: int = 0) -> Context:
    path = tmp_path / "t_map.toml"
    path.write_text(MAP, encoding="utf-8")
    camp = replace(settings(state.order), map=str(path))
    return Context(camp, RULESET.dump_state(state), NOW + timedelta(hours=hours), NOW + timedelta(days=7))


def in_battle() -> MKState:
    state = state_of(["a", "b"], {"T": "b", "P": "a", "R": "b"})
    state.calendar.window = BATTLE
    army(state, "A1", "T")
    army(state, "B1", "T")
    return state


def test_mk_pbm_7_the_engine_sees_window_b_owing_both_players_then_the_gm(tmp_path: Path) -> None:
    state = in_battle()
    battles.select(view_of(state, board([("T", "P"), ("T", "R")])), [Section("x")])
    ctx = context(tmp_path, state)
    stage = RULESET.stage(ctx)
    assert (stage.kind, stage.title, stage.owing, stage.ready, stage.waiting_for_gm) == (
        BATTLE, "Year 1, month 1: battle", ("a", "b"), False, False)
    mails = {"a": "RESULT WIN Red\nMEDALS NONE\nSCARS NONE", "b": "RESULT DRAW\nMEDALS NONE\nSCARS NONE"}
    subs = {}
    for pid, text in mails.items():
        parsed = RULESET.parse(ctx, player(pid), list(enumerate(text.splitlines(), start=1)))
        subs[pid] = parsed.payload
        assert RULESET.canonical(ctx, player(pid), parsed.payload) == text.splitlines()
    res = RULESET.resolve(ctx, subs, ScriptedDice([]))
    assert res.reports == [] and "needs your ruling" in res.gm_alerts[0]
    ctx = Context(ctx.settings, res.game, ctx.now, ctx.deadline)
    stage = RULESET.stage(ctx)
    assert stage.waiting_for_gm and not stage.ready and stage.owing == ()
    assert "RESULT" in RULESET.verbs(ctx)
    game, reply = RULESET.gm_command(ctx, ["RESULT", "Y1M1-B1", "WIN", "Red"])
    assert reply == "Y1M1-B1: ruling recorded: RESULT Y1M1-B1 WIN Red / MEDALS NONE / SCARS NONE"
    assert RULESET.stage(Context(ctx.settings, game, ctx.now, ctx.deadline)).ready
