"""Battle selection (MK-BAT-1..12, MK-PBM-3, MK-PBM-5): contested tiles, choosers, picks, slaughters."""

from __future__ import annotations

import pytest

from pbem.rulesets.mighty_kingdoms import battles
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import Holding, MKState, MKView
from tests.mighty_kingdoms.helpers_battle import army, board, state_of, texts, view_of

Pick = battles.Pick


def three_way() -> tuple[MKState, MKView]:
    """T (C's) holds A1, B1 and C1; S (B's) holds A2 and B2; A owns Q next to both."""
    gmap = board([("T", "Q"), ("S", "Q"), ("S", "T"), ("S", "R")])
    state = state_of(["a", "b", "c"], {"T": "c", "S": "b", "Q": "a", "R": "b"})
    for ident, tile in (("A1", "T"), ("B1", "T"), ("C1", "T"), ("A2", "S"), ("B2", "S")):
        army(state, ident, tile)
    return state, view_of(state, gmap)


def test_mk_bat_1_a_tile_with_armies_of_two_kingdoms_is_contested_even_on_their_side() -> None:
    state, _ = three_way()
    state.armies["B2"].upright = False
    army(state, "C2", "R")
    assert battles.contested(state) == ["S", "T"]


def test_mk_bat_2_round_robin_from_the_next_chooser_picks_a_tile_and_an_enemy() -> None:
    state, view = three_way()
    state.battle.month, state.battle.next_chooser = "Y1M1", 1       # B chooses next
    assert battles.select(view, [])
    (fight,) = state.battle.pending()
    assert (fight.chooser, fight.tile, fight.opponent) == ("b", "S", "a")
    assert state.battle.next_chooser == 2


def test_mk_bat_3_a_player_with_no_eligible_contested_tile_is_skipped() -> None:
    state, view = three_way()
    state.battle.month, state.battle.next_chooser = "Y1M1", 2        # C: only T, where it stands
    del state.armies["C1"]
    assert battles.select(view, [])
    assert state.battle.pending()[0].chooser == "a"


def test_mk_bat_4_selection_goes_on_until_no_contested_tile_remains() -> None:
    gmap = board([("T", "U")])
    state = state_of(["a", "b"], {"T": "a", "U": "b"})
    army(state, "A1", "T")
    army(state, "B1", "T", upright=False)
    army(state, "B2", "U", upright=False)
    army(state, "A2", "U")
    view = view_of(state, gmap)
    sections: list[Section] = []
    assert not battles.select(view, sections)        # A slaughters at T, B is skipped, A slaughters at U
    assert [b.kind for b in state.battle.battles] == ["slaughter", "slaughter"]
    assert "No contested tile remains: the battle phase ends." in texts(sections)


def test_mk_bat_5_the_opponent_must_have_an_upright_army_when_one_there_has() -> None:
    state, view = three_way()
    state.armies["B1"].upright = False
    state.kingdoms["a"].standing.battles = ["T b"]
    assert battles.eligible(view, "a") == [Pick("S", "b"), Pick("T", "c")]
    assert battles.choose(view, "a") == Pick("S", "b")        # T against B is not eligible; the default follows


def test_mk_bat_5_a8_global_scope_prefers_upright_opponents_across_tiles() -> None:
    state, view = three_way()
    state.armies["B2"].upright = False
    state.armies["B1"].upright = state.armies["C1"].upright = False
    assert battles.eligible(view, "a") == [Pick("S", "b"), Pick("T", "b"), Pick("T", "c")]
    glob = view_of(state, view.map, battle={"upright_opponent_scope": "global"})
    army(state, "C3", "S")
    assert battles.eligible(glob, "a") == [Pick("S", "c")]


def test_mk_bat_6_and_7_two_kingdoms_fight_with_all_their_upright_armies() -> None:
    state, view = three_way()
    army(state, "B3", "T")
    army(state, "B4", "T", upright=False)
    state.battle.month = "Y1M1"
    battles.fight(view, "a", Pick("T", "b"), Section("x"))
    (fight,) = state.battle.pending()
    assert fight.armies == {"a": ["A1"], "b": ["B1", "B3"]}
    assert fight.on_side == {"a": [], "b": ["B4"]}
    assert battles.points(state, fight, "b") == 1000 and "c" not in fight.armies


@pytest.mark.clause("MK-BAT-9", "MK-BAT-10")
def test_mk_bat_9_10_slaughter_removes_one_on_side_army_and_nothing_else() -> None:
    gmap = board([("T", "U")])
    state = state_of(["a", "b"], {"T": "b", "U": "b"}, {"T": "capital"})
    state.kingdoms["b"].start_tile = "U"
    state.tiles["U"].settlement = "city"
    army(state, "A1", "T")
    army(state, "B1", "T", upright=False)
    army(state, "B2", "T", upright=False)
    state.artefacts["Blade of Slashing"] = Holding("b", "B1", "U1")
    view = view_of(state, gmap)
    sections: list[Section] = []
    battles.select(view, sections)
    first, second = state.battle.battles                            # one army each time, the lowest id first
    assert (first.removed, second.removed) == ("B1", "B2")          # (MK-BAT-11)
    assert state.owner("T") == "b"                                  # no control change (A10)
    assert state.artefacts["Blade of Slashing"] == Holding("b")                   # held at B's capital (MK-ART-13)
    assert first.medals == [] and first.moves == {}
    assert any("a slaughter removes B1" in line for line in texts(sections))


def test_mk_bat_11_the_chooser_picks_the_slaughtered_army_by_standing_preference() -> None:
    gmap = board([("T", "U")])
    state = state_of(["a", "b"], {"T": "b"})
    army(state, "A1", "T")
    army(state, "B1", "T", upright=False)
    army(state, "B2", "T", upright=False)
    state.kingdoms["a"].standing.slaughter = ["B2"]
    view = view_of(state, gmap)
    battles.select(view, [])
    assert [b.removed for b in state.battle.battles] == ["B2", "B1"]


def test_mk_bat_12_a_chooser_all_on_side_may_not_pick_an_upright_enemy() -> None:
    gmap = board([("T", "U")])
    state = state_of(["a", "b"], {"T": "b"})
    army(state, "A1", "T", upright=False)
    army(state, "B1", "T")
    view = view_of(state, gmap)
    assert battles.eligible(view, "a") == []
    assert not battles.select(view, [])                             # A skipped; B picks and slaughters A1
    assert state.battle.battles[0].chooser == "b" and "A1" not in state.armies


def test_mk_bat_12_a11_both_all_on_side_the_chooser_removes_an_enemy_army() -> None:
    gmap = board([("T", "U")])
    state = state_of(["a", "b"], {"T": "b"})
    army(state, "A1", "T", upright=False)
    army(state, "B1", "T", upright=False)
    view = view_of(state, gmap)
    assert not battles.select(view, [])
    assert list(state.armies) == ["A1"]


def test_mk_bat_12_a11_options_literal_and_slaughter_own() -> None:
    gmap = board([("T", "U")])
    state = state_of(["a", "b"], {"T": "b"})
    army(state, "A1", "T", upright=False)
    army(state, "B1", "T")
    literal = view_of(state, gmap, battle={"chooser_all_on_side": "literal"})
    assert battles.select(literal, [])
    assert state.battle.pending()[0].armies == {"a": [], "b": ["B1"]}
    state = state_of(["a", "b"], {"T": "b"})
    army(state, "A1", "T", upright=False)
    army(state, "B1", "T")
    own = view_of(state, gmap, battle={"chooser_all_on_side": "slaughter_own"})
    battles.select(own, [])
    assert list(state.armies) == ["B1"] and state.battle.battles[0].chooser == "a"


def test_mk_pbm_3_default_is_the_lowest_tile_and_the_first_upright_enemy_in_player_order() -> None:
    state, view = three_way()
    assert battles.choose(view, "a") == Pick("S", "b")
    state.armies["B2"].upright = False
    del state.armies["A2"]
    state.order = ["a", "c", "b"]
    assert battles.choose(view, "a") == Pick("T", "c")


def test_mk_pbm_3_standing_battle_choices_with_wildcards_come_first() -> None:
    state, view = three_way()
    state.kingdoms["a"].standing.battles = ["R *", "* c"]          # R is not eligible: the next entry
    assert battles.choose(view, "a") == Pick("T", "c")
    state.kingdoms["a"].standing.battles = ["T *"]
    assert battles.choose(view, "a") == Pick("T", "b")


def test_mk_pbm_5_standing_battle_choice_stays_for_later_months() -> None:
    state, view = three_way()
    state.kingdoms["a"].standing.battles = ["* c"]
    battles.select(view, [])
    assert state.battle.pending()[0].opponent == "c"
    state.calendar.month = 2                                        # a new month starts afresh
    state.battle.battles[0].result = "draw"
    battles.select(view, [])
    assert state.battle.month == "Y1M2" and state.battle.battles[0].id == "Y1M2-B1"
    assert state.battle.battles[0].opponent == "c"


def test_mk_bat_10_a10_options_remove_more_armies_and_hand_over_the_tile() -> None:
    gmap = board([("T", "U")])
    state = state_of(["a", "b"], {"T": "b"})
    army(state, "A1", "T")
    for ident in ("B1", "B2", "B3"):
        army(state, ident, "T", upright=False)
    view = view_of(state, gmap, battle={"slaughter_removes": 2, "slaughter_transfers_control": True})
    sections: list[Section] = []
    battles.select(view, sections)
    assert state.battle.battles[0].removed == "B1 B2"
    assert "T passes to Red." in texts(sections)
    assert state.owner("T") == "a"
