"""A reply to an Outlook mail keeps its long In-Reply-To id verbatim through the queue and SMTP."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from pbem.delivery.outqueue import deliver, enqueue
from pbem.mail.compose import OutgoingMail, compose
from pbem.mail.outbox import open_transport
from tests.mail.conftest import Relay, mailbox, smtp_spec
from tests.mail.mailservers import Dovecot

pytestmark = [pytest.mark.usefixtures("passwords"), pytest.mark.mailserver]
OUTLOOK_ID = "<" + "DB9PR07MB1234ABCDEF0123456789" * 2 + "@DB9PR07MB1234.eurprd07.prod.outlook.com>"


def test_a_long_in_reply_to_reaches_the_player_verbatim(dovecot: Dovecot, relay: Relay, tmp_path: Path) -> None:
    reply = OutgoingMail(key="reply/outlook/ack", to=("alice@pbem.test",), subject="Re: orders", markdown="ok",
                         sender="Rift <rift@pbem.test>", in_reply_to=OUTLOOK_ID, auto_reply=True)
    enqueue(tmp_path, compose(reply, campaign="rift", domain="pbem.test", date=datetime(2026, 11, 25, tzinfo=UTC)))
    sent, problems = deliver(tmp_path, open_transport(smtp_spec(dovecot, relay), tmp_path))
    assert (sent, problems) == (1, [])
    [received] = mailbox(dovecot, "alice@pbem.test")
    assert received["In-Reply-To"] == OUTLOOK_ID and received["References"] == OUTLOOK_ID
