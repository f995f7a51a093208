"""A player of two campaigns who sends one game's orders to the other is told which campaign
they fit, through the tick; nobody else's campaigns are named."""

from __future__ import annotations

from pathlib import Path

from pbem.gm.creation import NewPlayer, create
from pbem.state.campaign import Campaign
from tests.support.engine_helpers import SECRETS, T0, body, dr_campaign, outbox, put, run

COC_SECRETS = {"alice": "ALIC-TEST-0000-0000-0001", "dave": "DAVE-TEST-0000-0000-0002",
               "eve": "EVEE-TEST-0000-0000-0003", "gm": "GMGM-TEST-0000-0000-0000"}


def both(root: Path) -> Campaign:
    """The Daemon Rift campaign `rift` (Alice plays Red) and the Conquest campaign `coc` (Alice,
    Dave and Eve), reading one inbox."""
    rift = dr_campaign(root)
    players = [NewPlayer(p, p.title(), f"{p}@test.localhost", c, c[0]) for p, c in
               (("alice", "Red"), ("dave", "Blue"), ("eve", "Green"))]
    transport = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    create(root / "campaigns", "coc", "conquest", "three_crowns", players, "gm@test.localhost", T0,
           transport=transport, fixed_secrets=COC_SECRETS)
    return rift


def answer(rift: Campaign, mid: str) -> str:
    [mail] = [m for m in outbox(run(rift)) if m["In-Reply-To"] == f"<{mid}@test.localhost>"]
    return " ".join(body(mail).split())


def test_rift_orders_sent_to_the_conquest_campaign_are_told_they_fit_the_rift(tmp_path: Path) -> None:
    rift = both(tmp_path)
    put(rift, "m1", f"PLAYER alice {COC_SECRETS['alice']}\nR-1 M T25\n", subject="[coc] orders")
    text = answer(rift, "m1")
    assert "line 2 (invalid): `R-1 M T25`" in text, text
    assert "These lines read as orders of your other campaign, Daemon Rift: rift (1 of 1): if they were meant " \
           "for it, send them to" in text and "`[rift]` in the subject" in text



def test_conquest_capitals_sent_to_the_rift_are_told_they_fit_conquest(tmp_path: Path) -> None:
    rift = both(tmp_path)
    put(rift, "m1", f"PLAYER red {SECRETS['red']}\nCAPITAL T9\n")
    assert "your other campaign, Campaigns of Conquest: coc (1 of 1)" in answer(rift, "m1")


def test_orders_that_fit_no_campaign_of_the_sender_name_none(tmp_path: Path) -> None:
    rift = both(tmp_path)
    put(rift, "m1", f"PLAYER red {SECRETS['red']}\nR-1 M Nowhere Land\n")
    text = answer(rift, "m1")
    assert "line 2 (invalid)" in text and "other campaign" not in text
