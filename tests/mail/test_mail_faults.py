"""Faults on real servers. After recovery every order is stored once, every player has exactly
one copy of each mail, and nothing is left unsent."""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

from pbem.delivery.outqueue import sent_names
from pbem.intake.journal import message_ids
from pbem.state.campaign import Campaign
from pbem.state.store import read_toml
from pbem.tick.engine import tick
from pbem.tick.faults import Faults
from pbem.tick.log import TickLog
from tests.mail.conftest import (
    ORDERS_BOX,
    Killer,
    Relay,
    append,
    blue,
    flags,
    later,
    mailbox,
    make_campaign,
    red,
)
from tests.mail.mailservers import Dovecot


def run(camp: Campaign, hours: float = 1, faults: Faults | None = None) -> tuple[Campaign, TickLog]:
    log = tick(camp.folder.parent, later(hours), faults)
    return Campaign(camp.folder), log


def red_orders(count: int) -> list[bytes]:
    """Resubmissions from red alone: each is stored and acknowledged, the turn stays open."""
    return [red(f"R-1 M T{25 if i % 2 else 24}\n", message_id=f"<red-{i}@players>") for i in range(count)]


def queue(camp: Campaign) -> list[Path]:
    return list((camp.folder / "outbox" / "queue").glob("*.eml"))


def sent(camp: Campaign) -> set[str]:
    return sent_names(camp.folder)


def assert_each_mail_once(server: Dovecot, camp: Campaign) -> None:
    """Nothing queued, and every mail pbem sent is in its recipient's mailbox exactly once."""
    assert queue(camp) == []
    ids = collections.Counter(str(m["Message-ID"]) for user in ("alice", "bob", "gm")
                              for m in mailbox(server, f"{user}@pbem.test"))
    assert ids and max(ids.values()) == 1
    assert sum(ids.values()) == len(sent(camp))


def acks_to(server: Dovecot, user: str) -> collections.Counter[str]:
    return collections.Counter(str(m["In-Reply-To"]) for m in mailbox(server, user) if m["In-Reply-To"])


def test_imap_killed_mid_fetch_comes_back_within_the_tick(dovecot: Dovecot, campaign: Campaign) -> None:
    append(dovecot, *red_orders(5))
    killer = Killer(dovecot, "handled", at=3, restart=True)
    camp, _ = run(campaign, faults=Faults(killer))
    assert killer.calls == 5 and len(camp.state["journal"]) == 5
    assert acks_to(dovecot, "alice@pbem.test") == {f"<red-{i}@players>": 1 for i in range(5)}
    assert mailbox(dovecot, ORDERS_BOX) == [] and len(mailbox(dovecot, ORDERS_BOX, "Processed")) == 5
    assert_each_mail_once(dovecot, camp)


def test_imap_killed_mid_fetch_and_down_until_the_next_tick(dovecot: Dovecot, campaign: Campaign) -> None:
    append(dovecot, *red_orders(5))
    camp, log = run(campaign, faults=Faults(Killer(dovecot, "handled", at=3)))
    assert any("inbox unavailable" in line for line in log.lines)
    assert any("nothing is resolved" in line for line in log.lines)
    assert 3 <= len(camp.state["journal"]) < 5 and queue(camp)      # acks wait: the relay cannot reach LMTP
    dovecot.start()
    camp, log = run(camp, 2)
    assert sorted(message_ids(camp.state["journal"])) == sorted(f"<red-{i}@players>" for i in range(5))
    assert list(camp.state["journal"].values()).count("duplicate") == 0   # a duplicate is not journalled again
    assert acks_to(dovecot, "alice@pbem.test") == {f"<red-{i}@players>": 1 for i in range(5)}
    assert mailbox(dovecot, ORDERS_BOX) == []
    assert_each_mail_once(dovecot, camp)


def test_smtp_down_for_a_tick_and_back_the_next(dovecot: Dovecot, relay: Relay, campaign: Campaign) -> None:
    relay.stop()
    append(dovecot, red("R-1 M T25\n"), blue("B-1 M T27\n"))
    camp, log = run(campaign)
    assert camp.state["stage"]["turn"] == 2                        # resolution does not wait for SMTP
    assert any("wait for the next tick" in line for line in log.lines)
    waiting = len(queue(camp))
    assert waiting > 4 and not sent(camp) and mailbox(dovecot, "alice@pbem.test") == []
    relay.start()
    camp, log = run(camp, 2)
    assert len(sent(camp)) == waiting and relay.handler.accepted == waiting
    assert_each_mail_once(dovecot, camp)


def test_a_crash_after_half_the_reports_sends_each_mail_once(dovecot: Dovecot, relay: Relay,
                                                             campaign: Campaign) -> None:
    append(dovecot, red("R-1 M T25\n"), blue("B-1 M T27\n"))

    sends: list[str] = []

    def crash_at_the_sixth(point: str) -> None:
        if point == "sent":
            sends.append(point)
            if len(sends) == 6:
                raise RuntimeError("power cut")

    with pytest.raises(RuntimeError, match="power cut"):
        run(campaign, faults=Faults(crash_at_the_sixth))
    camp = Campaign(campaign.folder)
    assert len(sent(camp)) == 5 and queue(camp)                      # the sixth went out but was not filed
    journal = (camp.folder / "outbox" / "smtp-journal.txt").read_text().splitlines()
    assert len(journal) == 6
    camp, _ = run(camp, 2)
    assert relay.handler.accepted == len(sent(camp))                 # the sixth was not handed over again
    assert_each_mail_once(dovecot, camp)


@pytest.mark.parametrize("processed", ["Processed", ""])
def test_a_uidvalidity_reset_does_not_process_old_mail_again(dovecot: Dovecot, relay: Relay, tmp_path: Path,
                                                             passwords: None, processed: str) -> None:
    from tests.mail.conftest import imap_spec, smtp_spec

    camp = make_campaign(tmp_path / "campaigns", transport={"inbox": imap_spec(dovecot, processed=processed),
                                                           "outbox": smtp_spec(dovecot, relay)})
    append(dovecot, *red_orders(3))
    camp, _ = run(camp)
    before = (camp.state["journal"], camp.state["submissions"], len(mailbox(dovecot, "alice@pbem.test")))
    if processed:   # the mailbox is restored from a backup: old mail is back in INBOX, with new UIDs
        assert dovecot.doveadm("move", "-u", ORDERS_BOX, "INBOX", "mailbox", processed, "ALL").returncode == 0
    assert dovecot.doveadm("flags", "remove", "-u", ORDERS_BOX, "$PbemDone \\Seen", "mailbox", "INBOX",
                           "ALL").returncode == 0
    assert dovecot.doveadm("mailbox", "update", "-u", ORDERS_BOX, "--uid-validity", "4242", "INBOX").returncode == 0
    camp, log = run(camp, 2)
    assert any("new UIDVALIDITY" in line and "-> 4242" in line for line in log.lines)
    assert (camp.state["journal"], camp.state["submissions"]) == before[:2]
    assert len(mailbox(dovecot, "alice@pbem.test")) == before[2]     # no second acknowledgement
    assert read_toml(camp.folder / "imap-state.toml")
    if processed:
        assert mailbox(dovecot, ORDERS_BOX) == []
    else:
        assert all(b"$PbemDone" in f for f in flags(dovecot))
    assert_each_mail_once(dovecot, camp)


def test_the_same_message_delivered_twice_is_stored_and_answered_once(dovecot: Dovecot, campaign: Campaign) -> None:
    mail = red("R-1 M T25\n", message_id="<twice@players>")
    append(dovecot, mail, mail)
    camp, _ = run(campaign)
    assert message_ids(camp.state["journal"]) == ["<twice@players>"]
    assert acks_to(dovecot, "alice@pbem.test") == {"<twice@players>": 1}
    assert mailbox(dovecot, ORDERS_BOX) == [] and len(mailbox(dovecot, ORDERS_BOX, "Processed")) == 2
    assert_each_mail_once(dovecot, camp)


def test_a_mail_without_message_id_delivered_twice_by_lmtp_is_answered_once(dovecot: Dovecot,
                                                                             campaign: Campaign) -> None:
    raw = red("R-1 M T25\n").replace(b"Message-ID:", b"X-Old-ID:")
    for _ in range(2):   # two deliveries: Dovecot adds its own trace headers to each copy
        dovecot.deliver_lmtp("alice@pbem.test", ORDERS_BOX, raw)
    camp, _ = run(campaign)
    assert len(camp.state["journal"]) == 1
    assert len(mailbox(dovecot, "alice@pbem.test")) == 1


def test_a_crash_before_the_batch_is_stored_loses_nothing_and_answers_once(dovecot: Dovecot,
                                                                          campaign: Campaign) -> None:
    append(dovecot, *red_orders(4))

    def crash_on_the_third(point: str, handled: list[str] = []) -> None:  # noqa: B006  (counts calls)
        if point == "handled":
            handled.append(point)
            if len(handled) == 3:
                raise RuntimeError("power cut")

    with pytest.raises(RuntimeError, match="power cut"):
        run(campaign, faults=Faults(crash_on_the_third))
    assert "journal" not in Campaign(campaign.folder).state or not Campaign(campaign.folder).state["journal"]
    assert len(mailbox(dovecot, ORDERS_BOX)) == 4                    # nothing marked done before it was stored
    camp, _ = run(campaign, 2)
    assert sorted(message_ids(camp.state["journal"])) == sorted(f"<red-{i}@players>" for i in range(4))
    assert acks_to(dovecot, "alice@pbem.test") == {f"<red-{i}@players>": 1 for i in range(4)}
    assert mailbox(dovecot, ORDERS_BOX) == []
    assert_each_mail_once(dovecot, camp)
