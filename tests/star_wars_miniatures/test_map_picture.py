"""The Star Wars Miniatures map picture pinned: the SVG of the demo's turn-1 battle stage (owners,
capitals and fortifications, squads with their ids, this turn's moves, the battle and its retreat)
compared with a golden file byte for byte, and read back as a player's eye would (SWM-PBM-14).
After a deliberate change to the drawing, write it again with
`PBEM_UPDATE_GOLDEN=1 python3 -m pytest tests/star_wars_miniatures/test_map_picture.py` and read the diff."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from pbem.commands.demo import play
from tests.pictures.readback import read_svg

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "pictures" / "star_wars_miniatures_demo_battle.svg"
STAGE = Path("campaigns") / "swm-demo" / "history" / "001" / "stages" / "battle.svg"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("swm-picture")
    play(root, "star_wars_miniatures", lambda _lines, _step: None)
    return root


def test_swm_pbm_14_the_demos_battle_picture_matches_its_golden_svg(demo: Path) -> None:
    svg = (demo / STAGE).read_text(encoding="utf-8")
    if os.environ.get("PBEM_UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(svg, encoding="utf-8")
    golden = GOLDEN.read_text(encoding="utf-8")
    if svg != golden:
        diff = "".join(list(difflib.unified_diff(golden.splitlines(True), svg.splitlines(True), str(GOLDEN),
                                                 "drawn"))[:40])
        pytest.fail(f"the Star Wars Miniatures demo picture differs from {GOLDEN}:\n{diff}")


def test_swm_pbm_14_the_pinned_picture_shows_the_squads_moves_and_the_fortified_battle(demo: Path) -> None:
    drawn = read_svg(GOLDEN.read_text(encoding="utf-8"))
    assert [p[:3] for p in drawn.pieces] == [("A1", "T03", "anna"), ("B2", "T08", "ben"), ("C3", "T22", "cara")]
    assert drawn.clashes == [("T03", "clash battle")]
    assert drawn.arrows == [("T07", "T08", "move move succeeded"), ("T21", "T03", "move move succeeded"),
                            ("T03", "T21", "move retreat succeeded")]
    battle = (demo / "campaigns" / "swm-demo" / "history" / "001" / "action-briefing-B1-2-1.md").read_text(
        encoding="utf-8")
    assert "T03" in battle and "**Fortified.**" in battle        # the battle drawn is the fortified one
    features = {el.get("data-place"): el.text for el in drawn.root.iter() if el.get("class") == "features"}
    assert features["T03"] == "\u2605\u265c"          # a capital, fortified: where the battle is
    assert "Inactive regions (never entered, uncoloured): R3, R4, R5, R7, R8, R9, R10" in drawn.labels | {
        el.text for el in drawn.root.iter() if el.text}
