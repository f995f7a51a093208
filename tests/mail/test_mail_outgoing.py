"""The one builder of outgoing mail (pbem/mail/compose.py): a campaign's and the postmaster's
letterheads, and pictures shown inside the HTML (multipart/related) beside attachments."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest

from pbem.mail.compose import InlineImage, Letterhead, OutgoingMail, compose, message_id_for

WHEN = datetime(2024, 6, 3, 10, 0, tzinfo=UTC)
PNG = b"\x89PNG\r\n\x1a\nmap"
MAP = InlineImage("map-turn-3@rift.pbem.test", "image/png", PNG, "turn-3.png")


@dataclass(frozen=True)
class Settings:
    name: str = "rift"
    title: str = "Daemon Rift: the valley"
    address: str = "rift@pbem.test"
    domain: str = "pbem.test"


def boundless(msg: EmailMessage) -> bytes:
    """The bytes without the MIME boundaries, which are drawn at random."""
    return re.sub(rb"=_[0-9a-f]{32}", b"BOUNDARY", msg.as_bytes())


def reread(msg: EmailMessage) -> EmailMessage:
    parsed = message_from_bytes(msg.as_bytes(), policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def test_a_campaign_letterhead_writes_what_the_engine_wrote_by_hand() -> None:
    by_hand = OutgoingMail(key="turn-1/report/red", to=("red@pbem.test",), subject="[rift] Turn 1", markdown="# Hi\n",
                           sender="Daemon Rift: the valley <rift@pbem.test>", list_id="rift.pbem.test",
                           in_reply_to="<a@b>", references=("<z@b>",), auto_reply=True)
    written = Letterhead.of(Settings()).write("turn-1/report/red", ("red@pbem.test",), "[rift] Turn 1", "# Hi\n",
                                              WHEN, in_reply_to="<a@b>", references=("<z@b>",), auto_reply=True)
    assert boundless(written) == boundless(compose(by_hand, campaign="rift", domain="pbem.test", date=WHEN))
    assert written["From"] == '"Daemon Rift: the valley" <rift@pbem.test>'
    assert written["List-Id"] == "<rift.pbem.test>"
    assert written["Message-ID"] == message_id_for("rift", "turn-1/report/red", "pbem.test")


def test_the_postmaster_letterhead_has_its_own_ids_and_no_list() -> None:
    head = Letterhead.postmaster("orders@pbem.test")
    assert head == Letterhead("postmaster", "pbem.test", "pbem <orders@pbem.test>")
    msg = head.write("unrouted/x", ("eve@example.org",), "Re: hello", "No campaign here.", WHEN)
    assert msg["Message-ID"] == message_id_for("postmaster", "unrouted/x", "pbem.test")
    assert msg["List-Id"] is None and msg["Auto-Submitted"] == "auto-generated"
    assert Letterhead.postmaster("nobody").domain == "localhost"


def test_inline_images_put_the_html_and_its_pictures_in_multipart_related() -> None:
    text = f"# Turn 3\n\n![The valley after turn 3]({MAP.src})\n"
    msg = reread(Letterhead.of(Settings()).write("turn-3/report/red", ("red@pbem.test",), "[rift] Turn 3", text,
                                                 WHEN, inline_images=(MAP,)))
    assert msg.get_content_type() == "multipart/alternative"
    plain, related = msg.iter_parts()
    assert (plain.get_content_type(), related.get_content_type()) == ("text/plain", "multipart/related")
    html, picture = related.iter_parts()
    assert html.get_content_type() == "text/html"
    assert '<img alt="The valley after turn 3" src="cid:map-turn-3@rift.pbem.test"' in str(html.get_content())
    assert picture["Content-ID"] == "<map-turn-3@rift.pbem.test>"
    assert picture.get_content_type() == "image/png" and picture.get_content() == PNG
    assert picture.get_content_disposition() == "inline" and picture.get_filename() == "turn-3.png"
    assert [part["MIME-Version"] for part in msg.walk()] == ["1.0", None, None, None, None]


def test_inline_images_and_attachments_together() -> None:
    msg = reread(Letterhead.of(Settings()).write("k", ("red@pbem.test",), "s", f"![map]({MAP.src})", WHEN,
                                                 inline_images=(MAP,),
                                                 attachments=(("orders.txt", "text/plain", b"R-1 M T5"),)))
    assert [part.get_content_type() for part in msg.walk()] == [
        "multipart/mixed", "multipart/alternative", "text/plain", "multipart/related", "text/html", "image/png",
        "text/plain"]
    [attachment] = msg.iter_attachments()
    assert msg.get_body(("html",)) is not None and attachment.get_filename() == "orders.txt"


def test_without_pictures_the_mail_is_the_plain_alternative_as_before() -> None:
    plain = Letterhead.of(Settings()).write("k", ("red@pbem.test",), "s", "text", WHEN)
    assert [part.get_content_type() for part in plain.walk()] == [
        "multipart/alternative", "text/plain", "text/html"]


@pytest.mark.parametrize(("image", "problem"), [
    (InlineImage("x@y", "application/pdf", b"%PDF"), "is not an image type"),
    (InlineImage("<x@y>", "image/png", PNG), "printable ASCII"),
    (InlineImage("x y", "image/png", PNG), "printable ASCII"),
])
def test_an_inline_image_pbem_cannot_show_is_refused_in_one_line(image: InlineImage, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        Letterhead.of(Settings()).write("k", ("red@pbem.test",), "s", "text", WHEN, inline_images=(image,))
