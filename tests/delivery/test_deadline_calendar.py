"""Every stage's deadline goes out as an iCalendar event (RFC 5545) with the mail that opens the
stage, one UID per stage and a SEQUENCE raised when `pbem extend` moves it; the campaign's feed
`history/<campaign>.ics` holds the same events. Read back with the icalendar library."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from icalendar import Calendar

from pbem.cli import main
from pbem.delivery.calendar import feed_path
from pbem.stages.record import StageRecord
from pbem.state.campaign import Campaign
from tests.support.engine_helpers import SECRETS, T0, dr_campaign, outbox, put, run

RED = f"PLAYER red {SECRETS['red']}\n"
BLUE = f"PLAYER blue {SECRETS['blue']}\n"
BOB = "Bob <bob@test.localhost>"


@pytest.fixture
def camp(tmp_path: Path) -> Campaign:
    camp = dr_campaign(tmp_path, {"R-1": "T24", "B-1": "T40"})
    put(camp, "red1", RED + "R-1 M T25\n")
    put(camp, "blue1", BLUE + "B-1 H\n", sender=BOB)
    return run(camp)


def events(msg: EmailMessage) -> list[Calendar]:
    found = []
    for part in msg.iter_attachments():
        if part.get_content_type() == "text/calendar":
            found.append(Calendar.from_ical(part.get_payload(decode=True)))
    return found


def one_event(msg: EmailMessage) -> tuple[str, int, object]:
    [cal] = events(msg)
    [ev] = cal.walk("VEVENT")
    return str(ev["uid"]), int(ev["sequence"]), ev.decoded("dtend")


def test_the_report_opening_the_next_stage_carries_its_deadline_as_an_event(camp: Campaign) -> None:
    record = StageRecord.read(camp.state)
    assert record.turn == 2 or record.kind != "orders"
    with_event = [m for m in outbox(camp, "alice@") if events(m)]
    assert len(with_event) == 1                                  # once per stage, not in every report
    uid, seq, end = one_event(with_event[0])
    assert uid.startswith(f"rift.turn-{record.turn}.g{record.generation}.{record.kind}")
    assert seq == 0 and end == record.due


def test_extend_sends_the_same_uid_with_a_higher_sequence_and_updates_the_feed(camp: Campaign) -> None:
    [first] = [m for m in outbox(camp, "alice@") if events(m)]
    uid, _, _ = one_event(first)
    assert main(["extend", str(camp.folder), "1d", "--now", (T0 + timedelta(hours=2)).isoformat()]) == 0
    camp = run(camp, T0 + timedelta(hours=2))
    extended = [m for m in outbox(camp, "alice@") if "deadline moved" in str(m["Subject"])]
    [moved_uid, seq, end] = one_event(extended[0])
    assert (moved_uid, seq) == (uid, 1)
    assert end == StageRecord.read(camp.state).due
    feed = Calendar.from_ical(feed_path(camp).read_bytes())
    [kept] = [ev for ev in feed.walk("VEVENT") if str(ev["uid"]) == uid]
    assert int(kept["sequence"]) == 1 and kept.decoded("dtend") == end


def test_a_player_owing_nothing_in_the_next_stage_gets_no_event(camp: Campaign) -> None:
    record = StageRecord.read(camp.state)
    assert record.kind                                          # some stage is open
    assert all(not events(m) for m in outbox(camp, "gm@"))


@pytest.fixture
def battle(tmp_path: Path) -> Campaign:
    """R-1 (T25) and B-1 (T27) both move into T26: a battle window opens."""
    camp = dr_campaign(tmp_path / "battle", {"R-1": "T25", "B-1": "T27"})
    put(camp, "o1", RED + "R-1 M T26\n")
    put(camp, "o2", BLUE + "B-1 M T26\n", sender=BOB)
    return run(camp)


def test_a_battle_window_gives_each_opponent_an_event_of_his_own(battle: Campaign) -> None:
    record = StageRecord.read(battle.state)
    assert "battle" in record.kind
    uids = {}
    for who in ("alice@", "bob@"):
        [mail] = [m for m in outbox(battle, who) if events(m)]
        uid, _, end = one_event(mail)
        assert end == record.due and "your battle" in str(events(mail)[0].walk("VEVENT")[0]["summary"])
        uids[who] = uid
    assert uids["alice@"].startswith(f"rift.turn-1.g{record.generation}.{record.kind}.red@")
    assert uids["bob@"].startswith(f"rift.turn-1.g{record.generation}.{record.kind}.blue@")
    feed = Calendar.from_ical(feed_path(battle).read_bytes())
    assert set(uids.values()) <= {str(ev["uid"]) for ev in feed.walk("VEVENT")}


def test_the_welcome_carries_the_first_stages_deadline(tmp_path: Path) -> None:
    from pbem.gm.creation import create
    from tests.support.engine_helpers import PLAYERS, SECRETS

    mail = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    camp, _ = create(tmp_path / "campaigns", "rift", "daemon_rift", "rift_valley", list(PLAYERS), "gm@test.localhost",
                     T0, transport=mail, fixed_secrets=SECRETS, welcome=True)
    camp = run(camp)
    record = StageRecord.read(camp.state)
    owing = [m for m in outbox(camp, "alice@") if "welcome" in str(m["Subject"])]
    assert len(owing) == 1
    uid, seq, end = one_event(owing[0])                  # the army lists Alice owes first
    assert uid.startswith(f"rift.turn-{record.turn}.g{record.generation}.{record.kind}@")
    assert (seq, end) == (0, record.due)
    assert (camp.folder / "history" / "rift.ics").exists()
    assert not [m for m in outbox(camp, "gm@") if events(m)]


def test_resume_after_a_pause_updates_the_event(camp: Campaign) -> None:
    [first] = [m for m in outbox(camp, "alice@") if events(m)]
    uid, _, _ = one_event(first)
    assert main(["gm", str(camp.folder), "PAUSE", "--now", (T0 + timedelta(hours=2)).isoformat()]) == 0
    assert main(["gm", str(camp.folder), "RESUME", "--now", (T0 + timedelta(days=1)).isoformat()]) == 0
    camp = run(camp, T0 + timedelta(days=1))
    [resumed] = [m for m in outbox(camp, "alice@") if "resumed" in str(m["Subject"])]
    assert one_event(resumed)[:2] == (uid, 1) and one_event(resumed)[2] == StageRecord.read(camp.state).due
