"""COC-SIE and SC-11: starting a siege, the half tiles, the assault in step C, reconquest."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.conquest.battle_orders import parse_result_line
from pbem.rulesets.conquest.empire import holdings
from pbem.rulesets.conquest.events import disaster
from pbem.rulesets.conquest.model import Battle, RoundState, Siege
from pbem.rulesets.conquest.results import step_c
from pbem.rulesets.conquest.spending import Action, run_spending

from .battle_helpers import board, land, rules, state

RULES = rules(siege={"enabled": True})
# Anna: capital T1 + T2..T6; Dan: capital T10 + T51, T52; T50 (Dan's castle) touches T6 and T51.
MAP = board(terrain={"T53": "mountain"},
            links=[("T1", "T2"), ("T2", "T3"), ("T3", "T4"), ("T4", "T5"), ("T5", "T6"), ("T6", "T50"),
                   ("T50", "T51"), ("T51", "T10"), ("T10", "T52"), ("T6", "T53"), ("T53", "T52")])
HOLDINGS = {"T1": ("anna", "city"), **{f"T{n}": ("anna", "") for n in range(2, 7)},
            "T10": ("dan", "city"), "T50": ("dan", "castle"), "T51": ("dan", ""), "T52": ("dan", "")}


def round_with(battles: list[Battle], round_no: int, game=None):  # type: ignore[no-untyped-def]
    if game is None:
        game = state(players=("dan", "anna"), tiles=HOLDINGS, round_no=round_no)
    game.round = RoundState(number=round_no, window="results", order=["dan", "anna"], largest="anna",
                            battles=battles)
    return game


def anna_beats_dan(game, line: str = "RESULT B1 WITHDREW defender VP 500-300 BP 8-8 LOST 6-8"):  # type: ignore[no-untyped-def]
    game, _ = step_c(game, [parse_result_line(game, "dan", line)], RULES, ScriptedDice(), final=True)
    return game


def besieged_in_round_3(consent: bool = True, book=RULES):  # type: ignore[no-untyped-def]
    game = anna_beats_dan(round_with([land("B1", ["anna"], ["dan"])], 3))
    if consent:
        game.round.siege_consent = {"dan": ["anna"]}
    run_spending(game, MAP, book, {"anna": [[Action("siege", "T50"), Action("conquer", "T50")]]}, ScriptedDice())
    return game


@pytest.mark.clause("COC-SIE-2")
@pytest.mark.clause("COC-SIE-3")
@pytest.mark.clause("COC-SIE-4")
@pytest.mark.clause("COC-SIE-6")
def test_sc_11_siege_started_and_half_tiles() -> None:
    game = besieged_in_round_3()
    spent = game.round.spending[-1]
    assert spent.spent == 2
    assert game.round.award("anna").available == 3 and spent.actions[0].done and spent.actions[0].cost == 2
    assert game.tiles["T50"].owner == "anna" and game.tiles["T50"].building == "castle"
    assert game.sieges == [Siege("T50", "anna", "dan", 3)] and game.fortification_owner("T50") == "dan"
    assert holdings(game, "anna", RULES).size == 7.5 and holdings(game, "dan", RULES).size == 4.5


@pytest.mark.clause("COC-SIE-7")
@pytest.mark.clause("COC-SIE-9")
@pytest.mark.clause("COC-SIE-10")
@pytest.mark.clause("COC-SIE-13")
def test_sc_11_assault_won_in_round_4() -> None:
    game = round_with([Battle("B1", "siege", ["anna"], ["dan"], "T50")], 4, besieged_in_round_3())
    game, events = step_c(game, [parse_result_line(game, "anna", "RESULT B1 YES"),
                                 parse_result_line(game, "dan", "RESULT B1 YES")], RULES, ScriptedDice())
    assert game.sieges == [] and game.tiles["T50"].owner == "anna" and game.fortification_owner("T50") == "anna"
    assert "storms T50" in events[-1]
    assert holdings(game, "anna", RULES).size == 8 and holdings(game, "dan", RULES).size == 4
    assert game.round.award("anna").battles == [] and game.round.wins == []   # no EP, no win (COC-RES-22)


@pytest.mark.clause("COC-SIE-11")
@pytest.mark.clause("COC-SIE-12")
def test_sc_11_variant_a_assault_fails_and_dan_reconquers() -> None:
    game = round_with([Battle("B1", "siege", ["anna"], ["dan"], "T50"), land("B2", ["dan"], ["anna"])], 4,
                      besieged_in_round_3())
    game, events = step_c(game, [parse_result_line(game, "anna", "RESULT B1 NO"),
                                 parse_result_line(game, "anna",
                                                   "RESULT B2 WITHDREW defender VP 500-300 BP 8-8 LOST 6-8")],
                          RULES, ScriptedDice())
    assert "the siege goes on" in " ".join(events) and game.siege_at("T50")
    run_spending(game, MAP, RULES, {"dan": [[Action("conquer", "T50")]]}, ScriptedDice())
    record = game.round.spending[0].actions[0]
    assert record.done and record.cost == 3
    assert game.sieges == [] and game.tiles["T50"].owner == "dan" and game.tiles["T50"].building == "castle"


@pytest.mark.clause("COC-SIE-5")
def test_sc_11_variant_b_no_consent_standard_conquest() -> None:
    game = anna_beats_dan(round_with([land("B1", ["anna"], ["dan"])], 3))
    game.empires["anna"].carried_ep = 1
    game = anna_beats_dan(round_with([land("B1", ["anna"], ["dan"])], 3, game))
    run_spending(game, MAP, RULES, {"anna": [[Action("siege", "T50"), Action("conquer", "T50")]]}, ScriptedDice())
    first, second = game.round.spending[-1].actions
    assert not first.done and "consent" in first.reason
    assert second.done and second.cost == 4 and game.sieges == [] and game.tiles["T50"].owner == "anna"


def test_coc_sie_1_sieges_off_by_default() -> None:
    game = besieged_in_round_3(book=rules())
    first = game.round.spending[-1].actions[0]
    assert not first.done and "siege.enabled" in first.reason and game.sieges == []


def test_coc_sie_3_mountain_siege_costs_one_more() -> None:
    game = anna_beats_dan(round_with([land("B1", ["anna"], ["dan"])], 3))
    game.tiles["T53"].owner, game.tiles["T53"].building = "dan", "castle"
    game.round.siege_consent = {"dan": ["anna"]}
    run_spending(game, MAP, RULES, {"anna": [[Action("siege", "T53")]]}, ScriptedDice())
    assert game.round.spending[-1].actions[0].cost == 3


def test_coc_sie_14_no_building_and_no_third_party_on_a_besieged_tile() -> None:
    game = besieged_in_round_3()
    game.round.wins = []
    run_spending(game, MAP, RULES, {"anna": [[Action("replace", "T50", "port")]]}, ScriptedDice())
    assert "under siege" in game.round.spending[-1].actions[0].reason


def test_coc_sie_16_fortification_destroyed_hands_the_tile_to_the_besieger() -> None:
    game = besieged_in_round_3()
    disaster(game, RULES, "dan", ScriptedDice([3, 1]))                # T10 city survives, T50 castle falls
    assert game.sieges == [] and game.tiles["T50"].owner == "anna" and game.tiles["T50"].building == ""
