"""Press through the tick on a seven-player Diplomacy campaign: to one, to several, to all,
each relayed once, From the campaign's address with Reply-To back to it and no player's address
shown; grey press, the campaign's settings, the judges' safeguard, and the chronicle at the end."""

from __future__ import annotations

import email
from datetime import UTC, datetime, timedelta
from email import policy
from pathlib import Path
from typing import Any

from pbem.cli import main
from pbem.gm.creation import NewPlayer, create
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
POWERS = {"aus": "Austria", "eng": "England", "fra": "France", "ger": "Germany", "ita": "Italy",
          "rus": "Russia", "tur": "Turkey"}
SECRETS = {pid: f"{pid.upper()}X-TEST-0000-0000-000{i}" for i, pid in enumerate(POWERS, 1)} | {
    "gm": "GMGM-TEST-0000-0000-0000"}
TRANSPORT = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
ADDRESSES = [f"{pid}@test.localhost" for pid in POWERS]


def campaign(tmp_path: Path, **press: Any) -> Campaign:
    players = [NewPlayer(pid, f"Player {pid}", f"{pid}@test.localhost", power) for pid, power in POWERS.items()]
    camp, _ = create(tmp_path / "campaigns", "dip", "diplomacy", "", players, "gm@test.localhost", T0,
                     transport=TRANSPORT, fixed_secrets=SECRETS, rules={"press": press} if press else None)
    return camp


def put(camp: Campaign, name: str, pid: str, body: str) -> None:
    inbox = camp.folder.parent.parent / "inbox"
    inbox.mkdir(exist_ok=True)
    raw = (f"From: <{pid}@test.localhost>\nTo: dip@pbem.localhost\nSubject: [dip] press\n"
           f"Message-ID: <{name}@test.localhost>\nDate: Mon, 23 Nov 2026 10:00:00 +0000\n"
           f"Content-Type: text/plain; charset=\"utf-8\"\n\nPLAYER {pid} {SECRETS[pid]}\n{body}")
    (inbox / f"{name}.eml").write_text(raw.replace("\n", "\r\n"))


def outbox(camp: Campaign) -> list[email.message.EmailMessage]:
    folder = camp.folder.parent.parent / "outbox" / "new"
    return [email.message_from_bytes(p.read_bytes(), policy=policy.default)  # type: ignore[misc]
            for p in sorted(folder.glob("*"))] if folder.exists() else []


def text(msg: email.message.EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def press(camp: Campaign) -> list[email.message.EmailMessage]:
    return [m for m in outbox(camp) if "press from" in str(m["Subject"])]


def ack(camp: Campaign, name: str) -> str:
    [reply] = [m for m in outbox(camp) if m["In-Reply-To"] == f"<{name}@test.localhost>"]
    return " ".join(text(reply).split())


def run(camp: Campaign, hours: int = 1) -> Campaign:
    tick(camp.folder.parent, T0 + timedelta(hours=hours))
    return Campaign(camp.folder)


def test_press_to_one_reaches_him_alone_once_from_the_campaign_address(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    put(camp, "p1", "fra", "PRESS TO Germany\nShall we talk about Belgium?\n# not a comment\nEND PRESS\n")
    camp = run(camp)
    camp = run(camp, 2)                                          # a second tick relays nothing again
    [mail] = press(camp)
    assert str(mail["To"]) == "ger@test.localhost"
    assert "dip@" in str(mail["From"]) and str(mail["Reply-To"]) == str(camp.settings.address)
    body = text(mail)
    assert "Shall we talk about Belgium?" in body and "# not a comment" in body
    assert not any(address in body or address in str(mail["From"]) for address in ADDRESSES)
    assert "Player fra (France)" in str(mail["Subject"])
    assert "PRESS to Player ger (Germany): relayed." in ack(camp, "p1")


def test_press_to_several_and_to_all_each_reader_once(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    put(camp, "p1", "fra", "PRESS TO Germany eng\nTwo of you.\nEND PRESS\nPRESS TO ALL\nEveryone!\nEND PRESS\n")
    camp = run(camp)
    readers = sorted(str(m["To"]) for m in press(camp))
    assert readers.count("ger@test.localhost") == 2 and readers.count("eng@test.localhost") == 2
    assert len(readers) == 2 + 6 and "fra@test.localhost" not in readers
    assert "PRESS to everyone: relayed." in ack(camp, "p1")


def test_a_press_with_a_player_line_or_the_senders_secret_is_refused(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    put(camp, "p1", "fra", "PRESS TO Germany\nPLAYER fra guess\nEND PRESS\n")
    put(camp, "p2", "fra", f"PRESS TO Germany\nmy secret is {SECRETS['fra']}\nEND PRESS\n")
    put(camp, "p3", "fra", "PRESS TO Germany\nno end line\n")
    camp = run(camp)
    assert press(camp) == []
    assert "starting PLAYER, which signs mail" in ack(camp, "p1")
    assert "it holds your secret" in ack(camp, "p2")
    assert "no line END PRESS closes it" in ack(camp, "p3")
    assert "press" not in camp.state


def test_grey_press_hides_the_sender_only_where_the_campaign_allows_it(tmp_path: Path) -> None:
    camp = campaign(tmp_path, grey=True)
    put(camp, "p1", "fra", "PRESS GREY TO Germany\nGuess who.\nEND PRESS\n")
    camp = run(camp)
    [mail] = press(camp)
    assert "France" not in text(mail) + str(mail["Subject"]) and "anonymous" in str(mail["Subject"])
    other = campaign(tmp_path / "other")
    put(other, "p2", "fra", "PRESS GREY TO Germany\nGuess who.\nEND PRESS\n")
    other = run(other)
    assert "allows no grey (anonymous) press" in ack(other, "p2")


def test_press_off_or_outside_its_stages_is_refused(tmp_path: Path) -> None:
    camp = campaign(tmp_path, enabled=False)
    put(camp, "p1", "fra", "PRESS TO ALL\nHello\nEND PRESS\n")
    camp = run(camp)
    assert press(camp) == [] and "this campaign has no press" in ack(camp, "p1")
    other = campaign(tmp_path / "other", stages=["retreats"])
    put(other, "p2", "fra", "PRESS TO ALL\nHello\nEND PRESS\n")
    other = run(other)
    assert "press is open only in these stages: retreats" in ack(other, "p2")


def test_all_press_is_published_in_the_final_report_and_the_chronicle(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    put(camp, "p1", "fra", "PRESS TO ALL\nVive la France!\nEND PRESS\n")
    camp = run(camp)
    assert main(["end", str(camp.folder), "--yes", "--reason", "test"]) == 0
    camp = run(camp, 2)
    [final] = [m for m in outbox(camp) if "Final report" in str(m["Subject"]) and "ger@" in str(m["To"])]
    assert "Vive la France!" in text(final) and "France to" in text(final)
    assert "| Player fra | 0 | 0 | 0 | 0 |" in text(final)            # the on-time record, to everyone
    assert "Vive la France!" in (camp.folder / "history" / "press.md").read_text()
