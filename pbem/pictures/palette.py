"""Colours and fill patterns: every side gets a colour and a pattern, so a picture printed in
grey still tells the sides apart (the legend shows both)."""

from __future__ import annotations

import math
from collections.abc import Sequence

NAMED = {
    "red": "#d7301f", "blue": "#2b6cb0", "green": "#2f9e44", "yellow": "#f2c12e", "black": "#3a3a3a",
    "white": "#f4f4f4", "purple": "#7b4bb7", "orange": "#f08c00", "brown": "#8b5a2b", "grey": "#9a9a9a",
    "gray": "#9a9a9a", "pink": "#e76fa8", "cyan": "#17a2b8", "teal": "#0f8a80", "gold": "#c9a227",
}
# Picked so that neighbours in the list differ in hue and in grey level.
CYCLE = ("#d7301f", "#2b6cb0", "#2f9e44", "#f2c12e", "#7b4bb7", "#f08c00", "#17a2b8", "#8b5a2b",
         "#e76fa8", "#3a3a3a", "#9a9a9a", "#0f8a80")
PATTERNS = ("", "hatch", "dots", "cross", "vertical", "horizontal", "rings", "zigzag")

TERRAIN = {
    "clear": "#f3efe0", "countryside": "#f3efe0", "land": "#f3efe0", "coast": "#f3efe0",
    "woods": "#dfe9d3", "wood": "#dfe9d3", "hills": "#ece2cc", "mountain": "#e0dcd6",
    "all_mountains": "#e0dcd6",
    "swamp": "#dde6e0", "marsh": "#dde6e0", "river": "#e4eef2", "shore": "#eef0e6",
    "sea": "#cfe3f1", "lake": "#cfe3f1",
}
UNKNOWN_TERRAIN = "#f3efe0"
NEAR = 80.0            # colours closer than this (see `distance`) are hard to tell apart on a map
TERRAIN_MARK = {"woods": "♣", "wood": "♣", "hills": "∩", "mountain": "▲", "all_mountains": "▲", "swamp": "≈",
                "marsh": "≈", "river": "~", "shore": "◠"}


def colour_of(name: str, index: int) -> str:
    """The colour a side asked for (a name or #rrggbb), else the index-th of the cycle."""
    text = name.strip().lower()
    if text.startswith("#") and len(text) == 7 and all(c in "0123456789abcdef" for c in text[1:]):
        return text
    return NAMED.get(text, CYCLE[index % len(CYCLE)])


def pattern_of(index: int) -> str:
    return PATTERNS[index % len(PATTERNS)]


def luminance(colour: str) -> float:
    """Relative brightness 0..1 of #rrggbb: dark fills get white text."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(colour: str) -> str:
    return "#ffffff" if luminance(colour) < 0.5 else "#111111"


def tint(colour: str, amount: float = 0.4) -> str:
    """`colour` mixed with white: an owned area's fill, light enough for labels and pieces on it."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


def terrain_fill(terrain: str) -> str:
    return TERRAIN.get(terrain, UNKNOWN_TERRAIN)


def distance(a: str, b: str) -> float:
    """How far apart two #rrggbb colours are (0..441, by red, green and blue)."""
    return math.dist([int(a[i:i + 2], 16) for i in (1, 3, 5)], [int(b[i:i + 2], 16) for i in (1, 3, 5)])


def like_water(colour: str) -> bool:
    """Whether a side's areas (its colour's tint) would read as sea or lake: bluish and near it
    (a grey or a pink as near is still told from the sea by its hue)."""
    area = tint(colour)
    return int(area[5:7], 16) > int(area[1:3], 16) + 24 and distance(area, TERRAIN["sea"]) < NEAR


def distinct(colours: Sequence[str]) -> list[str]:
    """The colours with repeats, and colours whose areas would pass for water, replaced from the
    cycle, so two sides never share one and no side's land looks like the sea."""
    out: list[str] = []
    for i, colour in enumerate(colours):
        pick = colour
        step = 0
        while pick in out or like_water(pick):
            pick = CYCLE[(i + step) % len(CYCLE)]
            step += 1
        out.append(pick)
    return out
