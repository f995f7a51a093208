"""Step B: settling sizes, gold, team shares and army totals; briefings (COC-BAT, COC-OBJ, COC-GAB)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.texts import render
from pbem.rulesets.base import GMDecisionNeeded
from pbem.rulesets.conquest.battles import step_b
from pbem.rulesets.conquest.model import Battle, SetupOrder
from pbem.state.schedule import Schedule

from .battle_helpers import board, land, rules, state

RULES = rules()
MAP = board(objectives={"T3": "mage_tower", "T4": "orc_idol"})


def sc5(team: bool = False):  # type: ignore[no-untyped-def]
    battles = ([land("B1", ["ben", "dan"], ["cara"])] if team
               else [land("B1", ["ben"], ["cara"]), land("B2", ["dan"], ["cara"])])
    return state(treasury={"cara": 230, "ben": 100, "dan": 0}, battles=battles, largest="cara")


def totals(game, battle: str) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return {a.player: a.total for a in game.round.setup(battle).armies}


@pytest.mark.clause("COC-BAT-4")
@pytest.mark.clause("COC-BAT-7")
@pytest.mark.clause("COC-BAT-8")
@pytest.mark.clause("COC-BAT-9")
@pytest.mark.clause("COC-BAT-10")
def test_sc_5_individual_battles_gold_cut_and_treasury() -> None:
    game = sc5()
    setups = {"cara": [SetupOrder("B1", 2000, 200), SetupOrder("B2", 2000, 100)],
              "ben": [SetupOrder("B1", 2000, 50)], "dan": [SetupOrder("B2", 2000, 0)]}
    game, briefings, events = step_b(game, setups, RULES, ScriptedDice(), MAP)
    assert totals(game, "B1") == {"ben": 2050, "cara": 2250}
    assert totals(game, "B2") == {"dan": 2000, "cara": 2080}
    assert game.round.setup("B2").army("cara").gold == 30
    assert game.empires["cara"].treasury == 0 and game.empires["ben"].treasury == 50
    assert any("cut from 100 to 30" in e for e in events)
    assert [r.key for r in briefings] == ["briefing-B1", "briefing-B2"]


@pytest.mark.clause("COC-BAT-11")
@pytest.mark.clause("COC-BAT-12")
@pytest.mark.clause("COC-BAT-13")
@pytest.mark.clause("COC-BAT-14")
def test_sc_5_team_variant() -> None:
    game = sc5(team=True)
    setups = {"ben": [SetupOrder("B1", 2000, 100, share=1500)], "dan": [SetupOrder("B1", share=500)],
              "cara": [SetupOrder("B1", 2000, 200)]}
    game, _, _ = step_b(game, setups, RULES, ScriptedDice(), MAP)
    assert totals(game, "B1") == {"ben": 1575, "dan": 500, "cara": 2250}
    game = sc5(team=True)
    game, _, _ = step_b(game, {}, RULES, ScriptedDice(), MAP)               # the defaults
    setup = game.round.setup("B1")
    assert setup.points == 2000 and totals(game, "B1") == {"ben": 1000, "dan": 1000, "cara": 2050}
    assert "split equally" in setup.note


@pytest.mark.clause("COC-BAT-1")
def test_coc_bat_2_smaller_proposal_and_standing_settings() -> None:
    game = state(battles=[land("B1", ["ben"], ["cara"])], treasury={"ben": 500})
    setups = {"ben": [SetupOrder("*", 3000, 200)], "cara": [SetupOrder("B1", 1000)]}
    game, _, _ = step_b(game, setups, RULES, ScriptedDice(), MAP)
    assert game.round.setup("B1").points == 1000 and game.round.setup("B1").army("ben").gold == 200
    differing = {"ben": [SetupOrder("B1", 3000)], "cara": [SetupOrder("B1", 1000)]}
    gm_rules = rules(battle={"size_disagreement": "gm"})
    with pytest.raises(GMDecisionNeeded) as asked:
        step_b(state(battles=[land("B1", ["ben"], ["cara"])]), differing, gm_rules, ScriptedDice(), MAP)
    assert asked.value.key == "B1-size" and asked.value.options == ["1000", "2000", "3000"]
    game, _, _ = step_b(state(battles=[land("B1", ["ben"], ["cara"])]), differing, gm_rules, ScriptedDice(), MAP,
                        decisions={"B1-size": "3000"})
    assert game.round.setup("B1").points == 3000 and game.round.setup("B1").note == "set by the GM"
    game = state(battles=[land("B1", ["ben"], ["cara"])])
    game, _, _ = step_b(game, {}, RULES, ScriptedDice(), MAP, gm_points={"B1": 2500})
    assert game.round.setup("B1").points == 2500


@pytest.mark.clause("COC-ABR-1")
@pytest.mark.clause("COC-ABR-11")
def test_coc_abr_1_abstract_requested_in_window_2_is_rolled_at_once() -> None:
    game = state(treasury={"cara": 300, "ben": 200}, battles=[land("B1", ["cara"], ["ben"])], largest="cara",
                 events={"cara": "elite_army", "ben": "scouts"})
    setups = {"cara": [SetupOrder("B1", gold=200)], "ben": [SetupOrder("B1", gold=150, abstract=True)]}
    game, briefings, events = step_b(game, setups, RULES, ScriptedDice([3, 4]), MAP)
    outcome = game.round.outcome("B1")
    assert briefings == [] and outcome.how == "abstract"
    assert (outcome.attacker, outcome.defender, outcome.abstract_total, outcome.abstract_bonus) == (
        "minor_victory", "lose", 9, 2)
    assert game.empires["cara"].treasury == 100 and game.empires["ben"].treasury == 50   # gold stays spent
    assert events[0] == ("B1: abstract resolution requested in the battle setup; "
                         "2D6 3+4, bonus +2 = 9: attacker minor victory")


@dataclass
class Camp:
    title: str = "Test Conquest"


def briefing_text(battle: Battle, **kw) -> tuple[str, object]:  # type: ignore[no-untyped-def]
    game = state(players=("cara", "ben", "dan"), battles=[battle], largest=kw.pop("largest", "cara"),
                 events=kw.pop("events", {}), tiles=kw.pop("tiles", {}), treasury={"cara": 200})
    book = kw.pop("book", RULES)
    setups = kw.pop("setups", {})
    _, briefings, _ = step_b(game, setups, book, ScriptedDice(), MAP)
    context = {"campaign": Camp(), "schedule": Schedule.from_settings({}),
               "next_deadline": datetime(2026, 12, 1, 20, 0, tzinfo=UTC)} | briefings[0].context
    return render("conquest", "briefing", context), briefings[0]


@pytest.mark.clause("COC-BAT-21")
@pytest.mark.clause("COC-EVT-18")
def test_coc_bat_22_briefing_lists_every_item() -> None:
    text, report = briefing_text(land("B1", ["ben"], ["cara"]), events={"cara": "elite_army"},
                                 setups={"cara": [SetupOrder("B1", 2000, 200)],
                                         "ben": [SetupOrder("B1", 2000, stand_in="Joe Bloggs")]})
    assert report.audience == ("ben", "cara", "gm")
    for item in ("B1, land battle", "Attacker (challenger): Ben", "Defender (challenged): Cara",
                 "Base size **2000 points**", "| Cara | defender | 2000 | +50 | 200 gp | +200 | **2250** |",
                 "Ben (played by Joe Bloggs)", "**Elite Army.** Cara may take one unit over its Min/Max value",
                 "RESULT B1 WITHDREW", "Tue 01 Dec 2026 20:00 UTC"):
        assert item in text, item
    assert "Team battle rules" not in text and "General's abilities" not in text


@pytest.mark.clause("COC-EVT-15")
def test_coc_bat_22_scouts_in_the_briefing() -> None:
    text, _ = briefing_text(land("B1", ["ben"], ["cara"]), events={"ben": "scouts"})
    assert "Ben holds Scouts: Cara must deploy the whole army before Ben deploys, and Ben decides who takes" in text
    text, _ = briefing_text(land("B1", ["ben"], ["cara"]), events={"ben": "scouts", "cara": "scouts"})
    assert "the effects cancel" in text


@pytest.mark.clause("COC-BAT-15")
@pytest.mark.clause("COC-BAT-16")
@pytest.mark.clause("COC-BAT-17")
@pytest.mark.clause("COC-BAT-18")
@pytest.mark.clause("COC-BAT-19")
@pytest.mark.clause("COC-BAT-20")
def test_team_battle_briefing_carries_the_team_rules() -> None:
    text, _ = briefing_text(land("B1", ["ben", "dan"], ["cara"]))
    assert "Ben and Dan (a team)" in text
    for rule in ("commands his own army", "may not charge, shoot at or cast spells on units of a team-mate",
                 "Characters cannot join a team-mate's units", "a team-mate's units are not friendly",
                 "break points are added together", "the team can no longer win", "GENERAL <side>"):
        assert rule in text, rule


@pytest.mark.clause("COC-OBJ-1")
@pytest.mark.clause("COC-OBJ-3")
@pytest.mark.clause("COC-OBJ-4")
@pytest.mark.clause("COC-OBJ-5")
def test_objectives_in_the_briefing_follow_the_banner_now() -> None:
    text, _ = briefing_text(land("B1", ["ben"], ["cara"]), tiles={"T3": ("cara", ""), "T4": ("ben", "castle")})
    assert "Cara holds the **Mage Tower** (T3): +1 to a spell casting roll, once per battle." in text
    assert "Ben holds the **Orc Idol** (T4)" in text and "D3 attack dice" in text
    text, _ = briefing_text(land("B1", ["ben"], ["cara"]))
    assert "No player in this battle holds an objective." in text


def test_coc_obj_2_dwarf_brewery_effect_in_the_briefing() -> None:
    game_map = board(objectives={"T5": "dwarf_brewery"})
    game = state(battles=[land("B1", ["ben"], ["cara"])], tiles={"T5": ("ben", "")})
    _, briefings, _ = step_b(game, {}, RULES, ScriptedDice(), game_map)
    perk = briefings[0].context["briefing"].sides[0].armies[0].objectives[0]
    assert perk.name == "Dwarf Brewery" and "re-roll one save roll in each round" in perk.effect


@pytest.mark.clause("COC-GAB-2")
@pytest.mark.clause("COC-GAB-3")
def test_coc_gab_1_abilities_only_when_the_option_is_on() -> None:
    book = rules(options={"generals_abilities": True})
    text, _ = briefing_text(land("B1", ["ben"], ["cara"]), book=book)
    assert "## General's abilities" in text and "Every general has these abilities in this battle" in text
    assert ("**Reliable Courier** (once per battle). One Hero or Wizard within 30 cm of the General may re-roll "
            "a failed order.") in text
    assert ("**Inspection of Arms** (once per battle). One friendly unit within 30 cm of the General may re-roll "
            "all dice of one to-hit roll or one armour roll.") in text
    book = rules(options={"generals_abilities": True})
    for ability in book["generals_abilities"]:                 # every ability of the rules, in full
        assert f"**{ability['name']}**" in text and ability["effect"] in text
    text, _ = briefing_text(land("B1", ["ben"], ["cara"]))
    assert "Reliable Courier" not in text


def test_coc_gab_4_team_generals_own_abilities() -> None:
    text, _ = briefing_text(land("B1", ["ben", "dan"], ["cara"]), book=rules(options={"generals_abilities": True}))
    assert "every army's general has his own abilities, and they affect only his own army's troops" in text


@pytest.mark.clause("COC-SIE-8")
def test_siege_assault_briefing_into_the_breach() -> None:
    battle = Battle("B3", "siege", ["anna"], ["dan"], "T50")
    game = state(players=("anna", "dan"), battles=[battle], tiles={"T50": ("anna", "castle")})
    _, briefings, _ = step_b(game, {}, RULES, ScriptedDice(), MAP)
    context = {"campaign": Camp(), "schedule": Schedule.from_settings({}),
               "next_deadline": datetime(2026, 12, 1, tzinfo=UTC)} | briefings[0].context
    text = render("conquest", "briefing", context)
    assert "Siege assault: Into the breach!" in text and "Anna, the besieger, is the attacker" in text
    assert "RESULT B3 YES" in text


@pytest.mark.clause("COC-NAV-4")
def test_sea_battle_briefing_note() -> None:
    text, _ = briefing_text(Battle("B4", "sea", ["ben"], ["cara"]))
    assert "sea rules you both chose" in text and "RESULT B4 WINNER attacker" in text


def test_coc_bat_2_gm_sets_the_size_in_window_2() -> None:
    from pbem.rulesets.conquest.battles import gm_size

    game = state(battles=[land("B1", ["ben"], ["cara"])])
    assert gm_size(game, ["b1", "2500"]) == "B1: base size set to 2500 points"
    with pytest.raises(ValueError, match="SIZE <battle> <points>"):
        gm_size(game, ["B1", "lots"])
    game, _, _ = step_b(game, {"ben": [SetupOrder("B1", 1000)]}, RULES, ScriptedDice(), MAP)
    assert game.round.setup("B1").points == 2500 and game.round.setup("B1").note == "set by the GM"
    with pytest.raises(ValueError, match="already briefed"):
        gm_size(game, ["B1", "1000"])


@pytest.mark.clause("COC-TRN-5")
def test_standing_window_1_settings_reach_step_b_without_window_2() -> None:
    from pbem.rulesets.conquest.battle_orders import parse_setup_line

    game = state(treasury={"ben": 300})                                    # window 1: no battles yet
    standing = parse_setup_line(game, "ben", "BATTLE ALL SIZE 1500 GOLD 100", RULES)
    assert standing == SetupOrder("*", 1500, 100)
    game.round.battles = [land("B1", ["ben"], ["cara"]), land("B2", ["dan"], ["ben"])]
    game, _, _ = step_b(game, {"ben": [standing]}, RULES, ScriptedDice(), MAP)
    assert [game.round.setup(b).army("ben").gold for b in ("B1", "B2")] == [100, 100]
    assert game.round.setup("B1").points == 1500 and game.empires["ben"].treasury == 100
