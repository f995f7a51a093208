"""Window W2: deployment and artefact allocation (MK-DEP-1..6, MK-ART-4/5, MK-PBM-10/11, scenario 14)."""

from __future__ import annotations

from typing import Any

from pbem.kit.dice import ScriptedDice
from pbem.kit.orders import IllegalOrder, InvalidOrder, NotAnOrder
from pbem.kit.texts import render
from pbem.rulesets.base import Parsed
from pbem.rulesets.mighty_kingdoms import deploy, window_deployment
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import ORDERS, Holding, MKState
from tests.mighty_kingdoms.helpers_quests import (
    SPEARS,
    army,
    book,
    capital,
    own,
    player,
    state,
    view,
)

KNIGHTS = "Knights | Cav | 8 3+ - 5+ 16 14/17 | Thunderous Charge (2) | 180"


def board(armies: int = 4) -> MKState:
    """Scenario 14: A's capital city T1, village T2, fortress T5 (capacity 6), armies in empty T6.
    B holds the village T12 and an army B1 there."""
    st = state(("a", "b"), window="deployment")
    capital(st, "a", "T1")
    own(st, "a", "T2", settlement="village")
    own(st, "a", "T5", settlement="fortress")
    own(st, "a", "T6", "T7")
    own(st, "b", "T12", settlement="village")
    for n in range(1, armies + 1):
        army(st, f"A{n}", "a", "T6")
    army(st, "B1", "b", "T12")
    return st


def parse(st: MKState, text: str, who: str = "a", **rules: Any) -> Parsed:
    lines = [(n, line.strip()) for n, line in enumerate(text.strip().splitlines(), start=1)]
    return window_deployment.parse(view(st, rules=book(**rules) if rules else None), player(who), lines)


def reasons(parsed: Parsed) -> list[tuple[int, str]]:
    return [(p.line_no, p.reason) for p in parsed.problems]


def deploy_all(st: MKState, payloads: dict[str, dict[str, Any]] | None = None, **rules: Any) -> list[Section]:
    sections: list[Section] = []
    deploy.run(view(st, rules=book(**rules) if rules else None), payloads or {}, sections)
    return sections


def where(st: MKState) -> dict[str, str]:
    return {a: st.armies[a].tile for a in sorted(st.armies)}


# -- scenario 14 -----------------------------------------------------------------------------------
def test_mk_scenario_14_capital_2_and_fortress_2_is_legal() -> None:
    st = board()
    assert deploy.capacity(st, book(), "a") == 6
    parsed = parse(st, "DEPLOY A1 T1\nDEPLOY A2 T1\nDEPLOY A3 T5\nDEPLOY A4 T5")
    assert not parsed.problems
    assert parsed.payload["deploy"] == {"A1": "T1", "A2": "T1", "A3": "T5", "A4": "T5"}
    deploy_all(st, {"a": parsed.payload})
    assert where(st) == {"A1": "T1", "A2": "T1", "A3": "T5", "A4": "T5", "B1": "T12"}


def test_mk_scenario_14_two_armies_on_the_village_is_rejected_whole() -> None:
    st = board()
    parsed = parse(st, "DEPLOY A1 T2\nDEPLOY A2 T2\nDEPLOY A3 T1\nDEPLOY A4 T5")
    assert parsed.payload["deploy"] == {}
    assert reasons(parsed)[1] == (2, "T2 is a village: at most 1 army may deploy there (MK-DEP-2)")
    assert [n for n, _ in reasons(parsed)] == [1, 2, 3, 4]
    assert reasons(parsed)[0][1].startswith("refused with the whole deployment, because line 2 cannot stand")


def test_mk_scenario_14_variant_capacity_3_the_fourth_army_stays_where_it_is() -> None:
    st = board()
    del st.tiles["T5"]                                # only the capital and the village
    sections = deploy_all(st)
    assert where(st) == {"A1": "T1", "A2": "T1", "A3": "T2", "A4": "T6", "B1": "T12"}
    assert "A4 finds no room in A's settlements and stays in T6 (MK-DEP-5)" in sections[0].lines


# -- the clauses -------------------------------------------------------------------------------------
def test_mk_dep_1_armies_deploy_only_to_own_settlements() -> None:
    st = board()
    assert reasons(parse(st, "DEPLOY A1 T6")) == [
        (1, "T6 holds no settlement of yours; armies deploy only to your own settlements (MK-DEP-1)")]
    assert reasons(parse(st, "DEPLOY A1 T12"))[0][1].startswith("T12 holds no settlement of yours")
    bad = parse(st, "DEPLOY B1 T1")
    assert reasons(bad) == [(1, "B1 is B's army, not yours")]


def test_mk_dep_2_limits_village_1_city_2_fortress_3() -> None:
    st = board(armies=5)
    ok = parse(st, "DEPLOY A1 T5\nDEPLOY A2 T5\nDEPLOY A3 T5\nDEPLOY A4 T1\nDEPLOY A5 T1")
    assert not ok.problems
    over = parse(st, "DEPLOY A1 T1\nDEPLOY A2 T1\nDEPLOY A3 T1")
    assert reasons(over)[2] == (3, "T1 is a city: at most 2 armies may deploy there (MK-DEP-2)")
    assert book()["deployment.limits"] == {"village": 1, "city": 2, "fortress": 3}


def test_mk_dep_3_distance_does_not_matter() -> None:
    st = board()
    own(st, "a", "T11", settlement="city")           # far from every A army
    assert not parse(st, "DEPLOY A1 T11").problems


def test_mk_dep_4_all_kingdoms_deploy_at_once_whatever_the_order() -> None:
    first, second = board(), board()
    second.order = ["b", "a"]
    deploy_all(first)
    deploy_all(second)
    assert where(first) == where(second)


def test_mk_dep_5_overflow_disband_option_releases_artefacts() -> None:
    st = board()
    del st.tiles["T5"]
    st.artefacts["Blade of Slashing"] = Holding("a", "A4", "U2")
    sections = deploy_all(st, deployment={"overflow": "disband"})
    assert "A4" not in st.armies
    lines = sections[0].lines
    gone = lines.index("A4 finds no room in A's settlements and is disbanded (MK-DEP-5)")
    assert lines[gone + 1] == "Blade of Slashing is held at A's capital"
    assert st.artefacts["Blade of Slashing"] == Holding("a", "A1", "U1")    # then allocated by default


def test_mk_dep_6_deployment_and_allocation_in_one_submission() -> None:
    st = board()
    st.artefacts["Blade of Slashing"] = Holding("a")
    parsed = parse(st, "DEPLOY A1 T1\nALLOT blade of slashing A1.U2")
    assert not parsed.problems
    assert parsed.payload == {"deploy": {"A1": "T1"}, "allot": {"Blade of Slashing": "A1.U2"}}
    assert parsed.accepted == [(1, "DEPLOY A1 T1"), (2, "ALLOT Blade of Slashing A1.U2")]


def test_mk_pbm_10_armies_in_a_settlement_with_room_stay_the_rest_fill_in_order() -> None:
    st = board(armies=6)
    own(st, "a", "T3", settlement="city")
    own(st, "a", "T9", settlement="fortress")
    st.armies["A5"].tile = "T2"                       # in the village: stays
    st.armies["A6"].tile = "T12"                      # in an enemy village: must move
    sections = deploy_all(st)
    # A5 stays; A1, A2 to the capital T1; A3, A4, A6 to the fortress T5 (before T9, by tile id)
    assert where(st) == {"A1": "T1", "A2": "T1", "A3": "T5", "A4": "T5", "A5": "T2", "A6": "T5", "B1": "T12"}
    assert "A5 stays in T2 (village; stays)" in sections[0].lines
    assert "A1 deploys to T1 (city, capital; default)" in sections[0].lines
    assert deploy.fill_order(st, "a") == ["T1", "T5", "T9", "T3", "T2"]


def test_mk_pbm_10_explicit_lines_come_before_the_stayers() -> None:
    st = board()
    st.armies["A4"].tile = "T2"
    parsed = parse(st, "DEPLOY A1 T2")
    deploy_all(st, {"a": parsed.payload})
    assert st.armies["A1"].tile == "T2" and st.armies["A4"].tile == "T5"


# -- artefacts (MK-ART-4, MK-ART-5, MK-PBM-11) ----------------------------------------------------------
def test_mk_art_4_allot_lines_are_checked_in_the_ack() -> None:
    st = board()
    army(st, "A9", "a", "T1", KNIGHTS, SPEARS)
    st.artefacts["Mace of Crushing"] = Holding("a")
    st.artefacts["Blade of Slashing"] = Holding("a")
    parsed = parse(st, "ALLOT Mace of Crushing A9.U1\nALLOT Blade of Slashing A9.U2\nALLOT Mace of Crushing A9.U2")
    assert reasons(parsed) == [
        (1, "Mace of Crushing suits only Inf or Hv Inf or Lrg Inf units (MK-ART-11)"),
        (3, "A9.U2 already gets an artefact; a unit carries at most 1 (MK-ART-14)")]
    assert parsed.payload["allot"] == {"Blade of Slashing": "A9.U2"}
    unknown = parse(st, "ALLOT Wings of Honeymaze A1.U1")
    assert isinstance(unknown.problems[0], InvalidOrder)
    assert "unknown artefact of yours" in unknown.problems[0].reason


def test_mk_art_4_allot_is_applied_at_deployment() -> None:
    st = board()
    st.artefacts["Blade of Slashing"] = Holding("a", "A1", "U1")
    parsed = parse(st, "ALLOT Blade of Slashing A3.U2")
    sections = deploy_all(st, {"a": parsed.payload})
    assert st.artefacts["Blade of Slashing"] == Holding("a", "A3", "U2")
    assert sections[1].lines == ["Blade of Slashing goes to A3.U2 Spearmen (as allotted)"]


def test_mk_art_5_and_pbm_11_previous_allocation_is_kept_while_legal() -> None:
    st = board()
    st.artefacts["Blade of Slashing"] = Holding("a", "A2", "U2")
    st.artefacts["Pipes of Terror"] = Holding("a", "A7", "U1")       # A7 is gone
    sections = deploy_all(st)
    assert st.artefacts["Blade of Slashing"] == Holding("a", "A2", "U2")
    assert st.artefacts["Pipes of Terror"] == Holding("a", "A1", "U1")
    assert sections[1].lines == ["Blade of Slashing goes to A2.U2 Spearmen (kept)",
                                 "Pipes of Terror goes to A1.U1 Captain (first unit that may carry it)"]


def test_mk_pbm_11_new_artefact_first_appropriate_unit_else_capital_else_pool() -> None:
    st = board(armies=1)
    st.armies["A1"].roster.entries.pop(0)            # A1 keeps only its Spearmen
    st.artefacts["Wings of Honeymaze"] = Holding("a")       # Hero units only: none left
    st.artefacts["Mace of Crushing"] = Holding("a")
    deploy_all(st)
    assert st.artefacts["Mace of Crushing"] == Holding("a", "A1", "U2")
    assert st.artefacts["Wings of Honeymaze"] == Holding("a")
    st.tiles["T1"].owner = "b"                        # A loses its capital
    sections = deploy_all(st)
    assert "Wings of Honeymaze" not in st.artefacts
    assert sections[1].lines[-1] == "Wings of Honeymaze goes back to the pool (A holds no capital)"


# -- the window -------------------------------------------------------------------------------------
def test_mk_dep_window_rejects_junk_and_suggests() -> None:
    st = board()
    parsed = parse(st, "MOVE A1 T2\nDEPLOY A1 T99\nDEPLOY A1\nDEPLOY A1 T1 T2")
    kinds = [type(p) for p in parsed.problems]
    assert kinds[0] is NotAnOrder
    assert all(k in (InvalidOrder, IllegalOrder) for k in kinds[1:])
    assert parsed.problems[2].suggestion == "DEPLOY A1 T1"
    assert "too much" in parsed.problems[3].reason


def test_mk_dep_window_resolves_and_opens_month_1_of_next_year() -> None:
    st = board()
    v = view(st)
    payload = window_deployment.parse(v, player("a"), [(1, "DEPLOY A1 T5")]).payload
    outcome = window_deployment.resolve(v, {"a": payload}, ScriptedDice([]))
    assert (st.calendar.year, st.calendar.month, st.calendar.window) == (2, 1, ORDERS)
    assert outcome.turn_finished
    report = outcome.reports[0]
    assert [s.title for s in report.context["mk"]["sections"]] == ["Deployment"]
    assert report.context["mk"]["title"] == "Year 1, winter: deployment"


def test_mk_dep_window_owing_missing_and_canonical() -> None:
    st = board()
    st.artefacts["Blade of Slashing"] = Holding("a")
    v = view(st)
    assert window_deployment.owing(v) == ["a", "b"]
    parsed = window_deployment.parse(v, player("a"), [(1, "DEPLOY A1 T1"), (2, "ALLOT Blade A1.U1")])
    assert window_deployment.canonical(v, player("a"), parsed.payload) == ["DEPLOY A1 T1",
                                                                            "ALLOT Blade of Slashing A1.U1"]
    assert window_deployment.missing(v, player("a"), parsed.payload) == [
        "DEPLOY A2 (the default applies)", "DEPLOY A3 (the default applies)", "DEPLOY A4 (the default applies)"]


def test_mk_dep_call_shows_each_kingdom_what_to_send() -> None:
    st = board()
    st.artefacts["Wings of Honeymaze"] = Holding("a")
    v = view(st)
    context = {"mk": {"call": window_deployment.call(v)}}
    text = render("mighty_kingdoms", "_call_deployment", {"c": context["mk"]})
    assert "`DEPLOY <army> <tile>`" in text
    assert "At most 1 army per village, 2 per city (the capital too) and 3 per fortress." in text
    assert "Settlements: T1 (city, capital, room 2), T5 (fortress, room 3), T2 (village, room 1); room for 6 armies." \
        in text
    assert "Wings of Honeymaze (25 points; Hero units only), held at the capital" in text
    assert "For example: `DEPLOY A1 T1`, `ALLOT Wings of Honeymaze A1.U1`" in text
    assert "stays where it is" in text


def test_mk_dep_help_names_the_players_own_armies_and_settlements() -> None:
    st = board(armies=1)
    st.artefacts["Blade of Slashing"] = Holding("a", "A1", "U2")
    text = window_deployment.help_text(view(st), player("a"))
    assert text.startswith("DEPLOY <army> <tile>")
    assert "Your armies: A1 in T6. Your settlements: T1 (city, capital, room 2), T5 (fortress, room 3), " \
        "T2 (village, room 1). Your artefacts: Blade of Slashing (5 points; any unit), on A1.U2. " \
        "For example: DEPLOY A1 T1; ALLOT Blade of Slashing A1.U2." in text
