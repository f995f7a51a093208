"""Rule settings read when the game is set up apply until the game starts (COC-SET-12): after
`pbem new`, `[rules.setup] starting_gold = 100` added to campaign.toml before the first tick
sets the game up again with it; once the game has started (or was started from a position) such
a change is one settings problem saying what to do, while a rule read as play goes is taken."""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from pbem.cli import main
from pbem.kit.tomlio import from_data
from pbem.rulesets.conquest.model import ConquestState
from pbem.state.campaign import Campaign
from tests.conquest.engine_helpers import campaign, run
from tests.conquest.test_typed_dice import DICE as TYPED_SETUP
from tests.support.typed_dice import files, resolve_with

Capture = pytest.CaptureFixture[str]
T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
PLAYERS = ["anna,Anna,anna@coc.localhost,Red", "ben,Ben,ben@coc.localhost,Blue", "cara,Cara,cara@coc.localhost,Green"]


def new(root: Path, capsys: Capture, *extra: str) -> Path:
    args = ["new", "coc", "--root", str(root), "--ruleset", "conquest", "--map", "three_crowns",
            "--gm-email", "gm@coc.localhost", *[a for p in PLAYERS for a in ("--player", p)], *extra]
    assert main(args) == 0, capsys.readouterr().err
    return root / "coc"


def edit_rules(folder: Path, rules: dict[str, Any]) -> None:
    path = folder / "campaign.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data["rules"] = rules
    path.write_text(tomli_w.dumps(data), encoding="utf-8")


def tick(root: Path, when: datetime) -> int:
    return main(["tick", "--root", str(root), "--now", when.strftime("%Y-%m-%dT%H:%M"), "--quiet"])


def treasuries(folder: Path) -> dict[str, int]:
    state = from_data(ConquestState, Campaign(folder).state["game"]["conquest"])
    return {p: e.treasury for p, e in state.empires.items()}


def test_starting_gold_added_before_the_first_tick_is_the_empires_gold(tmp_path: Path, capsys: Capture) -> None:
    root = tmp_path / "campaigns"
    folder = new(root, capsys)
    assert treasuries(folder) == {"anna": 0, "ben": 0, "cara": 0}
    edit_rules(folder, {"setup": {"starting_gold": 100}})
    assert tick(root, datetime.now(UTC)) == 0, capsys.readouterr().err
    assert treasuries(folder) == {"anna": 100, "ben": 100, "cara": 100}
    assert tick(root, datetime.now(UTC) + timedelta(days=30)) == 0       # window S closes: round 1 opens
    camp = Campaign(folder)
    assert camp.state["stage"]["kind"] == "campaign" and treasuries(folder) == {"anna": 100, "ben": 100, "cara": 100}


def test_a_setup_rule_changed_after_the_start_is_one_settings_problem(tmp_path: Path, capsys: Capture) -> None:
    root = tmp_path / "campaigns"
    folder = new(root, capsys)
    assert tick(root, datetime.now(UTC) + timedelta(days=30)) == 0       # window S closes: the game has started
    capsys.readouterr()
    edit_rules(folder, {"setup": {"starting_gold": 100}})
    assert tick(root, datetime.now(UTC) + timedelta(days=30, hours=1)) == 1
    err = capsys.readouterr().err
    assert "rules.setup.starting_gold: read only when the game is set up, and coc has started (now at " in err
    assert "remove it, or start the campaign again with it" in err and err.count("\n") == 1
    assert treasuries(folder) == {"anna": 0, "ben": 0, "cara": 0}
    edit_rules(folder, {"size": {"tiebreak_die": "D10"}})             # read as play goes: taken
    assert tick(root, datetime.now(UTC) + timedelta(days=30, hours=2)) == 0, capsys.readouterr().err
    assert Campaign(folder).state["setup_rules"]["rules"] == {"size": {"tiebreak_die": "D10"}}


def test_a_campaign_from_a_position_says_to_import_it_again(tmp_path: Path, capsys: Capture) -> None:
    root = tmp_path / "campaigns"
    position = tmp_path / "round2.toml"
    position.write_text('round = 2\nwindow = "campaign"\n[empires.anna]\ncapital = "T3"\n[empires.ben]\n'
                        'capital = "T15"\n[empires.cara]\ncapital = "T35"\n[tiles]\nT3 = { owner = "anna" }\n'
                        'T15 = { owner = "ben" }\nT35 = { owner = "cara" }\n', encoding="utf-8")
    folder = new(root, capsys, "--position", str(position))
    edit_rules(folder, {"setup": {"starting_gold": 50}})
    assert tick(root, datetime.now(UTC)) == 1
    assert "import the position again (`pbem import coc POSITION.toml --force`)" in capsys.readouterr().err


@pytest.mark.parametrize("ruleset,players,rules,read", [
    ("diplomacy", ["eng,Eve,eve@dip.localhost,England", "fra,Finn,finn@dip.localhost,France"],
     {"start_year": 1910}, lambda game: game["year"]),
    ("daemon_rift", ["red,Alice,alice@dr.localhost,Red,R,home=1", "blue,Bob,bob@dr.localhost,Blue,B,home=5"],
     {"lists": {"points": 3000}}, lambda game: game["dr"]["lists"]["R-1"]["points"]),
])
def test_every_rule_systems_setup_rules_apply_until_the_start(tmp_path: Path, capsys: Capture, ruleset: str,
                                                              players: list[str], rules: dict[str, Any],
                                                              read: Any) -> None:
    root = tmp_path / "campaigns"
    args = ["new", "game", "--root", str(root), "--ruleset", ruleset, "--gm-email", "gm@x.localhost",
            *[a for p in players for a in ("--player", p)]]
    assert main(args) == 0, capsys.readouterr().err
    before = read(Campaign(root / "game").state["game"])
    edit_rules(root / "game", rules)
    assert tick(root, datetime.now(UTC)) == 0, capsys.readouterr().err
    after = read(Campaign(root / "game").state["game"])
    assert after != before and after == (rules.get("start_year") or rules["lists"]["points"])


def test_pbem_resolve_takes_a_setup_rule_changed_before_the_start(tmp_path: Path, capsys: Capture) -> None:
    root = tmp_path / "campaigns"
    folder = new(root, capsys)
    edit_rules(folder, {"setup": {"starting_gold": 100}})
    capsys.readouterr()
    assert main(["resolve", str(folder)]) == 0          # a GM command: the game's start, as a tick's would be
    out = capsys.readouterr().out
    assert out.startswith("coc: the game was set up again with rules.setup.starting_gold as campaign.toml has it now\n")
    assert treasuries(folder) == {"anna": 100, "ben": 100, "cara": 100}
    assert tick(root, datetime.now(UTC)) == 0, capsys.readouterr().err       # the resolve goes through: round 1
    assert Campaign(folder).state["stage"]["kind"] == "campaign"
    assert treasuries(folder) == {"anna": 100, "ben": 100, "cara": 100}


def test_pbem_resolve_refuses_a_setup_rule_changed_after_the_start_in_one_line(tmp_path: Path,
                                                                               capsys: Capture) -> None:
    root = tmp_path / "campaigns"
    folder = new(root, capsys)
    assert tick(root, datetime.now(UTC) + timedelta(days=30)) == 0       # window S closes: the game has started
    edit_rules(folder, {"setup": {"starting_gold": 100}})
    gm_log = Campaign(folder).state.get("gm_log")
    capsys.readouterr()
    assert main(["resolve", str(folder)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pbem: ") and err.count("\n") == 1
    assert "rules.setup.starting_gold: read only when the game is set up, and coc has started (now at " in err
    assert Campaign(folder).state.get("gm_log") == gm_log and treasuries(folder) == {"anna": 0, "ben": 0, "cara": 0}


def add_rule(folder: Path, table: str, key: str, value: Any) -> None:
    """campaign.toml's `[rules.<table>] <key> = <value>` added to the rules it has."""
    path = folder / "campaign.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data.setdefault("rules", {}).setdefault(table, {})[key] = value
    path.write_text(tomli_w.dumps(data), encoding="utf-8")


def test_pbem_resolve_with_typed_dice_takes_a_setup_rule_changed_before_the_start(tmp_path: Path) -> None:
    camp = run(campaign(tmp_path))                    # window S open, nothing resolved yet
    add_rule(camp.folder, "setup", "starting_gold", 100)
    code, out, err = resolve_with(camp.folder, TYPED_SETUP)
    assert code == 0, err
    assert out.startswith("coc: the game was set up again with rules.setup.starting_gold as campaign.toml has it now\n")
    assert Campaign(camp.folder).state["stage"]["kind"] == "campaign"       # window S resolved: round 1
    assert treasuries(camp.folder) == {"anna": 100, "ben": 100, "cara": 100}


def test_pbem_resolve_with_typed_dice_refuses_a_setup_rule_changed_after_the_start(tmp_path: Path) -> None:
    camp = run(campaign(tmp_path))
    assert resolve_with(camp.folder, TYPED_SETUP)[0] == 0                   # the game has started
    add_rule(camp.folder, "setup", "starting_gold", 100)
    before = files(camp.folder)
    code, _, err = resolve_with(camp.folder, "Round 1 size tie-break: anna: 5\n")
    assert code == 1 and err.startswith("pbem: ") and err.count("\n") == 1 and "Traceback" not in err
    assert "rules.setup.starting_gold: read only when the game is set up, and coc has started (now at " in err
    assert files(camp.folder) == before
