"""A club's Campaigns of Conquest campaign, four players and a game master, making the mistakes
a club makes (issue 22): a CAPITAL list of towns that are no cities, a misspelt order word under
a greeting, a misspelt order word as the last line (`CHALENGE Cara`, `CLIAM T7`), a misspelt
event, thanks at the end of the orders. No stage closes while a player is still fixing his
orders; every mail is read back as a player who never saw pbem reads it."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tests.support.club import YOU, Club, read_as_a_newcomer, reply_to, said

GM = "gm@club.localhost"
PLAYERS = {"anna": "anna@club.localhost", "ben": "ben@club.localhost", "cara": "cara@club.localhost",
           "dan": "dan@club.localhost"}
COLOURS = ("Red", "Blue", "Green", "Yellow")
LEGAL = "T1 (Ashford); T16 (Pike's Ford); T23 (Westmere); T31 (Foxhollow); T38 (Netherby); T55 (Kilnmoor)"


@pytest.fixture
def club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "campaigns", "coc", "coc@club.localhost")
    specs = [f"{pid},{pid.title()},{address},{colour},{colour[0]}"
             for (pid, address), colour in zip(PLAYERS.items(), COLOURS, strict=True)]
    club.new("--ruleset", "conquest", "--gm-email", GM, *[a for spec in specs for a in ("--player", spec)])
    return club


def test_a_club_plays_conquest_through_its_mistakes(club: Club) -> None:
    welcome = club.tick(timedelta(0))
    club.learn_secrets(welcome, PLAYERS)
    assert "four_marches" in (club.camp.folder / "campaign.toml").read_text()    # the smallest map for four
    for address in PLAYERS.values():
        body = said(welcome, address, "welcome")
        assert f"Legal capital cities now: {LEGAL}." in body and "like `CAPITAL T1, T16`" in body
        assert "Fool's Gold -> <player>, Building Boom, Disaster -> <player>" in body
    capitals(club)
    campaign_orders(club)
    read_as_a_newcomer(club)
    for post in club.forum_posts():
        assert not YOU.search(post) and "token" not in post.lower(), post


def capitals(club: Club) -> None:
    towns = club.send(PLAYERS["anna"], [club.player_line("anna"), "CAPITAL T9, T3"])
    typo = club.send(PLAYERS["ben"], ["Hi all,", club.player_line("ben"), "CAPTIAL T16"])
    club.send(PLAYERS["cara"], [club.player_line("cara"), "CAPITAL Foxhollow"])
    club.send(PLAYERS["dan"], [club.player_line("dan"), "CAPITAL Netherby, T55"])
    acks = club.tick()
    assert club.stage() == "Setup: capital picks (window S)"
    anna = reply_to(acks, towns)
    assert f"Your `CAPITAL` list names no legal city; the legal ones now are {LEGAL}." in anna
    assert "Still without orders: a CAPITAL list with a legal city." in anna
    assert "The stage can close early once you are ready: 1 thing is still missing" in anna
    ben = reply_to(acks, typo)
    assert "1 line read as prose and skipped: line 1 `Hi all,`." in ben
    assert "- line 3 (invalid): `CAPTIAL T16`: “CAPTIAL” is not an order here" in ben
    assert "did you mean **CAPITAL**?" in ben
    club.send(PLAYERS["anna"], [club.player_line("anna"), "CAPITAL Westmere, T16"])
    club.send(PLAYERS["ben"], [club.player_line("ben"), "CAPITAL T16, T23", "NEWCITY T9"])
    opened = club.tick()
    assert club.stage() == "Round 1: campaign orders (window 1)"
    report = said(opened, PLAYERS["cara"], "Capitals and the order of play")
    assert "- Anna: T23 (Westmere) (city)" in report and "- Ben: T16 (Pike's Ford) (city)" in report


def campaign_orders(club: Club) -> None:
    word = club.send(PLAYERS["anna"], [club.player_line("anna"), "EVENT Land Grab", "EVENT Scouts", "CHALLENGE Dan",
                                       "CHALENGE Cara"])
    thanks = club.send(PLAYERS["ben"], [club.player_line("ben"), "EVENT Elite Army", "EVENT Scouts", "CHALLENGE Dan",
                                        "", "What a game! Thanks Alice."])
    club.send(PLAYERS["cara"], [club.player_line("cara"), "EVENT All or Nothing", "EVENT Fools Gold -> Dan",
                                "STANDING individual"])
    last = club.send(PLAYERS["dan"], [club.player_line("dan"), "EVENT Scuts", "STANDING team", "CLIAM T7"])
    acks = club.tick()
    assert club.stage() == "Round 1: campaign orders (window 1)"
    anna = reply_to(acks, word)
    assert "- line 5 (invalid): `CHALENGE Cara`" in anna and "did you mean **CHALLENGE**?" in anna
    assert "The stage can close early once you are ready: 1 line was rejected." in anna
    assert "1 line read as prose and skipped: line 6 `What a game! Thanks Alice.`." in reply_to(acks, thanks)
    dan = reply_to(acks, last)
    assert "`EVENT Scuts`: unknown event “Scuts”; did you mean **Scouts**?" in dan
    assert "- line 4 (invalid): `CLIAM T7`: “CLIAM” is not an order here" in dan
    club.send(PLAYERS["anna"], [club.player_line("anna"), "READY"])       # goes with the orders on file
    club.tick()
    assert club.stage() == "Round 1: campaign orders (window 1)"           # Dan is still fixing his
    club.send(PLAYERS["dan"], [club.player_line("dan"), "EVENT Scouts", "STANDING team"])
    club.tick()
    assert club.stage() != "Round 1: campaign orders (window 1)"
