"""Winter gather (MK-GTH-1..8) and scenario 9."""

from __future__ import annotations

from pbem.rulesets.mighty_kingdoms import gather
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from tests.mighty_kingdoms.helpers_winter import book, graph_map, state_of, view_of

GMAP = graph_map({f"T{i}": "land" for i in range(1, 13)}, [("T1", "T2")])


def gathered(state, rules=None) -> list[str]:
    sections: list[Section] = []
    gather.run(view_of(state, GMAP, rules), sections)
    return sections[0].lines


def test_mk_scenario_9_gather_with_a_captured_capital() -> None:
    state = state_of("ab", {"T1": ("a", "city"), "T2": ("a", "city"), "T3": ("a", "village"),
                            "T4": ("b", "city"), "T5": ("b", "village"), "T6": ("b", "village"),
                            "T7": ("b", "fortress")}, start={"a": "T1", "b": "T2"})
    lines = gathered(state)
    assert (state.kingdoms["a"].gold, state.kingdoms["a"].food) == (3, 1)
    assert (state.kingdoms["b"].gold, state.kingdoms["b"].food) == (1, 2)
    assert state.winter.income == {"a": [3, 1], "b": [1, 2]}
    assert lines[0] == "Albion gathers 3 gold and 1 food (2 cities, capital bonus, 1 village); now 3 gold and 1 food"
    assert lines[1] == "Brennia gathers 1 gold and 2 food (1 city, 2 villages); now 1 gold and 2 food"


def test_mk_gth_1_every_player_gathers_gold_and_food_at_once() -> None:
    state = state_of("ab", {"T1": ("a", "village"), "T2": ("b", "city")})
    lines = gathered(state)
    assert [line.split(" gathers")[0] for line in lines] == ["Albion", "Brennia"]
    assert state.winter.income == {"a": [0, 1], "b": [1, 0]}


def test_mk_gth_2_each_village_gives_one_food() -> None:
    state = state_of("a", {"T1": ("a", "village"), "T2": ("a", "village"), "T3": ("a", "village")})
    gathered(state)
    assert (state.kingdoms["a"].gold, state.kingdoms["a"].food) == (0, 3)


def test_mk_gth_3_each_city_gives_one_gold_captured_capital_included() -> None:
    state = state_of("ab", {"T1": ("a", "city"), "T2": ("a", "city")}, start={"b": "T2"})
    gathered(state)
    assert state.kingdoms["a"].gold == 2


def test_mk_gth_4_own_capital_gives_one_more_gold_while_held() -> None:
    state = state_of("a", {"T1": ("a", "city")}, start={"a": "T1"})
    gathered(state)
    assert state.kingdoms["a"].gold == 2
    state = state_of("a", {"T1": ("a", "")}, start={"a": "T1"})      # razed capital: no bonus (MK-RES-14)
    gathered(state)
    assert state.kingdoms["a"].gold == 0


def test_mk_gth_5_captured_capital_gives_captor_city_gold_and_owner_nothing() -> None:
    state = state_of("ab", {"T1": ("b", "city"), "T2": ("a", "village")}, start={"a": "T1"})
    gathered(state)
    assert (state.kingdoms["b"].gold, state.kingdoms["a"].gold) == (1, 0)


def test_mk_gth_6_fortresses_empty_tiles_and_towers_give_nothing() -> None:
    state = state_of("a", {"T1": ("a", "fortress"), "T2": ("a", "")})
    state.tiles["T3"] = state.tile("T3")
    state.tiles["T3"].tower = True
    lines = gathered(state)
    assert (state.kingdoms["a"].gold, state.kingdoms["a"].food) == (0, 0)
    assert lines == ["Albion gathers 0 gold and 0 food (no village or city); now 0 gold and 0 food"]


def test_mk_gth_7_setup_kingdom_gathers_three_gold_and_two_food() -> None:
    state = state_of("a", {"T1": ("a", "city"), "T2": ("a", "city"), "T3": ("a", "village"),
                           "T4": ("a", "village"), "T5": ("a", "fortress"), "T6": ("a", ""), "T7": ("a", "")},
                     start={"a": "T1"})
    gathered(state)
    assert (state.kingdoms["a"].gold, state.kingdoms["a"].food) == (3, 2)


def test_mk_gth_8_unspent_resources_carry_over() -> None:
    state = state_of("a", {"T1": ("a", "village")}, stock={"a": (2, 1)})
    gathered(state)
    assert (state.kingdoms["a"].gold, state.kingdoms["a"].food) == (2, 2)
    state = state_of("a", {"T1": ("a", "village")}, stock={"a": (2, 1)})
    gathered(state, book(resources={"carry_over": False}))
    assert (state.kingdoms["a"].gold, state.kingdoms["a"].food) == (0, 1)
