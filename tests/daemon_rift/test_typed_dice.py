"""Dice rolled at the table (issue 24) in Daemon Rift: an enemy swap between T24 and T25 makes
Movement roll the swap-terrain die (DR-TER); `pbem resolve --dice FILE` resolves the orders with
the GM's die, which picks where the battle is fought; the report and `pbem verify-dice` say the
die was typed. A file with rolls left over, a value off the die, a short file: refused whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.rulesets.daemon_rift.ruleset import RULESET
from pbem.stages import turns
from pbem.state.campaign import Campaign
from tests.support.engine_helpers import SECRETS, dr_campaign, put, run
from tests.support.typed_dice import dice_lines, files, pbem, resolve_with, rolls

SWAP = "swap terrain, battle 1 at T24/T25"


@pytest.fixture
def swap(tmp_path: Path) -> Campaign:
    """R-1 (T24) and B-1 (T25) swap places; both sent orders, and the stage keeps to its deadline."""
    camp = dr_campaign(tmp_path, {"R-1": "T24", "B-1": "T25"})
    settings = camp.folder / "campaign.toml"
    settings.write_text(settings.read_text().replace("[schedule]\n", "[schedule]\nearly_close = \"never\"\n"))
    put(camp, "o1", f"PLAYER red {SECRETS['red']}\nR-1 M T25\n")
    put(camp, "o2", f"PLAYER blue {SECRETS['blue']}\nB-1 M T24\n", sender="Bob <bob@test.localhost>")
    camp = run(Campaign(camp.folder))
    assert camp.state["stage"]["kind"] == "orders" and set(camp.state["submissions"]) == {"red", "blue"}
    return camp


def test_the_typed_swap_die_decides_where_the_battle_is_fought(swap: Campaign) -> None:
    code, out, err = resolve_with(swap.folder, f"{SWAP}: 5\n")     # 4-6: the higher id (rules: swap_terrain_die)
    assert code == 0 and "Turn 1: orders resolved with 1 typed roll(s)" in out, err
    camp = Campaign(swap.folder)
    [battle] = camp.state["game"]["movement"]["battles"]
    assert battle["terrain_die"] == 5 and battle["terrain"] == RULESET.load_map(camp.settings).terrain("T25") != "hills"
    assert rolls(camp.folder, 1) == [{"n": 0, "purpose": SWAP, "sides": 6, "faces": [5], "typed_by": "GM Game master"}]
    report = (camp.history(1) / "orders-movement.md").read_text()
    assert dice_lines(report) == [f"- {SWAP}: D6 = 5 (typed by GM Game master)"]
    turns.reveal(camp, 1)                                          # as the end of the turn does
    code, out, _ = pbem("verify-dice", str(camp.folder), "1")
    assert code == 0 and f"TYPED: roll 0 ({SWAP}): [5], typed by GM Game master" in out
    assert "turn 1: 0 roll(s) in 1 stage(s) checked; all match; 1 typed at the table" in out
    site = camp.folder.parent.parent / "site"
    assert pbem("site", str(camp.folder), str(site))[0] == 0
    assert f"{SWAP}: D6 = 5 (typed by GM Game master)</li>" in (site / "turn-001.html").read_text()


@pytest.mark.parametrize(("lines", "said"), [
    (f"{SWAP}: 5\nmassacre: 3\n", "line 2 `massacre: 3` is left over: the rules made 1 roll(s)"),
    (f"{SWAP}: 7\n", "line 1 `swap terrain, battle 1 at T24/T25: 7` for `swap terrain, battle 1 at T24/T25`: "
                     "7 is not a face of a D6 (1 to 6)"),
    ("# nothing rolled yet\n", f"the dice file runs short (it lists no roll): the rules roll D6 for `{SWAP}`; "
                               f"add the line `{SWAP}: <value>`"),
    (f"{SWAP}: 2+3\n", "2 values for D6: give one per die"),
], ids=["left-over", "off-the-die", "short", "two-faces"])
def test_a_dice_file_that_does_not_fit_is_refused_whole_and_nothing_changes(swap: Campaign, lines: str,
                                                                            said: str) -> None:
    before = files(swap.folder)
    code, out, err = resolve_with(swap.folder, lines)
    assert code == 1 and out == "" and said in err, err
    assert err.startswith("pbem: not resolved, nothing changed: ") and err.count("\n") == 1
    assert files(swap.folder) == before


def test_a_question_the_rules_ask_holds_the_stage_until_the_gm_decides_then_the_typed_dice_resolve_it(
        tmp_path: Path) -> None:
    """R-1, R-2 and B-1 tie at T25 with `movement.multiway_tie = "gm"` (DR-MOV-10)."""
    camp = dr_campaign(tmp_path, {"R-1": "T24", "R-2": "T8", "B-1": "T9"}, {"movement": {"multiway_tie": "gm"}})
    settings = camp.folder / "campaign.toml"
    settings.write_text(settings.read_text().replace("[schedule]\n", "[schedule]\nearly_close = \"never\"\n"))
    put(camp, "o1", f"PLAYER red {SECRETS['red']}\nR-1 M T25\nR-2 M T25\n")
    put(camp, "o2", f"PLAYER blue {SECRETS['blue']}\nB-1 M T25\n", sender="Bob <bob@test.localhost>")
    camp = run(Campaign(camp.folder))
    code, _, err = resolve_with(camp.folder, "")
    assert code == 1 and err.count("\n") == 1 and "Turn 1: orders is not resolved: it needs your decision first (3 " \
        "sides tie at T25" in err and "answer with `pbem gm rift DECIDE tie-T25 <choice>`, then run this again" in err
    assert Campaign(camp.folder).state["stage"]["question"]["key"] == "tie-T25"
    assert pbem("gm", str(camp.folder), "DECIDE", "tie-T25", "R-1")[0] == 0
    code, out, err = resolve_with(camp.folder, "# the tie is the GM's: nothing to roll\n")
    assert code == 0 and out.startswith("Turn 1: orders resolved with 0 typed roll(s)"), err
    assert Campaign(camp.folder).state["game"]["dr"]["tokens"]["R-1"]["territory"] == "T25"
