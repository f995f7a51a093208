"""Step D: spending EP, buildings, raids, plunder, sieges, Naval Advantage costs and victory
(COC-SPD, COC-BLD, COC-WIN, COC-GEN-9; SC-8 to SC-13)."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.conquest.empire import size_of
from pbem.rulesets.conquest.model import EPAward, EventPick, NavalAdvantage, Siege, Win
from pbem.rulesets.conquest.spending import Action, run_spending

from .helpers import book, graph_map, state_of

RULES = book()
A = Action


def gmap(terrain: dict[str, str], links: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    return graph_map(terrain, links)


def give(state, **ep: int) -> None:  # type: ignore[no-untyped-def]
    state.round.ep = [EPAward(p, earned=v, available=v) for p, v in ep.items()]


def spend(state, m, orders, rules=RULES, dice=()):  # type: ignore[no-untyped-def]
    out = run_spending(state, m, rules, orders, ScriptedDice(dice))
    return {s.player: s for s in out}


# -- SC-8 -------------------------------------------------------------------------------
SC8 = gmap({"T19": "countryside", "T20": "mountain", "T21": "countryside", "T18": "countryside"},
           [("T19", "T20"), ("T20", "T21"), ("T18", "T19")])


@pytest.mark.clause("COC-SPD-1", "COC-SPD-2", "COC-SPD-3", "COC-SPD-4", "COC-SPD-6", "COC-SPD-9", "COC-SPD-21",
                    "COC-SPD-22", "COC-EVT-17", "COC-BLD-2", "COC-BLD-12")
def test_sc8_ben_spends_with_land_grab_chains_claims_and_carries_one() -> None:
    state = state_of(SC8, ["ben", "x"], {"T19": "ben", "T18": "x"}, order=["ben", "x"])
    state.round.events = [EventPick("ben", "land_grab")]
    state.round.ep = [EPAward("ben", earned=5, carried=1, available=6)]
    out = spend(state, SC8, {"ben": [[A("claim", "T20")], [A("claim", "T21")], [A("build", "T21", "castle")]]})
    assert [(r.text, r.cost) for r in out["ben"].actions] == [("claim T20", 2), ("claim T21", 2),
                                                             ("build castle T21", 1)]
    assert (out["ben"].carried, out["ben"].lost, state.empires["ben"].carried_ep) == (1, 0, 1)
    assert state.tiles["T21"].building == "castle"


@pytest.mark.clause("COC-SPD-22", "COC-SPD-23")
def test_sc8_only_first_action_leaves_four_one_carries_three_lost() -> None:
    state = state_of(SC8, ["ben", "x"], {"T19": "ben", "T18": "x"})
    state.round.events = [EventPick("ben", "land_grab")]
    state.round.ep = [EPAward("ben", available=6)]
    out = spend(state, SC8, {"ben": [[A("claim", "T20")]]})
    assert (out["ben"].spent, out["ben"].carried, out["ben"].lost) == (2, 1, 3)
    assert (out["x"].spent, out["x"].carried) == (0, 0)


SC8D = gmap({"T25": "river", "T26": "countryside", "T22": "mountain", "T23": "river", "T24": "river",
             "T27": "countryside", "T28": "countryside", "T29": "countryside"},
            [("T25", "T26"), ("T26", "T22"), ("T26", "T23"), ("T24", "T27"), ("T26", "T28"), ("T27", "T29")])


@pytest.mark.clause("COC-SPD-5", "COC-SPD-7", "COC-SPD-8", "COC-SPD-19", "COC-SPD-20", "COC-RES-17", "COC-BLD-5",
                    "COC-BLD-8")
def test_sc8_dan_conquers_with_surcharges_through_his_port_and_not_unbeaten_anna() -> None:
    owners = {"T25": "dan", "T26": "dan", "T22": "cara", "T23": "cara", "T24": "cara", "T27": "cara",
              "T29": "cara", "T28": "anna"}
    state = state_of(SC8D, ["dan", "cara", "anna"], owners, {"T25": "port", "T22": "castle", "T23": "mine",
                                                             "T24": "port"}, wins=[("dan", "cara")])
    give(state, dan=12)
    out = spend(state, SC8D, {"dan": [[A("conquer", "T22")], [A("conquer", "T23")], [A("conquer", "T24")],
                                      [A("conquer", "T28")]]})
    assert [(r.cost, r.done) for r in out["dan"].actions] == [(5, True), (3, True), (3, True), (0, False)]
    assert "did not win a battle against Anna" in out["dan"].actions[3].reason
    assert state.tiles["T22"].building == "castle" and state.tiles["T23"].building == ""
    assert state.tiles["T24"].owner == "dan" and state.tiles["T24"].building == "port"
    assert state.tiles["T28"].owner == "anna"


@pytest.mark.clause("COC-SPD-8", "COC-SPD-6")
def test_coc_spd_8_worked_costs() -> None:
    m = gmap({"H": "countryside", "P": "countryside", "M": "mountain", "C": "countryside", "MC": "mountain"},
             [("H", "P"), ("H", "M"), ("H", "C"), ("H", "MC")])
    for tile, building, cost in (("P", "", 3), ("M", "", 4), ("C", "castle", 4), ("C", "city", 4), ("MC", "castle", 5)):
        state = state_of(m, ["a", "b"], {"H": "a", tile: "b"}, {tile: building}, wins=[("a", "b")])
        give(state, a=9)
        assert spend(state, m, {"a": [[A("conquer", tile)]]})["a"].spent == cost
    for tile, cost, grab in (("P", 2, False), ("M", 3, False), ("P", 1, True), ("M", 2, True)):
        state = state_of(m, ["a", "b"], {"H": "a"})
        state.round.events = [EventPick("a", "land_grab")] if grab else []
        give(state, a=9)
        assert spend(state, m, {"a": [[A("claim", tile)]]})["a"].spent == cost
    state = state_of(m, ["a", "b"], {"H": "a"})
    state.round.events = [EventPick("a", "land_grab")]
    give(state, a=9)
    assert spend(state, m, {"a": [[A("claim", "M")]]}, rules=book(events={"land_grab_surcharges_apply": False}))[
        "a"].spent == 1


@pytest.mark.clause("COC-SPD-3")
def test_unaffordable_action_tries_its_alternate_and_ep_never_go_below_zero() -> None:
    state = state_of(SC8, ["ben", "x"], {"T19": "ben"})
    give(state, ben=2)
    out = spend(state, SC8, {"ben": [[A("claim", "T20"), A("claim", "T18")], [A("claim", "T21")]]})
    assert [(r.text, r.done) for r in out["ben"].actions] == [("claim T20", False), ("claim T18", True),
                                                             ("claim T21", False)]
    assert out["ben"].actions[0].reason == "costs 3 EP, 2 left"
    assert out["ben"].carried == 0


# -- SC-9 ------------------------------------------------------------------------------
SC9 = gmap({f"T{i}": "countryside" for i in (29, 30, 31, 32, 33, 34, 35)},
           [("T29", "T30"), ("T29", "T31"), ("T30", "T32")])


@pytest.mark.clause("COC-SPD-10", "COC-SPD-11", "COC-SPD-12", "COC-SPD-13", "COC-SPD-14", "COC-SPD-15", "COC-BLD-5",
                    "COC-BLD-8")
def test_sc9_raids_guarded_gold_second_raid_and_free_tile() -> None:
    owners = {"T29": "anna", "T30": "dan", "T32": "dan", "T33": "dan", "T34": "dan"}
    state = state_of(SC9, ["anna", "dan"], owners, {"T32": "castle", "T33": "castle", "T34": "city"},
                     treasury={"dan": 120})
    give(state, anna=3)
    out = spend(state, SC9, {"anna": [[A("raid", "T30")], [A("raid", "T30")], [A("raid", "T31")]]},
                dice=[4, 5, 6, 6, 1, 2, 6])
    assert [(r.gold, r.cost) for r in out["anna"].actions] == [(45, 1), (0, 1), (90, 1)]
    assert state.empires["dan"].treasury == 75 and state.empires["anna"].treasury == 135
    assert state.tiles["T31"].owner == "" and state.tiles["T30"].owner == "dan"


@pytest.mark.clause("COC-SPD-12", "COC-SPD-14", "COC-SPD-15")
def test_raid_options_guard_scope_adjacency_and_limit() -> None:
    owners = {"T29": "anna", "T30": "dan", "T32": "dan", "T35": "dan"}
    state = state_of(SC9, ["anna", "dan"], owners, {"T32": "castle"}, treasury={"dan": 100})
    give(state, anna=3)
    rules = book(raid={"guard_scope": "tile", "max_per_tile_per_round": 1})
    out = spend(state, SC9, {"anna": [[A("raid", "T30")], [A("raid", "T30")], [A("raid", "T35")]]}, rules=rules,
                dice=[6, 6])
    assert out["anna"].actions[0].gold == 100
    assert "already raided 1 time" in out["anna"].actions[1].reason
    assert "not next to Anna's tiles" in out["anna"].actions[2].reason


# -- SC-10 ------------------------------------------------------------------------------
SC10 = gmap({f"T{i}": "countryside" for i in (39, 40, 41, 42, 43)} | {"T40": "river"},
            [("T39", "T41"), ("T41", "T42"), ("T42", "T43"), ("T43", "T40")])


@pytest.mark.clause("COC-SPD-16", "COC-SPD-17", "COC-SPD-18", "COC-BLD-8")
def test_sc10_plunder_castle_blocked_alternate_mine_and_one_per_win() -> None:
    state = state_of(SC10, ["cara", "ben"], {"T39": "cara", "T40": "ben", "T41": "ben", "T42": "ben"},
                     {"T40": "mine", "T42": "castle"}, wins=[("cara", "ben")])
    give(state, cara=5)
    out = spend(state, SC10, {"cara": [[A("plunder", "T42"), A("plunder", "T40")], [A("plunder", "T41")]]})
    assert [(r.text, r.done, r.cost) for r in out["cara"].actions] == [
        ("plunder T42", False, 0), ("plunder T40", True, 2), ("plunder T41", False, 0)]
    assert state.tiles["T40"].building == "" and state.tiles["T40"].owner == "ben"
    assert "once for each battle" in out["cara"].actions[2].reason


@pytest.mark.clause("COC-SPD-18")
def test_sc10_variant_unlimited_plunder_frees_the_empty_tile() -> None:
    state = state_of(SC10, ["cara", "ben"], {"T39": "cara", "T40": "ben", "T41": "ben", "T42": "ben"},
                     {"T40": "mine", "T42": "castle"}, wins=[("cara", "ben")])
    give(state, cara=5)
    out = spend(state, SC10, {"cara": [[A("plunder", "T42"), A("plunder", "T40")], [A("plunder", "T41")]]},
                rules=book(plunder={"limit_per_win": 0}))
    assert out["cara"].spent == 4 and state.tiles["T41"].owner == ""


@pytest.mark.clause("COC-WIN-8", "COC-GEN-9")
def test_plundering_the_last_tile_eliminates_without_a_win() -> None:
    state = state_of(SC10, ["cara", "ben", "x"], {"T39": "cara", "T41": "ben"}, wins=[("cara", "ben")],
                     treasury={"ben": 50})
    give(state, cara=2)
    spend(state, SC10, {"cara": [[A("plunder", "T41")]]})
    assert state.empires["ben"].eliminated and state.empires["ben"].treasury == 0
    assert state.winner == ""


# -- SC-11 (the spending side of sieges) ------------------------------------------------
SC11 = gmap({f"T{i}": "countryside" for i in range(44, 56)},
            [("T44", "T50"), ("T50", "T51"), ("T51", "T52"), ("T44", "T45"), ("T45", "T46"), ("T46", "T47"),
             ("T47", "T48"), ("T52", "T53")])
SIEGE_RULES = book(siege={"enabled": True})


def sc11():  # type: ignore[no-untyped-def]
    owners = {"T44": "anna", "T45": "anna", "T46": "anna", "T47": "anna", "T48": "anna", "T49": "anna",
              "T50": "dan", "T51": "dan", "T52": "dan", "T53": "dan"}
    return state_of(SC11, ["anna", "dan"], owners, {"T44": "city", "T53": "city", "T50": "castle"},
                    wins=[("anna", "dan")])


@pytest.mark.clause("COC-SIE-2", "COC-SIE-3", "COC-SIE-4", "COC-SIE-5", "COC-SIE-6", "COC-ORD-1")
def test_sc11_siege_with_consent_costs_two_and_counts_half_to_each() -> None:
    state = sc11()
    state.round.siege_consent = {"dan": ["anna"]}
    give(state, anna=4)
    out = spend(state, SC11, {"anna": [[A("siege", "T50"), A("conquer", "T50")]]}, rules=SIEGE_RULES)
    assert out["anna"].spent == 2
    assert state.tiles["T50"].owner == "anna" and state.tiles["T50"].building == "castle"
    assert state.fortification_owner("T50") == "dan"
    assert (size_of(state, "anna", SIEGE_RULES), size_of(state, "dan", SIEGE_RULES)) == (7.5, 4.5)


@pytest.mark.clause("COC-SIE-5")
def test_sc11_variant_b_without_consent_falls_through_to_conquest_for_four() -> None:
    state = sc11()
    give(state, anna=4)
    out = spend(state, SC11, {"anna": [[A("siege", "T50"), A("conquer", "T50")]]}, rules=SIEGE_RULES)
    assert [(r.done, r.cost) for r in out["anna"].actions] == [(False, 0), (True, 4)]
    assert "did not consent" in out["anna"].actions[0].reason
    assert not state.sieges and state.tiles["T50"].owner == "anna"


@pytest.mark.clause("COC-SIE-7", "COC-SIE-12")
def test_sc11_variant_a_defender_reconquers_for_three_and_ends_the_siege() -> None:
    state = sc11()
    state.tiles["T50"].owner = "anna"
    state.sieges = [Siege("T50", "anna", "dan", 3)]
    state.round.wins = [Win("dan", "anna")]
    give(state, dan=3)
    out = spend(state, SC11, {"dan": [[A("conquer", "T50")]]}, rules=SIEGE_RULES)
    assert out["dan"].spent == 3 and not state.sieges
    assert state.tiles["T50"].owner == "dan" and state.tiles["T50"].building == "castle"


@pytest.mark.clause("COC-SIE-14")
def test_besieged_tile_no_building_no_plunder_no_third_parties() -> None:
    state = sc11()
    state.empires["cara"] = type(state.empires["anna"])("cara", "Cara")
    state.tiles["T50"].owner = "anna"
    state.sieges = [Siege("T50", "anna", "dan", 3)]
    state.round.wins = [Win("cara", "anna"), Win("dan", "anna")]
    state.round.order = ["anna", "dan", "cara"]
    give(state, anna=3, dan=3, cara=3)
    out = spend(state, SC11, {"anna": [[A("replace", "T50", "port")]], "dan": [[A("plunder", "T50")]],
                              "cara": [[A("plunder", "T50")]]}, rules=SIEGE_RULES)
    assert "under siege" in out["anna"].actions[0].reason
    assert "cannot be plundered" in out["dan"].actions[0].reason
    assert "only Anna and Dan" in out["cara"].actions[0].reason


# -- SC-12 (the spending side of Naval Advantage) --------------------------------------
SC12 = gmap({"T59": "countryside", "T60": "shore", "T61": "shore", "T62": "shore", "T63": "countryside"},
            [("T59", "T61"), ("T60", "T61"), ("T61", "T62"), ("T62", "T63")])
NAVAL = book(naval={"enabled": True, "players": ["ben", "cara", "dan"]})


def sc12(port: bool = True):  # type: ignore[no-untyped-def]
    return state_of(SC12, ["ben", "cara", "dan"], {"T59": "ben", "T60": "ben", "T61": "cara", "T62": "ben",
                                                   "T63": "cara"}, {"T60": "port" if port else ""})


@pytest.mark.clause("COC-NAV-6", "COC-NAV-8", "COC-NAV-12")
@pytest.mark.parametrize("port,cost", [(True, 2), (False, 3)])
def test_sc12_holder_conquers_subjects_shore_for_one_less_with_a_shore_port(port: bool, cost: int) -> None:
    state = sc12(port)
    state.naval = [NavalAdvantage("ben", "cara")]
    state.round.wins = [Win("ben", "cara")]
    give(state, ben=5)
    assert spend(state, SC12, {"ben": [[A("conquer", "T61")]]}, rules=NAVAL)["ben"].spent == cost
    state = sc12(port)
    state.naval = [NavalAdvantage("ben", "cara")]
    give(state, ben=5)
    assert not spend(state, SC12, {"ben": [[A("conquer", "T61")]]}, rules=NAVAL)["ben"].actions[0].done


@pytest.mark.clause("COC-NAV-7", "COC-NAV-14")
def test_sc12_subject_pays_one_more_and_modifiers_add_up() -> None:
    state = sc12()
    state.naval = [NavalAdvantage("ben", "cara")]
    state.round.wins = [Win("cara", "ben")]
    give(state, cara=9)
    assert spend(state, SC12, {"cara": [[A("conquer", "T62")]]}, rules=NAVAL)["cara"].spent == 4
    state = sc12()
    state.tiles["T62"].building = "castle"
    state.naval = [NavalAdvantage("ben", "cara")]
    state.round.wins = [Win("cara", "ben")]
    give(state, cara=9)
    assert spend(state, SC12, {"cara": [[A("conquer", "T62")]]}, rules=NAVAL)["cara"].spent == 5
    state = sc12()
    state.tiles["T61"].building = "castle"
    state.naval = [NavalAdvantage("ben", "cara")]
    state.round.wins = [Win("ben", "cara")]
    give(state, ben=9)
    assert spend(state, SC12, {"ben": [[A("conquer", "T61")]]}, rules=NAVAL)["ben"].spent == 3
    state = sc12()
    state.naval = [NavalAdvantage("dan", "ben")]
    state.round.wins = [Win("cara", "ben")]
    give(state, cara=9)
    assert spend(state, SC12, {"cara": [[A("conquer", "T62")]]}, rules=NAVAL)["cara"].spent == 3


# -- SC-13 -----------------------------------------------------------------------------
SC13 = gmap({f"T{i}": "countryside" for i in range(60, 80)},
            [(f"T{i}", f"T{i + 1}") for i in range(60, 79)])


@pytest.mark.clause("COC-WIN-1", "COC-WIN-2", "COC-WIN-3", "COC-WIN-6", "COC-WIN-7", "COC-SPD-25")
def test_sc13_size_victory_stops_the_phase() -> None:
    owners = {f"T{i}": "anna" for i in range(62, 70)} | {"T75": "cara", "T71": ""}
    state = state_of(SC13, ["anna", "cara"], owners, {"T62": "city"}, order=["anna", "cara"])
    assert size_of(state, "anna", RULES) == 9
    give(state, anna=4, cara=4)
    out = spend(state, SC13, {"anna": [[A("claim", "T70")], [A("claim", "T71")]], "cara": [[A("claim", "T76")]]})
    assert state.winner == "anna" and "victory size 10" in state.win_reason
    assert [r.text for r in out["anna"].actions] == ["claim T70"]
    assert "cara" not in out and state.tiles["T76"].owner == ""
    assert "cara's conquest orders were not carried out: the campaign is won" in state.round.log


@pytest.mark.clause("COC-WIN-4", "COC-GEN-9")
def test_sc13_knockout_by_conquest_wins() -> None:
    state = state_of(SC13, ["cara", "dan", "x"], {"T70": "cara", "T71": "dan", "T79": "x"}, wins=[("cara", "dan")],
                     treasury={"dan": 30})
    give(state, cara=3)
    spend(state, SC13, {"cara": [[A("conquer", "T71")]]})
    assert state.empires["dan"].eliminated and state.empires["dan"].treasury == 0
    assert state.winner == "cara" and "knocked dan out" in state.win_reason


@pytest.mark.clause("COC-WIN-5")
@pytest.mark.parametrize("trigger,wins", [("any_gain", True), ("claim_only", False), ("claim_or_conquer", False)])
def test_a_city_built_can_win_depending_on_the_trigger(trigger: str, wins: bool) -> None:
    owners = {f"T{i}": "anna" for i in range(60, 69)}
    state = state_of(SC13, ["anna", "b"], owners, {"T60": "castle", "T79": ""})
    state.tiles["T79"].owner = "b"
    give(state, anna=1)
    spend(state, SC13, {"anna": [[A("build", "T60", "city")]]}, rules=book(victory={"trigger": trigger}))
    assert (state.winner == "anna") is wins


@pytest.mark.clause("COC-WIN-9")
def test_half_tiles_count_toward_victory_unless_switched_off() -> None:
    owners = {f"T{i}": "anna" for i in range(60, 68)} | {"T68": "b", "T70": "b"}
    for counts, wins in ((True, True), (False, False)):
        state = state_of(SC13, ["anna", "b"], owners, {"T60": "city", "T68": "castle"}, wins=[("anna", "b")])
        state.round.siege_consent = {"b": ["anna"]}
        give(state, anna=2)
        spend(state, SC13, {"anna": [[A("siege", "T68")]]},
              rules=book(siege={"enabled": True}, victory={"besieged_counts": counts, "target_size": 9.5}))
        assert (state.winner == "anna") is wins
        assert not state.empires["b"].eliminated


# -- buildings ---------------------------------------------------------------------------
BLD = gmap({"P": "countryside", "M": "mountain", "R": "river", "S": "shore", "W": "marsh", "X": "wood"},
           [("P", "M"), ("M", "R"), ("R", "S"), ("S", "W"), ("W", "X")])


@pytest.mark.clause("COC-BLD-1", "COC-BLD-2", "COC-BLD-4", "COC-BLD-6", "COC-BLD-7", "COC-BLD-9", "COC-BLD-10")
def test_building_placement_rules_per_terrain() -> None:
    def try_build(tile: str, building: str, existing: str = "") -> bool:
        state = state_of(BLD, ["a", "b"], {t: "a" for t in "PMRSWX"}, {tile: existing})
        give(state, a=5)
        return spend(state, BLD, {"a": [[A("build", tile, building)]]})["a"].actions[0].done

    assert try_build("P", "castle") and not try_build("W", "castle")
    assert try_build("M", "mine") and try_build("R", "mine") and not try_build("P", "mine")
    assert try_build("S", "port") and try_build("R", "port") and not try_build("X", "port")
    assert not try_build("P", "city") and try_build("P", "city", "castle")
    assert not try_build("M", "city", "castle") and not try_build("W", "city", "castle")
    assert not try_build("P", "port", "castle")


@pytest.mark.clause("COC-BLD-3", "COC-BLD-6", "COC-BLD-13", "COC-BLD-11", "COC-OBJ-5")
def test_castle_then_city_in_one_phase_replace_and_city_removed_counts_one() -> None:
    m = graph_map({"P": "countryside", "Q": "river"}, [("P", "Q")])
    state = state_of(m, ["a", "b"], {"P": "a", "Q": "a"}, {"Q": "mine"})
    give(state, a=4)
    out = spend(state, m, {"a": [[A("build", "P", "castle")], [A("build", "P", "city")], [A("replace", "Q", "port")]]})
    assert out["a"].spent == 3 and state.tiles["P"].building == "city" and state.tiles["Q"].building == "port"
    assert size_of(state, "a", RULES) == 3
    give(state, a=1)
    spend(state, m, {"a": [[A("replace", "P", "castle")]]})
    assert size_of(state, "a", RULES) == 2 and state.tiles["P"].building == "castle"


@pytest.mark.clause("COC-SPD-24", "COC-SPD-19", "COC-OBJ-5", "COC-BLD-11")
def test_claiming_a_neutral_castle_costs_no_extra_and_objectives_pass_with_the_tile() -> None:
    from pbem.kit.hexes import hexmap_from_dict
    m = hexmap_from_dict({"tiles": {"H": {}, "C": {"building": "castle"}, "O": {"objective": "orc_idol"}},
                          "links": [{"between": ["H", "C"]}, {"between": ["C", "O"]}]})
    state = state_of(m, ["a", "b"], {"H": "a", "O": "b"}, wins=[("a", "b")])
    give(state, a=5)
    out = spend(state, m, {"a": [[A("claim", "C")], [A("conquer", "O")]]})
    assert [r.cost for r in out["a"].actions] == [2, 3]
    assert state.tiles["C"].building == "castle" and state.tiles["O"].owner == "a"
    assert m.tiles["O"].objective == "orc_idol"
