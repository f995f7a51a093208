"""Pictures are rasterised with a small copy of DejaVu Sans in front of the whole faces: every
label comes out pixel for pixel as with the whole font, the signs the drawing code writes
included, and a character outside the copy is still drawn from the whole font, in its weight."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import svg2png_py  # type: ignore[import-untyped]  # ships a stub but no py.typed

from pbem.pictures import draw
from pbem.pictures.raster import COMMON_FONT_FILE, FONT_FILES, rasterise
from tests.pictures import scenes

PICTURES = Path(__file__).resolve().parents[2] / "pbem" / "pictures"
LABEL = ('<svg xmlns="http://www.w3.org/2000/svg" width="900" height="40" font-family="DejaVu Sans">'
         '<text x="4" y="28" font-size="16">{}</text><text x="4" y="12" font-size="9" '
         'font-weight="bold">{}</text></svg>')


def pixels(svg: str, files: list[str]) -> bytes:
    """The SVG rasterised by resvg with only these font files."""
    fonts = svg2png_py.FontDatabase()
    for path in files:
        fonts.load_font_file(path)
    options = svg2png_py.RenderOptions(font_family="DejaVu Sans")
    rgba: Any = svg2png_py.svg_to_rgba(svg, fonts, bg_color=(255, 255, 255, 255), options=options)[0]
    return bytes(rgba)


def signs() -> str:
    """Every character other than ASCII that the drawing code writes into a picture."""
    found = {c for path in PICTURES.glob("*.py") for c in re.findall(r"[^\x00-\x7f]", path.read_text("utf-8"))}
    return "".join(sorted(found))


def test_the_common_copy_draws_every_sign_of_the_drawing_code_as_the_whole_font_does() -> None:
    text = signs() + " Zoë's Château, Łódź – “Ærø” … ½ × ÷ € → −"
    assert len(signs()) >= 10
    svg = LABEL.format(text, text)
    assert pixels(svg, [COMMON_FONT_FILE, FONT_FILES[1]]) == pixels(svg, FONT_FILES)


def test_a_character_outside_the_copy_is_drawn_from_the_whole_font_in_its_weight() -> None:
    svg = LABEL.format("Жук, Ωmega and 東京", "Жук")
    whole = pixels(svg, FONT_FILES)
    assert pixels(svg, [COMMON_FONT_FILE, FONT_FILES[1]]) != whole
    assert rasterise(svg).rgba == whole


def test_a_map_is_rasterised_as_with_the_whole_font() -> None:
    svg = str(draw(scenes.rift_map(), scenes.rift_scene()))
    assert svg.count("<text") > 50
    assert rasterise(svg).rgba == pixels(svg, FONT_FILES)
