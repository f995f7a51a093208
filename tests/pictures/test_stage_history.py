"""History keeps the game after every resolved stage (history/<turn>/stages/<kind>.toml), which is
what `pbem render --stage` draws: written by the tick that resolves the stage, named again for a
second resolution of a kind in one turn, the same file for a tick re-run, and set aside by a
rollback so the replayed turn's stages are stored anew."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from pbem.cli import main
from pbem.state.store import read_toml
from tests.support.engine_helpers import SECRETS, T0, dr_campaign, put, run

BLUE = "Bob <bob@test.localhost>"


def test_each_resolved_stage_is_kept_with_what_it_did(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path, tokens={"R-1": "T25", "B-1": "T26"})
    put(camp, "o1", f"PLAYER red {SECRETS['red']}\nR-1 M T26\n")
    put(camp, "o2", f"PLAYER blue {SECRETS['blue']}\nB-1 H\n", sender=BLUE)
    camp = run(camp)
    kept = read_toml(camp.history(1) / "stages" / "orders.toml")
    assert kept["resolved"]["title"] == "Turn 1: orders" and kept["resolved"]["kind"] == "orders"
    assert kept["game"] == camp.state["game"]
    assert kept["game"]["last"]["clashes"] == [{"place": "T26", "kind": "battle", "label": "B1"}]
    put(camp, "r1", f"PLAYER red {SECRETS['red']}\nRESULT 1 Red\n")
    put(camp, "r2", f"PLAYER blue {SECRETS['blue']}\nRESULT 1 Red\n", sender=BLUE)
    camp = run(camp, T0 + timedelta(hours=2))
    battles = read_toml(camp.history(1) / "stages" / "battles.toml")
    assert battles["game"]["last"]["moves"][-1] == {"start": "T26", "end": "T27", "kind": "retreat",
                                                    "succeeded": True, "piece": "B-1"}
    assert battles["resolved"]["generation"] > kept["resolved"]["generation"]
    assert sorted(p.name for p in (camp.history(1) / "stages").iterdir()) == [
        "battles.png", "battles.svg", "battles.toml", "orders.png", "orders.svg", "orders.toml"]


def test_a_rollback_sets_the_undone_stages_aside_and_the_replay_stores_its_own(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path, tokens={"R-1": "T25", "B-1": "T28"})
    for turn, red, blue in ((1, "R-1 M T26", "B-1 H"), (2, "R-1 H", "B-1 M T29")):
        put(camp, f"r{turn}", f"PLAYER red {SECRETS['red']}\n{red}\n")
        put(camp, f"b{turn}", f"PLAYER blue {SECRETS['blue']}\n{blue}\n", sender=BLUE)
        camp = run(camp, T0 + timedelta(hours=turn))
    assert camp.state["stage"]["turn"] == 3
    first = read_toml(camp.history(2) / "stages" / "orders.toml")["game"]["last"]["moves"]
    assert first == [{"start": "T28", "end": "T29", "kind": "move", "succeeded": True, "piece": "B-1"}]
    assert main(["rollback", "rift", "--root", str(camp.folder.parent), "--now", "2026-11-23T12:00:00+00:00"]) == 0
    aside = [p.name for p in camp.history(2).iterdir() if p.name.startswith("stages.rolled-back-")]
    assert len(aside) == 1 and not (camp.history(2) / "stages").exists()
    put(camp, "r2-again", f"PLAYER red {SECRETS['red']}\nR-1 H\n")
    put(camp, "b2-again", f"PLAYER blue {SECRETS['blue']}\nB-1 M T27\n", sender=BLUE)
    camp = run(camp, T0 + timedelta(hours=4))
    replayed = read_toml(camp.history(2) / "stages" / "orders.toml")["game"]["last"]["moves"]
    assert replayed == [{"start": "T28", "end": "T27", "kind": "move", "succeeded": True, "piece": "B-1"}]
