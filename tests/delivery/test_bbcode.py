"""BBCode for boards (pbem/delivery/bbcode.py, `pbem export --bbcode`), checked by structure on
one public report of each rule system's demo, as the pinned golden mails hold them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.delivery.bbcode import to_bbcode
from tests.support.engine_helpers import dr_campaign, put, run

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
REPORTS = {
    "daemon_rift": "daemon_rift/05-deadline/turn-2_g4_orders_movement_gm.md",
    "diplomacy": "diplomacy/03-fall-1901/turn-2_g2_movement_report_gm.md",
    "conquest": "conquest/05-round1-conquest/turn-1_g5_conquest_round_gm.md",
    "mighty_kingdoms": "mighty_kingdoms/05-battle/turn-2_g6_battle_battle-Y1M2-B1_gm.md",
}
PAIRED = ("b", "i", "list", "code", "quote", "url", "size", "font", "table", "tr", "td")


def report(system: str) -> str:
    """The mail's text part: everything after the header lines of the pinned file."""
    return (GOLDEN / REPORTS[system]).read_text(encoding="utf-8").split("\n\n", 1)[1]


def table_rows(markdown: str) -> list[list[str]]:
    rows = [line.strip().strip("|").split("|") for line in markdown.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row] for row in rows if not set("".join(row)) <= set("-: ")]


@pytest.mark.parametrize("system", sorted(REPORTS))
def test_every_tag_opened_is_closed_in_order(system: str) -> None:
    stack: list[str] = []
    for closing, name in re.findall(r"\[(/?)(\w+)(?:=[^\]]*)?\]", to_bbcode(report(system), tables=True)):
        if name not in PAIRED:
            continue
        if closing:
            assert stack and stack.pop() == name, f"[/{name}] closes nothing open"
        else:
            stack.append(name)
    assert stack == []


@pytest.mark.parametrize("system", sorted(REPORTS))
def test_headings_are_bold_and_large_and_no_markdown_or_html_is_left(system: str) -> None:
    markdown = report(system)
    text = to_bbcode(markdown)
    for heading in re.findall(r"^#+ (.+)$", markdown, flags=re.MULTILINE):
        assert re.search(r"\[size=\d+\]\[b\]" + re.escape(heading.replace("**", "")) + r"\[/b\]\[/size\]", text)
    assert "**" not in text and not re.search(r"^#+ |^\|", text, flags=re.MULTILINE)
    assert not re.search(r"</?(p|strong|em|table|tr|td|th|ul|ol|li|h\d|code|pre)\b", text)


@pytest.mark.parametrize("system", sorted(REPORTS))
def test_tables_keep_every_cell_in_order_as_table_or_aligned_code(system: str) -> None:
    markdown = report(system)
    rows = table_rows(markdown)
    tagged = to_bbcode(markdown, tables=True)
    assert tagged.count("[tr]") == len(rows)
    for row in rows:
        assert "[tr]" + "".join(f"[td]{cell}[/td]" for cell in row) + "[/tr]" in tagged.replace("**", "")
    aligned = to_bbcode(markdown)
    assert "[table]" not in aligned
    for row in rows:
        assert re.search(r"\s+".join(re.escape(cell) for cell in row if cell), aligned)


def test_some_report_has_a_table() -> None:
    assert any(table_rows(report(system)) for system in REPORTS)      # the table tests test something


def test_pbem_export_writes_each_public_report_of_a_turn_with_its_picture(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    camp = dr_campaign(tmp_path)
    put(camp, "red", "PLAYER red RRRR-TEST-0000-0000-0001\nR-1 H\n")
    put(camp, "blue", "PLAYER blue BBBB-TEST-0000-0000-0002\nB-1 H\n", sender="Bob <bob@test.localhost>")
    run(camp)
    root, out = str(camp.folder.parent), tmp_path / "board"
    assert main(["export", "rift", "1", "--root", root, "--bbcode", "--out", str(out),
                 "--picture-url", "https://club.example/rift/"]) == 0
    written = sorted(out.glob("*.bbcode"))
    assert written and all(path.stem.startswith("orders-") for path in written)
    first = written[0].read_text(encoding="utf-8")
    assert first.startswith("[img]https://club.example/rift/rift-turn-001-orders.png[/img]\n\n[size=200][b]")
    assert "private" not in " ".join(path.stem for path in written)
    capsys.readouterr()
    assert main(["export", "rift", "1", "--root", root]) == 1
    assert capsys.readouterr().err.strip() == "pbem: name the format: --bbcode (the one there is so far)"
    assert main(["export", "rift", "7", "--root", root, "--bbcode"]) == 1
    assert "turn 7 of rift has no public report" in capsys.readouterr().err
