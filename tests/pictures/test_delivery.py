"""Pictures in mail (PNG inline through cid:, SVG attached) and on forums (a file beside the
post in a folder thread, an upload on Discourse)."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from pbem.forum.discourse import Credentials, DiscourseForum
from pbem.forum.folder import FolderForum
from pbem.mail.compose import OutgoingMail, compose
from pbem.pictures import draw, png
from pbem.pictures.mail import attach_pictures, content_id
from pbem.pictures.picture import Picture
from tests.forum.conftest import API_KEY, BOT
from tests.forum.discourse_server import DiscourseServer
from tests.pictures import scenes
from tests.pictures.readback import png_size

NOW = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)


def picture() -> Picture:
    svg = draw(scenes.conquest_map(), scenes.conquest_scene())
    return Picture("coc-test-turn-002", svg, png(svg))


def report(attachments: tuple[tuple[str, str, bytes], ...] = ()) -> EmailMessage:
    mail = OutgoingMail("turn-2/report", ("anna@example.org",), "[coc-test] Round 2", "# Round 2\n\nAll quiet.",
                        "GM <coc@example.org>", attachments=attachments)
    return compose(mail, campaign="coc-test", domain="example.org", date=NOW)


def test_report_carries_the_png_inline_by_cid_and_the_svg_attached() -> None:
    pic = picture()
    msg = report()
    attach_pictures(msg, [pic], domain="example.org")
    sent = message_from_bytes(msg.as_bytes(), policy=policy.default)      # as the reader gets it
    assert sent.get_content_type() == "multipart/mixed"
    body, svg = list(sent.iter_parts())
    assert body.get_content_type() == "multipart/alternative"
    text, related = list(body.iter_parts())
    assert (text.get_content_type(), related.get_content_type()) == ("text/plain", "multipart/related")
    html, image = list(related.iter_parts())
    assert html.get_content_type() == "text/html" and image.get_content_type() == "image/png"
    cid = content_id(pic, "example.org")
    assert image["Content-ID"] == cid and image.get_content_disposition() == "inline"
    assert f'src="cid:{cid[1:-1]}"' in html.get_content()
    assert "All quiet." in html.get_content() and "All quiet." in text.get_content()
    assert png_size(image.get_content())[0] == 800
    assert svg.get_content_type() == "image/svg+xml" and svg.get_filename() == "coc-test-turn-002.svg"
    assert svg.get_content().startswith(b"<svg")
    assert "MIME-Version" not in image and sent["MIME-Version"] == "1.0"


def test_a_report_with_attachments_keeps_them_beside_the_svg() -> None:
    msg = report((("sheet.txt", "text/plain", b"sheet"),))
    attach_pictures(msg, [picture()])
    names = [p.get_filename() for p in msg.iter_attachments()]
    assert names == ["sheet.txt", "coc-test-turn-002.svg"]
    assert msg.get_body(("related",)) is not None


def test_folder_thread_keeps_the_picture_beside_the_post(tmp_path: Path) -> None:
    forum = FolderForum(tmp_path / "thread")
    pic = picture()
    ref = forum.picture(f"{pic.name}.png", pic.png, "Map of round 2")
    post = forum.publish("round-2", "Round 2", f"{ref}\n\nAll quiet.")
    assert ref == "![Map of round 2](coc-test-turn-002.png)"
    assert (tmp_path / "thread" / "coc-test-turn-002.png").read_bytes() == pic.png
    assert post.text.startswith(ref)
    assert [p.id for p in forum.fetch({})] == [post.id]         # the picture is not read as a post


def test_discourse_uploads_the_picture_and_the_post_shows_it(discourse: DiscourseServer) -> None:
    topic = discourse.state.new_topic("coc-test")
    forum = DiscourseForum(discourse.url, topic.id, Credentials(API_KEY, BOT))
    pic = picture()
    ref = forum.picture(f"{pic.name}.png", pic.png, "Map of round 2")
    forum.publish("round-2", "Round 2", f"{ref}\n\nAll quiet.")
    assert discourse.state.uploads == [("coc-test-turn-002.png", pic.png)]
    assert ref == "![Map of round 2](upload://u1.png)"
    assert topic.posts[-1]["raw"].startswith(ref)
    assert "POST /uploads.json" in discourse.state.requests
