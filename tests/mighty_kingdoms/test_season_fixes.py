"""Defects the season simulation (tests/season) found in Mighty Kingdoms, each proved by the clause it broke."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from pbem.intake.envelope import read_envelope
from pbem.kit.dice import ScriptedDice
from pbem.kit.texts import render
from pbem.rulesets.base import Context, Stage
from pbem.rulesets.mighty_kingdoms import rules as rulesmod
from pbem.rulesets.mighty_kingdoms import setup, steps, window_battle
from pbem.rulesets.mighty_kingdoms.model import BATTLE, WINTER, Calendar, MKState
from pbem.rulesets.mighty_kingdoms.ruleset import RULESET
from pbem.rulesets.mighty_kingdoms.tiles import campaign_map
from tests.mighty_kingdoms import helpers_setup
from tests.mighty_kingdoms.helpers_battle import NOW, army, board, lines, player, state_of, view_of

DEADLINE = NOW + timedelta(days=7)


def battle_at_t() -> MKState:
    """A1 (Red) and B1 (Blue) in T, which is B's; A owns P next to it, B owns R."""
    state = state_of(["a", "b"], {"T": "b", "P": "a", "R": "b"}, {"T": "village"})
    army(state, "A1", "T")
    army(state, "B1", "T")
    assert steps.month_goes_on(view_of(state, board([("T", "P"), ("T", "R"), ("P", "R")])), ScriptedDice([]),
                               []) == BATTLE
    return state


def report(state: MKState, pid: str, text: str, now: datetime = NOW) -> None:
    view = view_of(state, board([("T", "P"), ("T", "R"), ("P", "R")]), now, DEADLINE)
    parsed = window_battle.parse(view, player(pid), lines(text))
    window_battle.resolve(view, {pid: parsed.payload}, ScriptedDice([]))


def pending(tmp_path: Path, state: MKState) -> list[str]:
    """`pbem status`'s GM tasks for a campaign holding `state`."""
    camp = helpers_setup.campaign(tmp_path)
    return RULESET.gm_pending(Context(camp.settings, RULESET.dump_state(state), NOW))


def test_mk_pbm_7_status_names_a_disputed_battle_and_the_ruling_it_waits_for(tmp_path: Path) -> None:
    state = battle_at_t()
    report(state, "a", "RESULT WIN Red\nMEDALS NONE\nSCARS NONE")
    report(state, "b", "RESULT WIN Blue\nMEDALS NONE\nSCARS NONE")
    assert state.battle.awaiting_gm == ["Y1M1-B1"]
    assert pending(tmp_path, state) == [
        "battle Y1M1-B1 waits for your ruling: RESULT Y1M1-B1 WIN <kingdom>|DRAW [MEDALS ...] [SCARS ...]"]


def test_mk_pbm_7_status_names_a_single_report_waiting_out_the_gm_grace(tmp_path: Path) -> None:
    state = battle_at_t()
    report(state, "a", "RESULT WIN Red\nMEDALS NONE\nSCARS NONE", DEADLINE)
    assert state.battle.grace_until
    assert pending(tmp_path, state) == [
        "battle Y1M1-B1 has one report, applied at 2026-06-09 12:00 unless you rule first: "
        "RESULT Y1M1-B1 WIN <kingdom>|DRAW [MEDALS ...] [SCARS ...]"]


def test_mk_pbm_8_a_recruit_list_closed_by_end_list_reaches_window_w1_with_the_lines_after_it() -> None:
    """A bare END ends a mail's orders (README); "END LIST", which closes a RECRUIT's list block in
    window W1, ended the whole mail: the recruit was refused and the lines after it were lost."""
    mail = ("PLAYER red SECRET\nRECRUIT T9\nLIST Reserve\nSpearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100\n"
            "END LIST\nTITHE Blue 1g 0f\nEND\nthanks, Anna")
    env = read_envelope("[mk] winter", mail)
    assert [line for _, line in env.lines] == ["RECRUIT T9", "LIST Reserve",
                                               "Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100", "END LIST",
                                               "TITHE Blue 1g 0f"]


@pytest.mark.parametrize(("kind", "default"), [
    ("orders", "Without orders your armies with the lowest ids DEFEND, as many as the month's order allowance"),
    ("battle", "Without your report the other side's report is applied once the game master's grace is over"),
    ("purchases", "Without a mail you buy nothing, tithe nothing and send no quest."),
    ("deployment", "Without DEPLOY lines an army already in a settlement of yours with room stays")])
def test_mk_pbm_8_a_reminder_names_the_windows_own_default(tmp_path: Path, kind: str, default: str) -> None:
    """MK-PBM-2/7/8/10: the reminder said "Without orders your tokens hold" (Daemon Rift's words) in every window."""
    camp = helpers_setup.campaign(tmp_path)
    person = camp.settings.player("a")
    stage = Stage(kind, f"Year 1, month 3: {kind}", 3, ("a",), kind)
    text = render(RULESET.templates, "reminder", {"campaign": camp.settings, "player": person, "stage": stage,
                                                  "deadline": DEADLINE, "schedule": camp.settings.schedule,
                                                  "now": NOW}, camp.folder)
    assert default in text and "tokens" not in text


def test_mk_yr_1_a_shorter_summer_numbers_its_turns_without_a_gap() -> None:
    """With campaign.summer_months = 3 the winter came as turn 7 after month 3's turn 3: turns 4 to 6
    were never played, and the engine's history had a gap."""
    state = setup.new_state(campaign_map("mk_three_realms"), rulesmod.load({"campaign": {"summer_months": 3}}),
                            [("a", "Red"), ("b", "Blue"), ("c", "Green")])
    turns = []
    for year, month in ((1, 1), (1, 2), (1, 3), (1, WINTER), (2, 1), (2, WINTER)):
        state.calendar.year, state.calendar.month = year, month
        turns.append(state.calendar.turn)
    assert turns == [1, 2, 3, 4, 5, 8]
    assert Calendar(2, WINTER).turn == 14                    # the rules' six months: seven turns a year
