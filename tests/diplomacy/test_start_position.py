"""Starting a Diplomacy campaign from a position written by hand (docs/positions/diplomacy.md):
the stage it opens, its next phase resolving through the engine, and every problem of a broken
file reported at once with its key."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from pbem.gm.creation import create
from pbem.rulesets import registry
from pbem.rulesets.base import PositionError
from pbem.rulesets.diplomacy.ruleset import RULESET
from pbem.rulesets.diplomacy.start import export_position
from pbem.stages import turns
from pbem.state.campaign import Campaign
from tests.diplomacy.test_campaign import SECRETS, T0, TRANSPORT, after_deadline, put, report, run, seven

DOC = Path(__file__).resolve().parents[2] / "docs" / "positions" / "diplomacy.md"

# DATC 6.A.10-like: a supported attack into Burgundy dislodges the French army, and France's
# only escape from Burgundy is Marseilles.
FALL_1902 = {
    "year": 1902, "season": "fall", "phase": "movement",
    "units": {"England": ["F NTH", "A BEL"], "France": ["A BUR", "A PAR", "A GAS", "F BRE"],
              "German": ["A MUN", "A RUH", "F KIE"], "Italy": ["A PIE"]},
    "centres": {"England": ["LON", "EDI", "LVP", "BEL"], "France": ["PAR", "BRE", "MAR"],
                "Germany": ["BER", "MUN", "KIE", "HOL"], "Italy": ["ROM", "NAP", "VEN"]},
}


@pytest.fixture
def camp(tmp_path: Path) -> Campaign:
    """Seven players, each naming the power they play."""
    c, _ = create(tmp_path / "campaigns", "dip", "diplomacy", "", seven(), "gm@test.localhost", T0,
                  transport=TRANSPORT, fixed_secrets=SECRETS)
    return c


def start(camp: Campaign, data: dict[str, Any]) -> Campaign:
    """Start `camp` over from a position, as `pbem import` does."""
    camp.state["game"] = RULESET.position(camp.settings, data, "position.toml")
    turns.open_stage(camp, registry.get("diplomacy"), T0)
    camp.save()
    return Campaign(camp.folder)


def test_a_fall_position_opens_its_stage_for_the_powers_with_units(camp: Campaign) -> None:
    camp = start(camp, FALL_1902)
    stage = camp.state["stage"]
    assert (stage["kind"], stage["title"], stage["turn"]) == ("movement", "Fall 1902 movement", 4)
    owing = RULESET.stage(turns.context(camp, T0)).owing
    assert owing == ("eng", "fra", "ger", "ita")
    assert camp.state["game"]["eliminated"] == ["Austria", "Russia", "Turkey"]


def test_the_next_phase_resolves_and_opens_the_retreat_it_caused(camp: Campaign) -> None:
    camp = start(camp, FALL_1902)
    put(camp, "g1", "ger", "A MUN - BUR\nA RUH S A MUN - BUR\n")
    put(camp, "f1", "fra", "A BUR H\n")
    camp = run(camp)
    camp = after_deadline(camp)
    assert "`A MUN - BUR`: succeeds" in report(camp, 4, "movement-report")
    assert (camp.state["stage"]["kind"], camp.state["stage"]["title"]) == ("retreats", "Fall 1902 retreats")
    assert camp.state["game"]["dislodged"] == ["France: A BUR <- MUN"]
    assert RULESET.stage(turns.context(camp, T0)).owing == ("fra",)


def test_a_retreat_position_resolves_into_the_winter(camp: Campaign) -> None:
    camp = start(camp, doc_position())
    assert camp.state["stage"]["title"] == "Fall 1902 retreats"
    assert RULESET.stage(turns.context(camp, T0)).owing == ("fra",)
    put(camp, "r1", "fra", "A BUR R MAR\n")
    camp = run(camp)
    assert "France: A MAR" in camp.state["game"]["units"]
    assert camp.state["stage"]["title"] == "Winter 1902 adjustments"
    assert RULESET.stage(turns.context(camp, T0)).owing == ("eng", "ger")      # 5 centres, 3 and 4 units


def test_the_stored_game_reads_back_as_the_same_state(camp: Campaign) -> None:
    game = RULESET.position(camp.settings, doc_position(), "position.toml")
    assert RULESET.dump_state(RULESET.load_state(game)) == game
    assert game["dislodged"] == ["France: A BUR <- MUN"] and game["contested"] == ["PIC"]
    assert game["powers"]["France"] == "fra" and game["start_year"] == 1901


def test_a_broken_position_reports_every_problem_with_its_key(camp: Campaign) -> None:
    broken = {
        "year": "1902", "season": "autumn", "phase": "adjustments", "colour": "red",
        "units": {"Engand": ["F LON"], "France": ["A NTH", "F SPA", "A PAR"], "Germany": ["A PAR"]},
        "centres": {"England": ["LON", "BUR"], "France": ["LON"]},
        "dislodged": {"Germany": ["A MUN <- BOH"]},
    }
    with pytest.raises(PositionError) as caught:
        RULESET.position(camp.settings, broken, "position.toml")
    problems = caught.value.problems
    keys = [p.split(":")[0] for p in problems]
    assert keys == ["colour", "year", "season", "units.Engand", "units.France[0] 'A NTH'", "units.France[1] 'F SPA'",
                    "centres.England[1] 'BUR'", "centres", "dislodged", "units"]
    assert "did you mean England?" in problems[3] and "SPA/NC or SPA/SC" in problems[5]
    assert "two units in PAR" in problems[-1] and "LON is owned by both England and France" in problems[-3]
    assert str(caught.value).startswith("position.toml: colour: ") and "\n" not in str(caught.value)


@pytest.mark.parametrize("change, problem", [
    ({"phase": "adjustments"}, "phase: adjustments is a phase of winter, not of fall"),
    ({"phase": "retreats"}, "dislodged: a retreats phase needs at least one dislodged unit"),
    ({"phase": "retreats", "dislodged": {"France": ["A MAR <- PIE"]}}, "a unit of another power must stand in MAR"),
    ({"start_year": 1903}, "start_year: 1903 is after the position's year 1902"),
    ({"units": {"France": ["A PAR"]}, "centres": {}}, "units: a position needs units or centres of at least two"),
    ({"units": ["France: A PAR"]}, "units: expected a table of power = [...]"),
])
def test_each_inconsistency_is_named(camp: Campaign, change: dict[str, Any], problem: str) -> None:
    with pytest.raises(PositionError, match=re.escape(problem)):
        RULESET.position(camp.settings, FALL_1902 | change, "position.toml")


def doc_position() -> dict[str, Any]:
    """The example of docs/positions/diplomacy.md: the documentation shows a file that works."""
    block = re.search(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert block is not None
    return tomllib.loads(block.group(1))


LAST = {"stage": "Spring 1902 movement", "moves": [{"start": "MUN", "end": "BUR", "piece": "A MUN"}],
        "dislodged": ["A BUR"], "notes": ["France's A BUR is dislodged"]}


def test_a_pending_draw_and_the_last_pictures_marks_read_back_exactly(camp: Campaign) -> None:
    data = FALL_1902 | {"draw_pending": ["English", "France"], "last": LAST}
    state = RULESET.load_state(RULESET.position(camp.settings, data, "position.toml"))
    assert state.draw_pending == ["England", "France"]
    exported = export_position(state)
    assert (exported["draw_pending"], exported["last"]) == (["England", "France"], LAST)


def test_a_pending_draw_of_no_power_and_marks_of_the_wrong_form_are_refused_with_their_keys(camp: Campaign) -> None:
    with pytest.raises(PositionError) as caught:
        RULESET.position(camp.settings, FALL_1902 | {"draw_pending": ["Atlantis"], "last": {"moves": [{}]}}, "p.toml")
    assert [p.split(":", 1)[0] for p in caught.value.problems] == ["draw_pending", "last"], caught.value.problems
