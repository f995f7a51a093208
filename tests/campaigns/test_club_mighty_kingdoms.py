"""A club's Mighty Kingdoms campaign, four players and a game master, making the mistakes a club
makes (issue 22): a 520-point army list, a RING with two cities, a misspelt START under a
greeting, one player silent through window S, a misspelt order word, another kingdom's army
ordered, thanks below the orders. No stage closes while a player is still fixing his orders; a
refused list is called refused, never "sent no list"; every mail is read back as a player who
never saw pbem reads it."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tests.support.club import YOU, Club, read_as_a_newcomer, reply_to, said

GM = "gm@club.localhost"
PLAYERS = {"red": "anna@club.localhost", "blue": "ben@club.localhost", "green": "cara@club.localhost",
           "gold": "dan@club.localhost"}
KINGDOMS = {"red": ("Anna", "Red Realm", "R"), "blue": ("Ben", "Blue March", "B"), "green": ("Cara", "Green Hold", "G"),
            "gold": ("Dan", "Gold Crown", "Y")}
SPEAR = "Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100"
RING = "RING city village fortress village control control"
Capture = pytest.CaptureFixture[str]


@pytest.fixture
def club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "campaigns", "mk", "mk@club.localhost")
    specs = [f"{pid},{name},{PLAYERS[pid]},{kingdom},{prefix}" for pid, (name, kingdom, prefix) in KINGDOMS.items()]
    club.new("--ruleset", "mighty_kingdoms", "--gm-email", GM, *[a for spec in specs for a in ("--player", spec)])
    return club


def test_a_club_plays_mighty_kingdoms_through_its_mistakes(club: Club, capsys: Capture) -> None:
    welcome = club.tick(timedelta(0))
    club.learn_secrets(welcome, PLAYERS)
    assert "mk_four_kingdoms" in (club.camp.folder / "campaign.toml").read_text()    # the smallest map for four
    assert club.stage() == "Setup: window S"
    assert f"Deadline: **{club.deadline()}**" in said(welcome, PLAYERS["red"], "welcome")
    window_s(club)
    late_lists(club, capsys)
    month_1(club)
    read_as_a_newcomer(club)
    for post in club.forum_posts():
        assert not YOU.search(post), post


def window_s(club: Club) -> None:
    heavy = club.send(PLAYERS["red"], [club.player_line("red"), "LIST Iron Guard",
                                       *[SPEAR.replace("| 100", "| 130")] * 4, "START T8, T12", RING, "ARMY capital"])
    ring = club.send(PLAYERS["blue"], [club.player_line("blue"), "LIST Stonewall", SPEAR, "START T42",
                                       "RING city city fortress village control control", "ARMY capital"])
    start = club.send(PLAYERS["green"], ["Hello GM,", club.player_line("green"), "LIST Wolfpack", SPEAR,
                                         "STRAT T50", RING, "ARMY capital"])
    acks = club.tick()
    assert club.stage() == "Setup: window S"
    red = reply_to(acks, heavy)
    assert "army list not taken: the list comes to 520 points, over the limit of 500" in red
    assert "Still without orders: your army list (one line per unit)." in red
    blue = reply_to(acks, ring)
    assert "a ring holds exactly 1 city, 1 fortress, 2 village, 2 control (this one: 2 city, 1 village)" in blue
    green = reply_to(acks, start)
    assert "1 line read as prose and skipped: line 1 `Hello GM,`." in green and "did you mean **START**?" in green
    club.send(PLAYERS["red"], [club.player_line("red"), "READY"])          # goes without a list: refused
    club.send(PLAYERS["blue"], [club.player_line("blue"), "READY"])
    club.send(PLAYERS["green"], [club.player_line("green"), "LIST Wolfpack", SPEAR, "START T50", RING, "ARMY capital"])
    club.tick()
    assert club.stage() == "Setup: window S"               # Dan has sent nothing: the deadline decides
    placed = club.tick(timedelta(days=6))
    assert club.stage() == "Setup: army lists"
    report = said(placed, PLAYERS["gold"], "kingdoms placed")
    assert "Red Realm's army list was refused; the list is still owed (MK-PBM-1)." in report
    assert "Gold Crown sent no army list; the list is still owed (MK-PBM-1)." in report
    assert "Red Realm sent no army list" not in report
    alert = said(placed, GM, "needs your attention")
    assert "Red Realm's army list was refused (the list comes to 520 points, over the limit of 500)" in alert
    assert "Green Hold's army list GREEN1 (100 points, 1 unit) waits for your approval" in alert


def late_lists(club: Club, capsys: Capture) -> None:
    club.send(PLAYERS["red"], [club.player_line("red"), "LIST Iron Guard", *[SPEAR] * 4])
    club.send(PLAYERS["gold"], [club.player_line("gold"), "LIST Sun Guard", SPEAR])
    club.tick()
    assert club.gm("aprove", "mk", "ALL") == 2
    assert "did you mean `pbem approve`?" in capsys.readouterr().err
    assert club.gm("approve", "mk", "Red Realm", "blue", "Cara", "Gold Crown") == 0
    opened = club.tick()
    assert club.stage() == "Year 1, month 1: orders"
    call = said(opened, PLAYERS["blue"], "army lists")
    assert "Red Realm: `RED1 MOVE" in call and "Gold Crown: `GOLD1 MOVE" in call      # each kingdom's own ids


def month_1(club: Club) -> None:
    word = club.send(PLAYERS["red"], ["Hi GM,", club.player_line("red"), "RED1 MOOVE T13"])
    club.send(PLAYERS["blue"], [club.player_line("blue"), "BLUE1 DEFEND"])
    thanks = club.send(PLAYERS["green"], [club.player_line("green"), "GREEN1 DEFEND", "Thanks"])
    other = club.send(PLAYERS["gold"], [club.player_line("gold"), "GOLD1 DEFEND", "RED1 MOVE T13"])
    acks = club.tick()
    assert club.stage() == "Year 1, month 1: orders"
    red = reply_to(acks, word)
    assert "`RED1 MOOVE T13`: after the army comes MOVE, DEFEND or RAZE, not “MOOVE”; did you mean **RED1 MOVE**?" \
        in red and "1 line read as prose and skipped: line 1 `Hi GM,`." in red
    assert "RED1 is Red Realm's army, not yours; your armies are GOLD1" in reply_to(acks, other)
    assert "1 line read as prose and skipped: line 3 `Thanks`." in reply_to(acks, thanks)
    club.send(PLAYERS["red"], [club.player_line("red"), "RED1 DEFEND"])
    club.send(PLAYERS["gold"], [club.player_line("gold"), "GOLD1 DEFEND"])
    club.tick()
    assert club.stage() != "Year 1, month 1: orders"
