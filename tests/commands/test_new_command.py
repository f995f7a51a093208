"""`pbem new` checks every argument before it writes anything (exit status 2, one line per
problem), and builds the campaign folder under a temporary name, welcome mails owed, so a
failure part-way leaves no half-made campaign whose secrets are lost and whose retry is refused."""

from __future__ import annotations

import email
import resource
import subprocess
import sys
from datetime import UTC, datetime
from email import policy
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.delivery.welcome import owed
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick

WORKTREE = Path(__file__).resolve().parents[2]
GOOD = ["--player", "red,Alice,alice@test.localhost,Red,R", "--player", "blue,Bob,bob@test.localhost,Blue,B"]


def new(root: Path, *args: str, players: list[str] = GOOD) -> int:
    return main(["new", "rift", "--root", str(root), "--gm-email", "gm@test.localhost", *args, *players])


@pytest.mark.parametrize("spec, problem", [
    ("red,Alice,alice@test.localhost\r\nBcc: x@evil.example,Red,R", "--player 1 ('red'): email: "),
    ("red,Alice,ali\nce@test.localhost,Red,R", "--player 1 ('red'): email: "),
    ("red,Ali\x0bce,alice@test.localhost,Red,R", "--player 1 ('red'): name: "),
    ("red,Alice,alice@test.localhost,Red\u2028Dragons,R", "--player 1 ('red'): faction: "),
    ("red,Alice,not-an-address,Red,R", "--player 1 ('red'): email: 'not-an-address' is not a mail address"),
    ("gm,Alice,alice@test.localhost,Red,R", "--player 1 ('gm'): id: 'gm' is the game master's"),
    ("r d,Alice,alice@test.localhost,Red,R", "--player 1 ('r d'): id: 'r d'; expected one word"),
    ("red,Alice", "--player 1: 'red,Alice': expected id,Name,email"),
])
def test_a_bad_player_field_is_refused_with_one_line_and_nothing_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str, problem: str) -> None:
    root = tmp_path / "campaigns"
    assert new(root, players=["--player", spec, "--player", "blue,Bob,bob@test.localhost,Blue,B"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"pbem new: {problem}"), lines
    assert not root.exists()
    assert new(root) == 0                       # the retry with corrected arguments is not refused
    assert len(owed(root / "rift")) == 3             # the welcome mails, sent by the next tick


def test_every_problem_is_reported_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["new", "Rift 2027", "--root", str(tmp_path), "--ruleset", "chess", "--gm-email", "gm\r\n@x",
            "--player", "red,Alice,alice@test.localhost", "--player", "Red,Bob,bob\t@test.localhost"]
    assert main(args) == 2
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(":")[1].strip() for line in lines] == [
        "name", "ruleset", "GM email", "--player 2 ('Red')", "--player 2"]
    assert lines[-1] == "pbem new: --player 2: the id 'Red' is taken by --player 1"
    assert list(tmp_path.iterdir()) == []


def test_a_refusal_by_the_rule_system_is_reported_before_anything_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert new(tmp_path, "--map", "nowhere") == 2
    assert capsys.readouterr().err.startswith("pbem new: map: 'nowhere' is not a ready-made map")
    assert list(tmp_path.iterdir()) == []


def test_a_campaign_that_exists_is_not_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert new(tmp_path) == 0
    before = (tmp_path / "rift" / "campaign.toml").read_bytes()
    assert new(tmp_path) == 2
    assert "already holds a campaign" in capsys.readouterr().err
    assert (tmp_path / "rift" / "campaign.toml").read_bytes() == before


def test_a_failure_while_writing_leaves_no_half_made_campaign_and_the_retry_works(tmp_path: Path) -> None:
    """Files over 2 KB cannot be written (RLIMIT_FSIZE): the settings are, the opening state is
    not. Before, the campaign stayed behind half made, its secrets lost, and `pbem new` refused to
    make it again."""
    root = tmp_path / "campaigns"
    command = [sys.executable, "-m", "pbem", "new", "rift", "--root", str(root), "--gm-email", "gm@test.localhost",
               *GOOD]
    done = subprocess.run(command, cwd=WORKTREE, capture_output=True, text=True, timeout=60,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000)))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"pbem: cannot create {root / 'rift'}: ") and done.stderr.count("\n") == 1
    assert done.stderr.rstrip().endswith("File too large; nothing was created")
    assert list(root.iterdir()) == []           # no campaign, no temporary folder
    assert new(root) == 0
    camp = Campaign(root / "rift")
    assert len(owed(camp.folder)) == 3
    assert [p.name for p in root.iterdir()] == ["rift"]


# -- the map, the rule systems, the address (issue 22, item 6) ----------------------------------------

FOUR = ["--player", "red,Alice,alice@test.localhost,Red,R", "--player", "blue,Bob,bob@test.localhost,Blue,B",
        "--player", "green,Carol,carol@test.localhost,Green,G", "--player", "yel,Dan,dan@test.localhost,Yellow,Y"]


@pytest.mark.parametrize("ruleset, players, expected", [
    ("mighty_kingdoms", FOUR, "mk_four_kingdoms"),
    ("conquest", FOUR[:6], "three_crowns"),
    ("conquest", FOUR, "four_marches"),
    ("daemon_rift", GOOD, "rift_valley"),
])
def test_pbem_new_picks_the_smallest_ready_made_map_drawn_for_the_players(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], ruleset: str, players: list[str], expected: str) -> None:
    assert new(tmp_path, "--ruleset", ruleset, players=players) == 0
    assert Campaign(tmp_path / "rift").settings.map == expected
    assert f"on the map {expected}" in capsys.readouterr().out


def test_a_ready_made_map_too_small_is_refused_naming_the_maps_that_fit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert new(tmp_path, "--ruleset", "mighty_kingdoms", "--map", "mk_three_realms", players=FOUR) == 2
    assert capsys.readouterr().err.strip() == (
        "pbem new: --map mk_three_realms is drawn for 3 players, not 4; maps that fit: mk_four_kingdoms (4 players), "
        "mk_five_crowns (5 players), mk_six_banners (6 players)")
    seven = FOUR + [f"--player=p{n},P{n},p{n}@test.localhost,P{n},Q{n}" for n in range(3)]
    assert new(tmp_path, "--ruleset", "mighty_kingdoms", players=seven) == 2
    assert "no ready-made Mighty Kingdoms map is drawn for 7 players (there are mk_three_realms (3 players)" \
        in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_pbem_new_help_lists_every_registered_rule_system(capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.rulesets import registry

    monkeypatch.setitem(registry.RULESETS.extra, "tally", "tests.support.tally_ruleset:RULESET")
    with pytest.raises(SystemExit):
        main(["new", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert ("one of conquest, daemon_rift, diplomacy, mighty_kingdoms, star_wars_miniatures, tally, "
            "wandering_tribes") in text


def test_a_token_prefix_clash_names_the_field_and_both_players(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert new(tmp_path, players=["--player", "red,Alice,alice@test.localhost", "--player",
                                  "rose,Rose,rose@test.localhost"]) == 2
    err = capsys.readouterr().err
    assert "'R' is the token prefix (faction) of red and also the token prefix (faction) of rose" in err
    assert "5th part of --player" in err


def test_under_a_shared_mailbox_the_campaign_and_its_welcome_use_its_address(tmp_path: Path) -> None:
    (tmp_path / "pbem.toml").write_text('address = "orders@club.example"\n')
    assert new(tmp_path) == 0
    camp = Campaign(tmp_path / "rift")
    assert camp.settings.address == "orders@club.example"
    tick(tmp_path, datetime.now(UTC))
    mails = [email.message_from_bytes(p.read_bytes(), policy=policy.default)
             for p in (tmp_path / "rift" / "outbox").rglob("*.eml")] + \
            [email.message_from_bytes(p.read_bytes(), policy=policy.default)
             for p in (tmp_path / "rift" / "outbox").glob("*/new/*")]
    texts = [m.get_body(preferencelist=("plain",)).get_content() for m in mails]  # type: ignore[union-attr]
    assert len(texts) >= 2
    assert all("orders@club.example" in t and "rift@pbem.localhost" not in t for t in texts)
    assert all(str(m["From"]).endswith("orders@club.example>") or "orders@club.example" in str(m["From"])
               for m in mails)


def test_a_small_star_wars_miniatures_campaign_is_told_at_creation_the_capitals_to_win_it_cannot_hold(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SWM-WIN-6: three players can hold three capitals and the rule book needs six. `pbem new` keeps
    the source's rule and says in one line what to change, before anyone plays; six players get no
    such line."""
    three = [f"--player={p},{p.title()},{p}@test.localhost" for p in ("anna", "ben", "cara")]
    assert new(tmp_path, "--ruleset", "star_wars_miniatures", players=three) == 0
    told = [line for line in capsys.readouterr().err.splitlines() if "capitals" in line]
    assert told == ["pbem new: warning: victory: 3 players can hold at most 3 active capitals and victory needs 6 "
                    "(SWM-WIN-6): add `[rules.victory] capitals_needed = 3` to campaign.toml before the first tick, "
                    "or only being the last side with an active squad wins"]
    toml = tmp_path / "rift" / "campaign.toml"
    toml.write_text(toml.read_text() + "\n[rules.victory]\ncapitals_needed = 3\n")
    assert Campaign(tmp_path / "rift").settings.rules == {"victory": {"capitals_needed": 3}}
    six = [f"--player=p{n},P{n},p{n}@test.localhost,F{n},{'ABCDEF'[n]}" for n in range(6)]
    assert main(["new", "six", "--root", str(tmp_path), "--ruleset", "star_wars_miniatures",
                 "--gm-email", "gm@test.localhost", *six]) == 0
    assert "capitals" not in capsys.readouterr().err
