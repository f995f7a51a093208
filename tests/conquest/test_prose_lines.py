"""Lines that are not orders in Conquest mail, through the tick: a misspelt order word as the
last line is rejected with its suggestion, never dropped; greetings and thanks anywhere are
skipped as prose with one note (pbem/kit/prose.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.rulesets.conquest.model import W_CAMPAIGN, W_CONQUEST
from pbem.state.campaign import Campaign

from .engine_helpers import campaign, mail, put_position, replies, run


def at_window(tmp_path: Path, window: str) -> Campaign:
    """Round 1 of Anna, Ben and Cara, each with a capital, in `window`."""
    capitals = {"anna": "T3", "ben": "T15", "cara": "T35"}
    position: dict[str, Any] = {"round": 1, "window": window, "order": ["anna", "ben", "cara"],
                                "empires": {p: {"capital": t} for p, t in capitals.items()},
                                "tiles": {t: {"owner": p} for p, t in capitals.items()}}
    return put_position(campaign(tmp_path), position)


def test_a_misspelt_challenge_as_the_last_line_is_rejected_with_a_suggestion(tmp_path: Path) -> None:
    camp = at_window(tmp_path, W_CAMPAIGN)
    mail(camp, "c1", "anna", "Hi GM,\nSTANDING team\nCHALENGE Ben")
    [ack] = replies(run(camp), "anna@", "c1")
    assert "line 4 (invalid): `CHALENGE Ben`" in ack and "did you mean **CHALLENGE**?" in ack
    assert "1 line read as prose and skipped: line 2 `Hi GM,`." in ack
    assert "not orders" not in ack.lower()


def test_a_misspelt_claim_as_the_last_line_is_rejected_and_thanks_are_prose(tmp_path: Path) -> None:
    camp = at_window(tmp_path, W_CONQUEST)
    mail(camp, "c1", "anna", "Hi GM,\nCLIAM T4\n\nWhat a game! Thanks Ben.")
    [ack] = replies(run(camp), "anna@", "c1")
    assert "line 3 (invalid): `CLIAM T4`" in ack and "did you mean **CLAIM**?" in ack
    assert "2 lines read as prose and skipped: line 2 `Hi GM,`, line 5 `What a game! Thanks Ben.`." in ack
