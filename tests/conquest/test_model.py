"""The shared vocabulary round-trips through TOML, and the rule book loads."""

from __future__ import annotations

import tomllib

import pytest
import tomli_w

from pbem.kit.rulebook import RulesError
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.conquest import rules as rulesmod
from pbem.rulesets.conquest.model import (
    Army,
    Battle,
    BattleOutcome,
    BattleSetup,
    ConquestState,
    Empire,
    EPAward,
    EventPick,
    NavalAdvantage,
    Placement,
    ResultReport,
    RoundState,
    Siege,
    SizeEntry,
    TileState,
    Win,
)


def test_state_round_trips_through_toml() -> None:
    state = ConquestState(
        empires={"anna": Empire("anna", "Anna", "red", "T1", 120, 1)},
        tiles={"T1": TileState("anna", "city"), "T2": TileState()},
        sieges=[Siege("T2", "anna", "ben", 3)], naval=[NavalAdvantage("anna", "ben")],
        round=RoundState(number=2, window="results", order=["ben", "anna"], largest="anna",
                         sizes=[SizeEntry("anna", 2.5, 2, 1, 1, [4, 2], 1)],
                         events=[EventPick("anna", "building_boom", "", Placement("mine", "T2"))],
                         battles=[Battle("B1", "team", ["anna", "cara"], ["ben"])],
                         setups=[BattleSetup("B1", 2000, [Army("anna", "attacker", 1000, 25, 50, 25, 1050)])],
                         reports=[ResultReport("B1", "anna", withdrew="defender", vp_attacker=300)],
                         outcomes=[BattleOutcome("B1", "minor_victory", "lose")],
                         ep=[EPAward("anna", available=3)], wins=[Win("anna", "ben")]),
    )
    text = tomli_w.dumps(to_data(state))
    again = from_data(ConquestState, tomllib.loads(text))
    assert again == state
    assert again.round.battles[0].side_of("ben") == "defender"
    assert again.round.outcomes[0].winner == "attacker"
    assert again.fortification_owner("T2") == "ben"


def test_rule_book_loads_every_table() -> None:
    book = rulesmod.load()
    assert list(rulesmod.event_names(book)) == ["fools_gold", "building_boom", "disaster", "all_or_nothing",
                                                  "scouts", "diplomacy", "land_grab", "elite_army"]
    assert book["results.ep.massacre"] == 5
    assert book["spending.costs.conquer"] == 3


def test_rule_book_rejects_a_bad_choice_with_its_key() -> None:
    with pytest.raises(RulesError, match=r"events\.fallback"):
        rulesmod.load({"events": {"fallback": "random"}})
    with pytest.raises(RulesError) as err:
        rulesmod.load({"events": {"disaster_die": "d"}, "raid": {"sides": 1}})
    text = str(err.value)
    assert "events.disaster_die" in text and "raid.sides" in text        # every problem at once
    with pytest.raises(RulesError, match=r"victory\.target_size"):
        rulesmod.load({"victory": {"target_size": "ten"}})
