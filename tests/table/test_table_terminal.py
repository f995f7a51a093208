"""`pbem table CAMPAIGN` in a pseudo-terminal (issue 24, club night): a round of mode together
played player by player, a mailed order used in its player's turn, typed lines acknowledged as a
mail is, every command test rolled on screen with the turn's committed dice, and each player's
round stored with its map picture as soon as it is played; a sitting stopped after the first
player goes on with the next one, nothing played twice, and the tick leaves the round alone."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from pbem.state.campaign import Campaign
from pbem.state.store import read_toml
from pbem.tick.engine import tick
from tests.table.helpers import ENV, T0, Terminal, campaign, game, mail, read_mail

ANNA = ["roll: command test A1 in T8 (target 9): 2D6 = 5+1 = 6", "A1 moves E into T9 (desert; tiles entered: 1)",
        "A1 moves E into T4 (woods; tiles entered: 3)", "A1 recruits 1 Crossbowmen in woods -> 325 pts"]


def pbem(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pbem", *args], capture_output=True, text=True, env=ENV, timeout=300)


def tiles(folder: Path) -> dict[str, str]:
    return {s["id"]: s["tile"] for s in game(folder)["state"]["stacks"].values()}     # type: ignore[index]


def anna_from_the_mail(term: Terminal) -> None:
    term.wait_for("Sequence: Anna, Ben, Cara")
    term.wait_for("Anna mailed an order for this round:\n  REST NO\n  TRY A1 ALWAYS FIRST E CAMPFIRE STOP")
    term.wait_for("[u]se the mailed order, or [t]ype one at the table? ")
    term.type("u")
    for line in ANNA:
        term.wait_for(line)
    term.wait_for("Anna's round is stored")


def ben_and_cara(term: Terminal) -> None:
    term.type("TRY B9 ALWAYS", "TRY B1 ALWAYS FIRST E", "")
    term.wait_for("Understood:\n  line 2: TRY B1 ALWAYS FIRST E\nNot accepted:\n"
                  "  line 1 (invalid): \u201cTRY B9 ALWAYS\u201d: B9 is not one of your stacks (B1)\n"
                  "Order for this round:\n  REST NO\n  TRY B1 ALWAYS FIRST E CAMPFIRE STOP")
    term.wait_for("Play Ben's round with this order? [y]es / [n]o, type it again: ")
    term.type("y")
    term.wait_for("roll: command test B1 in T26 (target 9): 2D6 = 5+2 = 7")
    term.wait_for("Ben's round is stored")
    term.wait_for("Cara> ")
    term.type("TRY C1 ALWAYS FIRST N", "", "y")
    term.wait_for("roll: command test C1 in T29 (target 10): 2D6 = 1+5 = 6")
    term.wait_for("Strategic round 1: orders is resolved at the table; the campaign now waits for Strategic round 2")


def test_a_round_of_mode_together_is_played_at_the_table_and_stored_as_the_tick_would(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    mail(camp, "anna", "TRY A1 ALWAYS FIRST E")
    camp = read_mail(camp)
    term = Terminal("table", str(camp.folder))
    anna_from_the_mail(term)
    term.wait_for("Ben> ")
    assert game(camp.folder)["played"] == ["anna"] and tiles(camp.folder)["A1"] == "T4"
    step = (camp.folder / "pictures" / "wt-turn-001-orders-1-anna.svg").read_text(encoding="utf-8")
    assert 'data-id="A1" data-place="T4"' in step and 'data-id="B1" data-place="T26"' in step
    ben_and_cara(term)
    assert term.close() == 0 and "Traceback" not in term.screen
    state = Campaign(camp.folder).state
    assert state["stage"]["title"] == "Strategic round 2: orders" and "table" not in state["stage"]
    assert game(camp.folder)["played"] == [] and tiles(camp.folder) == {"A1": "T4", "B1": "T27", "C1": "T17"}
    drawn = pbem("render", str(camp.folder), "1", "--stage", "orders", "--out", str(tmp_path / "render"),
                 "--format", "svg")
    assert drawn.returncode == 0
    assert (tmp_path / "render" / "wt-turn-001-orders.svg").read_bytes() == \
        (camp.folder / "pictures" / "wt-turn-001-orders.svg").read_bytes()
    checked = pbem("verify-dice", str(camp.folder), "1")
    assert checked.returncode == 0 and "12 roll(s) in 2 stage(s) checked; all match" in checked.stdout
    report = (camp.folder / "history" / "001" / "orders-turn-2.md").read_text(encoding="utf-8")
    assert "- command test B1 in T26 (target 9): 2D6 = 5+2 = 7" in report and report.count("Anna's round:") == 1
    kept = read_toml(camp.folder / "history" / "001" / "table.toml")["played"]
    assert kept["anna"]["source"] == "mailed" and kept["ben"]["source"] == "typed at the table"


def test_a_sitting_stopped_after_the_first_player_goes_on_with_the_next(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    mail(camp, "anna", "TRY A1 ALWAYS FIRST E")
    camp = read_mail(camp)
    term = Terminal("table", str(camp.folder))
    anna_from_the_mail(term)
    term.wait_for("Ben> ")
    term.type("TRY B1 ALWAYS")
    term.type("\x04")                     # Ctrl-D: the laptop's lid closes on ben's order
    term.wait_for("the table stopped while Ben's order was typed; nothing of that round is kept")
    assert term.close() == 130 and "Traceback" not in term.screen
    assert game(camp.folder)["played"] == ["anna"] and tiles(camp.folder)["A1"] == "T4"
    tick(camp.folder.parent, T0 + timedelta(days=10))          # long past the deadline: the round is left alone
    assert Campaign(camp.folder).state["stage"]["title"] == "Strategic round 1: orders"
    status = pbem("status", "--root", str(camp.folder.parent)).stdout
    assert ("waiting for the GM: strategic round 1 is under way at the table (anna played; ben, cara to play): "
            "go on with `pbem table wt`") in status
    again = Terminal("table", str(camp.folder))
    again.wait_for("Played already: Anna; the table goes on with Ben")
    again.wait_for("Ben> ")
    ben_and_cara(again)
    assert again.close() == 0 and "Anna's round (" not in again.screen
    assert tiles(camp.folder) == {"A1": "T4", "B1": "T27", "C1": "T17"}
    log = read_toml(camp.folder / "history" / "001" / "dice.toml")
    purposes = [r["purpose"] for s in log["stages"] for r in s["rolls"]]
    assert purposes.count("command test A1 in T8 (target 9)") == 1
    checked = pbem("verify-dice", str(camp.folder), "1")
    assert checked.returncode == 0 and re.search(r"checked; all match", checked.stdout)
