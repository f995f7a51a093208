"""Victory: SC-15 of the catalog, the simultaneous case and the setup warning."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.kit.rulebook import RuleBook
from pbem.rulesets.phases import GMDecisionNeeded
from pbem.rulesets.star_wars_miniatures import rules
from pbem.rulesets.star_wars_miniatures import victory as vic
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.model import Land, Player, SWMState
from pbem.rulesets.star_wars_miniatures.regions import map_from_dict
from pbem.rulesets.star_wars_miniatures.world import World
from tests.star_wars_miniatures import helpers


def _sc15(cat: Catalog, book: RuleBook, alice_active: bool = False) -> World:
    st = helpers.state()
    st.turn = 14
    helpers.squad(st, cat, "S1", "alice", "A1", ["Stormtrooper x16"], damaged=not alice_active)
    helpers.squad(st, cat, "S2", "alice", "A2", ["Stormtrooper x10"], damaged=True)
    helpers.squad(st, cat, "R1", "bob", "B1", ["Rebel Trooper x15"])
    return World(st, helpers.test_map(), cat, book)


@pytest.mark.clause("SWM-WIN-2")
@pytest.mark.clause("SWM-ECO-18")
def test_swm_win_sc15a_the_only_side_with_an_active_squad_wins(cat: Catalog, book: RuleBook) -> None:
    world = _sc15(cat, book)
    assert vic.check_last_active(world) == ["bob"]
    assert world.state.log[-1] == "Victory: bob wins the campaign by being the only side left with an active squad."


@pytest.mark.clause("SWM-WIN-3")
@pytest.mark.clause("SWM-ALL-14")
def test_swm_win_sc15b_an_alliance_wins_as_a_whole(cat: Catalog, book: RuleBook) -> None:
    world = _sc15(cat, book)
    world.state.alliances = [["bob", "cara"]]
    helpers.squad(world.state, cat, "M1", "cara", "C1", ["Mandalorian Soldier x7"])
    assert vic.check_last_active(world) == ["bob", "cara"]
    assert world.state.log[-1] == "Victory: bob and cara win the campaign by being the only side left with an " \
                                  "active squad."


@pytest.mark.clause("SWM-WIN-5")
def test_swm_win_sc15c_two_sides_with_active_squads_and_nobody_at_all_give_no_winner(
        cat: Catalog, book: RuleBook) -> None:
    assert vic.check_last_active(_sc15(cat, book, alice_active=True)) == []
    world = _sc15(cat, book)
    world.state.squads["R1"].damaged = True
    assert vic.check_last_active(world) == []


def _eight() -> World:
    names = ["dan", "eve", "finn", "gil", "hal", "ivy", "jo", "kim"]
    rows: list[dict[str, Any]] = []
    for n, _ in enumerate(names):
        rows.append({"id": f"K{n + 1}", "region": f"R{n + 1}", "income": 10, "stacking": 2, "capital": True,
                     "adjacent": [f"K{(n - 1) % 8 + 1}", f"K{(n + 1) % 8 + 1}"]})
    data = {"region": [{"id": f"R{n + 1}", "capital": f"K{n + 1}"} for n in range(8)], "territory": rows}
    st = SWMState(turn=3, players={p: Player(p, "rebel") for p in names},
                  lands={f"K{n + 1}": Land(owner=p) for n, p in enumerate(names)})
    return World(st, map_from_dict(data), helpers.catalog(), rules.load())


@pytest.mark.clause("SWM-WIN-1")
@pytest.mark.clause("SWM-WIN-4")
def test_swm_win_sc15d_six_capitals_count_only_at_the_end_of_a_phase() -> None:
    world = _eight()
    st = world.state
    st.alliances = [["dan", "eve"]]
    for k in ("K4", "K5", "K6"):
        st.lands[k].owner = "dan"
    st.lands["K3"].owner = "dan"            # their slot takes Finn's capital: 6 for a while
    st.lands["K3"].owner = "finn"           # Finn's slot takes it back
    assert vic.capitals_held(world, ["dan", "eve"]) == 5 and vic.check_capitals(world) == []
    st.lands["K3"].owner = "dan"            # variant: Finn's attack fails
    assert vic.check_capitals(world) == ["dan", "eve"]


@pytest.mark.clause("SWM-WIN-7")
def test_swm_win_7_two_sides_meeting_a_condition_at_once_ask_the_gm() -> None:
    world = _eight()
    world.book = RuleBook({**world.book.as_dict(), "victory": {**world.book.section("victory"), "capitals_needed": 2}})
    st = world.state
    st.lands["K2"].owner, st.lands["K5"].owner = "dan", "gil"
    with pytest.raises(GMDecisionNeeded) as asked:
        vic.check_capitals(world)
    assert asked.value.options == ["dan", "gil"]
    assert vic.check_capitals(world, {"victory_turn_3": "gil"}) == ["gil"]


@pytest.mark.clause("SWM-WIN-6")
@pytest.mark.clause("SWM-SET-7")
def test_swm_win_6_inactive_capitals_never_count_and_the_gm_is_warned(cat: Catalog, book: RuleBook) -> None:
    world = _sc15(cat, book)
    assert vic.setup_warning(world) == ("only 3 capitals are active and victory needs 6: lower [rules.victory] "
                                        "capitals_needed or the capital condition can never be met")
    world.state.lands["C1"].active = False
    world.state.lands["C1"].owner = ""
    assert vic.capitals_held(world, ["alice", "bob", "cara"]) == 2
