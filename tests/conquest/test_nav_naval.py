"""COC-NAV and SC-12: sea battles, Naval Advantage and what it does to shore conquests."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.conquest.battle_orders import parse_result_line
from pbem.rulesets.conquest.model import Battle, NavalAdvantage, RoundState
from pbem.rulesets.conquest.naval import update
from pbem.rulesets.conquest.results import step_c
from pbem.rulesets.conquest.spending import Action, run_spending

from .battle_helpers import board, land, rules, state

RULES = rules(naval={"enabled": True, "players": ["ben", "cara", "dan"]})
SHORE = {t: "shore" for t in ("T60", "T61", "T62", "T64", "T66")}
MAP = board(terrain=SHORE, links=[("T60", "T61"), ("T62", "T63"), ("T64", "T63"), ("T66", "T63")])
HOLD = {"T60": ("ben", "port"), "T61": ("cara", ""), "T62": ("ben", ""), "T63": ("cara", ""),
        "T64": ("ben", ""), "T66": ("ben", "castle"), "T70": ("dan", "")}
WIN = "RESULT {b} WITHDREW defender VP 500-300 BP 8-8 LOST 6-8"


def play(game, round_no: int, battles: list[Battle], lines: list[tuple[str, str]],  # type: ignore[no-untyped-def]
         book=RULES):
    game.round = RoundState(number=round_no, window="results", order=["dan", "cara", "ben"], battles=battles)
    game, events = step_c(game, [parse_result_line(game, p, line) for p, line in lines], book, ScriptedDice())
    return game, events


def spend(game, player: str, tile: str, book=RULES) -> int:  # type: ignore[no-untyped-def]
    run_spending(game, MAP, book, {player: [[Action("conquer", tile)]]}, ScriptedDice())
    record = next(s for s in game.round.spending if s.player == player).actions[0]
    assert record.done, record.reason
    return record.cost


@pytest.mark.clause("COC-NAV-1")
@pytest.mark.clause("COC-NAV-5")
@pytest.mark.clause("COC-NAV-6")
@pytest.mark.clause("COC-NAV-7")
@pytest.mark.clause("COC-NAV-8")
@pytest.mark.clause("COC-NAV-9")
@pytest.mark.clause("COC-NAV-10")
def test_sc_12_naval_advantage_over_four_rounds() -> None:
    game = state(players=("dan", "cara", "ben"), tiles=HOLD)
    game, events = play(game, 2, [Battle("B1", "sea", ["ben"], ["cara"]), land("B2", ["ben"], ["cara"])],
                        [("cara", "RESULT B1 WINNER ben"), ("cara", WIN.format(b="B2"))])
    assert game.naval == [NavalAdvantage("ben", "cara")] and "Ben gains Naval Advantage over Cara" in events
    assert spend(game, "ben", "T61") == 2
    game, _ = play(game, 3, [land("B1", ["cara"], ["ben"])], [("ben", WIN.format(b="B1"))])
    assert spend(game, "cara", "T62") == 4
    game, events = play(game, 4, [Battle("B1", "sea", ["dan"], ["ben"])], [("ben", "RESULT B1 WINNER attacker")])
    assert game.naval == [NavalAdvantage("dan", "ben")]
    assert "Ben loses Naval Advantage over Cara" in events
    game, _ = play(game, 5, [land("B1", ["cara"], ["ben"])], [("ben", WIN.format(b="B1"))])
    assert spend(game, "cara", "T64") == 3
    # a sea win alone lets nobody conquer (COC-NAV-8)
    game, _ = play(game, 6, [Battle("B1", "sea", ["cara"], ["ben"])], [("ben", "RESULT B1 WINNER cara")])
    run_spending(game, MAP, RULES, {"cara": [[Action("conquer", "T66")]]}, ScriptedDice())
    record = next(s for s in game.round.spending if s.player == "cara").actions[0]
    assert not record.done and "did not win" in record.reason


@pytest.mark.clause("COC-NAV-12")
def test_sc_12_variant_without_a_shore_port() -> None:
    game = state(players=("dan", "cara", "ben"), tiles={**HOLD, "T60": ("ben", "")})
    game, _ = play(game, 2, [Battle("B1", "sea", ["ben"], ["cara"]), land("B2", ["ben"], ["cara"])],
                   [("cara", "RESULT B1 WINNER ben"), ("cara", WIN.format(b="B2"))])
    assert game.naval == [NavalAdvantage("ben", "cara")]            # he still fights for the Advantage
    game.tiles["T62"].owner = "ben"
    assert spend(game, "ben", "T63") == 3                            # T63 is no shore tile anyway
    game.tiles["T63"].owner = "ben"
    assert spend(game, "ben", "T61") == 3                            # no discount without a shore port


@pytest.mark.clause("COC-NAV-14")
def test_coc_nav_14_modifiers_add_to_the_castle_surcharge() -> None:
    game = state(players=("dan", "cara", "ben"), tiles=HOLD)
    game.naval = [NavalAdvantage("ben", "cara")]
    massacre = "RESULT B1 WITHDREW defender VP 500-300 BP 8-8 LOST 0-8"
    game, _ = play(game, 3, [land("B1", ["cara"], ["ben"])], [("ben", massacre)])
    assert spend(game, "cara", "T66") == 5
    game = state(players=("dan", "cara", "ben"), tiles={**HOLD, "T61": ("cara", "castle")})
    game.naval = [NavalAdvantage("ben", "cara")]
    game, _ = play(game, 3, [land("B1", ["ben"], ["cara"])], [("cara", WIN.format(b="B1"))])
    assert spend(game, "ben", "T61") == 3


@pytest.mark.clause("COC-NAV-3")
def test_coc_nav_11_draw_at_sea_changes_nothing_and_team_sea_wins() -> None:
    game = state(players=("dan", "cara", "ben"), tiles=HOLD)
    game.naval = [NavalAdvantage("ben", "cara")]
    game, events = play(game, 2, [Battle("B1", "sea", ["cara"], ["ben"])], [("ben", "RESULT B1 DRAW")])
    assert game.naval == [NavalAdvantage("ben", "cara")] and "a draw at sea" in events[0]
    game.round.battles = [Battle("B1", "sea", ["cara", "dan"], ["ben"])]
    game.round.outcomes = []
    game, _ = play(game, 3, [Battle("B1", "sea", ["cara", "dan"], ["ben"])], [("ben", "RESULT B1 WINNER cara")])
    assert sorted((n.holder, n.subject) for n in game.naval) == [("cara", "ben"), ("dan", "ben")]


def test_coc_nav_2_sea_battles_are_their_own_kind() -> None:
    game = state(players=("cara", "ben"), battles=[Battle("B1", "sea", ["cara"], ["ben"])])
    assert update(game) == []                                        # nothing settled, nothing changes
    with pytest.raises(Exception, match="sea battle"):
        parse_result_line(game, "cara", WIN.format(b="B1"))
