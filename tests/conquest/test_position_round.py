"""A Conquest round's records as pbem keeps them (docs/positions/conquest.md): read exactly into
the round, and a record of the wrong form refused with its key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.rulesets.base import PositionError
from pbem.rulesets.conquest import position_export
from pbem.rulesets.conquest.ruleset import RULESET

from .engine_helpers import campaign

CAPITALS = (("anna", "T3"), ("ben", "T15"), ("cara", "T35"))
RESULTS = {"round": 2, "window": "results", "order": ["anna", "ben", "cara"],
           "empires": {p: {"capital": t} for p, t in CAPITALS},
           "tiles": {t: {"owner": p} for p, t in CAPITALS},
           "battles": [{"id": "B1", "kind": "land", "attackers": ["anna"], "defenders": ["ben"]}],
           "setups": [{"battle": "B1", "points": 2000, "note": "as proposed", "abstract": False,
                       "armies": [{"player": "anna", "share": 2000, "largest_bonus": 0},
                                  {"player": "ben", "share": 2000, "largest_bonus": 50, "total": 2050}]}],
           "challenges": [{"challenger": "anna", "target": "ben", "sea": False, "broke_team": False, "note": ""}],
           "missed_challenges": ["cara"], "team_choice": {"anna": "individual"},
           "setup_orders": {"anna": [{"battle": "B1", "points": 2000}]},
           "reports": [{"battle": "B1", "reporter": "anna", "withdrew": "none", "vp_attacker": 700,
                        "vp_defender": 300}],
           "log": ["waiting for B1: the reports differ"]}


def read(tmp_path: Path, data: dict[str, Any]) -> Any:
    return RULESET.load_state(RULESET.position(campaign(tmp_path).settings, data, "position.toml"))


def test_the_round_records_are_read_as_pbem_keeps_them(tmp_path: Path) -> None:
    rnd = read(tmp_path, RESULTS).round
    assert rnd.setup("B1").note == "as proposed" and rnd.setup("B1").army("ben").largest_bonus == 50
    assert [(c.challenger, c.target) for c in rnd.challenges] == [("anna", "ben")]
    assert rnd.missed_challenges == ["cara"] and rnd.team_choice == {"anna": "individual"}
    assert rnd.setup_orders["anna"][0].points == 2000 and rnd.reports[0].vp_attacker == 700
    assert rnd.log == ["waiting for B1: the reports differ"] and rnd.log_shown == 0


def test_a_record_of_the_wrong_form_is_refused_with_its_key(tmp_path: Path) -> None:
    data = RESULTS | {"challenges": [{"challenger": "anna", "target": "ben", "sea": "no"}],
                      "reports": [{"battle": "B1", "vp": 3}], "team_choice": ["anna"]}
    with pytest.raises(PositionError) as caught:
        read(tmp_path, data)
    keys = [p.split(":", 1)[0] for p in caught.value.problems]
    assert keys == ["challenges[0].sea", "reports[0].vp", "reports[0].reporter", "team_choice"], caught.value.problems


def test_a_hand_written_position_at_window_1_has_no_round_records(tmp_path: Path) -> None:
    data = {k: v for k, v in RESULTS.items() if k not in ("battles", "setups", "reports")} | {"window": "campaign"}
    with pytest.raises(PositionError) as caught:
        read(tmp_path, data)
    assert "challenges: only a position at window setup or results or conquest has challenges" in caught.value.problems


LAST = {"stage": "Round 2: battle setup (window 2)", "moves": [{"start": "T3", "end": "T15", "kind": "challenge"}],
        "clashes": [{"place": "T15", "kind": "siege", "label": "B1"}], "notes": ["B1: anna challenges ben"]}


def test_the_last_windows_picture_marks_read_back_at_any_window(tmp_path: Path) -> None:
    for data in (RESULTS, {k: v for k, v in RESULTS.items() if k in ("round", "order", "empires", "tiles")}
                 | {"window": "campaign"}):
        state = read(tmp_path / str(data["window"]), data | {"last": LAST})
        assert position_export.export(state)["last"] == LAST


def test_last_of_the_wrong_form_is_refused_with_its_key(tmp_path: Path) -> None:
    with pytest.raises(PositionError) as caught:
        read(tmp_path, RESULTS | {"last": {"moves": [{"start": "T3"}]}})
    assert [p.split(":", 1)[0] for p in caught.value.problems] == ["last"]


def test_window_1s_revenue_and_disaster_rolls_are_read_as_pbem_keeps_them(tmp_path: Path) -> None:
    revenue = [{"player": "anna", "tile": "T45", "terrain_rate": "river", "faces": [1, 3], "gold": 40,
                "exhausted": False, "skipped": ""}]
    disaster = [{"player": "ben", "tile": "T15", "building": "city", "die": 2, "destroyed": False}]
    state = read(tmp_path, RESULTS | {"revenue": revenue, "disaster": disaster})
    exported = position_export.export(state)
    assert (exported["revenue"], exported["disaster"]) == (revenue, disaster)


def test_a_record_missing_a_key_it_cannot_go_without_is_refused_with_its_key(tmp_path: Path) -> None:
    with pytest.raises(PositionError) as caught:
        read(tmp_path, RESULTS | {"revenue": [{"player": "anna", "tile": "T45"}]})
    assert [p.split(":", 1)[0] for p in caught.value.problems] == ["revenue[0].terrain_rate"], caught.value.problems
