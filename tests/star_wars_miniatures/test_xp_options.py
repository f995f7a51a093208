"""Starting squads, experience and voluntary eliminations by the catalog's readings (A33, A21,
A32): each default against the alternative a campaign.toml may choose, through the rule
system's hooks or with fixed dice."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.star_wars_miniatures import battle as bt
from pbem.rulesets.star_wars_miniatures import economics as eco
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures.battle import DEFENDER, KILLED, Event, Result
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.economics import Item, Line
from pbem.rulesets.star_wars_miniatures.model import Battle
from pbem.rulesets.star_wars_miniatures.world import World
from tests.star_wars_miniatures import flow, helpers
from tests.star_wars_miniatures.flow import Game
from tests.star_wars_miniatures.test_flow import BOB_SQUAD, CARA_SQUAD, setup_game


def at_setup(rules: dict[str, Any]) -> Game:
    """Window S2 of the flow game, its campaign.toml choosing `rules`."""
    game = setup_game()
    game.settings = flow.settings(rules=rules)
    return game


@pytest.mark.clause("SWM-SET-8")
def test_swm_set_8_a33_a_starting_squad_is_at_most_150_points() -> None:
    assert setup_game().send("bob", BOB_SQUAD).problems == []        # 127 points


def test_swm_set_8_a33_starting_squad_exact_refuses_one_under_150() -> None:
    parsed = at_setup({"setup": {"starting_squad_exact": True}}).send("bob", BOB_SQUAD)
    assert str(parsed.problems[0]) == (
        "line 1: the starting squad is refused: a starting squad is exactly 150 points; this one is 127")


def _captain(game: Game) -> tuple[int, list[str]]:
    game.send("cara", CARA_SQUAD)
    game.send("alice", "SQUAD Guard: Elite Trooper x5, Stormtrooper x10")
    game.send("bob", BOB_SQUAD)
    game.resolve(ScriptedDice([8, 19, 18]))
    captain = next(t for s in game.state.squads_of("cara") for t in s.troops if t.name == "Mandalorian Captain")
    return tr.banked(captain), [b.name for b in tr.bought(captain)]


@pytest.mark.clause("SWM-XP-17")
def test_swm_xp_17_a21_the_starting_xp_is_not_doubled_for_mandalorians() -> None:
    assert _captain(at_setup({})) == (50, ["Defense"])                 # 100 shared, 50 paid


def test_swm_xp_17_a21_double_starting_xp_doubles_a_mandalorian_troops_share() -> None:
    assert _captain(at_setup({"xp": {"double_starting_xp": True}})) == (150, ["Defense"])


def _restored(book: RuleBook, cat: Catalog) -> tuple[int, int]:
    """Vader kills two troopers; the chart restores rt1 (d20 15) and eliminates rt2 (d20 3)."""
    st = helpers.state()
    helpers.squad(st, cat, "S1", "alice", "B2", ["Darth Vader, Sith Lord", "Stormtrooper x6"], ["vader"])
    helpers.squad(st, cat, "R1", "bob", "B2", ["Rebel Trooper x15"], ["rt1", "rt2"])
    world = World(st, helpers.test_map(), cat, book)
    battle = Battle("B1-1-1", "B2", ["alice"], ["S1"], ["R1"])
    events = [Event(KILLED, "rt1", "vader"), Event(KILLED, "rt2", "vader")]
    bt.apply(world, battle, Result(DEFENDER, events), ScriptedDice([15, 3]))
    vader = st.troop("vader")
    assert vader is not None and st.troop("rt1") is not None and st.troop("rt2") is None
    return tr.pending(vader[1]), st.squads["R1"].points


@pytest.mark.clause("SWM-XP-13")
def test_swm_xp_13_a21_a_kill_earns_xp_though_the_chart_restores_the_victim(cat: Catalog, book: RuleBook) -> None:
    assert _restored(book, cat) == (12, 84)


def test_swm_xp_13_a21_award_if_victim_restored_false_pays_only_for_the_eliminated(cat: Catalog) -> None:
    assert _restored(helpers.chosen("xp", "award_if_victim_restored", False), cat) == (6, 84)


def _eliminations(book: RuleBook, cat: Catalog) -> World:
    """Alice eliminates a trooper from her legal S2, then the Rebel Commando from S3, whose
    Rebel troop breaks the Imperial table."""
    st = helpers.state()
    st.turn = 3
    helpers.squad(st, cat, "S2", "alice", "A1", ["Elite Trooper x5", "Stormtrooper x8"], ["e1", "e2"])
    helpers.squad(st, cat, "S3", "alice", "A3", ["Rebel Commando", "Stormtrooper x18"], ["rc"], damaged=True)
    world = World(st, helpers.test_map(), cat, book)
    for troop in ("e1", "rc"):
        eco.run_entry(world, "alice", Line([Item("ELIMINATE", (troop,))]), ScriptedDice([]))
    return world


@pytest.mark.clause("SWM-SQD-9")
@pytest.mark.clause("SWM-SQD-8")
def test_swm_sqd_9_a32_any_troop_may_be_eliminated(cat: Catalog, book: RuleBook) -> None:
    world = _eliminations(book, cat)
    assert world.state.troop("e1") is None and world.state.troop("rc") is None
    assert not world.state.squads["S3"].damaged                   # 18 Stormtroopers: 90 points, legal


def test_swm_sqd_9_a32_to_legalize_only_refuses_an_elimination_from_a_legal_squad(cat: Catalog) -> None:
    world = _eliminations(helpers.chosen("economy", "voluntary_elimination", "to_legalize_only"), cat)
    assert world.state.troop("e1") is not None and world.state.troop("rc") is None
    assert world.state.log[0] == ("alice: ELIMINATE e1: skipped, S2's make-up is legal, and troops are "
                                  "eliminated only to make a squad legal (A32).")
