"""The legend under a map picture: the sides (colour and pattern), and a key to every sign the
picture uses (arrows, clashes, features, borders, terrain), wrapped to the picture's width."""

from __future__ import annotations

from collections.abc import Mapping
from xml.sax.saxutils import escape, quoteattr

from pbem.kit.maps import PlaceMap
from pbem.kit.scene import Scene
from pbem.pictures import marks, palette
from pbem.pictures.marks import ARROWS, BORDERS, CLASHES, FEATURE_ORDER, FEATURES, oneway_tip

ROW = 20
FONT = 11
Item = tuple[str, str]          # (swatch SVG at 0,0 in a 18x14 box, words)


def legend(places: PlaceMap, scene: Scene, colours: Mapping[str, str], patterns: Mapping[str, str],
           width: int, top: float) -> tuple[str, float]:
    """The legend's SVG and its height, placed `top` pixels down."""
    items = _sides(scene, colours, patterns) + _signs(places, scene)
    lines: list[str] = []
    x, y = 12.0, top + 4
    for swatch, words in items:
        span = 26 + len(words) * FONT * 0.6 + 14
        if x + span > width - 12 and x > 12:
            x, y = 12.0, y + ROW
        lines.append(f'<g transform="translate({round(x, 1)},{round(y, 1)})">{swatch}'
                     f'<text x="24" y="12" font-size="{FONT}" fill="#111111">{escape(words)}</text></g>')
        x += span
    for note in scene.notes:
        y += ROW
        lines.append(f'<text x="12" y="{round(y + 12, 1)}" font-size="{FONT}" fill="#111111">{escape(note)}</text>')
    height = (y - top) + ROW + 4 if items or scene.notes else 0.0
    return '<g id="legend">\n' + "\n".join(lines) + "\n</g>", height


def _sides(scene: Scene, colours: Mapping[str, str], patterns: Mapping[str, str]) -> list[Item]:
    out = []
    for side in scene.sides:
        fill = palette.tint(colours[side.id])
        over = f'<rect width="18" height="14" fill="url(#pat-{escape(side.id)})"/>' if patterns[side.id] else ""
        badge = (f'<rect x="3" y="3" width="12" height="8" fill="{colours[side.id]}" stroke="#111111" '
                 f'stroke-width="0.8"/>')
        swatch = (f'<g class="side" data-side={quoteattr(side.id)}><rect width="18" height="14" fill="{fill}" '
                  f'stroke="#6b6b6b"/>{over}{badge}</g>')
        out.append((swatch, side.name + (f" ({side.tag})" if side.tag else "")))
    return out


def _signs(places: PlaceMap, scene: Scene) -> list[Item]:
    """A key entry for each kind of sign the picture shows, and for nothing it does not."""
    out: list[Item] = []
    for kind, (colour, width, dashes, _, words) in ARROWS.items():
        if any(m.kind == kind for m in scene.moves):
            out.append((_line(colour, width, dashes), words))
    if any(not m.succeeded for m in scene.moves):
        out.append((_line("#111111", 2.6, "7 5"), "failed"))
    if any(p.dislodged for p in scene.pieces):
        out.append(('<rect x="1" y="2" width="16" height="10" fill="#ffffff" stroke="#111111" stroke-width="2" '
                    'stroke-dasharray="3 2"/>', "dislodged"))
    for kind, (glyph, colour, words) in CLASHES.items():
        if any(c.kind == kind for c in scene.clashes):
            out.append((_glyph(glyph, colour), words))
    present = {f for p in places.places() for f in marks.shown(set(places.features(p)))} | \
        {m.kind for m in scene.markers}
    out += [(_glyph(FEATURES[f][0], "#222222"), FEATURES[f][1]) for f in FEATURE_ORDER if f in present]
    kinds = {k for e in places.edges() for k in e.kinds}
    for kind in ("river", "road", "bridge"):
        if kind in kinds:
            colour, width, dashes, words = BORDERS[kind]
            out.append((_line(colour, min(width, 4.0), dashes), words))
    if "oneway" in kinds:
        out.append((_line(*BORDERS["road"][:3]) + oneway_tip((1, 7), (17, 7)), "road, one way"))
    terrains = {places.terrain(p) for p in places.places()}
    out += _grounds(terrains)
    out += [(_glyph(mark, "#222222"), terrain.replace("_", " ")) for terrain, mark in palette.TERRAIN_MARK.items()
            if terrain in terrains]
    return out


def _grounds(terrains: set[str]) -> list[Item]:
    """A swatch for each ground colour unowned places show (sea, land, marsh...), so that every
    colour of the picture is in its key; terrains drawn alike share one."""
    names: dict[str, list[str]] = {}
    for terrain in sorted(terrains):
        names.setdefault(palette.terrain_fill(terrain), []).append(terrain.replace("_", " ") or "land")
    return [(f'<rect class="ground" width="18" height="14" fill="{fill}" stroke="#6b6b6b"/>', " / ".join(words))
            for fill, words in sorted(names.items(), key=lambda item: item[1])]


def _line(colour: str, width: float, dashes: str) -> str:
    dash = f' stroke-dasharray="{dashes}"' if dashes else ""
    return f'<path d="M1,7 L17,7" stroke="{colour}" stroke-width="{width}"{dash}/>'


def _glyph(glyph: str, colour: str) -> str:
    return f'<text x="9" y="12" font-size="12" text-anchor="middle" fill="{colour}">{escape(glyph)}</text>'
