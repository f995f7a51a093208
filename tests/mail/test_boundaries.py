"""pbem chooses each multipart's boundary itself ("=_" and random hex) instead of having the email
package search the whole mail for a boundary of its own: no line of a quoted-printable or base64
body can start with "--=_", so every part reads back exactly as it was written, however its text
imitates a boundary, to Python's parser and to a real IMAP server's. Under a part in another
encoding the package's own search stays."""

from __future__ import annotations

import dataclasses
import re
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from pbem.delivery.outqueue import WIRE
from pbem.mail.compose import InlineImage, _set_boundaries, compose
from tests.mail.conftest import login
from tests.mail.mailservers import Dovecot
from tests.mail.test_mail_compose import REPORT, WHEN

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
# Text that looks like the boundary lines and soft breaks of a mail, in both parts.
IMITATION = ("--=_\n\n--=_0123456789abcdef0123456789abcdef\n"
             "--=_0123456789abcdef0123456789abcdef--\n=_ =5F ==_ =\n" + "-" * 90 + "=_\n")


def full_report() -> EmailMessage:
    """A report with every kind of part: text, HTML, an inline picture and an attachment."""
    mail = dataclasses.replace(
        REPORT, markdown=REPORT.markdown + "\n" + IMITATION,
        inline_images=(InlineImage("map@rift.example.org", "image/png", PNG, "map.png", "Map", 800),),
        attachments=(("map.svg", "image/svg+xml", b'<svg xmlns="http://www.w3.org/2000/svg"/>\n--=_x\n'),))
    return compose(mail, campaign="rift", domain="pbem.localhost", date=WHEN)


def read_back(msg: EmailMessage) -> EmailMessage:
    back = message_from_bytes(msg.as_bytes(policy=WIRE), policy=policy.default)
    assert isinstance(back, EmailMessage)
    return back


def test_every_multipart_gets_a_boundary_of_its_own_before_it_is_written() -> None:
    boundaries = [part.get_boundary() for part in full_report().walk() if part.is_multipart()]
    assert len(boundaries) == 3 and len(set(boundaries)) == 3
    assert all(b is not None and re.fullmatch(r"=_[0-9a-f]{32}", b) for b in boundaries)


def test_every_part_reads_back_as_written_though_its_text_imitates_a_boundary() -> None:
    msg = full_report()
    back = read_back(msg)
    assert [p.get_content_type() for p in back.walk()] == [p.get_content_type() for p in msg.walk()]
    leaves = [(p.get_content_type(), p.get_content()) for p in back.walk() if not p.is_multipart()]
    plain = dict(leaves)["text/plain"]
    assert IMITATION.strip() in plain.replace("\r\n", "\n")
    assert dict(leaves)["image/png"] == PNG
    assert dict(leaves)["image/svg+xml"].endswith(b"--=_x\n")
    assert not back.defects and all(not p.defects for p in back.walk())


def test_no_line_of_a_written_body_starts_like_a_boundary_but_the_boundaries() -> None:
    msg = full_report()
    boundaries = {part.get_boundary() for part in msg.walk() if part.is_multipart()}
    lines = msg.as_bytes(policy=WIRE).decode("ascii").split("\r\n")
    assert [line for line in lines if line.startswith("--=_")
            and line.removeprefix("--").removesuffix("--") not in boundaries] == []


def leaf_types(structure: Any) -> list[str]:
    """The content types of the leaves of an IMAP BODYSTRUCTURE, in order."""
    if structure.is_multipart:
        return [t for part in structure[0] for t in leaf_types(part)]
    return [f"{structure[0].decode()}/{structure[1].decode()}".lower()]


def test_an_imap_server_reads_the_same_parts_as_pbem_wrote(dovecot: Dovecot) -> None:
    """Dovecot, as a player's mail client would, parses the mail's structure from its boundaries."""
    dovecot.deliver_lmtp("orders@pbem.test", "alice@pbem.test", full_report().as_bytes(policy=WIRE))
    client = login(dovecot, "alice@pbem.test")
    try:
        client.select_folder("INBOX", readonly=True)
        (uid,) = client.search("ALL")
        structure = client.fetch([uid], ["BODYSTRUCTURE"])[uid][b"BODYSTRUCTURE"]
    finally:
        client.logout()
    assert leaf_types(structure) == ["text/plain", "text/html", "image/png", "image/svg+xml"]


def test_a_part_in_another_encoding_leaves_the_boundary_to_the_email_package() -> None:
    msg = EmailMessage()
    msg.set_content("--=_ plain 8bit text\n", cte="8bit")
    msg.add_alternative("<p>x</p>", subtype="html", cte="quoted-printable")
    _set_boundaries(msg)
    assert msg.get_boundary() is None
    assert read_back(msg).get_body(("plain",)) is not None
