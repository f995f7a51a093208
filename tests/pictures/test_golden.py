"""Each rule system's picture pinned as a golden SVG and diffed. After a deliberate change to the
drawing, write them again with `PBEM_UPDATE_GOLDEN=1 python3 -m pytest tests/pictures/test_golden.py`
and read the diff before committing."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from pbem.pictures import draw
from tests.pictures.test_structure import SYSTEMS

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "pictures"


@pytest.mark.parametrize("system", SYSTEMS)
def test_picture_matches_its_golden_svg(system: str) -> None:
    make_map, make_scene = SYSTEMS[system]
    svg = draw(make_map(), make_scene())
    path = GOLDEN / f"{system}.svg"
    if os.environ.get("PBEM_UPDATE_GOLDEN") == "1":
        path.write_text(svg, encoding="utf-8")
    golden = path.read_text(encoding="utf-8")
    if svg != golden:
        diff = difflib.unified_diff(golden.splitlines(True), svg.splitlines(True), str(path), "drawn")
        shown = "".join(list(diff)[:40])
        pytest.fail(f"the {system} picture differs from {path}:\n{shown}")
