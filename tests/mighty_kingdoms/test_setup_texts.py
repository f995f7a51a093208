"""What setup tells people: HELP in each setup stage, the welcome's first step, the GM's pending list,
and a map that cannot seat the players."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.gm.creation import CreationError, NewPlayer
from pbem.kit.dice import ScriptedDice
from pbem.rulesets.mighty_kingdoms.ruleset import RULESET
from tests.mighty_kingdoms.helpers_setup import LIST, campaign, ctx, parse, resolve


def test_help_in_window_s_gives_every_line_with_the_maps_own_tiles(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    resolve(camp, {}, ScriptedDice([1, 2, 3]))
    person = camp.settings.player("a")
    assert person is not None
    text = RULESET.help_text(ctx(camp), person)
    for words in ("`START T7, T10, T28`", "`RING city village fortress village control control`",
                  "`RING T7 city village", "`ARMY capital`", "at most 500 points", "`LIST <name>`"):
        assert words in text, words


def test_help_in_the_list_stage_asks_only_for_the_list(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    resolve(camp, {}, ScriptedDice([1, 2, 3]))
    resolve(camp, {"a": parse(camp, "a", LIST).payload}, ScriptedDice([]))
    person = camp.settings.player("b")
    assert person is not None
    text = RULESET.help_text(ctx(camp), person)
    assert text.startswith("Your army list, one line per unit") and "START" not in text


def test_the_welcome_tells_of_the_roll_off_and_window_s_and_nothing_later(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    person = camp.settings.player("a")
    assert person is not None
    first = RULESET.welcome(ctx(camp), person)["first_step"]
    assert "The initial player order is rolled first" in first and "T7 (Irestead)" in first
    resolve(camp, {}, ScriptedDice([1, 2, 3]))
    assert "rolled first" not in RULESET.welcome(ctx(camp), person)["first_step"]
    resolve(camp, {}, ScriptedDice([]))
    assert RULESET.welcome(ctx(camp), person) == {}


@pytest.mark.clause("MK-PBM-13")
def test_mk_pbm_13_gm_pending_lists_the_lists_waiting_for_approval(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    resolve(camp, {}, ScriptedDice([1, 2, 3]))
    resolve(camp, {"b": parse(camp, "b", LIST).payload}, ScriptedDice([]))
    assert RULESET.gm_pending(ctx(camp)) == [
        "approve the army list of Blue March: APPROVE b (or REJECT b <reason>)",
        "the army list Green Hold still owes: SETLIST c <unit> ; <unit> ... or NOARMY c if it never comes",
        "the army list Red Realm still owes: SETLIST a <unit> ; <unit> ... or NOARMY a if it never comes"]
    assert set(RULESET.verbs(ctx(camp))) >= {"APPROVE", "REJECT", "SETLIST", "NOARMY"}


def test_a_map_with_fewer_starting_tiles_than_players_refuses_the_campaign(tmp_path: Path) -> None:
    players = [NewPlayer(c, c.upper(), f"{c}@mk.localhost", f"{c.upper()} Kingdom", c.upper()) for c in "abcdefg"]
    with pytest.raises(CreationError, match="6 starting tiles for 7 players"):
        campaign(tmp_path, players=players)
