"""One IMAP mailbox and one SMTP server for every campaign under a directory (pbem.toml):
each message goes to the campaign its envelope names; mail for no campaign is answered once."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomli_w

from pbem.intake import handler as intake
from pbem.intake.journal import message_ids
from pbem.state.campaign import Campaign
from pbem.state.store import campaign_lock, read_toml
from pbem.tick.engine import tick
from pbem.tick.log import TickLog
from tests.mail.conftest import (
    ORDERS_BOX,
    SECRETS,
    Relay,
    append,
    imap_spec,
    later,
    mailbox,
    make_campaign,
    order_mail,
    red,
    smtp_spec,
    text_of,
)
from tests.mail.mailservers import Dovecot


@pytest.fixture
def site(tmp_path: Path, dovecot: Dovecot, relay: Relay, passwords: None) -> Path:
    root = tmp_path / "campaigns"
    root.mkdir()
    settings = {"address": ORDERS_BOX, "transport": {"inbox": imap_spec(dovecot), "outbox": smtp_spec(dovecot, relay)}}
    (root / "pbem.toml").write_text(tomli_w.dumps(settings))
    for name in ("rift", "vale"):
        make_campaign(root, name)
    return root


def run(root: Path, hours: float = 1) -> TickLog:
    return tick(root, later(hours))


def test_campaigns_inherit_the_shared_transports(site: Path) -> None:
    camp = Campaign(site / "rift")
    assert read_toml(site / "rift" / "campaign.toml")["transport"] == {}
    assert camp.settings.inbox["type"] == "imap" and camp.settings.inbox["shared"] == "pbem.toml"
    assert camp.settings.outbox["type"] == "smtp" and camp.settings.outbox["base"] == str(site.resolve())


def test_each_message_reaches_the_campaign_its_envelope_names(dovecot: Dovecot, site: Path) -> None:
    append(dovecot,
           red("R-1 M T25\n", subject="[rift] orders", message_id="<for-rift@x>"),
           red("CAMPAIGN vale\nR-1 H\n", subject="my orders", message_id="<for-vale@x>"))
    log = run(site)
    rift, vale = Campaign(site / "rift"), Campaign(site / "vale")
    assert message_ids(rift.state["journal"]) == ["<for-rift@x>"] and (
        message_ids(vale.state["journal"]) == ["<for-vale@x>"]
    )
    assert rift.state["submissions"]["red"] != vale.state["submissions"]["red"]
    acks = {str(m["In-Reply-To"]): m["From"].addresses[0] for m in mailbox(dovecot, "alice@pbem.test")}
    assert {key: (a.display_name, a.addr_spec) for key, a in acks.items()} == {
        "<for-rift@x>": ("Daemon Rift: rift", ORDERS_BOX),      # the shared mailbox, where players write
        "<for-vale@x>": ("Daemon Rift: vale", ORDERS_BOX)}
    assert mailbox(dovecot, ORDERS_BOX) == [] and len(mailbox(dovecot, ORDERS_BOX, "Processed")) == 2
    assert not any("NOT PROCESSED" in line for line in log.lines)


def test_a_tick_logs_in_to_the_smtp_server_once_for_all_its_campaigns(dovecot: Dovecot, relay: Relay,
                                                                     site: Path) -> None:
    for hour in (1, 2):
        append(dovecot, *(red("R-1 H\n", subject=f"[{name}] orders", message_id=f"<{name}-{hour}@x>")
                          for name in ("rift", "vale")))
        log = run(site, hour)
        assert {line.split(":")[0] for line in log.lines if ": delivered" in line} == {"rift", "vale"}
        assert (relay.handler.logins, relay.handler.quits) == (hour, hour)    # one session a tick, quit at its end
    assert len(mailbox(dovecot, "alice@pbem.test")) == 4


def test_mail_for_no_campaign_is_answered_once_and_marked_done(dovecot: Dovecot, site: Path) -> None:
    append(dovecot,
           order_mail("Eve <eve@pbem.test>", "hello", subject="[nowhere] orders", message_id="<named@x>"),
           order_mail("Eve <eve@pbem.test>", "R-1 M T25", subject="orders", message_id="<untagged@x>"),
           order_mail("MAILER-DAEMON <mailer-daemon@pbem.test>", "undeliverable", subject="[nowhere] failure"),
           order_mail("Orders <orders@pbem.test>", "loop", subject="Re: [nowhere]"))
    run(site)
    replies = {str(m["In-Reply-To"]): m for m in mailbox(dovecot, "eve@pbem.test")}
    assert set(replies) == {"<named@x>", "<untagged@x>"}
    assert "no campaign called **nowhere**" in " ".join(text_of(replies["<named@x>"]).split())
    assert "does not say which campaign" in " ".join(text_of(replies["<untagged@x>"]).split())
    assert replies["<named@x>"]["Auto-Submitted"] == "auto-replied" and (
        replies["<named@x>"]["From"] == f"pbem <{ORDERS_BOX}>"
    )
    assert mailbox(dovecot, ORDERS_BOX) == [] and len(mailbox(dovecot, ORDERS_BOX, "Processed")) == 4
    assert mailbox(dovecot, "gm@pbem.test") == []
    journal = read_toml(site / "postmaster" / "state.toml")["journal"]
    assert sorted(entry["note"] for entry in journal.values()) == [
        "answered: no campaign named", "answered: no such campaign", "ignored: bounce",
        "ignored: no sender or our own address"]
    for stored in (Campaign(site / "rift"), Campaign(site / "vale")):
        assert not stored.state.get("journal")
    # the same mail again (a restored mailbox): no second answer
    append(dovecot, order_mail("Eve <eve@pbem.test>", "hello", subject="[nowhere] orders", message_id="<named@x>"))
    run(site, 2)
    assert len(mailbox(dovecot, "eve@pbem.test")) == 2


def test_the_postmaster_answers_an_address_at_most_three_times_a_day(dovecot: Dovecot, site: Path) -> None:
    append(dovecot, *(order_mail("Eve <eve@pbem.test>", "hi", subject=f"[nowhere{i}]") for i in range(5)))
    run(site)
    assert len(mailbox(dovecot, "eve@pbem.test")) == 3 and mailbox(dovecot, ORDERS_BOX) == []


def test_mail_for_a_busy_campaign_waits_in_the_mailbox(dovecot: Dovecot, site: Path) -> None:
    append(dovecot, red("R-1 M T25\n", subject="[rift] orders"), red("R-1 H\n", subject="[vale] orders"))
    with campaign_lock(site / "rift"):
        log = run(site)
    assert any("rift: busy" in line for line in log.lines)
    assert [str(m["Subject"]) for m in mailbox(dovecot, ORDERS_BOX)] == ["[rift] orders"]
    assert Campaign(site / "vale").state["submissions"]["red"]
    run(site, 2)
    assert mailbox(dovecot, ORDERS_BOX) == [] and Campaign(site / "rift").state["submissions"]["red"]


def test_ticking_one_campaign_leaves_the_others_mail_alone(dovecot: Dovecot, site: Path) -> None:
    append(dovecot, red("R-1 M T25\n", subject="[rift] orders"), red("R-1 H\n", subject="[vale] orders"),
           order_mail("Eve <eve@pbem.test>", "hi", subject="[nowhere]"))
    run(site / "rift")
    assert sorted(str(m["Subject"]) for m in mailbox(dovecot, ORDERS_BOX)) == ["[nowhere]", "[vale] orders"]
    assert mailbox(dovecot, "eve@pbem.test") == []
    run(site, 2)
    assert mailbox(dovecot, ORDERS_BOX) == [] and len(mailbox(dovecot, "eve@pbem.test")) == 1


def test_a_shared_mailbox_that_is_down_holds_resolution(dovecot: Dovecot, site: Path) -> None:
    dovecot.stop()
    log = run(site, 24 * 30)                           # long past the deadline
    assert any("shared mailbox" in line and "waits for the next tick" in line for line in log.lines)
    assert Campaign(site / "rift").state["stage"]["turn"] == 1


def test_replies_to_one_address_are_throttled_and_the_gm_told_once(dovecot: Dovecot, site: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(intake, "REPLY_LIMIT", 3)
    append(dovecot, *(red(f"R-1 M T{24 + i % 2}\n", subject="[rift] orders") for i in range(6)))
    run(site)
    camp = Campaign(site / "rift")
    assert len(camp.state["journal"]) == 6 and camp.state["submissions"]["red"]   # every mail was read
    assert len(mailbox(dovecot, "alice@pbem.test")) == 3
    [alert] = mailbox(dovecot, "gm@pbem.test")
    assert "alice@pbem.test was sent 3 automatic replies within an hour" in text_of(alert)
    assert SECRETS["red"] not in text_of(alert)


def test_mail_for_a_campaign_with_its_own_mailbox_is_pointed_there(dovecot: Dovecot, site: Path) -> None:
    make_campaign(site, "solo", transport={"inbox": {"type": "maildir", "path": "inbox"}})
    append(dovecot, red("R-1 M T25\n", subject="[solo] orders", message_id="<for-solo@x>"))
    run(site)
    [reply] = mailbox(dovecot, "alice@pbem.test")
    text = " ".join(text_of(reply).split())
    assert "the campaign **solo** reads its orders at solo@pbem.localhost" in text
    assert not Campaign(site / "solo").state["journal"] and mailbox(dovecot, ORDERS_BOX) == []


def test_check_mail_logs_in_everywhere_and_changes_nothing(dovecot: Dovecot, site: Path,
                                                           capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.cli import main

    append(dovecot, red("R-1 M T25\n", subject="[rift] orders"))
    make_campaign(site, "solo", transport={"inbox": {"type": "maildir", "path": "inbox"}})
    assert main(["check-mail", "--root", str(site)]) == 0
    out = capsys.readouterr().out
    assert f"pbem.toml: inbox: IMAP {ORDERS_BOX}@127.0.0.1" in out and "1 new in 'INBOX'" in out
    assert "pbem.toml: outbox: SMTP" in out and "NOOP answered 250" in out
    assert "solo: inbox: maildir at inbox: 0 new" in out and out.count("outbox") == 1
    assert len(mailbox(dovecot, ORDERS_BOX)) == 1 and not Campaign(site / "rift").state["journal"]
    monkeypatch.setenv("PBEM_TEST_SMTP_PASSWORD", "wrong")
    assert main(["check-mail", "--root", str(site)]) == 1
    assert "pbem.toml: outbox: NOT OK" in capsys.readouterr().out


def test_the_postmaster_forgets_after_ninety_days(dovecot: Dovecot, site: Path) -> None:
    append(dovecot, order_mail("Eve <eve@pbem.test>", "hi", subject="[nowhere]", message_id="<old@x>"))
    run(site)
    append(dovecot, order_mail("Eve <eve@pbem.test>", "hi", subject="[nowhere]", message_id="<new@x>"))
    run(site, 24 * 91)
    state = read_toml(site / "postmaster" / "state.toml")
    assert message_ids(state["journal"]) == ["<new@x>"] and len(state["replies"]["eve@pbem.test"]) == 1
