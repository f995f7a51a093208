"""Setup on the real engine, from the sample mails (inbox_samples/mighty_kingdoms): the welcome,
the roll-off report, acknowledgements quoting refused lines, the GM's approval, month 1 opening."""

from __future__ import annotations

import email
import shutil
from datetime import datetime, timedelta
from email import policy
from pathlib import Path

from pbem.gm.creation import NewPlayer, create
from pbem.rulesets.mighty_kingdoms.ruleset import RULESET
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick
from tests.mighty_kingdoms.helpers_setup import T0, ctx

SAMPLES = Path(__file__).parents[2] / "inbox_samples" / "mighty_kingdoms"
PLAYERS = [NewPlayer("red", "Anna", "anna@players.localhost", "Red Realm", "R"),
           NewPlayer("blue", "Ben", "ben@players.localhost", "Blue March", "B"),
           NewPlayer("green", "Cara", "cara@players.localhost", "Green Hold", "G")]
SECRETS = {"red": "REDD-DEMO-0000-0000-0001", "blue": "BLUE-DEMO-0000-0000-0002",
           "green": "GREN-DEMO-0000-0000-0003", "gm": "GMGM-DEMO-0000-0000-0000"}


def demo(root: Path) -> Campaign:
    transport = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    camp, _ = create(root / "campaigns", "mk-demo", "mighty_kingdoms", "mk_three_realms", PLAYERS,
                     "gm@players.localhost", T0, transport=transport, fixed_secrets=SECRETS, welcome=True)
    return camp


def feed(root: Path, step: str) -> None:
    (root / "inbox").mkdir(exist_ok=True)
    for mail in sorted((SAMPLES / step).glob("*.eml")):
        shutil.copy(mail, root / "inbox" / mail.name)


def mails(root: Path) -> list[tuple[str, str, str]]:
    """(to, subject, plain text) of every mail sent so far."""
    out = []
    for path in sorted((root / "outbox").glob("*/*")):
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        body = msg.get_body(preferencelist=("plain",))
        out.append((str(msg["To"]), str(msg["Subject"]), body.get_content() if body else ""))
    return out


def test_setup_plays_from_the_sample_mails_to_month_1(tmp_path: Path) -> None:
    camp = demo(tmp_path)
    tick(tmp_path / "campaigns", T0 + timedelta(hours=1))          # 00-opening: welcomes, the roll-off
    camp = Campaign(camp.folder)
    state = RULESET.load_state(camp.state["game"])
    assert state.setup.rolled and sorted(state.order) == ["blue", "green", "red"]
    assert RULESET.stage(ctx(camp)).kind == "setup"
    sent = mails(tmp_path)
    welcome = next(text for to, subject, text in sent if "welcome" in subject and "anna" in to)
    assert "The campaign opens with setup" in welcome and "T28 (Gorwatch)" in welcome
    opening = next(text for to, subject, text in sent if "setup opens" in subject and "anna" in to)
    assert "initial player order: Red Realm D6 = " in opening and "| 3 | T28 (Gorwatch) | land | free |" in opening
    assert "RING city village fortress village control control" in opening

    feed(tmp_path, "01-setup")
    tick(tmp_path / "campaigns", T0 + timedelta(hours=2))
    camp = Campaign(camp.folder)
    state = RULESET.load_state(camp.state["game"])
    assert {p: k.start_tile for p, k in state.kingdoms.items()} == {"red": "T28", "blue": "T34", "green": "T55"}
    assert [a.id for a in state.armies.values()] and sorted(state.armies) == ["BLUE1", "GREEN1", "RED1"]
    assert state.armies["RED1"].tile == "T29" and state.armies["BLUE1"].tile == "T34"
    assert state.setup.pending and RULESET.stage(ctx(camp)).waiting_for_gm
    sent = mails(tmp_path)
    acks = [text for to, subject, text in sent if "cara" in to and "Not accepted" in text]
    assert acks and "army list not taken: U4 Giant: monsters are not allowed in this list" in acks[0]
    assert "`LIST Wolfpack`" not in acks[0]                    # no list taken, so no name for it
    blue = [text for to, subject, text in sent if "ben" in to and "ARMY north" in text]
    assert blue and "capital or a direction" in blue[0]
    alert = [text for to, subject, text in sent if "gm@players" in to and "waits for your approval" in text]
    assert alert and "the units to check: " in alert[0]
    assert "Knights | Cav | 8 3+ - 5+ 16 14/17 | Thunderous Charge (2) | 130" in alert[0]     # Red's list, to check

    feed(tmp_path, "02-approve")
    tick(tmp_path / "campaigns", T0 + timedelta(hours=3))
    camp = Campaign(camp.folder)
    state = RULESET.load_state(camp.state["game"])
    assert (state.calendar.month, state.calendar.window, camp.state["stage"]["turn"]) == (1, "orders", 1)
    assert (camp.history(0) / "dice.toml").exists()
    report = next(p for p in camp.history(0).glob("*.md") if "lists" in p.name)
    assert "Month 1 of year 1 begins" in report.read_text()


def test_a_refused_army_list_keeps_window_s_open_and_the_report_says_refused(tmp_path: Path) -> None:
    camp = demo(tmp_path)
    tick(tmp_path / "campaigns", T0 + timedelta(hours=1))          # 00-opening: the roll-off opens window S
    (tmp_path / "inbox").mkdir(exist_ok=True)
    for name in ("01-red.eml", "02-blue.eml", "03-green.eml", "05-blue-ready.eml"):   # Cara's Giant, not resent
        shutil.copy(SAMPLES / "01-setup" / name, tmp_path / "inbox" / name)
    tick(tmp_path / "campaigns", T0 + timedelta(hours=2))
    camp = Campaign(camp.folder)
    assert RULESET.stage(ctx(camp)).kind == "setup"              # Cara's list was refused: she is not ready
    ack = next(text for to, subject, text in mails(tmp_path) if "cara" in to and "Not accepted" in text)
    assert "The stage can close early once you are ready: 1 line was rejected" in ack

    deadline = datetime.fromisoformat(camp.state["stage"]["deadline"])
    tick(tmp_path / "campaigns", deadline + timedelta(minutes=1))
    camp = Campaign(camp.folder)
    report = next(p for p in camp.history(0).glob("*.md") if "setup" in p.name and "opening" not in p.name)
    text = report.read_text()
    assert "Green Hold's army list was refused; the list is still owed (MK-PBM-1)." in text
    assert "Green Hold sent no army list" not in text
    alert = next(text for to, subject, text in mails(tmp_path)
                 if "gm@players" in to and "needs the game master" in text)
    assert ("Green Hold's army list was refused (the list comes to 540 points, over the limit of 500; "
            "U4 Giant: monsters are not allowed in this list)") in alert
