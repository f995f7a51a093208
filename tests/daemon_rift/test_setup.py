"""Campaign creation and list registration (DR-SET, DR-LST-1..3, DR-LST-9)."""

from __future__ import annotations

import tomllib

import pytest
import tomli_w

from pbem.kit.rulebook import RuleBook
from pbem.kit.territories import GameMap, map_from_dict
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.daemon_rift.model import LIST_ACTIVE, LIST_ELIMINATED, LIST_SHELVED, LIST_UNUSED, DRState
from pbem.rulesets.daemon_rift.setup import SetupError, approve_list, new_state, open_turn_one, ready_to_start
from tests.daemon_rift.conftest import build_map

RED_BLUE = [("R", "Red", "alice", "R"), ("B", "Blue", "bob", "B")]


def opened(rules: RuleBook) -> DRState:
    return new_state(build_map(), rules, RED_BLUE)


def approve_all(state: DRState) -> None:
    for fid in ready_to_start(state):
        approve_list(state, f"{fid}-1", name=f"{fid} host", artillery=False, fast=False, declared=[])


def test_dr_set_1_each_faction_takes_stronghold_and_originals_from_its_map_home(rules: RuleBook) -> None:
    state = opened(rules)
    red, blue = state.factions["R"], state.factions["B"]
    assert (red.name, red.player, red.stronghold, red.originals) == ("Red", "alice", "T1", ["T1", "T2", "T4"])
    assert (blue.stronghold, sorted(blue.originals)) == ("T9", ["T6", "T8", "T9"])
    assert state.faction_order == ["R", "B"]


def test_dr_set_1_faction_order_is_kept_as_given(rules: RuleBook) -> None:
    state = new_state(build_map(), rules, list(reversed(RED_BLUE)))
    assert state.faction_order == ["B", "R"]


def test_dr_set_2_only_originals_controlled_specials_and_objective_unclaimed(rules: RuleBook) -> None:
    state = opened(rules)
    assert state.control == {"T1": "R", "T2": "R", "T4": "R", "T9": "B", "T6": "B", "T8": "B"}
    state = new_state(build_map(special=("T3", "T7")), rules, RED_BLUE)
    assert "T3" not in state.control and "T7" not in state.control and "T5" not in state.control


def test_dr_set_3_one_list_token_on_the_stronghold_tied_to_list_1(rules: RuleBook) -> None:
    state = opened(rules)
    assert {t.id: t.territory for t in state.tokens.values()} == {"R-1": "T1", "B-1": "T9"}
    first = state.lists["R-1"]
    assert (first.status, first.points, first.approved, first.slot) == (LIST_ACTIVE, 2250, False, 1)
    assert state.list_of(state.tokens["R-1"]) is first


def test_dr_lst_1_dr_lst_2_three_list_slots_per_faction_slots_2_and_3_unused(rules: RuleBook) -> None:
    state = opened(rules)
    assert sorted(k for k in state.lists if k.startswith("R-")) == ["R-1", "R-2", "R-3"]
    assert state.lists["R-2"].status == state.lists["R-3"].status == LIST_UNUSED
    assert all(not t.defensive for t in state.tokens.values())


def test_dr_set_4_refuses_a_map_without_two_specials_and_an_objective_listing_both(rules: RuleBook) -> None:
    with pytest.raises(SetupError) as caught:
        new_state(build_map(special=("T3",), objective=""), rules, RED_BLUE)
    assert len(caught.value.problems) == 2
    assert isinstance(caught.value, ValueError)


def test_dr_set_4_refuses_three_specials_or_an_objective_that_is_special(rules: RuleBook) -> None:
    with pytest.raises(SetupError, match="exactly 2"):
        new_state(build_map(special=("T2", "T3", "T7")), rules, RED_BLUE)
    with pytest.raises(SetupError, match="also a special"):
        new_state(build_map(special=("T2", "T5")), rules, RED_BLUE)


def test_dr_set_1_refuses_unknown_and_duplicate_homes_and_too_many_factions_at_once(rules: RuleBook) -> None:
    factions = [("R", "Red", "a", "R"), ("B", "Blue", "b", "R"), ("G", "Green", "c", "Z")]
    with pytest.raises(SetupError) as caught:
        new_state(build_map(), rules, factions)
    text = str(caught.value)
    assert "3 factions but the map has only 2 homes" in text
    assert "home 'R' is given to 2 factions" in text
    assert "home 'Z' is not on the map" in text


def test_dr_lst_1_refuses_duplicate_or_unusable_faction_ids(rules: RuleBook) -> None:
    with pytest.raises(SetupError) as caught:
        new_state(build_map(), rules, [("R", "Red", "a", "R"), ("R", "Rot", "b", "B")])
    assert "faction id 'R' is used 2 times" in str(caught.value)
    with pytest.raises(SetupError, match="without '-'"):
        new_state(build_map(), rules, [("R-x", "Red", "a", "R")])


def test_dr_set_1_refuses_homes_that_share_a_territory(rules: RuleBook) -> None:
    gmap = _map_with_homes({"R": ("T1", ["T1", "T2"]), "B": ("T3", ["T3", "T2"])})
    with pytest.raises(SetupError, match="share T2"):
        new_state(gmap, rules, RED_BLUE)


def test_dr_set_5_campaign_waits_until_every_list_1_is_approved(rules: RuleBook) -> None:
    state = opened(rules)
    assert state.phase == "lists" and ready_to_start(state) == ["R", "B"]
    approve_list(state, "B-1", name="Blue host", artillery=False, fast=False, declared=[])
    assert ready_to_start(state) == ["R"] and state.phase == "lists"
    approve_list(state, "R-1", name="Red host", artillery=False, fast=False, declared=[])
    assert ready_to_start(state) == [] and state.phase == "lists"     # the lists stage resolves first
    assert open_turn_one(state) and (state.phase, state.turn) == ("orders", 1)


def test_dr_lst_9_approve_list_stores_name_artillery_fast_and_declarations(rules: RuleBook) -> None:
    state = opened(rules)
    warnings = approve_list(state, "R-1", name="Iron Host", artillery=True, fast=False,
                            declared=["Grimgor", " Sword of Might "])
    lst = state.lists["R-1"]
    assert warnings == []
    assert (lst.name, lst.artillery, lst.fast, lst.approved, lst.points, lst.battles) == \
        ("Iron Host", True, False, True, 2250, 0)
    assert lst.declared == ["Grimgor", "Sword of Might"]


def test_dr_lst_3_name_shared_with_an_active_or_shelved_list_is_flagged_not_refused(rules: RuleBook) -> None:
    state = opened(rules)
    approve_all(state)
    state.lists["R-1"].declared = ["Grimgor"]
    state.lists["R-2"].status, state.lists["R-2"].declared = LIST_SHELVED, ["Crown of Command"]
    state.lists["R-3"].status = LIST_ACTIVE
    warnings = approve_list(state, "R-3", name="Third", artillery=False, fast=True,
                            declared=["grimgor", "Crown of Command", "Armour of Fate"])
    assert len(warnings) == 2
    assert "R-1" in warnings[0] and "R-2" in warnings[1] and "shelved" in warnings[1]
    assert state.lists["R-3"].approved


def test_dr_lst_3_eliminated_lists_do_not_clash_but_a_repeat_within_the_list_does(rules: RuleBook) -> None:
    state = opened(rules)
    state.lists["R-2"].status, state.lists["R-2"].declared = LIST_ELIMINATED, ["Grimgor"]
    warnings = approve_list(state, "R-1", name="Host", artillery=False, fast=False,
                            declared=["Grimgor", "Talisman", "talisman"])
    assert warnings == ["R-1: “talisman” is declared twice in this list"]


def test_dr_lst_8_approve_refuses_a_slot_without_a_list(rules: RuleBook) -> None:
    with pytest.raises(ValueError, match="R-2"):
        approve_list(opened(rules), "R-2", name="x", artillery=False, fast=False, declared=[])
    with pytest.raises(ValueError, match="Q-1"):
        approve_list(opened(rules), "Q-1", name="x", artillery=False, fast=False, declared=[])


def test_opening_state_round_trips_through_toml(rules: RuleBook) -> None:
    state = opened(rules)
    approve_all(state)
    text = tomli_w.dumps(to_data(state))
    assert from_data(DRState, tomllib.loads(text)) == state


def _map_with_homes(homes: dict[str, tuple[str, list[str]]]) -> GameMap:
    return map_from_dict({
        "territories": {t: {} for t in ("T1", "T2", "T3", "S1", "S2", "O")},
        "borders": [{"between": ["T1", "T2"]}, {"between": ["T2", "T3"]}],
        "homes": {k: {"stronghold": s, "originals": o} for k, (s, o) in homes.items()},
        "special": ["S1", "S2"], "objective": "O",
    })
