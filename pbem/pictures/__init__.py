"""Map pictures: a `Scene` (what a rule system wants shown) drawn on any `PlaceMap` as SVG,
and rasterised to PNG for mail.

May import: pbem.rulesets and everything below it.
"""

from pbem.kit.scene import Clash, Marker, Move, Piece, Scene, Side
from pbem.pictures.raster import PictureError, png
from pbem.pictures.svg import draw

__all__ = ["Clash", "Marker", "Move", "PictureError", "Piece", "Scene", "Side", "draw", "png"]
