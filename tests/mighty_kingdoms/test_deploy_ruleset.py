"""Window W2 through the rule system's engine hooks (stage, parse, canonical, missing, resolve), on a
map file as a campaign names it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.base import Context
from pbem.rulesets.mighty_kingdoms.model import Holding, MKState
from pbem.rulesets.mighty_kingdoms.ruleset import RULESET
from tests.mighty_kingdoms.helpers_quests import GRID, NOW, army, capital, own, player, settings, state


def context(tmp_path: Path, st: MKState) -> Context:
    path = tmp_path / "grid.toml"
    start = ', objective = "start"'
    rows = [f'{t} = {{ q = {v["q"]}, r = {v["r"]}, terrain = "land"{start if t == "T1" else ""} }}'
            for t, v in GRID.items()]
    path.write_text('name = "Grid"\n[tiles]\n' + "\n".join(rows) + "\n")
    camp = replace(settings(st.kingdoms), map=str(path))
    return Context(camp, RULESET.dump_state(st), NOW)


def winter() -> MKState:
    st = state(("a", "b"), window="deployment")
    capital(st, "a", "T1")
    own(st, "a", "T2", settlement="village")
    own(st, "b", "T12", settlement="fortress")
    army(st, "A1", "a", "T2")
    army(st, "A2", "a", "T2")
    army(st, "B1", "b", "T11")
    st.artefacts["Blade of Slashing"] = Holding("a")
    return st


def test_mk_dep_window_through_the_engine_hooks(tmp_path: Path) -> None:
    ctx = context(tmp_path, winter())
    stage = RULESET.stage(ctx)
    assert (stage.kind, stage.owing, stage.turn) == ("deployment", ("a", "b"), 7)
    parsed = RULESET.parse(ctx, player("a"), [(1, "deploy a2 t1"), (2, "allot blade a2.u1")])
    assert not parsed.problems
    assert RULESET.canonical(ctx, player("a"), parsed.payload) == ["DEPLOY A2 T1", "ALLOT Blade of Slashing A2.U1"]
    assert RULESET.missing(ctx, player("a"), parsed.payload) == ["DEPLOY A1 (the default applies)"]
    done = RULESET.resolve(ctx, {"a": parsed.payload}, ScriptedDice([]))
    assert done.turn_finished
    after = RULESET.load_state(done.game)
    assert (after.calendar.year, after.calendar.month, after.calendar.window) == (2, 1, "orders")
    assert {a.id: a.tile for a in after.armies.values()} == {"A1": "T2", "A2": "T1", "B1": "T12"}
    assert after.artefacts["Blade of Slashing"] == Holding("a", "A2", "U1")
    lines = done.reports[0].context["mk"]["sections"][0].lines
    assert "B1 deploys to T12 (fortress; default)" in lines
