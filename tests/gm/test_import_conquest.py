"""`pbem import` of Campaigns of Conquest positions, then `pbem tick`:

- at window 1 without `order` the round opens there: pbem counts the empire sizes and rolls the
  tie-breaks as the round's opening does (COC-ORD-2..6), with the turn's committed dice, logged
  for `pbem verify-dice`, and the tick plays the round in that order;
- an empire without its capital (COC-SET-13: conquered, destroyed, built over, forgotten)
  imports, as every state pbem's own play writes must."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from pbem.cli import main
from pbem.stages import turns
from pbem.state.campaign import Campaign
from pbem.state.store import read_toml
from tests.conquest.engine_helpers import campaign, game, run

Capture = pytest.CaptureFixture[str]
CAPITALS = (("anna", "T3"), ("ben", "T15"), ("cara", "T35"))
ROUND_OPENS = {"round": 2, "window": "campaign",
               "empires": {p: {"capital": t} for p, t in CAPITALS},
               "tiles": {t: {"owner": p, } for p, t in CAPITALS} | {"T34": {"owner": "cara"}}}


def imported(tmp_path: Path, data: dict[str, Any], capsys: Capture) -> Campaign:
    camp = campaign(tmp_path)
    path = tmp_path / "round2.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    assert main(["import", str(camp.folder), str(path)]) == 0, capsys.readouterr().err
    return Campaign(camp.folder)


def test_a_round_opening_at_the_import_counts_sizes_and_rolls_the_tie_breaks(tmp_path: Path,
                                                                              capsys: Capture) -> None:
    camp = imported(tmp_path, ROUND_OPENS, capsys)
    state = game(camp)
    assert state.round.order[-1] == "cara" and sorted(state.round.order[:2]) == ["anna", "ben"]
    assert state.round.largest == "cara" and state.round.sizes[0].player == "cara"
    tied = {e.player: e.tiebreak for e in state.round.sizes if e.player != "cara"}
    assert all(tied.values()), tied                    # anna and ben are the same size: they rolled
    log = read_toml(camp.history(2) / "dice.toml")
    rolls = [r["purpose"] for stage in log["stages"] if stage["stage"] == "position" for r in stage["rolls"]]
    assert rolls[:2] == ["Round 2 size tie-break: anna", "Round 2 size tie-break: ben"]
    turns.reveal(camp, 2)                               # as the end of round 2 does
    assert main(["verify-dice", str(camp.folder), "2"]) == 0
    assert "all match" in capsys.readouterr().out


def test_the_imported_round_is_played_in_the_rolled_order_by_the_tick(tmp_path: Path, capsys: Capture) -> None:
    camp = imported(tmp_path, ROUND_OPENS, capsys)
    order = game(camp).round.order
    assert (camp.state["stage"]["kind"], camp.state["stage"]["turn"]) == ("campaign", 2)
    camp = run(camp, timedelta(days=30))                # nobody sends orders: window 1 closes at its deadline
    assert camp.state["stage"]["kind"] != "campaign" and game(camp).round.order == order


def test_a_position_giving_the_order_keeps_it_and_rolls_nothing(tmp_path: Path, capsys: Capture) -> None:
    camp = imported(tmp_path, ROUND_OPENS | {"order": ["ben", "anna", "cara"]}, capsys)
    assert game(camp).round.order == ["ben", "anna", "cara"]
    assert not (camp.history(2) / "dice.toml").exists()


def test_empires_that_lost_their_capitals_import_and_play_on(tmp_path: Path, capsys: Capture) -> None:
    """Cara's capital is Ben's now, Anna's carries a mine, and nobody remembers Ben's."""
    data = {"round": 4, "window": "campaign",
            "empires": {"anna": {"capital": "T3"}, "ben": {}, "cara": {"capital": "T35"}},
            "tiles": {"T3": {"owner": "anna", "building": "mine"}, "T2": {"owner": "anna"},
                      "T15": {"owner": "ben"}, "T35": {"owner": "ben", "building": "city"},
                      "T34": {"owner": "cara"}, "T30": {"owner": "cara"}}}
    camp = imported(tmp_path, data, capsys)
    state = game(camp)
    assert {p: e.capital for p, e in state.empires.items()} == {"anna": "T3", "ben": "", "cara": "T35"}
    assert state.tiles["T35"].owner == "ben" and state.round.largest == "ben"
    camp = run(camp, timedelta(days=30))
    assert camp.state["stage"]["kind"] != "campaign" and game(camp).empires["cara"].capital == "T35"
