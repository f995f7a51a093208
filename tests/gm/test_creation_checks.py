"""`pbem new` refuses what would break the campaign later and warns about what may be meant:
two players on one address (refused), a misspelt Diplomacy power (refused, with a did-you-mean,
never silently dealt another), a token prefix in lower case (read in upper case, and said so),
fewer players than the map has seats (a warning). Each is one line; a refusal writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.cli import main
from pbem.state.campaign import Campaign

GM = ["--gm-email", "gm@test.localhost"]


def new(root: Path, ruleset: str, *players: str) -> int:
    return main(["new", "camp", "--root", str(root), "--ruleset", ruleset, *GM,
                 *(a for p in players for a in ("--player", p))])


def test_two_players_on_one_address_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert new(tmp_path, "daemon_rift", "red,Alice,alice@test.localhost,Red,R",
               "blue,Bob,Alice@Test.localhost,Blue,B") == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["pbem new: --player 2: Alice@Test.localhost is also the address of --player 1; each player "
                     "needs an address of his own (pbem tells players apart by the address they write from)"] \
        or lines == ["pbem new: --player 2: alice@test.localhost is also the address of --player 1; each player "
                     "needs an address of his own (pbem tells players apart by the address they write from)"]
    assert list(tmp_path.iterdir()) == []


def test_a_misspelt_power_is_refused_with_a_suggestion(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert new(tmp_path, "diplomacy", "fra,Bob,bob@test.localhost,Frnace") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "did you mean France?" in err and "'Frnace'" in err
    assert new(tmp_path, "diplomacy", "bob,Bob,bob@test.localhost,Frnace") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "did you mean France?" in err and "'Frnace'" in err
    assert list(tmp_path.iterdir()) == []


def test_players_naming_no_power_at_all_are_still_dealt_powers_in_order(tmp_path: Path) -> None:
    assert new(tmp_path, "diplomacy", "red,Alice,alice@test.localhost", "blue,Bob,bob@test.localhost") == 0
    camp = Campaign(tmp_path / "camp")
    assert [p.faction for p in camp.settings.players] == ["Austria", "England"]


def test_a_lower_case_token_prefix_is_read_in_upper_case_and_said_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert new(tmp_path, "daemon_rift", "red,Alice,alice@test.localhost,Red,r",
               "blue,Bob,bob@test.localhost,Blue,B") == 0
    err = capsys.readouterr().err
    assert "pbem new: warning: token prefix 'r' of 'red' is read as 'R': orders name tokens like R-1\n" in err
    camp = Campaign(tmp_path / "camp")
    assert camp.settings.player("red").faction == "R"      # type: ignore[union-attr]
    assert "R-1" in camp.state["game"]["dr"]["tokens"]


def test_fewer_players_than_the_map_has_seats_is_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert new(tmp_path, "conquest", "red,Alice,alice@test.localhost", "blue,Bob,bob@test.localhost",
               "green,Cy,cy@test.localhost", "white,Di,di@test.localhost") == 0
    assert "warning" not in capsys.readouterr().err               # four_marches: drawn for 4
    assert main(["new", "dip", "--root", str(tmp_path), "--ruleset", "diplomacy", *GM,
                 "--player", "eng,Alice,alice@test.localhost,England"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "pbem new: warning: 1 player on a map for 7: the 6 seats nobody takes stay empty "
        "(add --player to fill them)"]
