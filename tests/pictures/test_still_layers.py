"""A map's unchanging layers (layout, borders, outlines) are worked out once per process and
map, kept by the map's content: a map rebuilt from the same file meets them again, a changed map
never gets another's, and a picture drawn with kept layers is the one drawn from nothing."""

from __future__ import annotations

import tomllib
from typing import Any

from pbem.kit import maps
from pbem.kit.territories import map_from_dict
from pbem.pictures import draw, still
from pbem.pictures.svg import WIDTH
from tests.pictures import scenes

RIFT = maps.map_path("rift_valley")


def rift(change: str = "") -> Any:
    """Rift Valley as built from its file; `change` edits the file's text first."""
    text = RIFT.read_text(encoding="utf-8")
    if change:
        old, new = change.split(" => ")
        assert old in text
        text = text.replace(old, new, 1)
    return map_from_dict(tomllib.loads(text), str(RIFT))


def made(places: Any, width: int = WIDTH) -> list[str]:
    """What `kept` was asked to make for this map, if anything."""
    asked: list[str] = []
    still.kept(places, width, lambda: asked.append("made") or "layers")
    return asked


def test_a_map_rebuilt_from_the_same_file_meets_its_kept_layers_again() -> None:
    made(rift())
    assert made(rift()) == [] and made(rift(), WIDTH + 100) == ["made"]


def test_a_map_whose_file_changed_gets_layers_of_its_own() -> None:
    made(rift())
    assert made(rift('{ between = ["T1", "T4"] } => { between = ["T1", "T4"], river = true }')) == ["made"]
    assert made(rift('{ between = ["T1", "T4"] },\n => ')) == ["made"]


def test_a_picture_drawn_with_kept_layers_is_the_one_drawn_from_nothing() -> None:
    river = '{ between = ["T1", "T4"] } => { between = ["T1", "T4"], river = true }'
    still.forget()
    fresh = {change: draw(rift(change), scenes.rift_scene()) for change in ("", river)}
    still.forget()
    kept = {change: draw(rift(change), scenes.rift_scene()) for change in ("", river, "")}
    assert kept == fresh and fresh[""] != fresh[river]
    assert 'data-from="T1" data-to="T4"' in fresh[river] and 'data-from="T1" data-to="T4"' not in fresh[""]
