"""Pending losses in a Daemon Rift position (docs/positions/daemon_rift.md, `marks`): missing
models, lost wounds and lost items are read into the roster exactly as the loss rules store
them, so a Hold that qualifies for a repair (DR-REP-1) set up by `pbem import` repairs in the
next `pbem tick`; a loss the entry could not have taken is refused with its key."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from pbem.cli import main
from pbem.gm.creation import create
from pbem.kit.roster import Mark
from pbem.kit.tomlio import from_data
from pbem.rulesets.base import PositionError
from pbem.rulesets.daemon_rift.game_state import DRGame
from pbem.state.campaign import Campaign
from tests.daemon_rift.test_position import EXAMPLE, imported
from tests.support.engine_helpers import PLAYERS, SECRETS, T0, put, run

Capture = pytest.CaptureFixture[str]
MARKS = [
    {"entry": "U1", "kind": "missing_models", "value": 4, "turn": 3},
    {"entry": "C1", "kind": "wounds_lost", "value": 1, "turn": 3},
    {"entry": "C1", "kind": "lost_item", "name": "Armour of Gork", "value": 35, "turn": 2},
    {"entry": "C1", "kind": "green", "turn": 2},
    {"entry": "U2", "kind": "upgrade", "name": "WS", "value": 1, "turn": 3},
]


def with_losses() -> dict[str, Any]:
    data = tomllib.loads(EXAMPLE.read_text())
    red = data["lists"]["R-1"]
    red["entries"] = [e.replace(" | Armour of Gork 35", "") for e in red["entries"]]
    red["marks"] = copy.deepcopy(MARKS)
    red["counters"] = {"C1": {"deaths": 0}}
    red["history"] = [{"turn": 3, "entry": "U1", "text": "battle 1: 4 models fewer"}]
    return data


def write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "position.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return str(path)


def test_pending_losses_are_read_into_the_roster_as_the_loss_rules_store_them(tmp_path: Path) -> None:
    state = from_data(DRGame, imported(tmp_path, with_losses()).state["game"]).dr
    roster = state.lists["R-1"].roster
    u1, u2, c1 = (roster.get(i) for i in ("U1", "U2", "C1"))
    assert u1 is not None and u2 is not None and c1 is not None
    assert u1.marks == [Mark("missing_models", "", 4, False, 3)]
    assert c1.marks == [Mark("wounds_lost", "", 1, False, 3), Mark("lost_item", "Armour of Gork", 35, True, 2),
                        Mark("green", "", 0, True, 2)]
    assert u2.marks == [Mark("upgrade", "WS", 1, True, 3)] and c1.counters == {"deaths": 0}
    assert [(c.turn, c.entry, c.text) for c in roster.history] == [(3, "U1", "battle 1: 4 models fewer")]


def test_a_hold_set_up_from_a_position_repairs_its_pending_losses(tmp_path: Path, capsys: Capture) -> None:
    """DR-REP-1: R-1 holds unattacked; 75 points mend U1's 4 models (24) and C1's wound (31 2/3)."""
    mail = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    camp, _ = create(tmp_path / "campaigns", "rift", "daemon_rift", "rift_valley", list(PLAYERS), "gm@test.localhost",
                     T0, transport=mail, fixed_secrets=SECRETS)
    assert main(["import", str(camp.folder), write(tmp_path, with_losses())]) == 0, capsys.readouterr().err
    camp = Campaign(camp.folder)
    put(camp, "o1", f"PLAYER red {SECRETS['red']}\nR-1 H\nR-2 H\n")
    put(camp, "o2", f"PLAYER blue {SECRETS['blue']}\nB-1 H\n", sender="Bob <bob@test.localhost>")
    camp = run(camp)
    assert camp.state["stage"]["turn"] == 5
    roster = from_data(DRGame, camp.state["game"]).dr.lists["R-1"].roster
    u1, c1 = roster.get("U1"), roster.get("C1")
    assert u1 is not None and c1 is not None
    assert u1.marks == [] and [m.kind for m in c1.marks] == ["lost_item", "green"]     # never items unplanned
    report = (camp.history(4) / "orders-turn.md").read_text()
    assert "4 models of U1 Orc Boyz" in report and "1 wound of C1 Orc Warboss" in report


def test_a_loss_the_entry_could_not_have_taken_is_refused_with_its_key(tmp_path: Path) -> None:
    data = with_losses()
    data["lists"]["R-1"]["marks"] += [{"entry": "U1", "kind": "missing_models", "value": 16},
                                      {"entry": "U7", "kind": "wounds_lost", "value": 1},
                                      {"entry": "C1", "kind": "scar", "value": 1},
                                      {"entry": "C1", "kind": "lost_item", "value": 10}]
    with pytest.raises(PositionError) as raised:
        imported(tmp_path, data)
    keys = [p.split(":", 1)[0] for p in raised.value.problems]
    assert keys == ["lists.R-1.marks[6]", "lists.R-1.marks[7].entry", "lists.R-1.marks[8].kind",
                    "lists.R-1.marks[9]"], raised.value.problems
