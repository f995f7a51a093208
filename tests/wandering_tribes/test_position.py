"""Positions (docs/positions/wandering_tribes.md): any state between two windows is written and read
back the same, with its locks, rests and battles; a faulty file is refused with every problem."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pbem.kit.dice import ScriptedDice, SeededDice
from pbem.rulesets.phases import PositionError
from pbem.rulesets.wandering_tribes import position, table
from pbem.rulesets.wandering_tribes.battle_results import Report
from pbem.rulesets.wandering_tribes.battle_setup import setup as battle_setup
from pbem.rulesets.wandering_tribes.game import BATTLE, ORDERS, SETUP, WTGame
from pbem.rulesets.wandering_tribes.setup import Choice, deploy
from pbem.rulesets.wandering_tribes.squares import load_squares
from tests.wandering_tribes.helpers import faces, lock, put, rules

DOC_EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "positions" / "wandering_tribes.toml"
PLAYERS = ["anna", "ben", "cara"]


def _game() -> WTGame:
    gmap, book = load_squares("wt_three_tribes"), rules()
    state, _ = deploy(book, gmap, {p: Choice(n) for p, n in zip(PLAYERS, ["empire", "dwarfs", "undead"],
                                                                strict=True)}, SeededDice(3))
    state.round, state.first_rest = 4, 3
    state.players["cara"].resting = True
    put(state, book, "A2", "anna", state.stacks["B1"].tile, ["Hero", "Halberdiers", "Halberdiers"])
    lock(state, "B1", "A2")
    return WTGame(phase=ORDERS, turn=5, state=state)


def test_an_orders_position_round_trips_and_its_opening_rolls_the_order() -> None:
    gmap, book, game = load_squares("wt_three_tribes"), rules(), _game()
    written = position.export(game)
    back = position.read(PLAYERS, gmap, book, tomllib.loads(_toml(written)), "pos.toml")
    assert back.state.round == 3 and back.phase == ORDERS       # round 4 opens with its roll
    opened = position.opening(back, book, ScriptedDice(faces(8, 5)))
    assert opened.state.round == 4 and opened.sequence == ["anna", "ben"]
    assert opened.state.stacks == game.state.stacks and opened.state.locks == game.state.locks
    assert opened.state.players == game.state.players and opened.state.first_rest == 3


def test_a_battle_position_keeps_its_battles() -> None:
    gmap, book, game = load_squares("wt_three_tribes"), rules(), _game()
    game.phase = BATTLE
    game.battles, _ = battle_setup(game.state, book, gmap, ScriptedDice(), final=True)
    back = position.read(PLAYERS, gmap, book, position.export(game), "pos.toml")
    assert back.battles == game.battles and back.phase == BATTLE


def test_a_faulty_position_is_refused_with_every_problem_and_its_key() -> None:
    gmap, book = load_squares("wt_three_tribes"), rules()
    data = {"window": "winter", "seats": ["anna", "ben"], "players": {"anna": {"nation": "elves"}},
            "stacks": [{"id": "A1", "owner": "anna", "tile": "T99", "markers": ["m1 Dragon"]}],
            "locks": [{"defender": "A1", "attacker": "Z9"}]}
    with pytest.raises(PositionError) as err:
        position.read(PLAYERS, gmap, book, data, "pos.toml")
    text = str(err.value)
    for key in ("window:", "seats:", "players.anna.nation", "stacks[0].tile", "stacks[0].markers", "locks[0]"):
        assert key in text


def test_the_documented_example_position_is_read() -> None:
    gmap, book = load_squares("wt_four_tribes"), rules()
    data = tomllib.loads(DOC_EXAMPLE.read_text(encoding="utf-8"))
    game = position.read(["anna", "ben", "cara", "dan"], gmap, book, data, str(DOC_EXAMPLE))
    assert game.state.locks and game.state.players["dan"].resting


def _toml(data: dict[str, object]) -> str:
    import tomli_w

    return tomli_w.dumps(data)


def test_a_setup_position_round_trips_with_the_nations_the_gm_assigned() -> None:
    gmap, book = load_squares("wt_three_tribes"), rules()
    game = WTGame(phase=SETUP, turn=0, assigned={"ben": "dwarfs"}, lacking=["cara"])
    written = position.export(game)
    assert written == {"window": "setup", "turn": 0, "lacking": ["cara"], "players": {"ben": {"nation": "dwarfs"}}}
    back = position.read(PLAYERS, gmap, book, tomllib.loads(_toml(written)), "pos.toml")
    assert back == game
    assert position.read(PLAYERS, gmap, book, {"window": "setup"}, "pos.toml") == WTGame()   # the fresh setup


def test_a_faulty_setup_position_names_every_problem() -> None:
    gmap, book = load_squares("wt_three_tribes"), rules()
    data = {"window": "setup", "players": {"ben": {"nation": "elves"}, "zoe": {"nation": "empire"}},
            "lacking": ["yan"], "stacks": []}
    with pytest.raises(PositionError) as err:
        position.read(PLAYERS, gmap, book, data, "pos.toml")
    text = str(err.value)
    for key in ("players.ben.nation: 'elves'", "players.zoe: not a player", "lacking: yan", "stacks: nothing"):
        assert key in text


def test_a_round_half_played_at_the_table_round_trips_and_goes_on_where_it_stopped() -> None:
    gmap, book, game = load_squares("wt_three_tribes"), rules(), _game()
    game.sequence, game.opening = ["anna", "ben"], ["Strategic round 4", "order roll, round 4: anna 8, ben 5"]
    game.played, game.round_log, game.round_alerts = ["anna"], ["anna's round:", "  A1 stays"], ["an alert"]
    written = position.export(game)
    assert written["table"] == {"played": ["anna"], "log": ["anna's round:", "  A1 stays"], "alerts": ["an alert"]}
    back = position.read(PLAYERS, gmap, book, tomllib.loads(_toml(written)), "pos.toml")
    assert back == game and table.waiting(back) == ["ben"]
    wrong = {**written, "table": {"played": ["cara"]}}
    with pytest.raises(PositionError, match=r"table\.played: cara"):
        position.read(PLAYERS, gmap, book, wrong, "pos.toml")


def test_a_battle_position_keeps_the_results_the_gm_set() -> None:
    gmap, book, game = load_squares("wt_three_tribes"), rules(), _game()
    game.phase = BATTLE
    game.battles, _ = battle_setup(game.state, book, gmap, ScriptedDice(), final=True)
    game.gm_results = {"1": Report("anna", ["ben"], {"ben": ["m3"]})}
    back = position.read(PLAYERS, gmap, book, tomllib.loads(_toml(position.export(game))), "pos.toml")
    assert back.gm_results == game.gm_results and back == game
