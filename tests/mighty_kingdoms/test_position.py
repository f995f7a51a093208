"""A hand-run campaign moved in mid-year: docs/positions/mighty_kingdoms.md and its example."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from pbem.rulesets.base import PositionError
from pbem.rulesets.mighty_kingdoms.ruleset import RULESET
from tests.mighty_kingdoms.helpers_setup import COLOURS, campaign, ctx

EXAMPLE = Path(__file__).parents[2] / "docs" / "positions" / "mighty_kingdoms.toml"


def example() -> dict[str, Any]:
    return tomllib.loads(EXAMPLE.read_text())


def test_the_documented_example_opens_year_2_month_4_with_its_kingdoms_and_armies(tmp_path: Path) -> None:
    camp = campaign(tmp_path, players=COLOURS)
    game = RULESET.position(camp.settings, example(), "position.toml")
    state = RULESET.load_state(game)
    assert (state.calendar.year, state.calendar.month, state.calendar.window) == (2, 4, "orders")
    assert RULESET.turn_of(state) == 11 and state.order == ["red", "green", "blue"]
    assert RULESET.stage(ctx(camp, game)).kind == "orders"
    assert state.capital_of("red") == "T28" and state.kingdoms["red"].gold == 1
    assert len(state.kingdom_tiles("red")) == 8 and state.towers() == ["T31"]
    assert [a.id for a in state.armies_of("red")] == ["RED1", "RED2"] and state.kingdoms["red"].armies_raised == 2
    red1 = state.armies["RED1"]
    assert red1.roster.points == 500 and red1.roster.entries[0].counters["me"] == 3
    assert red1.roster.entries[1].has("yellow_bellied")
    assert [(c.entry, c.text) for c in red1.roster.history] == [
        ("U1", "2 medals before the campaign came to pbem"), ("U4", "1 medal before the campaign came to pbem"),
        ("U2", "1 scar before the campaign came to pbem"), ("", "Y1M3: won at T30 against Blue")]
    assert state.artefacts["Blade of Slashing"].unit == "U5" and state.artefacts["Fenulian Amulet"].army == ""


def test_a_winter_position_opens_the_purchases(tmp_path: Path) -> None:
    camp = campaign(tmp_path, players=COLOURS)
    game = RULESET.position(camp.settings, {**example(), "month": 7}, "position.toml")
    state = RULESET.load_state(game)
    assert (state.calendar.month, state.calendar.window, RULESET.turn_of(state)) == (7, "purchases", 14)


def test_every_problem_of_a_position_is_reported_at_once_with_its_key(tmp_path: Path) -> None:
    camp = campaign(tmp_path, players=COLOURS)
    data = example()
    data["order"] = ["red", "blue"]
    data["month"] = 9
    data["tiles"]["T99"] = {"owner": "red"}
    data["tiles"]["T31"] = {"tower": True, "owner": "red"}
    data["tiles"]["T30"]["settlement"] = "castle"
    data["armies"]["RED2"]["tile"] = "T40"
    data["armies"]["BLUE7X"] = {"owner": "blue", "tile": "T32", "units": ["Orcs | Foot | 1 2 3 | | 10"]}
    data["artefacts"]["Crown"] = {"owner": "red", "army": "GREEN1", "unit": "U1"}
    data["kingdoms"]["green"]["start"] = "T40"
    del data["kingdoms"]["blue"]
    data["colour"] = "red"
    with pytest.raises(PositionError) as caught:
        RULESET.position(camp.settings, data, "position.toml")
    text = "\n".join(caught.value.problems)
    for key in ("colour: unknown key", "month: 9 must be a whole number from 1 to 7",
                "order: ['red', 'blue'] must name every player once", "tiles.T99: 'T99' is not a tile",
                "tiles.T31: a wizard's tower holds nothing", "tiles.T30.settlement: 'castle'",
                "armies.BLUE7X: army ids of blue read BLUE1", "armies.BLUE7X.units[0]: unknown unit type",
                "artefacts.Crown.army: GREEN1 is not red's army", "kingdoms.green.start: T40 is not a starting tile",
                "armies.RED2.tile: T40 is unexplored or a tower", "kingdoms.blue.start: missing"):
        assert key in text, key


def test_the_doc_names_every_key_the_reader_takes() -> None:
    doc = (EXAMPLE.parent / "mighty_kingdoms.md").read_text()
    from pbem.rulesets.mighty_kingdoms.position import TOP
    for key in TOP:
        assert f"`{key}`" in doc or f"[{key}." in doc or f"`[{key}" in doc, key
