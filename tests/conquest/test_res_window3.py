"""Window 3 and step C: result lines, matching and conflicting reports, deadlines, EP and wins (COC-RES)."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.orders import IllegalOrder, InvalidOrder
from pbem.rulesets.base import GMDecisionNeeded
from pbem.rulesets.conquest.battle_orders import (
    format_result,
    format_setup,
    parse_result_line,
    parse_results,
    parse_setup,
    result_reports,
    setup_orders,
)
from pbem.rulesets.conquest.model import Battle, ResultReport, SetupOrder
from pbem.rulesets.conquest.results import (
    describe,
    gm_alerts,
    gm_result,
    open_battles,
    step_c,
)

from .battle_helpers import land, rules, state

RULES = rules()


def cara_ben(**kw):  # type: ignore[no-untyped-def]
    return state(players=("cara", "ben", "dan"), battles=[land("B1", ["cara"], ["ben"])], **kw)


LINE = "RESULT B1 WITHDREW defender VP 620-310 BP 8-9 LOST 2-4"


def report(game, player: str, line: str = LINE) -> ResultReport:  # type: ignore[no-untyped-def]
    return parse_result_line(game, player, line)


@pytest.mark.clause("COC-RES-19")
def test_coc_res_19_land_result_line_round_trip() -> None:
    game = cara_ben()
    got = report(game, "ben", "result b1 withdrew Ben vp 620 310 bp 8/9 lost 2-4 standin")
    assert (got.withdrew, got.vp_attacker, got.vp_defender, got.bp_attacker, got.lost_defender, got.stand_in) == (
        "defender", 620, 310, 8, 4, True)
    assert format_result(got, game.round.battle("B1")) == LINE + " STANDIN"
    again = report(game, "ben", format_result(got, game.round.battle("B1")))
    assert again.facts() == got.facts()
    nobody = report(game, "cara", "RESULT B1 WITHDREW none VP 500-450")
    assert format_result(nobody, game.round.battle("B1")) == "RESULT B1 WITHDREW none VP 500-450"


def test_coc_res_19_bad_lines_say_what_is_wrong() -> None:
    game = cara_ben()
    with pytest.raises(InvalidOrder, match="needs BP and LOST"):
        report(game, "cara", "RESULT B1 WITHDREW defender VP 620-310")
    with pytest.raises(InvalidOrder, match="not a side of B1"):
        report(game, "cara", "RESULT B1 WITHDREW zed VP 620-310 BP 8-9 LOST 1-1")
    with pytest.raises(IllegalOrder, match="you do not fight in B1"):
        report(game, "dan", LINE)
    with pytest.raises(InvalidOrder, match="no battle B7"):
        report(game, "cara", "RESULT B7 WITHDREW none VP 1-2")
    with pytest.raises(IllegalOrder, match="not a team"):
        report(game, "cara", LINE + " GENERAL attacker")
    parsed = parse_results(game, "cara", [(1, LINE), (2, "RESULT B1 WITHDREW defender VP x-1"), (3, "hello")],
                           describe(game, RULES))
    assert [p.line_no for p in parsed.problems] == [2, 3]
    assert parsed.accepted == [(1, LINE + " (attacker massacre; defender lose)")]
    assert result_reports(parsed.payload)[0].facts() == report(game, "cara").facts()


def test_siege_and_sea_result_lines() -> None:
    game = state(players=("anna", "dan"), battles=[Battle("B1", "siege", ["anna"], ["dan"], "T50"),
                                                  Battle("B2", "sea", ["anna"], ["dan"])])
    assert report(game, "dan", "RESULT B1 YES").winner == "attacker"
    assert format_result(report(game, "dan", "RESULT B1 no"), game.round.battle("B1")) == "RESULT B1 NO"
    assert report(game, "dan", "RESULT B2 WINNER dan").winner == "defender"
    assert report(game, "anna", "RESULT B2 draw").winner == "draw"
    with pytest.raises(InvalidOrder, match="siege assault"):
        report(game, "anna", LINE)


@pytest.mark.clause("COC-BAT-2")
@pytest.mark.clause("COC-BAT-4")
def test_window_2_setup_lines() -> None:
    game = state(players=("ben", "dan", "cara"), battles=[land("B1", ["ben", "dan"], ["cara"]),
                                                          land("B2", ["cara"], ["ben"])], treasury={"ben": 100})
    parsed = parse_setup(game, "ben", [(1, "B1 SIZE 2000 GOLD 150"), (2, "b1 share 1500"),
                                       (3, "B2 gold 250"), (4, "B2 SHARE 100"), (5, "ALL ABSTRACT"),
                                       (6, "B2 STANDIN Joe  Bloggs")], RULES)
    assert [p.line_no for p in parsed.problems] == [3, 4]
    assert "at most 200 gp" in parsed.problems[0].reason and "not a team battle" in parsed.problems[1].reason
    orders = {o.battle: o for o in setup_orders(parsed.payload)}
    assert orders["B1"] == SetupOrder("B1", 2000, 150, 1500)
    assert format_setup(orders["B1"]) == "B1 SIZE 2000 GOLD 150 SHARE 1500"
    assert orders["B2"].stand_in == "Joe Bloggs" and orders["*"].abstract
    assert parsed.accepted[0][1].endswith("(you have 100 gp: the amount will be cut, COC-BAT-8)")


@pytest.mark.clause("COC-RES-20")
def test_coc_res_20_matching_reports_accepted_conflicts_to_the_gm() -> None:
    game = cara_ben()
    game, _ = step_c(game, [report(game, "cara"), report(game, "ben")], RULES, ScriptedDice(), final=False)
    assert game.round.outcome("B1").how == "reported" and game.round.outcome("B1").attacker == "massacre"
    game = cara_ben()
    other = report(game, "ben", "RESULT B1 WITHDREW defender VP 620-310 BP 8-9 LOST 5-4")
    game, events = step_c(game, [report(game, "cara"), other], RULES, ScriptedDice(), final=True)
    assert open_battles(game) and game.round.disputed == ["B1"] and game.round.ep == []
    assert "the reports differ" in events[-1] and "needs your ruling" in gm_alerts(game)[0]
    assert "B1: ruling recorded" in gm_result(game, ["RESULT", "B1", "WITHDREW", "defender", "VP", "620-310",
                                                     "BP", "8-9", "LOST", "5-4"])
    game, _ = step_c(game, [report(game, "cara"), other], RULES, ScriptedDice(), final=True)
    assert game.round.outcome("B1").how == "gm" and game.round.outcome("B1").attacker == "minor_victory"
    assert game.round.award("cara").available == 3


@pytest.mark.clause("COC-GEN-3")
def test_coc_res_21_single_report_at_the_deadline_and_unreported_battles() -> None:
    game = cara_ben()
    game, _ = step_c(game, [report(game, "ben")], RULES, ScriptedDice(), final=False)
    assert open_battles(game) and game.round.ep == []                     # waits for the other side
    game, _ = step_c(game, [report(game, "ben")], RULES, ScriptedDice(), final=True)
    assert game.round.outcome("B1").how == "single report"
    game = cara_ben()
    strict = rules(results={"single_report_accept": False})
    game, _ = step_c(game, [report(game, "ben")], strict, ScriptedDice(), final=True)
    assert game.round.disputed == ["B1"]
    game = cara_ben()
    game, events = step_c(game, [], RULES, ScriptedDice([2, 4]), final=True)
    assert game.round.outcome("B1").how == "abstract" and "no result by the deadline" in events[0]
    gm_rules = rules(battle={"unreported_result": "gm"})
    with pytest.raises(GMDecisionNeeded) as asked:
        step_c(cara_ben(), [], gm_rules, ScriptedDice(), final=True)
    assert asked.value.key == "B1-result" and "abstract" in asked.value.options
    game, _ = step_c(cara_ben(), [], gm_rules, ScriptedDice(), final=True,
                     decisions={"B1-result": "defender_major_victory"})
    outcome = game.round.outcome("B1")
    assert (outcome.attacker, outcome.defender, outcome.how) == ("lose", "major_victory", "gm")
    game, _ = step_c(cara_ben(), [], gm_rules, ScriptedDice([3, 3]), final=True, decisions={"B1-result": "abstract"})
    assert game.round.outcome("B1").how == "abstract" and game.round.ep


@pytest.mark.clause("COC-ABR-1")
def test_coc_abr_1_abstract_asked_in_window_3_is_rolled_when_nobody_reported_the_battle_as_played() -> None:
    game = cara_ben()
    asked = parse_result_line(game, "ben", "ABSTRACT B1")
    game, _ = step_c(game, [asked], RULES, ScriptedDice([6, 6]), final=False)
    outcome = game.round.outcome("B1")
    assert outcome.how == "abstract" and outcome.attacker == "major_victory" and "asked by Ben" in outcome.note


@pytest.mark.clause("COC-ABR-1")
@pytest.mark.clause("COC-RES-20")
def test_coc_abr_1_abstract_asked_against_a_played_report_goes_to_the_gm() -> None:
    game = cara_ben()
    asked = parse_result_line(game, "ben", "ABSTRACT B1")
    game, lines = step_c(game, [report(game, "cara"), asked], RULES, ScriptedDice([]), final=True)
    assert game.round.outcome("B1") is None and game.round.disputed == ["B1"]
    assert lines == ["B1 waits for the game master: Ben asked for abstract resolution, but Cara reported the "
                     "battle as played"]


@pytest.mark.clause("COC-RES-12")
@pytest.mark.clause("COC-RES-15")
@pytest.mark.clause("COC-RES-16")
@pytest.mark.clause("COC-CHL-18")
def test_sc_7_step_c_average_team_and_all_or_nothing() -> None:
    game = state(players=("cara", "ben", "dan", "andy", "phil", "bob"), carried={"cara": 1},
                 events={"phil": "all_or_nothing"},
                 battles=[land("B1", ["dan"], ["cara"]), land("B2", ["ben"], ["cara"]),
                          land("B3", ["andy", "phil"], ["bob"])])
    reports = [
        parse_result_line(game, "dan", "RESULT B1 WITHDREW defender VP 600-100 BP 8-8 LOST 6-8"),
        parse_result_line(game, "cara", "RESULT B2 WITHDREW attacker VP 100-600 BP 8-8 LOST 8-3"),
        parse_result_line(game, "bob", "RESULT B3 WITHDREW defender VP 600-100 BP 10-8 LOST 6-8"),
    ]
    game, _ = step_c(game, reports, RULES, ScriptedDice(), final=True)
    cara = game.round.award("cara")
    assert [b.ep for b in cara.battles] == [1, 4] and (cara.average, cara.carried, cara.available) == (2, 1, 3)
    phil = game.round.award("phil")
    assert [b.ep for b in phil.battles] == [2] and (phil.all_or_nothing, phil.available) == ("bonus", 4)
    assert game.round.award("bob").available == 1


@pytest.mark.clause("COC-RES-22")
@pytest.mark.clause("COC-NAV-13")
@pytest.mark.clause("COC-ABR-10")
def test_coc_res_17_wins_from_land_battles_only() -> None:
    game = state(players=("cara", "ben", "dan", "anna"),
                 battles=[land("B1", ["cara"], ["ben"]), land("B2", ["cara"], ["dan"]),
                          Battle("B3", "sea", ["anna"], ["ben"]), land("B4", ["anna"], ["dan"])])
    reports = [parse_result_line(game, "ben", LINE),
               parse_result_line(game, "dan", "RESULT B2 WITHDREW none VP 500-450"),
               parse_result_line(game, "anna", "RESULT B3 WINNER anna"),
               parse_result_line(game, "anna", "ABSTRACT B4")]
    game, _ = step_c(game, reports, rules(naval={"enabled": True, "players": ["anna", "ben"]}),
                     ScriptedDice([5, 5]), final=True)
    assert game.round.beaten_by("cara") == ["ben"]                        # B2's extra VP is no win
    assert game.round.beaten_by("anna") == ["dan"]                        # the abstract win counts, the sea win not
    assert [b.battle for b in game.round.award("anna").battles] == ["B4"]  # no EP from the sea battle
    assert game.round.award("anna").available == 3


def test_coc_res_17_team_members_beat_every_opponent() -> None:
    game = state(players=("andy", "phil", "bob"), battles=[land("B1", ["andy", "phil"], ["bob"])])
    game, _ = step_c(game, [parse_result_line(game, "bob", "RESULT B1 WITHDREW bob VP 600-100 BP 10-8 LOST 6-8")],
                     RULES, ScriptedDice(), final=True)
    assert sorted((w.winner, w.loser) for w in game.round.wins) == [("andy", "bob"), ("phil", "bob")]


def test_coc_res_23_round_report_shows_categories_ep_and_beaten_players() -> None:
    from pbem.kit.texts import render
    from pbem.rulesets.conquest.results import report_context

    game = state(players=("cara", "ben", "dan"), carried={"cara": 1}, events={"dan": "all_or_nothing"},
                 battles=[land("B1", ["cara"], ["ben"]), land("B2", ["dan"], ["cara"])])
    game, _ = step_c(game, [parse_result_line(game, "ben", LINE),
                            parse_result_line(game, "dan", "RESULT B2 WITHDREW none VP 300-300")],
                     RULES, ScriptedDice(), final=True)
    text = render("conquest", "_battle_results", report_context(game, RULES))
    assert "**B1** (land): Cara (attacker) massacre; Ben (defender) lose; one side's report" in text
    assert "| Cara | B1 massacre 5, B2 draw 2 | 3 | - | 1 | **4** | Ben |" in text
    assert "| Dan | B2 draw 2 | 2 | lost: 0 | 0 | **0** | - |" in text
