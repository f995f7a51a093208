"""Welcome mails are owed by `pbem new` and rendered by the tick that sends them: an address the
GM fixes in campaign.toml before the first tick is the one players read, and each welcome tells a
newcomer where to write, the line to copy, the first stage with what to send and by when, and
where he starts."""

from __future__ import annotations

import email
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.delivery.welcome import owed
from pbem.state.campaign import Campaign
from pbem.state.store import read_toml, write_toml
from pbem.tick.engine import tick

NOW = datetime.now(UTC)


def new(root: Path, ruleset: str, *players: str) -> Campaign:
    args = ["new", "camp", "--root", str(root), "--ruleset", ruleset, "--gm-email", "gm@test.localhost",
            "--address", "first@games.localhost"]
    assert main([*args, *(a for p in players for a in ("--player", p))]) == 0
    return Campaign(root / "camp")


def sent(camp: Campaign) -> list[EmailMessage]:
    folder = camp.folder / "outbox" / "maildir" / "new"
    return [email.message_from_bytes(p.read_bytes(), policy=policy.default)  # type: ignore[misc]
            for p in sorted(folder.glob("*"))] if folder.exists() else []


def text(msg: EmailMessage, kind: str = "plain") -> str:
    part = msg.get_body(preferencelist=(kind,))
    assert part is not None
    return str(part.get_content())


def welcome_to(camp: Campaign, address: str) -> EmailMessage:
    [msg] = [m for m in sent(camp) if address in str(m["To"]) and "welcome" in str(m["Subject"])]
    return msg


def test_the_address_fixed_in_campaign_toml_before_the_first_tick_is_the_one_players_see(tmp_path: Path) -> None:
    camp = new(tmp_path, "daemon_rift", "red,Alice,alice@test.localhost,Red,R", "blue,Bob,bob@test.localhost,Blue,B")
    assert not list((camp.folder / "outbox").rglob("*.eml")), "nothing is rendered at `pbem new`"
    settings = read_toml(camp.folder / "campaign.toml")
    write_toml(camp.folder / "campaign.toml", settings | {"address": "rift@games.localhost"})
    tick(tmp_path, NOW)
    msg = welcome_to(camp, "alice@test.localhost")
    assert "rift@games.localhost" in str(msg["From"])
    assert "send every message to **rift@games.localhost**" in text(msg)
    assert "first@games.localhost" not in msg.as_string()


def test_each_welcome_is_sent_once_however_many_ticks_follow(tmp_path: Path) -> None:
    camp = new(tmp_path, "daemon_rift", "red,Alice,alice@test.localhost,Red,R", "blue,Bob,bob@test.localhost,Blue,B")
    for hours in (0, 1, 2):
        tick(tmp_path, NOW + timedelta(hours=hours))
    welcomes = sorted(str(m["To"]) for m in sent(camp) if "welcome" in str(m["Subject"]))
    assert welcomes == ["alice@test.localhost", "bob@test.localhost", "gm@test.localhost"]
    assert owed(camp.folder) == {}


def test_a_daemon_rift_welcome_says_what_to_send_first_by_when_and_where_the_player_starts(tmp_path: Path) -> None:
    camp = new(tmp_path, "daemon_rift", "red,Alice,alice@test.localhost,Red,R", "blue,Bob,bob@test.localhost,Blue,B")
    tick(tmp_path, NOW)
    camp = Campaign(camp.folder)
    msg = welcome_to(camp, "alice@test.localhost")
    plain, html = text(msg), text(msg, "html")
    deadline = camp.settings.schedule.show(datetime.fromisoformat(camp.state["stage"]["deadline"]))
    assert "```\nPLAYER red " in plain and "<code>PLAYER red " in html.split("<pre", 1)[1]  # a block to copy
    assert "## First: Turn 1: army lists" in plain
    assert "send the list for R-1, at most 2250 points" in plain
    assert f"Deadline: **{deadline}**. What you have sent by then is what counts for" in plain
    assert "## Where you start" in plain and "- T24 Highkeep: next to T25 Northmarch, T55 Northwood" in plain


def test_a_diplomacy_welcome_names_spring_1901_and_the_units_with_their_neighbours(tmp_path: Path) -> None:
    camp = new(tmp_path, "diplomacy", "eng,Alice,alice@test.localhost,England", "fra,Bob,bob@test.localhost,France")
    tick(tmp_path, NOW)
    plain = text(welcome_to(camp, "alice@test.localhost"))
    assert "## First: Spring 1901 movement" in plain
    assert "send one order for each of your units (F EDI, F LON, A LVP)" in plain
    assert "- A LVP Liverpool: next to CLY Clyde, EDI Edinburgh, WAL Wales, YOR Yorkshire" in plain


def test_a_conquest_welcome_asks_for_the_capital_picks(tmp_path: Path) -> None:
    camp = new(tmp_path, "conquest", "red,Alice,alice@test.localhost,Red,R", "blue,Bob,bob@test.localhost,Blue,B",
               "green,Cy,cy@test.localhost,Green,G")
    tick(tmp_path, NOW)
    plain = text(welcome_to(camp, "cy@test.localhost"))
    assert "## First: Setup: capital picks" in plain and "send a `CAPITAL` line" in plain


@pytest.mark.parametrize("ruleset", ["daemon_rift", "diplomacy", "conquest"])
def test_the_gm_welcome_shows_the_gm_line_and_the_first_stage(tmp_path: Path, ruleset: str) -> None:
    players = {"daemon_rift": ["red,Alice,alice@test.localhost,Red,R", "blue,Bob,bob@test.localhost,Blue,B"],
               "diplomacy": ["eng,Alice,alice@test.localhost,England", "fra,Bob,bob@test.localhost,France"],
               "conquest": ["red,Alice,alice@test.localhost", "blue,Bob,bob@test.localhost",
                            "green,Cy,cy@test.localhost"]}[ruleset]
    camp = new(tmp_path, ruleset, *players)
    tick(tmp_path, NOW)
    plain = text(welcome_to(camp, "gm@test.localhost"))
    assert "```\nGM " in plain and "The first stage is " in plain


def test_a_seat_handed_over_before_the_first_tick_gets_only_its_new_welcome(tmp_path: Path) -> None:
    camp = new(tmp_path, "daemon_rift", "red,Alice,alice@test.localhost,Red,R", "blue,Bob,bob@test.localhost,Blue,B")
    assert main(["replace", "camp", "red", "carol@test.localhost", "Carol", "--root", str(tmp_path)]) == 0
    tick(tmp_path, NOW)
    to = sorted(str(m["To"]) for m in sent(camp) if "welcome" in str(m["Subject"]))
    assert to == ["bob@test.localhost", "carol@test.localhost", "gm@test.localhost"]
