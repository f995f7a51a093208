"""Pictures in mail (PNG inline through cid:, SVG attached) and on forums (a file beside the
post in a folder thread, an upload on Discourse)."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from pbem.forum.discourse import Credentials, DiscourseForum
from pbem.forum.folder import FolderForum
from pbem.mail.compose import Letterhead
from pbem.pictures import draw, png
from pbem.pictures.mail import attachments, content_id, inline_images
from pbem.pictures.picture import Picture
from tests.forum.conftest import API_KEY, BOT
from tests.forum.discourse_server import DiscourseServer
from tests.pictures import scenes
from tests.pictures.readback import png_size

NOW = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)


def picture() -> Picture:
    svg = draw(scenes.conquest_map(), scenes.conquest_scene())
    return Picture("coc-test-turn-002", svg, png(svg))


def report(pictures: tuple[Picture, ...], extra: tuple[tuple[str, str, bytes], ...] = ()) -> EmailMessage:
    """A report as the engine writes it: through the one mail builder, pictures and all."""
    head = Letterhead("coc-test", "example.org", "GM <coc@example.org>")
    msg = head.write("turn-2/report", ("anna@example.org",), "[coc-test] Round 2", "# Round 2\n\nAll quiet.", NOW,
                     inline_images=inline_images(pictures, "example.org"),
                     attachments=(*extra, *attachments(pictures)))
    return message_from_bytes(msg.as_bytes(), policy=policy.default)      # as the reader gets it


def test_report_carries_the_png_inline_by_cid_and_the_svg_attached() -> None:
    pic = picture()
    sent = report((pic,))
    assert sent.get_content_type() == "multipart/mixed"
    body, svg = list(sent.iter_parts())
    assert body.get_content_type() == "multipart/alternative"
    text, related = list(body.iter_parts())
    assert (text.get_content_type(), related.get_content_type()) == ("text/plain", "multipart/related")
    html, image = list(related.iter_parts())
    assert html.get_content_type() == "text/html" and image.get_content_type() == "image/png"
    cid = content_id(pic, "example.org")
    assert image["Content-ID"] == f"<{cid}>" and image.get_content_disposition() == "inline"
    assert image.get_content() == pic.png and png_size(image.get_content())[0] == 800
    shown = html.get_content()
    assert f'<img src="cid:{cid}" alt="Map: coc-test-turn-002" width="800"' in shown
    assert shown.index("<img") < shown.index("All quiet.")                 # the map first, then the report
    assert "All quiet." in text.get_content() and "cid:" not in text.get_content()
    assert svg.get_content_type() == "image/svg+xml" and svg.get_filename() == "coc-test-turn-002.svg"
    assert svg.get_content_disposition() == "attachment" and svg.get_content().startswith(b"<svg")
    assert "MIME-Version" not in image and sent["MIME-Version"] == "1.0"


def test_a_report_with_attachments_keeps_them_beside_the_svg() -> None:
    sent = report((picture(),), (("sheet.txt", "text/plain", b"sheet"),))
    names = [p.get_filename() for p in sent.iter_attachments()]
    assert names == ["sheet.txt", "coc-test-turn-002.svg"]
    assert sent.get_body(("related",)) is not None


def test_a_picture_drawn_without_its_png_is_only_attached() -> None:
    pic = picture()
    sent = report((Picture(pic.name, pic.svg),))
    assert [p.get_content_type() for p in sent.walk()] == [
        "multipart/mixed", "multipart/alternative", "text/plain", "text/html", "image/svg+xml"]
    assert "<img" not in sent.get_body(("html",)).get_content()           # type: ignore[union-attr]


def test_a_report_without_pictures_is_the_plain_alternative() -> None:
    assert [p.get_content_type() for p in report(()).walk()] == ["multipart/alternative", "text/plain", "text/html"]


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
