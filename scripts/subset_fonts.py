"""Write the small copy of the bundled DejaVu Sans that map pictures are rasterised with (run
again whenever the drawing code uses a new sign): `python3 scripts/subset_fonts.py`
(needs fontTools: `pip install -e .[fonts]`).

resvg reopens and maps a font's file each time it lays out a text, a few times per label, so a
picture with two hundred labels opens the font about six hundred times; with the whole 750 KB
font that was half of the rasterising. The copy keeps only what map labels and reports' names
commonly need (Latin with its accents, the punctuation and the signs the drawing code writes),
with the same outlines, advances and kerning, so every picture is drawn pixel for pixel as with
the whole font. The whole font is still loaded behind it: a character outside the copy (a Greek
or Cyrillic name) is drawn from it. Only the regular face is copied (see COMMON_FONT_FILE in
pbem/pictures/raster.py for why).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FONTS = ROOT / "pbem" / "pictures" / "fonts"
COMMON = [
    range(0x20, 0x7F),          # Basic Latin
    range(0xA0, 0x180),         # Latin-1 Supplement, Latin Extended-A
    range(0x2010, 0x2028),      # dashes, quotes, bullet, ellipsis
    range(0x2030, 0x203B),      # per mille, primes, single angle quotes
    range(0x2190, 0x2194),      # arrows
    [0x20AC, 0x2122, 0x2212],   # euro, trade mark, minus
]


def signs() -> set[int]:
    """Every character other than ASCII that the drawing code writes into a picture."""
    found: set[int] = set()
    for path in (ROOT / "pbem" / "pictures").glob("*.py"):
        found.update(ord(c) for c in re.findall(r"[^\x00-\x7f]", path.read_text(encoding="utf-8")))
    return found


def subset(name: str, unicodes: set[int]) -> None:
    from fontTools import subset as ftsubset

    options = ftsubset.Options()
    options.layout_features = ["*"]         # keep kerning, so labels are spaced as before
    options.notdef_outline = True
    font = ftsubset.load_font(str(FONTS / f"{name}.ttf"), options)
    subsetter = ftsubset.Subsetter(options)
    subsetter.populate(unicodes=sorted(unicodes))
    subsetter.subset(font)
    ftsubset.save_font(font, str(FONTS / f"{name}-Common.ttf"), options)


def main() -> None:
    unicodes = {code for block in COMMON for code in block} | signs()
    subset("DejaVuSans", unicodes)
    print(f"DejaVuSans-Common.ttf: {len(unicodes)} characters", file=sys.stderr)


if __name__ == "__main__":
    main()
