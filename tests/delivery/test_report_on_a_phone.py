"""A report mail reads on a phone: each rule system's demo is played, its longest turn report
with the map (and its longest other mail, an acknowledgement or receipt) is taken from the
outbox, its HTML part written to a file with the cid: picture resolved to the attached PNG as a
file beside it, and Debian's headless Chromium shows it 390 and 800 pixels wide: nothing runs
off the screen sideways (the page scrolls no wider than the window) and the map is shown and
links to its full size. The screenshots are kept in test-artifacts/phone/ to look at."""

from __future__ import annotations

import mailbox
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem import cli
from pbem.commands.demo import DEMOS
from tests.support.browser import screenshot, show

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "phone"
SYSTEMS = tuple(sorted(DEMOS))
"""Every rule system with a demo."""
WIDTHS = (390, 800)


def outbox(root: Path) -> list[EmailMessage]:
    box = mailbox.Maildir(root / "outbox", create=False)
    return [message_from_bytes(bytes(m), policy=policy.default) for m in box]  # type: ignore[misc]


def html_of(msg: EmailMessage) -> str:
    part = msg.get_body(("html",))
    assert part is not None, msg["Subject"]
    return str(part.get_content())


def as_page(msg: EmailMessage, folder: Path, name: str) -> Path:
    """The HTML part as `name`.html, each cid: picture it shows written beside it as a file."""
    folder.mkdir(parents=True, exist_ok=True)
    html = html_of(msg)
    for part in msg.walk():
        cid = str(part.get("Content-ID", "")).strip("<>")
        if cid and part.get_content_maintype() == "image":
            file = f"{name}-{part.get_filename() or 'picture.png'}"
            (folder / file).write_bytes(part.get_payload(decode=True))  # type: ignore[arg-type]
            html = html.replace(f"cid:{cid}", file)
    page = folder / f"{name}.html"
    page.write_text(html, encoding="utf-8")
    return page


@pytest.fixture(scope="module", params=SYSTEMS)
def demo_mail(request: pytest.FixtureRequest,
              tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[EmailMessage]]:
    system = str(request.param)
    root = tmp_path_factory.mktemp(system) / "demo"
    assert cli.main(["demo", "--ruleset", system, str(root)]) == 0
    return system, outbox(root)


@pytest.mark.browser
def test_a_turn_report_with_its_map_fits_a_phone_and_a_desktop_window(
        demo_mail: tuple[str, list[EmailMessage]], tmp_path: Path) -> None:
    system, mails = demo_mail
    reports = [m for m in mails if m.get_body(("related",)) is not None]
    assert reports, f"{system}: no report mail shows a map"
    report = max(reports, key=lambda m: len(html_of(m)))
    page = as_page(report, tmp_path, f"{system}-report")
    for width in WIDTHS:
        shown = show(page, width)
        assert shown.scroll_width <= shown.inner_width == width, f"{system} at {width}: {shown}"
        assert len(shown.images) == 1 and shown.images[0][1] == 800, shown.images
        assert shown.images[0][0] in shown.links          # a tap opens the map at full size
        kept = screenshot(page, ARTIFACTS / f"{system}-report-{width}.png", width=width, height=2400)
        assert kept.stat().st_size > 10_000


@pytest.mark.browser
def test_the_longest_acknowledgement_or_receipt_fits_a_phone(
        demo_mail: tuple[str, list[EmailMessage]], tmp_path: Path) -> None:
    system, mails = demo_mail
    others = [m for m in mails if m.get_body(("related",)) is None]
    longest = max(others, key=lambda m: len(html_of(m)))
    page = as_page(longest, tmp_path, f"{system}-longest")
    shown = show(page, 390)
    assert shown.scroll_width <= shown.inner_width == 390, f"{system}: {longest['Subject']}: {shown}"
    screenshot(page, ARTIFACTS / f"{system}-longest-390.png", width=390, height=2400)
