"""Window B (MK-PBM-7, MK-PBM-12, MK-BAT-20, MK-BAT-21): reports, the GM's ruling, the briefing."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.texts import render
from pbem.rulesets.mighty_kingdoms import reform, steps, window_battle
from pbem.rulesets.mighty_kingdoms.battle_state import GM
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import BATTLE, Holding, Kingdom, MKState, MKView
from pbem.rulesets.phases import Outcome
from pbem.state.schedule import Schedule
from tests.mighty_kingdoms.helpers_battle import NOW, army, board, lines, player, state_of, view_of

DEADLINE = NOW + timedelta(days=7)
AGREED = "RESULT WIN Red\nMEDALS A1.U1\nSCARS B1.U2"


@pytest.fixture(autouse=True)
def reformed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Reform has its own tests (test_reform.py); here it only records that the battle phase handed over to it."""
    calls: list[int] = []

    def fake(view: MKView, dice: Any, sections: list[Section]) -> None:
        calls.append(view.state.calendar.month)
    monkeypatch.setattr(reform, "run", fake)
    return calls


def battle_at_t(**rules: Any) -> MKState:
    """A1 (Red) and B1 (Blue) in T, which is B's; A owns P next to it, B owns R."""
    state = state_of(["a", "b"], {"T": "b", "P": "a", "R": "b"}, {"T": "village"})
    army(state, "A1", "T")
    army(state, "B1", "T")
    state.armies["B1"].defend = True
    assert steps.month_goes_on(at(state, **rules), ScriptedDice([]), []) == BATTLE
    return state


def at(state: MKState, now: datetime = NOW, **rules: Any) -> MKView:
    return view_of(state, board([("T", "P"), ("T", "R"), ("P", "R")]), now, DEADLINE, **rules)


def sent(view: MKView, **mails: str) -> dict[str, Any]:
    out = {}
    for pid, text in mails.items():
        parsed = window_battle.parse(view, player(pid), lines(text))
        assert not parsed.problems, [str(p) for p in parsed.problems]
        out[pid] = parsed.payload
    return out


def close(view: MKView, **mails: str) -> Outcome[MKState]:
    return window_battle.resolve(view, sent(view, **mails), ScriptedDice([]))


# -- parsing ------------------------------------------------------------------------------------------
def problems(state: MKState, pid: str, text: str) -> list[str]:
    return [str(p) for p in window_battle.parse(at(state), player(pid), lines(text)).problems]


def test_mk_pbm_7_a_report_reads_result_medals_scars_moves_advance_and_take() -> None:
    state = battle_at_t()
    state.artefacts["Blade of Slashing"] = Holding("b", "B1", "U2")
    parsed = window_battle.parse(at(state), player("a"), lines(
        "RESULT WIN Red\nMEDALS A1.U1, B1.U1\nSCARS B1.U2\nADVANCE A1 P\nTAKE blade of slashing A1.U2\nRETREAT * P"))
    assert not parsed.problems
    report = parsed.payload["reports"]["Y1M1-B1"]
    assert (report["result"], report["medals"], report["scars"]) == ("a", ["A1.U1", "B1.U1"], ["B1.U2"])
    assert report["win_moves"] == ["A1 P"] and report["allot"] == {"Blade of Slashing": "A1.U2"}
    assert parsed.payload["standing"] == [{"verb": "RETREAT", "army": "*", "tiles": ["P"]}]


def test_mk_bat_15_a_unit_named_twice_for_medals_is_refused() -> None:
    state = battle_at_t()
    assert problems(state, "a", "RESULT WIN Red\nMEDALS A1.U1 A1.U1") == [
        "line 2: A1.U1 is named twice: a unit earns at most one medal per battle (MK-BAT-15)"]


def test_mk_pbm_7_bad_report_lines_are_each_refused_with_a_reason() -> None:
    state = battle_at_t()
    assert problems(state, "a", "RESULT WIN Green") == ["line 1: unknown kingdom “Green”"]
    assert problems(state, "a", "RESULT WIN Red\nMOVE B1 R")[0].startswith("line 2: B1 is not your army")
    assert problems(state, "b", "RESULT WIN Red\nMOVE B1 P") == [
        "line 2: P is not a tile you control next to T"]
    assert problems(state, "b", "RESULT WIN Red\nADVANCE B1 R") == [
        "line 2: only the winner makes the win move; your report does not say you won"]
    assert problems(state, "a", "MEDALS A1.U1") == [
        "line 1: the report of Y1M1-B1 has no RESULT line, so it was not kept (did you mean RESULT WIN <kingdom>?)"]
    assert problems(state, "a", "RESULT WIN Red\nTAKE Blade of Slashing A1.U1")[0].startswith(
        "line 2: “Blade of Slashing” cannot be captured in Y1M1-B1")
    assert problems(state, "a", "RESULT WIN Red\nSCARS A1.U7") == [
        "line 2: A1 has no unit U7; its units are U1, U2"]


def test_mk_pbm_7_a_player_outside_the_battle_cannot_report_it() -> None:
    state = battle_at_t()
    state.kingdoms["c"] = Kingdom("c", "Green")
    assert problems(state, "c", "RESULT Y1M1-B1 DRAW") == [
        "line 1: you do not fight in Y1M1-B1; only its two kingdoms report it"]


# -- closing the window -----------------------------------------------------------------------------
def test_mk_pbm_7_matching_reports_are_applied_at_once() -> None:
    state = battle_at_t()
    view = at(state)
    assert window_battle.owing(view) == ["a", "b"]
    out = close(view, a=AGREED, b=AGREED + "\nMOVE B1 R")
    assert state.owner("T") == "a" and state.armies["B1"].tile == "R"
    assert state.battle.battles[0].how == "reports" and not state.battle.reports
    assert state.calendar.window != BATTLE and out.reports
    lines_out = [line for s in out.reports[0].context["mk"]["sections"] for line in s.lines]
    assert "Y1M1-B1 at T: Red wins against Blue (both reports agree)." in lines_out


def test_mk_pbm_7_differing_reports_go_to_the_gm_and_his_ruling_settles() -> None:
    state = battle_at_t()
    out = close(at(state), a=AGREED, b="RESULT DRAW\nMEDALS NONE\nSCARS NONE")
    assert state.battle.pending() and out.reports == []
    assert out.gm_alerts[0].startswith("Battle Y1M1-B1 needs your ruling: the two reports differ")
    assert window_battle.waiting_for_gm(at(state)) and window_battle.owing(at(state)) == []
    reply = window_battle.gm_result(at(state), ["Y1M1-B1", "DRAW", "SCARS", "B1.U1"])
    assert reply == "Y1M1-B1: ruling recorded: RESULT Y1M1-B1 DRAW / MEDALS NONE / SCARS B1.U1"
    assert window_battle.ready(at(state))
    window_battle.resolve(at(state), {}, ScriptedDice([]))
    assert state.battle.battles[0].result == "draw" and state.battle.battles[0].how == "gm"
    assert state.armies["A1"].tile == "P"
    assert state.armies["B1"].roster.entries[0].total("scar") == 1


def test_mk_pbm_7_gm_may_adopt_one_sides_report() -> None:
    state = battle_at_t()
    close(at(state), a=AGREED, b="RESULT DRAW\nMEDALS NONE\nSCARS NONE")
    window_battle.gm_result(at(state), ["Y1M1-B1", "AS", "Blue"])
    assert state.battle.reports["Y1M1-B1"][GM].result == "draw"
    with pytest.raises(ValueError, match="no open battle"):
        window_battle.gm_result(at(state), ["Y1M1-B9", "DRAW"])


def test_mk_pbm_7_a_single_report_waits_out_the_gm_grace_after_the_deadline() -> None:
    state = battle_at_t()
    close(at(state), a=AGREED)                                   # before the deadline: kept, nothing applied
    assert state.battle.pending() and window_battle.owing(at(state)) == ["b"]
    out = window_battle.resolve(at(state, DEADLINE), {}, ScriptedDice([]))
    assert out.gm_alerts[0].startswith("Battle Y1M1-B1: only one side reported by the deadline")
    assert not window_battle.ready(at(state, DEADLINE + timedelta(hours=23)))
    assert window_battle.ready(at(state, DEADLINE + timedelta(hours=24)))
    window_battle.resolve(at(state, DEADLINE + timedelta(hours=24)), {}, ScriptedDice([]))
    assert state.owner("T") == "a" and state.battle.battles[0].how == "single report"


def test_mk_pbm_7_a_single_reports_grace_is_when_the_window_wakes_by_itself() -> None:
    state = battle_at_t()
    close(at(state), a=AGREED)
    assert window_battle.wakes(at(state)) is None                # nothing waits for a time yet
    window_battle.resolve(at(state, DEADLINE), {}, ScriptedDice([]))
    assert window_battle.wakes(at(state, DEADLINE)) == DEADLINE + timedelta(hours=24)   # an idle tick sleeps until then


def test_mk_pbm_7_the_gm_overrides_a_single_report_within_the_grace() -> None:
    state = battle_at_t()
    close(at(state), a=AGREED)
    window_battle.resolve(at(state, DEADLINE), {}, ScriptedDice([]))
    window_battle.gm_result(at(state, DEADLINE + timedelta(hours=2)), ["Y1M1-B1", "WIN", "Blue"])
    window_battle.resolve(at(state, DEADLINE + timedelta(hours=2)), {}, ScriptedDice([]))
    assert state.owner("T") == "b" and state.armies["A1"].tile == "P"


def test_mk_pbm_7_no_grace_applies_a_single_report_at_the_deadline() -> None:
    state = battle_at_t()
    close(at(state, DEADLINE, battle={"gm_grace_hours": 0}), a=AGREED)
    assert state.owner("T") == "a"


def test_mk_pbm_7_no_report_asks_the_gm_by_default() -> None:
    state = battle_at_t()
    out = window_battle.resolve(at(state, DEADLINE), {}, ScriptedDice([]))
    assert "nobody reported by the deadline" in out.gm_alerts[0]
    assert window_battle.waiting_for_gm(at(state, DEADLINE))


def test_mk_pbm_7_no_report_default_draw_is_a_draw_without_medals_or_scars() -> None:
    state = battle_at_t()
    window_battle.resolve(at(state, DEADLINE, battle={"no_report_default": "draw"}), {}, ScriptedDice([]))
    fight = state.battle.battles[0]
    assert (fight.result, fight.medals, fight.scars, fight.how) == ("draw", [], [], "no report")


def test_mk_pbm_5_standing_preferences_sent_in_window_b_count_for_this_result() -> None:
    state = battle_at_t()
    close(at(state), a=AGREED + "\nWINMOVE A1 P", b=AGREED)
    assert state.armies["A1"].tile == "P" and state.kingdoms["a"].standing.win_move == "A1 P"


def test_mk_pbm_12_waves_brief_far_apart_battles_together_and_apply_in_order(reformed: list[int]) -> None:
    gmap = board([("T", "P"), ("P", "M"), ("M", "V"), ("V", "W")])
    state = state_of(["a", "b"], {"T": "b", "P": "a", "M": "a", "V": "b", "W": "b"})
    for ident, tile in (("A1", "T"), ("B1", "T"), ("A2", "V"), ("B2", "V")):
        army(state, ident, tile)
    view = view_of(state, gmap, NOW, DEADLINE, battle={"schedule": "independent_waves"})
    steps.month_goes_on(view, ScriptedDice([]), [])
    assert [(b.tile, b.chooser) for b in state.battle.pending()] == [("T", "a"), ("V", "b")]
    out = steps.outcome(view, 1, "orders", [], "orders")
    assert [r.kind for r in out.reports] == ["report", "briefing", "briefing"]
    close(view, a="RESULT Y1M1-B2 DRAW\nMEDALS NONE\nSCARS NONE", b="RESULT Y1M1-B2 DRAW\nMEDALS NONE\nSCARS NONE")
    assert [b.id for b in state.battle.pending()] == ["Y1M1-B1", "Y1M1-B2"]   # B2 waits for B1 (canonical order)
    out = close(view, a="RESULT Y1M1-B1 WIN Red\nMEDALS NONE\nSCARS NONE",
                b="RESULT Y1M1-B1 WIN Red\nMEDALS NONE\nSCARS NONE")
    assert [b.result for b in state.battle.battles] == ["a", "draw"]
    assert out.gm_alerts == [] and reformed == [1]


def test_mk_pbm_12_waves_alert_the_gm_when_a_later_pick_would_have_changed() -> None:
    """A wins at T and advances A1 into M, where B3 stands: with that known, B would have picked M, not V."""
    gmap = board([("T", "P"), ("T", "M"), ("V", "W")])
    state = state_of(["a", "b"], {"T": "b", "P": "a", "M": "a", "V": "b", "W": "b"})
    for ident, tile in (("A1", "T"), ("B1", "T"), ("B3", "M"), ("A2", "V"), ("B2", "V")):
        army(state, ident, tile)
    view = view_of(state, gmap, NOW, DEADLINE, battle={"schedule": "independent_waves"})
    steps.month_goes_on(view, ScriptedDice([]), [])
    assert [(b.tile, b.chooser) for b in state.battle.pending()] == [("T", "a"), ("V", "b")]
    mail = "RESULT Y1M1-B1 WIN Red\nMEDALS NONE\nSCARS NONE\n{}RESULT Y1M1-B2 DRAW\nMEDALS NONE\nSCARS NONE"
    out = close(view, a=mail.format("ADVANCE A1 M\n"), b=mail.format(""))
    assert out.gm_alerts == ["Battle Y1M1-B2 was briefed in a wave (battle.schedule = independent_waves); with the "
                             "earlier results known, Blue would have picked M against a. Its result is applied as "
                             "reported (A9)."]
    assert state.battle.battles[1].result == "draw"


# -- what the players read ---------------------------------------------------------------------------
@pytest.mark.clause("MK-BAT-20", "MK-BAT-21")
def test_mk_bat_20_21_the_briefing_shows_tile_forces_points_on_side_defend_and_what_to_send() -> None:
    state = battle_at_t()
    army(state, "B2", "T", upright=False)
    state.battle.battles[0].on_side["b"] = ["B2"]
    state.artefacts["Blade of Slashing"] = Holding("b", "B1", "U2")
    view = at(state)
    (brief,) = [r for r in steps.outcome(view, 1, "orders", [], "k").reports if r.kind == "briefing"]
    assert brief.audience == ("a", "b") and brief.public
    context = {"campaign": {"title": "Mighty Test"}, "schedule": Schedule.from_settings({}),
               "next_deadline": DEADLINE} | brief.context
    text = render("mighty_kingdoms", "briefing", context)
    for expected in ("Terrain: land.", "Settlement: village.", "Controlled by: Blue.", "## Red: 500 points",
                     "## Blue: 500 points", "B1 (500 points, defend marker)", "On their side (not played, they "
                     "share the result): B2.", "`A1.U1` `Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 250`",
                     "carries Blade of Slashing", "Blade of Slashing (on B1.U2)",
                     "RESULT WIN <kingdom> or RESULT DRAW", "MOVE <army> <tile>"):
        assert expected in text, expected


def test_mk_bat_20_the_report_calls_for_window_b_with_its_syntax() -> None:
    state = battle_at_t()
    out = steps.outcome(at(state), 1, "orders", [], "k")
    public = out.reports[0]
    context = {"campaign": {"title": "Mighty Test", "name": "mk"}, "schedule": Schedule.from_settings({}),
               "rolls": []} | public.context
    text = render("mighty_kingdoms", "report", context)
    assert "Battle **Y1M1-B1** at T: Red against Blue." in text
    assert "ADVANCE <army> <tile> or ADVANCE NONE" in text and "WINMOVE <army> <tile>" in text


def test_mk_pbm_7_help_names_the_players_battle_armies_and_units() -> None:
    state = battle_at_t()
    text = window_battle.help_text(at(state), player("b"))
    assert "report each battle you fight (Y1M1-B1)" in text
    assert "Y1M1-B1: B1 may move to R; units B1.U1, B1.U2" in text
    assert window_battle.missing(at(state), player("b"), {}) == ["the report of battle Y1M1-B1"]


def test_mk_pbm_7_the_acknowledgement_quotes_canonical_lines_and_later_mails_keep_other_reports() -> None:
    state = battle_at_t()
    view = at(state)
    parsed = window_battle.parse(view, player("a"), lines("result win red\nmedals a1.u1\nscars none\nbattle * b"))
    assert window_battle.canonical(view, player("a"), parsed.payload) == [
        "RESULT WIN Red", "MEDALS A1.U1", "SCARS NONE", "BATTLE * b"]
    later = window_battle.parse(view, player("a"), lines("SLAUGHTER B1")).payload
    combined = window_battle.combine(view, parsed.payload, later)
    assert list(combined["reports"]) == ["Y1M1-B1"] and combined["standing"] == later["standing"]


def test_mk_pbm_7_a_player_in_no_battle_may_send_only_standing_lines() -> None:
    state = battle_at_t()
    state.kingdoms["c"] = Kingdom("c", "Green")
    assert problems(state, "c", "RESULT DRAW") == [
        "line 1: you fight in no open battle; only standing preferences (BATTLE, SLAUGHTER, RETREAT, WINMOVE, "
        "REFORM) are read now"]
    assert window_battle.gm_pending(at(state)) == []


def test_mk_pbm_12_a_wave_battle_settled_by_default_keeps_its_result_while_an_earlier_one_waits() -> None:
    gmap = board([("T", "P"), ("P", "M"), ("M", "V"), ("V", "W")])
    state = state_of(["a", "b"], {"T": "b", "P": "a", "M": "a", "V": "b", "W": "b"})
    for ident, tile in (("A1", "T"), ("B1", "T"), ("A2", "V"), ("B2", "V")):
        army(state, ident, tile)
    rules = {"battle": {"schedule": "independent_waves", "no_report_default": "draw"}}
    steps.month_goes_on(view_of(state, gmap, NOW, DEADLINE, **rules), ScriptedDice([]), [])
    one = "RESULT Y1M1-B1 WIN Red\nMEDALS NONE\nSCARS NONE"
    close(view_of(state, gmap, NOW, DEADLINE, **rules), a=one)
    window_battle.resolve(view_of(state, gmap, DEADLINE, DEADLINE, **rules), {}, ScriptedDice([]))
    assert [b.id for b in state.battle.pending()] == ["Y1M1-B1", "Y1M1-B2"]    # B1 in its grace, B2 a draw
    later = DEADLINE + timedelta(hours=24)
    window_battle.resolve(view_of(state, gmap, later, later + timedelta(days=7), **rules), {}, ScriptedDice([]))
    assert [(b.result, b.how) for b in state.battle.battles] == [("a", "single report"), ("draw", "no report")]


def test_mk_bat_4_window_b_with_no_open_battle_goes_straight_on_to_the_next_pick() -> None:
    state = state_of(["a", "b"], {"T": "b", "P": "a", "R": "b"})
    state.calendar.window = BATTLE
    army(state, "A1", "T")
    army(state, "B1", "T")
    view = at(state)
    assert window_battle.ready(view)
    out = window_battle.resolve(view, {}, ScriptedDice([]))
    assert [b.id for b in state.battle.pending()] == ["Y1M1-B1"]
    assert [r.kind for r in out.reports] == ["report", "briefing"]


def test_mk_pbm_7_orders_of_other_windows_are_refused_saying_where_they_belong() -> None:
    state = battle_at_t()
    assert problems(state, "a", "A1 MOVE P\nRESULT WIN Red") == [
        "line 1: MOVE is read only in the Orders window; window B reads battle reports and standing preferences"]
    assert problems(state, "a", "RESULT WIN Red\nBUILD village P") == [
        "line 2: BUILD is read only in the winter's purchase window (W1); window B reads battle reports and "
        "standing preferences"]
    assert problems(state, "b", "RESULT WIN Red\nMOVE B1 R") == []
