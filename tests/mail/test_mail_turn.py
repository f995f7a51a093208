"""A whole turn through real servers: orders appended to the IMAP inbox, `pbem tick`, acks and
reports read back from each player's IMAP mailbox; who may act, and whom pbem never answers."""

from __future__ import annotations

from pathlib import Path

from pbem.cli import main
from pbem.delivery.outqueue import sent_names
from pbem.state.campaign import Campaign
from tests.mail.conftest import (
    ORDERS_BOX,
    SECRETS,
    append,
    blue,
    later,
    mailbox,
    message_ids,
    order_mail,
    red,
    text_of,
)
from tests.mail.mailservers import Dovecot


def pbem_tick(camp: Campaign, hours: float = 1) -> Campaign:
    assert main(["tick", "--root", str(camp.folder.parent), "--now", later(hours).isoformat(), "--quiet"]) == 0
    return Campaign(camp.folder)


def subjects(server: Dovecot, user: str) -> list[str]:
    return [str(m["Subject"]) for m in mailbox(server, user)]


def test_a_full_turn_runs_through_imap_and_smtp(dovecot: Dovecot, campaign: Campaign) -> None:
    append(dovecot, red("R-1 M T25\n", message_id="<red-1@players>"), blue("B-1 M T27\n"))
    camp = pbem_tick(campaign)
    assert camp.state["stage"]["turn"] == 2                       # both sent orders: resolved at once
    assert camp.state["game"]["dr"]["tokens"]["R-1"]["territory"] == "T25"
    alice, bob, gm = (mailbox(dovecot, f"{u}@pbem.test") for u in ("alice", "bob", "gm"))
    [ack] = [m for m in alice if m["In-Reply-To"] == "<red-1@players>"]
    assert "`R-1 M T25`" in text_of(ack) and ack["Auto-Submitted"] == "auto-replied"
    assert ack["List-Id"] == "<rift.pbem.localhost>" and ack["References"] == "<red-1@players>"
    assert ack.get_body(preferencelist=("html",)) is not None
    assert SECRETS["red"] not in text_of(ack)
    public = {str(m["Subject"]) for m in gm}                      # the turn's reports, e.g. "[rift] Turn 1: movement"
    assert public and all(subject.startswith("[rift] Turn 1: ") for subject in public)
    assert all(m["Auto-Submitted"] == "auto-generated" for m in gm)   # robots must not answer reports either
    for box in (alice, bob):
        assert public < {str(m["Subject"]) for m in box}          # plus the player's own ack and private report
    for box in (alice, bob, gm):
        assert len(message_ids(box)) == len(set(message_ids(box)))
    assert mailbox(dovecot, ORDERS_BOX) == [] and len(mailbox(dovecot, ORDERS_BOX, "Processed")) == 2
    assert list((camp.folder / "outbox" / "queue").glob("*.eml")) == []
    delivered = len(sent_names(camp.folder))
    assert delivered == len(alice) + len(bob) + len(gm)


def test_wrong_passwords_are_throttled_and_the_gm_is_told(dovecot: Dovecot, campaign: Campaign) -> None:
    append(dovecot, *(order_mail("Alice <alice@pbem.test>", "PLAYER red WRONG-SECRET\nR-1 M T25\n") for _ in range(7)))
    camp = pbem_tick(campaign)
    refusals = mailbox(dovecot, "alice@pbem.test")
    # five refusals, then the lock, told once
    assert len(refusals) == 6 and all("not accepted" in text_of(m) for m in refusals)
    [alert] = mailbox(dovecot, "gm@pbem.test")
    assert "alice@pbem.test failed to authenticate" in text_of(alert)
    assert not camp.state.get("submissions") and mailbox(dovecot, ORDERS_BOX) == []


def test_the_right_secret_from_an_unregistered_address_does_not_act(dovecot: Dovecot, campaign: Campaign) -> None:
    append(dovecot, order_mail("Eve <eve@pbem.test>", f"PLAYER red {SECRETS['red']}\nR-1 M T25\n"))
    camp = pbem_tick(campaign)
    [reply] = mailbox(dovecot, "eve@pbem.test")
    assert "not accepted" in text_of(reply) and "R-1" not in text_of(reply)
    assert not camp.state.get("submissions")


def test_gm_commands_need_the_gm_address_and_the_gm_secret(dovecot: Dovecot, campaign: Campaign) -> None:
    forged = order_mail("GM <gm@pbem.test>", "GM not-the-secret\nEXTEND 2d\n")
    stolen = order_mail("Alice <alice@pbem.test>", f"GM {SECRETS['gm']}\nEXTEND 2d\n")
    real = order_mail("GM <gm@pbem.test>", f"GM {SECRETS['gm']}\nEXTEND 1d\n", message_id="<gm-real@x>")
    deadline = campaign.state["stage"]["deadline"]
    append(dovecot, forged, stolen)
    camp = pbem_tick(campaign)
    assert camp.state["stage"]["deadline"] == deadline and not camp.state.get("gm_log")
    assert "not accepted" in text_of(mailbox(dovecot, "gm@pbem.test")[0])
    append(dovecot, real)
    camp = pbem_tick(camp, 2)
    assert camp.state["stage"]["deadline"] != deadline and "EXTEND 1d" in camp.state["gm_log"][0]["text"]
    [ack] = [m for m in mailbox(dovecot, "gm@pbem.test") if m["In-Reply-To"] == "<gm-real@x>"]
    assert "deadline of Turn 1: orders moved from" in text_of(ack)


def test_machines_and_ourselves_are_never_answered(dovecot: Dovecot, campaign: Campaign) -> None:
    robots = [
        order_mail("Alice <alice@pbem.test>", "I am away.", headers={"Auto-Submitted": "auto-replied"}),
        order_mail("MAILER-DAEMON <mailer-daemon@pbem.test>", "Delivery failed"),
        order_mail("List <alice@pbem.test>", "digest", headers={"List-Id": "<chat.pbem.test>"}),
        order_mail("Rift <rift@pbem.localhost>", "our own reply came back"),
    ]
    append(dovecot, *robots)
    camp = pbem_tick(campaign)
    for user in ("alice", "gm", "bob"):
        assert mailbox(dovecot, f"{user}@pbem.test") == []
    assert sorted(camp.state["journal"].values()) == [
        "ignored: auto-submitted", "ignored: bounce", "ignored: mailing-list", "ignored: our own address"]
    assert mailbox(dovecot, ORDERS_BOX) == []


def test_imap_settings_can_come_from_the_campaign_folder_with_a_password_file(
        dovecot: Dovecot, campaign: Campaign, tmp_path: Path) -> None:
    """The same campaign reading with a secrets file instead of an environment variable."""
    (tmp_path / "imap.secret").write_text("orders-pw\n")
    text = (campaign.folder / "campaign.toml").read_text()
    text = text.replace('password_env = "PBEM_TEST_IMAP_PASSWORD"', f'password_file = "{tmp_path / "imap.secret"}"', 1)
    (campaign.folder / "campaign.toml").write_text(text)
    append(dovecot, red("R-1 M T25\n"))
    camp = pbem_tick(campaign)
    assert camp.state["submissions"]["red"]["payload"]
