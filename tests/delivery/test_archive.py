"""The campaign's chronicle as a static site (`pbem site`, pbem/delivery/archive.py): pages built
from history/, player text escaped, and every page shown by Debian's headless Chromium with
every map picture loaded, every link resolving and no console error."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.state.campaign import Campaign, SettingsError
from tests.support.browser import screenshot, show
from tests.support.engine_helpers import dr_campaign, put, run

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TITLE = "Rift <script>alert('pwned')</script> & Co"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Daemon Rift campaign whose turn 1 was played by mail, and its site."""
    root = tmp_path_factory.mktemp("archive")
    camp = dr_campaign(root)
    settings = (camp.folder / "campaign.toml").read_text(encoding="utf-8")
    settings = settings.replace('title = "Daemon Rift: rift"', f'title = "{TITLE}"')
    (camp.folder / "campaign.toml").write_text(settings, encoding="utf-8")
    put(camp, "red", "PLAYER red RRRR-TEST-0000-0000-0001\nR-1 H\n")
    put(camp, "blue", "PLAYER blue BBBB-TEST-0000-0000-0002\nB-1 H\n", sender="Bob <bob@test.localhost>")
    run(camp)
    assert Campaign(camp.folder).settings.title == TITLE
    out = root / "site"
    assert main(["site", "rift", str(out), "--root", str(camp.folder.parent)]) == 0
    return out


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.refs += [value or "" for name, value in attrs if name in ("href", "src")]


def refs(page: Path) -> list[str]:
    parser = _Refs()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.refs


def test_the_site_has_an_index_a_page_per_turn_pictures_and_charts(site: Path) -> None:
    assert (site / "index.html").exists() and (site / "turn-001.html").exists()
    assert sorted(p.name for p in (site / "charts").iterdir()) == ["held.svg", "pieces.svg"]
    turn = (site / "turn-001.html").read_text(encoding="utf-8")
    assert "pictures/rift-turn-001-orders.png" in turn and "Dice" in turn and "Commitment published" in turn
    assert "movement" in turn           # the turn's public report is on its page


def test_player_and_game_master_text_is_escaped(site: Path) -> None:
    for page in site.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "<script" not in text and "Rift &lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt; &amp; Co" in text


def test_every_link_and_picture_of_every_page_is_a_file_of_the_site(site: Path) -> None:
    for page in site.glob("*.html"):
        for ref in refs(page):
            assert (site / ref).is_file(), f"{page.name} links to {ref}, which the site lacks"


@pytest.mark.browser
def test_chromium_shows_every_page_with_its_pictures_and_no_console_error(site: Path) -> None:
    for page in sorted(site.glob("*.html")):
        shown = show(page)
        assert shown.console == [], f"{page.name}: {shown.console}"
        assert shown.images and all(width > 0 for _, width in shown.images), f"{page.name}: {shown.images}"
        assert all((site / link).is_file() for link in shown.links)
    kept = screenshot(site / "index.html", ARTIFACTS / "archive-index.png")
    assert kept.stat().st_size > 10_000


def test_archive_settings_write_the_site_and_bbcode_as_each_turn_ends(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    with (camp.folder / "campaign.toml").open("a", encoding="utf-8") as settings:
        settings.write('\n[archive]\npath = "site"\nbbcode = true\npicture_url = "https://club.example/rift"\n')
    put(camp, "red", "PLAYER red RRRR-TEST-0000-0000-0001\nR-1 H\n")
    put(camp, "blue", "PLAYER blue BBBB-TEST-0000-0000-0002\nB-1 H\n", sender="Bob <bob@test.localhost>")
    run(camp)
    assert (camp.folder / "site" / "index.html").exists() and (camp.folder / "site" / "turn-001.html").exists()
    bbcode = sorted(camp.history(1).glob("*.bbcode"))
    assert bbcode and bbcode[0].read_text(encoding="utf-8").startswith(
        "[img]https://club.example/rift/rift-turn-001-orders.png[/img]")


def test_an_unknown_archive_key_is_a_settings_problem_naming_the_known_ones(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    with (camp.folder / "campaign.toml").open("a", encoding="utf-8") as settings:
        settings.write('\n[archive]\npth = "site"\n')
    with pytest.raises(SettingsError, match=r"archive\.pth: .*a known key: bbcode, bbcode_tables, path, picture_url"):
        Campaign(camp.folder)
