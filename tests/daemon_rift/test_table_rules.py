"""The tabletop rules the players play themselves (DR-HOME-2..4, the river's water features):
the battle briefing states the campaign's reading, so flipping its key changes the sentence,
and the readings the processor plays only as shipped are refused at load."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.kit.rulebook import RulesError
from pbem.rulesets.daemon_rift import options
from tests.daemon_rift.test_roster_options import briefing_for

SHIPPED = ("It wins the roll to place terrain first, chooses the board side, and then deploys the first unit. "
           "Who moves first is rolled at the table as normal.")


def home_of(tmp_path: Path, **home: bool) -> str:
    """The home side paragraph of Alice's briefing: Red fights in its original T25 (DR-HOME-1)."""
    text, _ = briefing_for(tmp_path, {"home": dict(home)} if home else {})
    return text.split("## Home side", 1)[1].split("##", 1)[0]


def test_dr_home_2_to_4_shipped_readings_are_stated_in_the_briefing(tmp_path: Path) -> None:
    assert SHIPPED in " ".join(home_of(tmp_path).split())
    text, _ = briefing_for(tmp_path / "layout", {})
    assert "Red defends home ground. " + SHIPPED + "\n\n## Terrain" in text


def test_dr_home_2_without_the_terrain_roll_the_briefing_sends_it_to_the_normal_rolls(tmp_path: Path) -> None:
    text = " ".join(home_of(tmp_path, home_wins_terrain_roll=False).split())
    assert "place terrain first" not in text
    assert "It chooses the board side, and then deploys the first unit." in text
    assert "Terrain placement is decided by the normal pre-battle rolls at the table." in text


def test_dr_home_3_without_board_side_or_first_unit_the_briefing_says_so(tmp_path: Path) -> None:
    text = " ".join(home_of(tmp_path, home_chooses_board_side=False, home_deploys_first_unit=False).split())
    assert "It wins the roll to place terrain first." in text
    assert "Board sides are decided by the normal pre-battle rolls" in text
    assert "Deployment follows the normal rules." in text


def test_dr_home_4_first_turn_not_rolled_normally_gives_the_home_side_the_choice(tmp_path: Path) -> None:
    text = " ".join(home_of(tmp_path, first_turn_roll_normal=False).split())
    assert "The home side chooses who moves first." in text and "rolled at the table as normal" not in text


@pytest.mark.parametrize("key, value", [("home.swap_home_side", "attacker"), ("setup.start_tokens", 2),
                                        ("rolloff.counts_for_pair_count", True), ("campaign.game_system", "Kings")])
def test_shipped_only_keys_refuse_an_override_naming_key_value_and_reason(key: str, value: object) -> None:
    section, leaf = key.split(".")
    with pytest.raises(RulesError) as err:
        options.load({section: {leaf: value}})
    [problem] = err.value.problems
    shipped = options.load()[key]
    assert problem.startswith(f"rules: {key} = ") and "is not played" in problem
    assert f"({str(shipped).lower() if isinstance(shipped, bool) else shipped}" in problem.replace('"', "")
    assert "remove the override" in problem


@pytest.mark.clause("DR-TER-9")
def test_dr_ter_9_swap_terrain_die_faces_must_split_the_die_and_another_split_is_accepted() -> None:
    assert options.load({"terrain": {"swap_terrain_die": {"lower_id": [1, 2], "higher_id": [3, 4, 5, 6]}}})
    with pytest.raises(RulesError) as err:
        options.load({"terrain": {"swap_terrain_die": {"lower_id": [1, 2, 3], "higher_id": [5, 6]}}})
    assert err.value.problems == ["rules: 'terrain.swap_terrain_die' lower_id and higher_id must split the faces "
                                  "1-6 between them, each face in exactly one"]
