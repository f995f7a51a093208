"""The shared Dice section (templates/common/_dice.md.j2) of every system's report stands apart
from the line before it: a blank line in the plain text, a heading of its own in the HTML part."""

from __future__ import annotations

import re

import pytest

from pbem.kit.texts import TEMPLATES_DIR, environment
from pbem.mail.compose import markdown_to_html

SYSTEMS = sorted({p.parent.name for p in TEMPLATES_DIR.glob("*/*.md.j2") if '"_dice.md.j2"' in p.read_text("utf-8")})


def test_every_system_with_a_dice_section_is_checked() -> None:
    assert {"conquest", "daemon_rift", "mighty_kingdoms", "star_wars_miniatures", "wandering_tribes"} <= set(SYSTEMS)


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_dice_section_follows_a_blank_line_and_is_a_heading_in_html(system: str) -> None:
    page = environment(system).from_string("Next: **Turn 2: economics**, due Thu 26 Nov 2026 20:00 GMT.\n"
                                           '{% include "_dice.md.j2" %}')
    text = page.render(rolls=["initiative anna: d20 = 12"])
    assert "20:00 GMT.\n\n## Dice\n\n- initiative anna: d20 = 12" in text
    html = markdown_to_html(text)
    assert re.search(r"GMT\.</p>\s*<h2[^>]*>Dice</h2>", html), html
