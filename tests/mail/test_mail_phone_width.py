"""The HTML part keeps to a phone's width without the head's <style> (which some mail clients
drop): each table sits in a box that scrolls sideways, code blocks wrap, the body breaks long
words, and the inline map links to itself so a tap opens it at full size."""

from __future__ import annotations

from datetime import UTC, datetime

from pbem.mail.compose import SCROLLER, InlineImage, Letterhead, markdown_to_html

TABLE = "| Place | Owner |\n|---|---|\n| T1 | Red |\n"


def test_a_table_scrolls_in_a_box_of_its_own() -> None:
    html = markdown_to_html(f"Standings:\n\n{TABLE}\nAfter.\n\n- a list\n\n  {TABLE}")
    assert html.count(f'<div style="{SCROLLER}"><table>') == 2
    assert html.count("</table>\n</div>") == 2


def test_fenced_and_indented_code_blocks_wrap_their_long_lines() -> None:
    html = markdown_to_html("```\n" + "X" * 300 + "\n```\n\n    " + "Y" * 300 + "\n")
    assert html.count('<pre style="') == 2 and html.count("white-space:pre-wrap") == 2


def test_the_body_breaks_long_words_and_the_map_links_to_its_full_size() -> None:
    image = InlineImage("map-1@pbem.invalid", "image/png", b"\x89PNG", "map-1.png", "Map", 800)
    msg = Letterhead("c", "pbem.invalid", "GM <gm@pbem.invalid>").write(
        "k", ["p@pbem.invalid"], "Turn 1", "A" * 200, datetime(2026, 1, 1, tzinfo=UTC), inline_images=[image])
    part = next(p for p in msg.walk() if p.get_content_type() == "text/html")
    html = str(part.get_content())
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert '<body style="' in html and "overflow-wrap:anywhere" in html.split("<body", 1)[1]
    assert '<a href="cid:map-1@pbem.invalid"><img src="cid:map-1@pbem.invalid"' in html
