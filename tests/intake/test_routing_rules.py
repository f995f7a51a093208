"""Routing you can see: a campaign's own inbox takes every mail sent to it; a CAMPAIGN line
counts only above the orders and naming a known campaign; a correct subject tag always wins;
a mail naming another campaign is answered with where to send it and journalled."""

from __future__ import annotations

from pathlib import Path

import tomli_w

from pbem.gm.creation import create
from pbem.intake.envelope import campaign_named, read_envelope
from pbem.intake.journal import message_ids
from pbem.state.campaign import Campaign
from tests.support.engine_helpers import PLAYERS, SECRETS, T0, body, dr_campaign, open_orders, outbox, put, run

RED = f"PLAYER red {SECRETS['red']}\n"


def inbox_left(camp: Campaign) -> list[Path]:
    return sorted((camp.folder.parent.parent / "inbox").glob("*.eml"))


def orders_of(camp: Campaign) -> dict:  # type: ignore[type-arg]
    return camp.state.get("submissions", {}).get("red", {}).get("payload", {}).get("orders", {}).get("orders", {})


def sibling(root: Path, name: str, transport: dict | None = None) -> Campaign:  # type: ignore[type-arg]
    camp, _ = create(root / "campaigns", name, "daemon_rift", "rift_valley", list(PLAYERS), "gm@test.localhost", T0,
                     transport=transport, fixed_secrets=SECRETS)
    return open_orders(camp)


# -- the envelope -------------------------------------------------------------------


def test_a_campaign_line_counts_only_above_the_orders_as_one_known_name() -> None:
    known = {"rift", "vale"}
    assert campaign_named(read_envelope("orders", "CAMPAIGN vale\n" + RED + "R-1 H\n"), known) == "vale"
    assert campaign_named(read_envelope("orders", RED + "R-1 H\nCAMPAIGN vale\n"), known) == ""
    assert campaign_named(read_envelope("orders", "Campaign going well so far\n" + RED), known) == ""
    assert campaign_named(read_envelope("orders", "CAMPAIGN nowhere\n" + RED), known) == ""
    assert campaign_named(read_envelope("[URGENT] [rift] orders", "CAMPAIGN vale\n"), known) == "rift"
    env = read_envelope("orders", RED + "Campaign going well so far\nR-1 H\n")
    assert (2, "Campaign going well so far") in env.lines      # read with the orders, refused by them


# -- a campaign's own inbox -----------------------------------------------------------


def test_a_body_line_starting_with_campaign_does_not_stop_the_mail(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    put(camp, "m1", RED + "R-1 M T25\nCampaign going well so far\n")
    camp = run(camp)
    assert orders_of(camp)["R-1"]["path"] == ["T25"]
    [ack] = outbox(camp, "alice")
    assert "1 line read as prose and skipped: line 3 `Campaign going well so far`" in body(ack) and not inbox_left(camp)


def test_an_unknown_tag_in_the_subject_does_not_stop_the_mail(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    put(camp, "m1", RED + "R-1 M T25\n", subject="[URGENT] my orders")
    put(camp, "m2", f"PLAYER blue {SECRETS['blue']}\nSTATUS\n", sender="Bob <bob@test.localhost>",
        subject="[EXTERNAL] [rift] status")
    camp = run(camp)
    assert orders_of(camp)["R-1"]["path"] == ["T25"]
    assert len(outbox(camp, "alice")) == 1 and len(outbox(camp, "bob")) == 1 and not inbox_left(camp)
    assert len(camp.state["journal"]) == 2


def test_mail_naming_a_campaign_that_reads_elsewhere_is_answered_and_journalled(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    sibling(tmp_path, "vale", {"inbox": {"type": "maildir", "path": "inbox"},
                               "outbox": {"type": "maildir", "path": "../../outbox"}})
    put(camp, "m1", RED + "R-1 M T25\n", subject="[vale] orders", mid="for-vale@client")
    camp = run(camp)
    [reply] = outbox(camp, "alice")
    text = " ".join(body(reply).split())
    assert "the campaign **vale** reads its orders at vale@pbem.localhost" in text
    assert reply["In-Reply-To"] == "<for-vale@client>"
    assert not camp.state.get("submissions") and not Campaign(tmp_path / "campaigns" / "vale").state.get("submissions")
    assert list(camp.state["journal"].values()) == ["answered: names campaign vale"]
    assert message_ids(camp.state["journal"]) == ["<for-vale@client>"] and not inbox_left(camp)
    run(camp)
    assert len(outbox(camp, "alice")) == 1                         # answered once


def test_mail_naming_a_campaign_of_the_same_inbox_is_taken_by_that_campaign(tmp_path: Path) -> None:
    rift = dr_campaign(tmp_path)
    vale = sibling(tmp_path, "vale", {"inbox": {"type": "eml", "path": "../../inbox"},
                                      "outbox": {"type": "maildir", "path": "../../outbox"}})
    put(rift, "m1", "CAMPAIGN vale\n" + RED + "R-1 M T25\n", subject="my orders")
    put(rift, "m2", RED + "R-1 H\n", subject="[rift] orders")
    rift = run(rift)
    vale = Campaign(vale.folder)
    assert orders_of(vale)["R-1"]["kind"] == "M" and orders_of(rift)["R-1"]["kind"] == "H"
    assert len(outbox(rift, "alice")) == 2 and not inbox_left(rift)


# -- a shared mailbox -------------------------------------------------------------------


def test_in_a_shared_mailbox_a_body_line_never_overrides_a_correct_tag(tmp_path: Path) -> None:
    root = tmp_path / "campaigns"
    root.mkdir()
    shared = {"address": "orders@pbem.localhost", "transport": {"inbox": {"type": "eml", "path": "../inbox"},
                                                                 "outbox": {"type": "maildir", "path": "../outbox"}}}
    (root / "pbem.toml").write_text(tomli_w.dumps(shared))
    rift, vale = sibling(tmp_path, "rift"), sibling(tmp_path, "vale")
    put(rift, "m1", "CAMPAIGN vale\n" + RED + "R-1 M T25\n", subject="[rift] orders")
    put(rift, "m2", RED + "Campaign going well so far\nR-1 H\n", subject="[vale] orders")
    run(rift)
    rift, vale = Campaign(rift.folder), Campaign(vale.folder)
    assert orders_of(rift)["R-1"]["kind"] == "M" and orders_of(vale)["R-1"]["kind"] == "H"
    assert not inbox_left(rift)
