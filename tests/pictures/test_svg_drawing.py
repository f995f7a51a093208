"""A map file may name an SVG drawing with one element per place (`[geometry] svg = "..."`):
each place's path, polygon, rect, circle or ellipse becomes its outline, transforms applied;
what is wrong is said per place and element, with what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.kit import maps
from pbem.kit.maps import MapError
from pbem.kit.scene import Scene
from pbem.pictures.layout import raw_shapes, shared_border
from pbem.pictures.svg import draw
from tests.pictures.readback import read_svg

MAP = """name = "Four Fields"
borders = [{ between = ["A", "B"], river = true }, { between = ["B", "C"] }, { between = ["A", "D"] }]

[territories]
A = { name = "Applefield" }
B = { name = "Barleyfield", terrain = "woods" }
C = { name = "Cornfield" }
D = { name = "Dunmoor", terrain = "hills" }

[geometry]
svg = "fields.svg"
"""

# A: a path with relative commands and a curve; B: a rect in a moved group, sharing A's right
# side; C: a circle; D: a polygon under A. Lettering and a frame with ids of no place are left alone.
DRAWING = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 200">
  <rect id="frame" width="300" height="200" fill="none"/>
  <path id="A" d="M 0,0 h 100 v 100 h -100 q -20,-50 0,-100 z"/>
  <g transform="translate(100, 0)"><rect id="B" width="100" height="100"/></g>
  <circle id="C" cx="250" cy="50" r="50"/>
  <polygon id="D" points="0,100 100,100 100,200 0,200"/>
  <text id="title" x="10" y="190">Four Fields</text>
</svg>
"""


def write_map(folder: Path, drawing: str = DRAWING, text: str = MAP) -> Path:
    (folder / "fields.svg").write_text(drawing, encoding="utf-8")
    path = folder / "fields.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_each_place_gets_the_outline_its_element_draws(tmp_path: Path) -> None:
    fields = maps.load(write_map(tmp_path))
    polygons = fields.geometry().polygons
    assert set(polygons) == {"A", "B", "C", "D"}
    assert list(polygons["B"]) == [(100.0, 0.0), (200.0, 0.0), (200.0, 100.0), (100.0, 100.0)]  # moved by its group
    assert min(x for x, _ in polygons["A"]) == pytest.approx(-10, abs=0.5)       # the curve bulges left
    assert len(polygons["C"]) >= 12
    assert all(abs(((x - 250) ** 2 + (y - 50) ** 2) ** 0.5 - 50) < 0.01 for x, y in polygons["C"])


def test_the_picture_is_drawn_from_the_drawing(tmp_path: Path) -> None:
    fields = maps.load(write_map(tmp_path))
    shapes = raw_shapes(fields)
    assert len(shared_border(shapes["A"], shapes["B"], tolerance=0.01)) == 2       # the river's side
    assert shared_border(shapes["B"], shapes["D"], tolerance=0.01) == []           # a corner only
    got = read_svg(draw(fields, Scene("Four Fields")))
    assert set(got.areas) == {"A", "B", "C", "D"}
    rivers = [p for p in got.root.iter("{http://www.w3.org/2000/svg}path") if p.get("class") == "border river"]
    assert len(rivers) == 1


def test_polygons_the_map_file_writes_win_over_the_drawing(tmp_path: Path) -> None:
    text = MAP + "polygons = { C = [[200, 0], [300, 0], [300, 100]] }\n"
    fields = maps.load(write_map(tmp_path, text=text))
    assert list(fields.geometry().polygons["C"]) == [(200.0, 0.0), (300.0, 0.0), (300.0, 100.0)]


@pytest.mark.parametrize(("drawing", "said"), [
    (DRAWING.replace('id="C"', 'id="c"'),
     'geometry.svg: no element with id="C" in fields.svg: draw the place as a path, polygon, rect, circle '
     'or ellipse with that id'),
    (DRAWING.replace('<rect id="B"', '<g id="B"><rect').replace('height="100"/></g>', 'height="100"/></g></g>'),
     'geometry.svg: <group> id="B" in fields.svg: is not a shape; give the id to the path, polygon, rect, '
     'circle or ellipse that draws the place'),
    (DRAWING.replace('points="0,100 100,100 100,200 0,200"', 'points="0,100 100,100"'),
     '<polygon> id="D" in fields.svg: draws no area (it needs at least three corners not on one line); '
     'check its d or points'),
    ("<svg><path id='A'", "geometry.svg: fields.svg cannot be read as SVG"),
])
def test_a_drawing_that_cannot_give_an_outline_names_the_place_and_what_to_do(
        tmp_path: Path, drawing: str, said: str) -> None:
    with pytest.raises(MapError) as caught:
        maps.load(write_map(tmp_path, drawing))
    message = str(caught.value)
    assert message.startswith(str(tmp_path / "fields.toml") + ": ") and said in message
    assert "\n" not in message and "Traceback" not in message


def test_every_missing_place_is_named_at_once(tmp_path: Path) -> None:
    drawing = DRAWING.replace('id="A"', 'id="x"').replace('id="D"', 'id="y"')
    with pytest.raises(MapError) as caught:
        maps.load(write_map(tmp_path, drawing))
    assert [p.split(" in ")[0] for p in caught.value.problems] == [
        'geometry.svg: no element with id="A"', 'geometry.svg: no element with id="D"']


def test_a_missing_drawing_or_a_name_that_is_no_svg_file_is_one_line(tmp_path: Path) -> None:
    path = write_map(tmp_path)
    (tmp_path / "fields.svg").unlink()
    with pytest.raises(MapError, match=r"geometry\.svg: no such drawing .*fields\.svg: put the SVG file beside"):
        maps.load(path)
    path.write_text(MAP.replace('svg = "fields.svg"', "svg = 3"), encoding="utf-8")
    with pytest.raises(MapError, match=r"geometry\.svg: 3 is not the name of an \.svg file"):
        maps.load(path)
