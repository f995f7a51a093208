"""The demos with the rule systems' scene hooks wired: every turn report mail shows the map inline
(multipart/related, the HTML naming the PNG by cid:), once, with no SVG attached unless the
campaign asks for it (`[reports] attach_svg`), and each public
report posted to the folder thread shows the picture kept beside it."""

from __future__ import annotations

import mailbox
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem import cli
from tests.pictures.readback import png_size

DEMOS = {"daemon_rift": "rift-demo", "diplomacy": "dip-demo"}


@pytest.fixture(scope="module", params=list(DEMOS))
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    system = request.param
    root = tmp_path_factory.mktemp(system) / "demo"
    assert cli.main(["demo", "--ruleset", system, str(root)]) == 0
    yield root, DEMOS[system]


def sent(root: Path) -> list[EmailMessage]:
    box = mailbox.Maildir(root / "outbox", create=False)
    return [message_from_bytes(bytes(m), policy=policy.default) for m in box]  # type: ignore[misc]


def test_every_turn_report_shows_the_map_inline(demo: tuple[Path, str]) -> None:
    root, name = demo
    reports = [m for m in sent(root) if m.get_body(("related",)) is not None]
    assert reports, "no report carries a picture"
    for msg in reports:
        related = msg.get_body(("related",))
        assert related is not None
        html, image = list(related.iter_parts())
        cid = image["Content-ID"].strip("<>")
        assert image.get_content_type() == "image/png" and f'src="cid:{cid}"' in html.get_content()
        assert png_size(image.get_content())[0] == 800
        assert f'<a href="cid:{cid}">' in html.get_content() and image.get_filename().startswith(f"{name}-turn-")
        assert [p.get_content_type() for p in msg.walk()].count("image/png") == 1
        assert [p for p in msg.iter_attachments() if p.get_content_type() == "image/svg+xml"] == []
    subjects = {m["Subject"] for m in reports}
    assert any("report" in s.lower() or "results" in s.lower() or "movement" in s.lower() for s in subjects)


def test_acknowledgements_carry_no_picture(demo: tuple[Path, str]) -> None:
    root, _ = demo
    acks = [m for m in sent(root) if "orders received" in str(m["Subject"]).lower()
            or str(m["Subject"]).lower().startswith("re:")]
    assert all(m.get_body(("related",)) is None for m in acks)


def test_forum_posts_show_the_picture_beside_them(demo: tuple[Path, str]) -> None:
    root, name = demo
    thread = root / "forum" / name
    pictures = sorted(p.name for p in thread.glob("*.png"))
    assert pictures
    posts = "\n".join(p.read_text() for p in thread.glob("*.md"))
    for picture in pictures:
        assert f"]({picture})" in posts


def test_each_reader_gets_a_stages_picture_once(demo: tuple[Path, str]) -> None:
    """A stage's reports (public report, private report, end of turn) show its map in one mail each reader gets."""
    root, _ = demo
    shown: dict[tuple[str, str], int] = {}
    for msg in sent(root):
        stage = "/".join(str(msg["X-Pbem-Key"]).strip().split("/")[:3])
        pngs = [p for p in msg.walk() if p.get_content_type() == "image/png"]
        shown[(str(msg["To"]), stage)] = shown.get((str(msg["To"]), stage), 0) + len(pngs)
    assert max(shown.values()) == 1
    assert [k for k, n in shown.items() if n > 1] == []
