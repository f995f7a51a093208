"""`MAIL digest`: a day's plain acknowledgements, reminders and press reach the player as one
mail at the digest hour, while turn reports and answers with a problem go at once; reports carry
List-Id and List-Unsubscribe, and a mail client's unsubscribe switches to the digest, never
resigning. Through the tick on a Daemon Rift campaign (Red and Blue)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from pbem.state.campaign import Campaign
from tests.support.engine_helpers import SECRETS, T0, body, dr_campaign, outbox, put, run

RED = f"PLAYER red {SECRETS['red']}\n"
BLUE = f"PLAYER blue {SECRETS['blue']}\n"
BOB = "Bob <bob@test.localhost>"
NEXT_MORNING = T0.replace(day=24, hour=8, minute=1)           # [rules.mail] digest_at = "08:00", UTC


@pytest.fixture
def camp(tmp_path: Path) -> Campaign:
    camp = dr_campaign(tmp_path, {"R-1": "T24", "B-1": "T40"})
    put(camp, "b1", BLUE + "MAIL digest\n", sender=BOB)
    return run(camp)


def bob_mail(camp: Campaign) -> list[str]:
    return [str(m["Subject"]) for m in outbox(camp, "bob@")]


def test_a_days_plain_acks_and_press_come_as_one_digest_at_the_digest_hour(camp: Campaign) -> None:
    assert "MAIL digest: acknowledgements without problems" in " ".join(body(outbox(camp, "bob@")[0]).split())
    put(camp, "b2", BLUE + "B-1 H\n", sender=BOB)
    put(camp, "r1", RED + "PRESS TO Blue\nA word, friend.\nEND PRESS\n")
    camp = run(camp, T0 + timedelta(hours=2))
    put(camp, "b3", BLUE + "B-1 M Nowhere\n", sender=BOB)        # a rejected line: answered at once
    camp = run(camp, T0 + timedelta(hours=3))
    assert len(bob_mail(camp)) == 2                              # the MAIL answer, the answer with a problem
    assert len(camp.state["digest"]["blue"]) == 2
    camp = run(camp, NEXT_MORNING - timedelta(minutes=5))
    assert len(bob_mail(camp)) == 2
    camp = run(camp, NEXT_MORNING)
    [digest] = [m for m in outbox(camp, "bob@") if "daily digest" in str(m["Subject"])]
    text = body(digest)
    assert "A word, friend." in text and "B-1 H" in text and "2 mails" in str(digest["Subject"])
    assert "digest" not in camp.state
    camp = run(camp, NEXT_MORNING + timedelta(hours=1))
    assert len([s for s in bob_mail(camp) if "daily digest" in s]) == 1


def test_reports_go_at_once_with_list_headers(camp: Campaign) -> None:
    put(camp, "b2", BLUE + "B-1 H\n", sender=BOB)
    put(camp, "r1", RED + "R-1 M T25\n")
    camp = run(camp, T0 + timedelta(hours=2))
    reports = [m for m in outbox(camp, "bob@") if "Turn 1" in str(m["Subject"]) and "Re:" not in str(m["Subject"])]
    assert reports
    for report in reports:
        assert str(report["List-Id"]) == "<rift.pbem.localhost>"
        assert str(report["List-Unsubscribe"]) == "<mailto:rift@pbem.localhost?subject=%5Brift%5D%20MAIL%20digest>"


def test_an_unsigned_unsubscribe_from_a_players_address_switches_to_the_digest(camp: Campaign) -> None:
    put(camp, "u1", "", subject="[rift] MAIL digest")
    camp = run(camp, T0 + timedelta(hours=2))
    assert camp.state["mail_choice"]["red"] == "digest"
    [answer] = [m for m in outbox(camp, "alice@") if m["In-Reply-To"] == "<u1@test.localhost>"]
    assert "an unsubscribe never resigns a seat" in " ".join(body(answer).split())
    assert [p.id for p in camp.settings.players] == ["red", "blue"]


def test_reports_only_drops_plain_acks_and_keeps_press_for_the_digest(camp: Campaign) -> None:
    put(camp, "b2", BLUE + "MAIL reports-only\n", sender=BOB)
    camp = run(camp, T0 + timedelta(hours=2))
    put(camp, "b3", BLUE + "B-1 H\n", sender=BOB)
    put(camp, "r1", RED + "PRESS TO Blue\nA word, friend.\nEND PRESS\n")
    camp = run(camp, T0 + timedelta(hours=3))
    assert not [m for m in outbox(camp, "bob@") if m["In-Reply-To"] == "<b3@test.localhost>"]
    assert [item["subject"] for item in camp.state["digest"]["blue"]] == ["[rift] press from Alice (Red)"]


def test_a_reminder_waits_for_the_digest_hour(camp: Campaign) -> None:
    camp = run(camp, T0.replace(day=29, hour=21))                    # inside the 24h reminder window
    assert [m for m in outbox(camp, "alice@") if "reminder" in str(m["Subject"])]     # Alice: at once
    assert not [m for m in outbox(camp, "bob@") if "reminder" in str(m["Subject"])]
    camp = run(camp, T0.replace(day=30, hour=8, minute=1))
    [digest] = [m for m in outbox(camp, "bob@") if "daily digest" in str(m["Subject"])]
    assert "reminder" in body(digest).lower()
