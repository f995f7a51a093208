"""Window S: army lists checked at once, starting tiles claimed in player order, rings, first armies
(MK-SET-2..13, MK-PBM-1, MK-PBM-13, A17, A27, A30, A32)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.mighty_kingdoms.ruleset import RULESET
from pbem.state.campaign import Campaign
from tests.mighty_kingdoms.helpers_setup import LIST, campaign, ctx, gm, parse, resolve, state

AUTO = {"setup": {"list_approval": "auto"}}


def rolled(tmp_path: Path, rules: dict[str, Any] | None = None) -> Campaign:
    """A campaign in window S with the player order c, b, a."""
    camp = campaign(tmp_path, rules)
    resolve(camp, {}, ScriptedDice([1, 2, 3]))
    assert state(camp).order == ["c", "b", "a"]
    return camp


def sent(camp: Campaign, **texts: str) -> dict[str, dict[str, Any]]:
    out = {}
    for player, text in texts.items():
        parsed = parse(camp, player, text)
        assert not parsed.problems, [str(p) for p in parsed.problems]
        out[player] = parsed.payload
    return out


# -- what a player sends -------------------------------------------------------------------------
@pytest.mark.clause("MK-SET-8")
def test_mk_set_8_a_list_within_the_points_is_taken_with_every_line(tmp_path: Path) -> None:
    camp = rolled(tmp_path)
    parsed = parse(camp, "a", LIST + "\nSTART T10, T7\nRING village city fortress village control control\nARMY E")
    assert not parsed.problems
    assert parsed.payload["name"] == "Iron Guard" and len(parsed.payload["units"]) == 5
    assert parsed.payload["start"] == ["T10", "T7"]
    assert parsed.payload["rings"] == {"*": ["village", "city", "fortress", "village", "control", "control"]}
    assert parsed.payload["army"] == "E"
    assert RULESET.canonical(ctx(camp), camp.settings.player("a"), parsed.payload)[-1] == "ARMY E"  # type: ignore[arg-type]


@pytest.mark.clause("MK-SET-8")
def test_mk_set_8_a_list_over_500_points_is_not_stored_and_says_why(tmp_path: Path) -> None:
    camp = rolled(tmp_path)
    parsed = parse(camp, "a", LIST + "\nGiants | Lrg Inf | 6 3+ - 5+ 24 -/19 | | 200\nSTART T7")
    assert "units" not in parsed.payload and "name" not in parsed.payload
    assert parsed.payload["start"] == ["T7"]                    # the rest of the mail still counts
    assert any("700 points, over the limit of 500" in p.reason for p in parsed.problems)


@pytest.mark.clause("MK-SET-8")
def test_mk_set_8_a_30_an_exact_points_rule_refuses_a_short_list(tmp_path: Path) -> None:
    camp = rolled(tmp_path, {"army_list": {"points_rule": "exact"}})
    parsed = parse(camp, "a", "\n".join(LIST.splitlines()[:-1]))
    assert any("comes to 420 points; it must be exactly 500" in p.reason for p in parsed.problems)
    assert "units" not in parsed.payload


@pytest.mark.clause("MK-SET-9")
@pytest.mark.parametrize(("line", "category"), [
    ("Bolt Thrower | War Engine | 5 - 4+ 4+ 2 -/11 | Blast (D3) | 60", "war engines"),
    ("Wyvern | Mon | 9 4+ - 5+ 8 -/17 | Fly | 150", "monsters"),
    ("Drake Lord | Hero (Mon) | 9 3+ - 5+ 6 -/16 | Fly | 150", "hero monsters"),
    ("The Green Lady | Hero (Inf) | 6 3+ - 5+ 5 -/15 | Living Legend, Individual | 150", "living legends"),
    ("Champion | Hero (Inf) | 5 3+ - 5+ 5 -/13 | Individual | 60 | Blade of Slashing 5", "magic items"),
])
def test_mk_set_9_an_initial_list_holds_no_forbidden_category(tmp_path: Path, line: str, category: str) -> None:
    camp = rolled(tmp_path)
    parsed = parse(camp, "a", "Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100\n" + line)
    assert "units" not in parsed.payload
    assert [p.reason for p in parsed.problems if category in p.reason], [p.reason for p in parsed.problems]


@pytest.mark.clause("MK-SET-10")
def test_mk_set_10_a_27_no_terrain_loosening_for_the_initial_army(tmp_path: Path) -> None:
    camp = rolled(tmp_path, {"army_list": {"loosening": {"apply_to_initial_army": False}}})
    parsed = parse(camp, "a", "Bolt Thrower | War Engine | 5 - 4+ 4+ 2 -/11 | Blast (D3) | 60")
    assert "units" not in parsed.payload and "war engines are not allowed" in parsed.problems[0].reason


def test_an_unreadable_unit_line_keeps_the_whole_list_out_and_names_the_line(tmp_path: Path) -> None:
    camp = rolled(tmp_path)
    parsed = parse(camp, "a", LIST + "\nOgres | Brutes | 6 3+ - 5+ 9 -/14 | | 100")
    assert "units" not in parsed.payload
    assert parsed.problems[0].line_no == 7 and "unknown unit type" in parsed.problems[0].reason
    assert "could not be read" in parsed.problems[1].reason


@pytest.mark.parametrize(("line", "words"), [
    ("START T8", "no starting tile"),
    ("START T7, T7", "on the list twice"),
    ("START Nowhere", "unknown tile"),
    ("RING city city village village control control", "(this one: 2 city, 0 fortress)"),
    ("RING city village fortress village control", "6 pieces"),
    ("RING T8 city village fortress village control control", "no starting tile"),
    ("RING city village castle village control control", "unknown ring piece"),
    ("ARMY north", "capital or a direction"),
    ("MARCH T7", "no setup line"),
])
def test_bad_setup_lines_are_each_refused_with_a_reason(tmp_path: Path, line: str, words: str) -> None:
    camp = rolled(tmp_path)
    parsed = parse(camp, "a", line)
    assert words in str(parsed.problems[0]), str(parsed.problems[0])


@pytest.mark.clause("MK-SET-7")
def test_mk_set_7_an_army_may_not_start_on_a_control_tile_of_the_layout(tmp_path: Path) -> None:
    camp = rolled(tmp_path)
    parsed = parse(camp, "a", "RING city village fortress village control control\nARMY W")
    assert "control marker" in parsed.problems[0].reason and "army" not in parsed.payload


# -- the placement -------------------------------------------------------------------------------
@pytest.mark.clause("MK-SET-3")
def test_mk_set_3_starting_tiles_are_claimed_in_player_order_each_once(tmp_path: Path) -> None:
    camp = rolled(tmp_path, AUTO)
    subs = sent(camp, a=LIST + "\nSTART T28, T7", b=LIST + "\nSTART T28, T10", c=LIST + "\nSTART T28")
    resolve(camp, subs, ScriptedDice([]))
    st = state(camp)
    assert {p: k.start_tile for p, k in st.kingdoms.items()} == {"c": "T28", "b": "T10", "a": "T7"}
    assert all(st.capital_of(p) == st.kingdoms[p].start_tile for p in st.kingdoms)


@pytest.mark.clause("MK-SET-4", "MK-SET-5", "MK-SET-6")
def test_mk_set_4_5_6_the_ring_lays_the_settlements_and_control_markers_as_asked(tmp_path: Path) -> None:
    camp = rolled(tmp_path, AUTO)
    subs = sent(camp, a=LIST + "\nSTART T28\nRING village control city control fortress village",
                b=LIST, c=LIST)
    resolve(camp, subs, ScriptedDice([]))
    st = state(camp)
    gmap = RULESET.load_map(camp.settings)
    from pbem.rulesets.mighty_kingdoms.tiles import direction
    got = [st.tile(direction(gmap, "T28", d)).settlement or "control" for d in ("NE", "E", "SE", "SW", "W", "NW")]
    assert got == ["village", "control", "city", "control", "fortress", "village"]
    for player in "abc":
        assert len(st.kingdom_tiles(player)) == 7
        assert {k: len(st.settlements_of(player, k)) for k in ("village", "city", "fortress")} == {
            "village": 2, "city": 2, "fortress": 1}
        assert all(st.explored(t) for t in st.kingdom_tiles(player))


@pytest.mark.clause("MK-SET-4")
def test_mk_set_4_a_layout_given_for_the_tile_assigned_wins_over_the_general_one(tmp_path: Path) -> None:
    camp = rolled(tmp_path, AUTO)
    subs = sent(camp, c=LIST + "\nSTART T7\nRING control control city village fortress village\n"
                             "RING T7 fortress city village village control control\nARMY NE", a=LIST, b=LIST)
    resolve(camp, subs, ScriptedDice([]))
    st = state(camp)
    gmap = RULESET.load_map(camp.settings)
    from pbem.rulesets.mighty_kingdoms.tiles import direction
    ne = direction(gmap, "T7", "NE")
    assert st.tile(ne).settlement == "fortress"
    assert st.armies_of("c")[0].tile == ne                       # MK-SET-7: on a settled ring tile


@pytest.mark.clause("MK-PBM-1")
def test_mk_pbm_1_defaults_for_a_player_who_sends_only_his_list(tmp_path: Path) -> None:
    camp = rolled(tmp_path, AUTO)
    subs = sent(camp, c=LIST + "\nSTART T7", b=LIST + "\nSTART T10", a=LIST)
    resolve(camp, subs, ScriptedDice([]))
    st = state(camp)
    assert st.kingdoms["a"].start_tile == "T28"                  # the lowest-numbered free starting tile
    gmap = RULESET.load_map(camp.settings)
    from pbem.rulesets.mighty_kingdoms.tiles import direction
    ring = [st.tile(direction(gmap, "T28", d)).settlement or "control" for d in ("NE", "E", "SE", "SW", "W", "NW")]
    assert ring == ["city", "village", "fortress", "village", "control", "control"]
    assert st.armies_of("a")[0].tile == "T28"                    # in the capital


@pytest.mark.clause("MK-SET-12", "MK-SET-13")
def test_mk_set_12_13_each_kingdom_starts_with_its_stock_and_exactly_one_army(tmp_path: Path) -> None:
    camp = rolled(tmp_path, {**AUTO, "setup": {"list_approval": "auto", "start_gold": 2}})
    resolve(camp, sent(camp, a=LIST, b=LIST, c=LIST), ScriptedDice([]))
    st = state(camp)
    assert {p: (k.gold, k.food) for p, k in st.kingdoms.items()} == {p: (2, 0) for p in "abc"}
    assert {p: [a.id for a in st.armies_of(p)] for p in "abc"} == {"a": ["A1"], "b": ["B1"], "c": ["C1"]}
    assert st.armies["A1"].roster.name == "Iron Guard" and st.armies["A1"].roster.points == 500
    assert st.kingdoms["a"].armies_raised == 1


@pytest.mark.clause("MK-SET-12")
def test_mk_set_12_a_28_the_shipped_stock_is_0_gold_and_0_food(tmp_path: Path) -> None:
    camp = rolled(tmp_path)
    assert {(k.gold, k.food) for k in state(camp).kingdoms.values()} == {(0, 0)}


@pytest.mark.clause("MK-SET-2", "MK-YR-4")
def test_mk_set_2_mk_yr_4_the_rolled_order_holds_and_month_1_opens_after_setup(tmp_path: Path) -> None:
    camp = rolled(tmp_path, AUTO)
    res = resolve(camp, sent(camp, a=LIST, b=LIST, c=LIST), ScriptedDice([]))
    st = state(camp)
    assert st.order == ["c", "b", "a"]
    assert (st.calendar.year, st.calendar.month, st.calendar.window, st.calendar.turn) == (1, 1, "orders", 1)
    assert res.turn_finished
    assert "Month 1 of year 1 begins" in res.reports[0].context["mk"]["sections"][-1].lines[0]


# -- missing and unapproved lists ----------------------------------------------------------------
@pytest.mark.clause("MK-PBM-1")
def test_mk_pbm_1_a_missing_list_goes_to_the_gm_and_the_player_gets_more_time(tmp_path: Path) -> None:
    camp = rolled(tmp_path, AUTO)
    res = resolve(camp, sent(camp, c=LIST, b=LIST), ScriptedDice([]))
    st = state(camp)
    assert st.kingdoms["a"].start_tile and st.armies_of("a") == [] and st.setup.missing == ["a"]
    told = "Red Realm has no army list: the deadline is extended for them. Settle it with SETLIST a"
    assert any(told in a for a in res.gm_alerts)
    stage = RULESET.stage(ctx(camp))
    assert (stage.kind, stage.owing, stage.window) == ("lists", ("a",), "lists")
    assert RULESET.gm_pending(ctx(camp)) == [
        "the army list Red Realm still owes: SETLIST a <unit> ; <unit> ... or NOARMY a if it never comes"]
    late = parse(camp, "a", LIST)
    res = resolve(camp, {"a": late.payload}, ScriptedDice([]))
    st = state(camp)
    assert st.armies_of("a")[0].tile == "T28" and st.calendar.month == 1 and res.turn_finished


@pytest.mark.clause("MK-PBM-1", "MK-SET-11")
def test_mk_pbm_1_mk_set_11_the_list_stage_reads_only_missing_army_lists(tmp_path: Path) -> None:
    camp = rolled(tmp_path, AUTO)
    resolve(camp, sent(camp, c=LIST, b=LIST), ScriptedDice([]))
    parsed = parse(camp, "a", "START T7")
    assert "only your army list is wanted" in parsed.problems[0].reason
    parsed = parse(camp, "b", LIST)
    assert "units" not in parsed.payload and "(MK-SET-11)" in parsed.problems[0].reason


@pytest.mark.clause("MK-PBM-1")
def test_mk_pbm_1_a_list_that_never_comes_is_settled_by_the_gm(tmp_path: Path) -> None:
    camp = rolled(tmp_path, AUTO)
    resolve(camp, sent(camp, c=LIST, b=LIST), ScriptedDice([]))
    unit = "Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100"
    assert gm(camp, "SETLIST", "a", *f"{unit} ; {unit}".split()) == "Red Realm's army A1 is raised from your list"
    assert state(camp).armies["A1"].roster.points == 200 and RULESET.stage(ctx(camp)).ready


@pytest.mark.clause("MK-END-3")
def test_mk_end_3_noarmy_lets_a_kingdom_start_without_an_army(tmp_path: Path) -> None:
    camp = rolled(tmp_path, AUTO)
    resolve(camp, sent(camp, c=LIST, b=LIST), ScriptedDice([]))
    with pytest.raises(ValueError, match="owes no army list"):
        gm(camp, "NOARMY", "b")
    assert gm(camp, "NOARMY", "a") == "Red Realm starts without an army"
    resolve(camp, {}, ScriptedDice([]))
    st = state(camp)
    assert st.armies_of("a") == [] and st.calendar.month == 1 and "a" in st.order
    assert st.kingdom_tiles("a")                                 # the kingdom stays in the game


@pytest.mark.clause("MK-PBM-13")
def test_mk_pbm_13_every_list_waits_for_the_gm_before_month_1(tmp_path: Path) -> None:
    camp = rolled(tmp_path)
    res = resolve(camp, sent(camp, a=LIST, b=LIST, c=LIST), ScriptedDice([]))
    st = state(camp)
    assert st.setup.pending == ["c", "b", "a"] and st.calendar.month == 0
    assert len([a for a in res.gm_alerts if "waits for your approval" in a]) == 3
    stage = RULESET.stage(ctx(camp))
    assert stage.waiting_for_gm and not stage.ready and stage.owing == ()
    assert gm(camp, "APPROVE", "c") == "approved: Green Hold's army list"
    with pytest.raises(ValueError, match="only these lists wait"):
        gm(camp, "APPROVE", "c")
    assert gm(camp, "APPROVE", "Blue", "March", "a") == "approved: Blue March's army list, Red Realm's army list"
    assert RULESET.stage(ctx(camp)).ready
    res = resolve(camp, {}, ScriptedDice([]))
    assert state(camp).calendar.month == 1 and res.turn_finished


@pytest.mark.clause("MK-PBM-13")
def test_mk_pbm_13_a_rejected_list_is_owed_again_with_the_gms_reason(tmp_path: Path) -> None:
    camp = rolled(tmp_path)
    resolve(camp, sent(camp, a=LIST, b=LIST, c=LIST), ScriptedDice([]))
    gm(camp, "REJECT", "b", "two", "heroes", "need", "more", "regiments")
    st = state(camp)
    assert "B1" not in st.armies and st.setup.missing == ["b"] and st.setup.army_at["b"]
    assert RULESET.stage(ctx(camp)).owing == ("b",)
    res = resolve(camp, {}, ScriptedDice([]))
    assert res.reports[0].context["mk"]["setup"]["missing"] == [
        {"name": "Blue March", "id": "b", "why": "two heroes need more regiments"}]
    fixed = parse(camp, "b", LIST)
    resolve(camp, {"b": fixed.payload}, ScriptedDice([]))
    assert state(camp).armies["B2"].tile                        # A32: a new id, never reused
    assert state(camp).setup.pending == ["c", "a", "b"]


@pytest.mark.clause("MK-PBM-1")
def test_mk_pbm_1_setlist_refuses_a_list_the_rules_refuse_and_says_why(tmp_path: Path) -> None:
    camp = rolled(tmp_path, AUTO)
    resolve(camp, sent(camp, c=LIST, b=LIST), ScriptedDice([]))
    with pytest.raises(ValueError, match="monsters are not allowed"):
        gm(camp, "SETLIST", "a", *"Wyvern | Mon | 9 4+ - 5+ 8 -/17 | Fly | 150".split())
    with pytest.raises(ValueError, match="unknown player"):
        gm(camp, "SETLIST", "zed", "x")
    assert state(camp).setup.missing == ["a"]
