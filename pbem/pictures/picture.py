"""One stage's map picture from a stored game: the rule system's scene drawn on its map, as SVG
and PNG, with the file names mail, forum and `pbem render` use."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pbem.pictures.raster import png
from pbem.pictures.svg import draw
from pbem.rulesets.base import AnyRuleset, Context, Ruleset
from pbem.state.campaign import Player, Settings


@dataclass(frozen=True)
class Picture:
    name: str                 # file name without extension: "rift-demo-turn-003"
    svg: str
    png: bytes = b""

    def files(self, formats: tuple[str, ...] = ("svg", "png")) -> dict[str, bytes]:
        """File name -> content, for each format asked for."""
        content = {"svg": self.svg.encode("utf-8"), "png": self.png}
        return {f"{self.name}.{fmt}": content[fmt] for fmt in formats}


def picture_of(ruleset: AnyRuleset, settings: Settings, game: Mapping[str, Any], name: str,
               raster: bool = True, now: datetime | None = None, player: Player | None = None) -> Picture | None:
    """The picture of `game` (a stored game), or None when the rule system draws none. With
    `player`, his own picture (`Ruleset.private_scene`), or None when he sees the public one."""
    hook = Ruleset.scene if player is None else Ruleset.private_scene
    if getattr(type(ruleset), hook.__name__) is hook:      # no hook: do not even load the game
        return None
    view = ruleset.view(Context(settings, game, now or datetime.now(UTC)))
    scene = ruleset.scene(view) if player is None else ruleset.private_scene(view, player)
    if scene is None:
        return None
    svg = draw(view.map, scene)
    return Picture(name, svg, png(svg) if raster else b"")
