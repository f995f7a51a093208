"""A mail without a `PLAYER` line is told exactly that, whoever sent it: the answer comes from the
message alone, so it says nothing of whether the address is a player's."""

from __future__ import annotations

from pathlib import Path

from pbem.state.campaign import Campaign
from tests.support.engine_helpers import SECRETS, body, dr_campaign, outbox, put, run


def answer(camp: Campaign, mid: str) -> str:
    """The answer to the mail `mid` after a tick, its lines joined."""
    [mail] = [m for m in outbox(run(camp)) if m["In-Reply-To"] == f"<{mid}@test.localhost>"]
    return " ".join(body(mail).split())


def test_a_players_mail_without_a_player_line_is_told_it_has_none(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    put(camp, "m1", "Hi GM,\nR-1 M T25\n")
    text = answer(camp, "m1")
    assert "it has no `PLAYER` line: a player signs every message with a line `PLAYER <name> <secret>`" in text
    assert "Add the line and send your orders again." in text and "check the address" not in text


def test_a_strangers_mail_without_a_player_line_gets_the_same_answer(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    put(camp, "m1", "Hi GM,\nR-1 M T25\n")
    put(camp, "m2", "Hi GM,\nR-1 M T25\n", sender="Eve <eve@elsewhere.localhost>")
    camp = run(camp)
    alice, eve = (" ".join(body(m).split()) for m in (*outbox(camp, "alice"), *outbox(camp, "eve")))
    assert alice == eve


def test_a_player_line_without_a_secret_or_with_a_wrong_one_is_told_so(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    put(camp, "m1", "PLAYER red\nR-1 M T25\n")
    assert "its `PLAYER` line has no secret: write `PLAYER <name> <secret>`" in answer(camp, "m1")
    put(camp, "m2", f"PLAYER red {SECRETS['blue']}\nR-1 M T25\n")
    text = answer(camp, "m2")
    assert "do not match a player of this campaign" in text and "check the address" in text
