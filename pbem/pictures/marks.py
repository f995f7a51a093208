"""The small signs a picture uses, one table each, shared by the drawing and its legend."""

from __future__ import annotations

# Features of places (from the map or the state's markers): glyph and the legend's words.
FEATURES = {
    "capital": ("★", "capital"),
    "stronghold": ("♜", "stronghold"),
    "castle": ("♜", "castle"),
    "fortress": ("♜", "fortress"),
    "city": ("■", "city"),
    "settlement": ("▪", "settlement"),
    "village": ("▪", "village"),
    "mine": ("⚒", "mine"),
    "port": ("⚓", "port"),
    "tower": ("♖", "tower"),
    "campfire": ("♨", "camp fire"),
    "start": ("○", "starting tile"),
    "objective": ("◎", "objective"),
    "special": ("✦", "special territory"),
    "supply_centre": ("●", "supply centre"),
}
# Order of glyphs over a place: the most important first.
FEATURE_ORDER = tuple(FEATURES)
# A map's objective of a known kind is shown by its own sign instead of the generic one.
NAMED_OBJECTIVES = ("start",)


def shown(features: set[str] | frozenset[str]) -> list[str]:
    """The features a place shows, in glyph order."""
    generic = set() if features.isdisjoint(NAMED_OBJECTIVES) else {"objective"}
    return [f for f in FEATURE_ORDER if f in features and f not in generic]

# Arrows: stroke, width, dashes, end marker and the legend's words.
ARROWS = {
    "move": ("#111111", 2.6, "", "arrow", "move"),
    "support": ("#111111", 1.6, "2 3", "dot", "support"),
    "convoy": ("#1c4f8a", 1.8, "9 3 2 3", "diamond", "convoy"),
    "retreat": ("#a31515", 2.4, "", "arrow", "retreat"),
}
FAILED_DASHES = "7 5"

CLASHES = {
    "battle": ("⚔", "#c01818", "battle"),
    "siege": ("⊗", "#7a3b00", "siege"),
    "standoff": ("✕", "#444444", "standoff"),
}

# Borders: stroke, width, dashes and the legend's words.
BORDERS = {
    "river": ("#2f7bbf", 4.0, "", "river"),
    "road": ("#8b5a2b", 2.2, "6 3", "road"),
    "bridge": ("#111111", 6.0, "", "bridge"),
    "wall": ("#111111", 3.2, "", "no passage"),
    "link": ("#555555", 1.2, "2 2", "passage"),
}


def oneway_tip(a: tuple[float, float], b: tuple[float, float], ids: str = "", size: float = 9.0) -> str:
    """A filled arrowhead halfway along a road that runs one way only, from `a` towards `b`."""
    length = max(((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5, 1e-9)
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    mx, my = (a[0] + b[0]) / 2 + ux * size / 2, (a[1] + b[1]) / 2 + uy * size / 2
    tip = [(mx, my), (mx - ux * size - uy * size * 0.6, my - uy * size + ux * size * 0.6),
           (mx - ux * size + uy * size * 0.6, my - uy * size - ux * size * 0.6)]
    d = "M" + " L".join(f"{round(x, 1)},{round(y, 1)}" for x, y in tip) + " Z"
    return f'<path class="border oneway" {ids} d="{d}" fill="{BORDERS["road"][0]}"/>'
