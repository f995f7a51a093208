"""REPLACE / `pbem replace`: a seat changes hands; the new player gets a fresh secret, the old one stops working."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.state.campaign import Campaign
from pbem.state.store import read_toml
from tests.support.engine_helpers import SECRETS, body, dr_campaign, outbox, put, run

GM = f"GM {SECRETS['gm']}\n"
CAROL = "Carol <carol@test.localhost>"


@pytest.fixture
def camp(tmp_path: Path) -> Campaign:
    return dr_campaign(tmp_path)


def _secret(mail_text: str) -> str:
    match = re.search(r"Your secret: \*\*(\S+)\*\*", mail_text)
    assert match is not None
    return match.group(1)


def test_gm_replaces_a_player_by_mail_and_only_the_new_player_learns_the_secret(camp: Campaign) -> None:
    put(camp, "g1", GM + "REPLACE red carol@test.localhost Carol Jones\n", sender="GM <gm@test.localhost>")
    camp = run(camp)
    player = camp.settings.player("red")
    assert player is not None and (
        (player.email, player.name, player.faction) == ("carol@test.localhost", "Carol Jones", "R")
    )
    [welcome] = outbox(camp, "carol")
    secret = _secret(body(welcome))
    [ack] = [m for m in outbox(camp, "gm@") if m["In-Reply-To"] == "<g1@test.localhost>"]
    assert "now played by Carol Jones" in body(ack) and secret not in body(ack)
    assert any("handed over" in str(m["Subject"]) for m in outbox(camp, "alice"))
    assert "REPLACE red carol@test.localhost" in camp.state["gm_log"][-1]["text"]
    put(camp, "c1", f"PLAYER red {secret}\nR-1 M T25\n", sender=CAROL)
    put(camp, "a1", f"PLAYER red {SECRETS['red']}\nR-1 H\n")
    camp = run(camp)
    assert camp.state["submissions"]["red"]["payload"]["orders"]["orders"]["R-1"]["kind"] == "M"
    [refused] = [m for m in outbox(camp, "alice") if m["In-Reply-To"] == "<a1@test.localhost>"]
    assert "not accepted" in body(refused)


def test_replace_on_the_command_line_forgets_a_chosen_secret(camp: Campaign) -> None:
    put(camp, "p1", f"PLAYER red {SECRETS['red']}\nPASSWORD a-long-chosen-secret\n")
    camp = run(camp)
    assert "red" in read_toml(camp.folder / "auth.toml")["secrets"]
    assert main(["replace", str(camp.folder), "red", "carol@test.localhost", "Carol"]) == 0
    assert "red" not in read_toml(camp.folder / "auth.toml").get("secrets", {})
    camp = run(camp)
    [welcome] = outbox(camp, "carol")
    assert "PLAYER red" in body(welcome)


@pytest.mark.parametrize(("words", "why"), [
    (["nobody", "x@test.localhost"], "no player 'nobody'"),
    (["red", "bob@test.localhost"], "already plays"),
    (["red", "not-an-address"], "is not a mail address"),
    (["red"], "REPLACE <player> <email>"),
])
def test_replace_refuses_bad_input_and_changes_nothing(camp: Campaign, words: list[str], why: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    before = (camp.folder / "campaign.toml").read_text()
    assert main(["replace", str(camp.folder), *words]) != 0 if len(words) > 1 else True
    if len(words) == 1:
        put(camp, "g1", GM + "REPLACE red\n", sender="GM <gm@test.localhost>")
        camp = run(camp)
        [ack] = [m for m in outbox(camp, "gm@") if m["In-Reply-To"] == "<g1@test.localhost>"]
        assert why in body(ack)
    else:
        assert why in capsys.readouterr().out
    assert (camp.folder / "campaign.toml").read_text() == before
