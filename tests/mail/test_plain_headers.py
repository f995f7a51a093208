"""Header values that fit one line of printable ASCII are written as they are, byte for byte as
the email package writes them; anything else (other characters, a long line, text that looks
like an encoded word) is still encoded and folded by the package."""

from __future__ import annotations

from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, formataddr

import pytest

from pbem.mail.headers import WRITING, PlainHeader, plain

WIRE = policy.SMTP
SAME = [
    ("From", formataddr(("Daemon Rift: rift", "rift@example.org"))),
    ("From", formataddr(('Ben "the Bold" Brown', "ben@example.org"))),
    ("To", "Ben Brown <ben@example.org>, cara@example.org"),
    ("Subject", "Re: [rift-demo] Orders for turn 3 (2 errors)"),
    ("Date", format_datetime(datetime(2026, 11, 29, 9, 0, tzinfo=UTC))),
    ("List-Id", "<rift-demo.example.org>"),
    ("X-Pbem-Key", "turn-3/report/red"),
]
PACKAGE = [
    ("Subject", "Zoë's orders"),
    ("Subject", "=?utf-8?q?hi?= there"),
    ("Subject", "Re: " + "a very long subject line " * 4),
    ("To", "Zoë <zoe@example.org>"),
]


def written(name: str, value: str) -> bytes:
    msg = EmailMessage(policy=WRITING)
    msg[name] = value
    return msg.as_bytes(policy=WIRE).split(b"\r\n\r\n")[0]


@pytest.mark.parametrize(("name", "value"), SAME)
def test_a_plain_value_is_written_as_the_email_package_writes_it(name: str, value: str) -> None:
    header = plain(name, value)
    assert isinstance(header, PlainHeader)
    assert written(name, header) == written(name, value) == f"{name}: {value}".encode()


@pytest.mark.parametrize(("name", "value"), PACKAGE)
def test_any_other_value_is_left_to_the_email_package(name: str, value: str) -> None:
    header = plain(name, value)
    assert not isinstance(header, PlainHeader)
    assert written(name, header) == written(name, value)
