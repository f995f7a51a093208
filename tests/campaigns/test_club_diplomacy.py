"""A club's Diplomacy game, five players and two powers in civil disorder, making the mistakes a
club makes (issue 22): one good and one misspelt order in the same mail (`A BUL - Serbai`), a
greeting and a signature around the orders, the GM ending the game without confirming first.
No phase closes on a player still fixing his orders; the powers in civil disorder are never
listed as owing orders; every mail is read back as a player who never saw pbem reads it."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tests.support.club import YOU, Club, read_as_a_newcomer, reply_to, said, text

GM = "gm@club.localhost"
POWERS = {"eng": ("Alice", "England"), "fra": ("Bob", "France"), "ger": ("Carol", "Germany"),
          "aus": ("Dave", "Austria"), "tur": ("Erin", "Turkey")}
PLAYERS = {pid: f"{name.lower()}@club.localhost" for pid, (name, _) in POWERS.items()}
SPRING = {"eng": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"], "ger": ["A BER - KIE", "F KIE - DEN", "A MUN - RUH"],
          "aus": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"]}
Capture = pytest.CaptureFixture[str]


@pytest.fixture
def club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "campaigns", "dip", "dip@club.localhost")
    specs = [f"{pid},{name},{PLAYERS[pid]},{power}" for pid, (name, power) in POWERS.items()]
    club.new("--ruleset", "diplomacy", "--gm-email", GM, *[a for spec in specs for a in ("--player", spec)])
    return club


def test_a_club_plays_diplomacy_through_its_mistakes(club: Club, capsys: Capture) -> None:
    welcome = club.tick(timedelta(0))
    club.learn_secrets(welcome, PLAYERS)
    england = said(welcome, PLAYERS["eng"], "welcome")
    assert "You play **England**; your units: `F EDI`, `F LON`, `A LVP`." in england
    assert "With your own units: `F EDI H` holds, `F EDI - <province>` moves." in england
    spring_with_a_misspelt_order(club)
    club.tick(timedelta(hours=1))
    assert club.gm("end", "dip") == 1
    assert "add --yes to end it without asking" in capsys.readouterr().err
    assert club.gm("end", "dip", "--yes") == 0
    final = club.tick()
    ended = said(final, PLAYERS["tur"], "Final report")
    assert "The game master ended the campaign during Fall 1901 movement." in ended
    capsys.readouterr()
    assert club.gm("status") == 0
    assert "dip: the campaign is over" in capsys.readouterr().out
    read_as_a_newcomer(club)
    for post in club.forum_posts():
        assert not YOU.search(post), post


def spring_with_a_misspelt_order(club: Club) -> None:
    for pid, orders in SPRING.items():
        club.send(PLAYERS[pid], [club.player_line(pid), *orders])
    signed = club.send(PLAYERS["fra"], ["Dear GM,", club.player_line("fra"), "A PAR - BUR", "A MAR S A PAR - BUR",
                                        "F BRE - MAO", "Cheers", "Bob"])
    typo = club.send(PLAYERS["tur"], [club.player_line("tur"), "A CON - BUL", "A SMY - CON", "F ANK - BLA",
                                      "A BUL - Serbai"])
    acks = club.tick()
    assert club.stage() == "Spring 1901 movement"             # Turkey's mail counts as not done
    turkey = reply_to(acks, typo)
    assert "unknown territory “Serbai”; did you mean **SER Serbia**?" in turkey
    assert "The stage can close early once you are ready: 1 line was rejected." in turkey
    assert "3 lines read as prose and skipped: line 1 `Dear GM,`, line 6 `Cheers`, line 7 `Bob`." in \
        reply_to(acks, signed)
    club.send(PLAYERS["tur"], [club.player_line("tur"), "A CON - BUL", "A SMY - CON", "F ANK - BLA"])
    reports = club.tick()
    assert club.stage() == "Fall 1901 movement"
    [body] = [text(m) for m in reports if m["Subject"] == "[dip] Spring 1901 movement results"
              and PLAYERS["eng"] in str(m["To"])]          # the public report, not his own
    assert "In civil disorder (no player): Italy, Russia." in body
    assert "Orders from Austria, England, France, Germany, Turkey, due by" in body
