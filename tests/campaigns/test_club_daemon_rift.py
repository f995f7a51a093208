"""A club's Daemon Rift campaign, four players and a game master, each making the mistakes a
club makes (issue 22): a greeting above the list and thanks below it, a mail without its PLAYER
line, a misspelt territory and a misspelt order word, WAIT and READY, the GM's mistyped command,
a deadline moved into the past, `pbem end` without confirming, a post-battle sheet refused and a
GM ruling entered while the sheets are still owed. Every mail the campaign sends is read back as
a player who never saw pbem reads it."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tests.support.club import YOU, Club, later, read_as_a_newcomer, reply_to, said

GM = "gm@club.localhost"
PLAYERS = {"red": "alice@club.localhost", "blue": "bob@club.localhost", "green": "carol@club.localhost",
           "yellow": "dave@club.localhost"}
SPECS = ("red,Alice,alice@club.localhost,Red,R,home=1", "blue,Bob,bob@club.localhost,Blue,B,home=5",
         "green,Carol,carol@club.localhost,Green,G,home=3", "yellow,Dave,dave@club.localhost,Yellow,Y,home=2")
LISTS = {
    "red": ["LIST R-1 Ironjaws", "ARTILLERY R-1 no", "FAST R-1 no", "U1 infantry 20 Orc Boyz @6",
            "C1 character Warboss @95 W3 general"],
    "blue": ["LIST B-1 Sky Host", "ARTILLERY B-1 no", "FAST B-1 yes", "U1 cavalry 10 Wind Riders @20",
             "C1 character Herald @100 W2 general"],
    "green": ["LIST G-1 Wood Guard", "ARTILLERY G-1 no", "FAST G-1 no", "U1 infantry 20 Glade Guard @11",
              "C1 character Noble @90 W3 general"],
    "yellow": ["LIST Y-1 Sun Legion", "ARTILLERY Y-1 no", "FAST Y-1 no", "U1 infantry 20 Spearmen @7",
               "C1 character Captain @80 W3 general"],
}
Capture = pytest.CaptureFixture[str]


@pytest.fixture
def club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "campaigns", "rift", "rift@club.localhost")
    club.new("--gm-email", GM, "--map", "rift_valley", *[a for spec in SPECS for a in ("--player", spec)])
    return club


def test_a_club_plays_daemon_rift_through_its_mistakes(club: Club, capsys: Capture) -> None:
    welcomed(club)
    lists_with_mistakes(club, capsys)
    turn_1_held_open_for_a_player_still_fixing(club, capsys)
    battle_ruled_while_the_sheets_are_owed(club, capsys)
    read_as_a_newcomer(club)
    for post in club.forum_posts():
        assert not YOU.search(post), post


def welcomed(club: Club) -> None:
    welcome = club.tick(timedelta(0))
    club.learn_secrets(welcome, PLAYERS)
    for pid, token in (("red", "R-1"), ("blue", "B-1"), ("green", "G-1"), ("yellow", "Y-1")):
        body = said(welcome, PLAYERS[pid], "welcome")
        assert f"send the list for {token}" in body and f"Your tokens: {token}." in body
        assert f"    {token} H " in body and f"`LIST {token[0]}-2 <name>`" in body
        others = {"R-1", "B-1", "G-1", "Y-1"} - {token}
        assert not any(f"{other} H" in body for other in others), pid      # examples with his own ids


def lists_with_mistakes(club: Club, capsys: Capture) -> None:
    hello = club.send(PLAYERS["red"], ["Hi GM,", "", club.player_line("red"), *LISTS["red"], "", "Thanks!", "Alice"])
    bare = club.send(PLAYERS["blue"], LISTS["blue"])
    for pid in ("green", "yellow"):
        club.send(PLAYERS[pid], [club.player_line(pid), *LISTS[pid]])
    lists = club.tick()
    red = reply_to(lists, hello)
    assert "3 lines read as prose and skipped: line 1 `Hi GM,`, line 10 `Thanks!`, line 11 `Alice`." in red
    assert "- line 4: `LIST R-1 Ironjaws`" in red and "## Not accepted" not in red
    assert "it has no `PLAYER` line" in reply_to(lists, bare) and "Nothing in it was read or stored" in \
        reply_to(lists, bare)
    assert club.gm("aprove", "rift", "ALL") == 2
    assert "did you mean `pbem approve`?" in capsys.readouterr().err
    club.send(PLAYERS["blue"], [club.player_line("blue"), *LISTS["blue"]])
    alert = said(club.tick(), GM, "needs your attention")
    assert all(f"reply `APPROVE {t}`" in alert for t in ("R-1", "B-1", "G-1", "Y-1"))
    assert club.gm("approve", "rift", "Alice", "blue", "G-1", "Y-1") == 0      # by name, id and token
    assert capsys.readouterr().out.strip() == "R-1 approved; B-1 approved; G-1 approved; Y-1 approved"
    opened = club.tick()
    assert club.stage() == "Turn 1: orders"
    for address in (*PLAYERS.values(), GM):
        assert f"Every army list is approved: orders for **Turn 1: orders** are due by\n**{club.deadline()}**" \
            in said(opened, address, "Turn 1: orders are open")


def turn_1_held_open_for_a_player_still_fixing(club: Club, capsys: Capture) -> None:
    typo = club.send(PLAYERS["blue"], [club.player_line("blue"), "B-1 M Cinder Reech", "", "Thanks, Bob"])
    word = club.send(PLAYERS["green"], [club.player_line("green"), "G-1 H", "RETRET G-1 T31"])
    club.send(PLAYERS["red"], [club.player_line("red"), "R-1 M Northmarch"])
    wait = club.send(PLAYERS["yellow"], [club.player_line("yellow"), "Y-1 M T41", "WAIT"])
    acks = club.tick()
    assert club.stage() == "Turn 1: orders"               # everyone sent something; nobody is cut short
    blue = reply_to(acks, typo)
    assert "did you mean **T27 Cinder Reach**?" in blue and "line 4 `Thanks, Bob`" in blue
    assert "The stage can close early once you are ready: 1 line was rejected and 1 thing is still missing" in blue
    green = reply_to(acks, word)
    assert "- line 3 (invalid): `RETRET G-1 T31`: not understood" in green and "did you mean **RETREAT**?" in green
    assert f"You said WAIT: the stage stays open until {club.deadline()} unless you send READY." in \
        reply_to(acks, wait)
    assert club.gm("status") == 0
    status = capsys.readouterr().out
    assert "sent with 1 line rejected and 1 still missing" in status and "waiting (WAIT)" in status
    assert club.gm("extend", "rift", "2026-11-20T20:00", "--now", later(club, 0)) == 1
    assert "is already past" in capsys.readouterr().out
    club.send(PLAYERS["blue"], [club.player_line("blue"), "B-1 M T27"])
    club.send(PLAYERS["green"], [club.player_line("green"), "G-1 H", "RETREAT G-1 T31"])
    club.tick()
    assert club.stage() == "Turn 1: orders"               # Yellow still waits
    club.send(PLAYERS["yellow"], [club.player_line("yellow"), "READY"])
    reports = club.tick()
    assert club.stage() == "Turn 2: orders"
    assert "| B-1 | T28 | B-1 M T27 | B-1 M T27 |" in said(reports, PLAYERS["red"], "Turn 1: movement")


def battle_ruled_while_the_sheets_are_owed(club: Club, capsys: Capture) -> None:
    for pid, order in (("red", "R-1 M Frostfen"), ("blue", "B-1 M T26"), ("green", "G-1 H"), ("yellow", "Y-1 H")):
        club.send(PLAYERS[pid], [club.player_line(pid), order])
    briefed = club.tick()
    assert club.stage() == "Turn 2: battle results"
    assert "Both players send `RESULT 1 <winning faction>" in said(briefed, PLAYERS["red"], "battle 1 briefing")
    bad = club.send(PLAYERS["blue"], [club.player_line("blue"), "RESULT 1 Red massacred", "SHEET 1", "U1 lsot 4",
                                      "C1 wounds 1"])
    club.send(PLAYERS["red"], [club.player_line("red"), "RESULT 1 Red massacred", "SHEET 1", "U1 lost 25",
                               "C1 wounds 0"])
    acks = club.tick()
    blue = reply_to(acks, bad)
    assert "the sheet for battle 1 was not taken: correct the lines marked here and send the whole sheet again" in blue
    assert "unknown word “lsot”" in blue and "did you mean **lost**?" in blue
    assert club.gm("result", "rift", "1", "Red", "massacred") == 0
    assert "the post-battle sheets of Red and Blue are still awaited" in capsys.readouterr().out
    club.tick()
    assert club.stage() == "Turn 2: battle results"       # the ruling settles the result, not the sheets
    club.send(PLAYERS["red"], [club.player_line("red"), "SHEET 1", "U1 lost 5", "C1 wounds 0"])
    club.send(PLAYERS["blue"], [club.player_line("blue"), "SHEET 1", "U1 lost 4", "C1 wounds 1"])
    settled = club.tick()
    assert club.stage() == "Turn 3: orders"
    battles = said(settled, PLAYERS["blue"], "Turn 2: battles")
    assert "Red wins, the loser massacred (gm)" in battles and "R-1 C1 Warboss, experience" in battles
    assert "no post-battle sheet" not in battles
    assert club.gm("end", "rift") == 1
    assert "add --yes to end it without asking" in capsys.readouterr().err
    assert club.stage() == "Turn 3: orders"
