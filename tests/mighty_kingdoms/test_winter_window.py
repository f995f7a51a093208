"""Window W1: reading purchase lists (acknowledgements), the call, help, canonical lines and resolve."""

from __future__ import annotations

import tomllib

import tomli_w

from pbem.kit import texts as reports
from pbem.kit.dice import ScriptedDice
from pbem.kit.orders import IllegalOrder, InvalidOrder, NotAnOrder
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.base import Parsed
from pbem.rulesets.mighty_kingdoms import window_purchases
from pbem.rulesets.mighty_kingdoms.chronicle import Section, report
from pbem.rulesets.mighty_kingdoms.model import DEPLOYMENT, MKState
from pbem.rulesets.mighty_kingdoms.winter_state import WinterScratch
from tests.mighty_kingdoms.helpers_winter import (
    INFANTRY,
    MONSTER,
    WAR_ENGINE,
    add_army,
    graph_map,
    state_of,
    view_of,
)

GMAP = graph_map({"F": "land", "G": ["land", "forest"], "H": ["land", "mountains"], "I": "swamp", "J": "land",
                  "E": "land", "V": "land", "W": "land"},
                 [("F", "G"), ("F", "H"), ("F", "I"), ("F", "J"), ("J", "E"), ("E", "V"), ("V", "W")])


def board(i_owner: str = "a", armies: int = 6) -> MKState:
    state = state_of("ab", {"F": ("a", "fortress"), "G": ("a", ""), "H": ("b", ""), "I": (i_owner, ""),
                            "J": ("a", ""), "E": ("a", ""), "V": ("a", "village"), "W": ("", "")},
                     stock={"a": (1, 3), "b": (2, 2)})
    state.tiles["W"].tower = True
    for ident in ("A1", "A2", "A3", "A4", "A5", "A7")[:armies]:
        add_army(state, ident, "J")
    add_army(state, "B1", "H")
    return state


def read(text: str, state: MKState | None = None, player: str = "a") -> Parsed:
    view = view_of(state or board(), GMAP)
    lines = [(n, line.strip()) for n, line in enumerate(text.strip().splitlines(), 1) if line.strip()]
    person = view.settings.player(player)
    assert person is not None
    parsed: Parsed = window_purchases.PHASE.parse(view, person, lines)
    return parsed


def reasons(parsed: Parsed) -> list[tuple[int, str]]:
    return [(p.line_no, p.reason) for p in parsed.problems]


RECRUIT_F = f"""
RECRUIT F DISBAND A4
LIST Iron Guard
{INFANTRY}
{WAR_ENGINE}
{MONSTER}
END LIST
"""


# -- acknowledgements --------------------------------------------------------------------------------
def test_mk_scenario_11_acknowledgement_accepts_and_refuses_recruits() -> None:
    parsed = read(RECRUIT_F)
    assert not parsed.problems
    assert parsed.payload["purchases"] == [{"verb": "RECRUIT", "tile": "F", "disband": "A4", "name": "Iron Guard",
                                            "units": [INFANTRY, WAR_ENGINE, MONSTER]}]
    assert [n for n, _ in parsed.accepted] == [1, 2, 3, 4, 5, 6]
    parsed = read(RECRUIT_F, board(i_owner="b"))
    assert reasons(parsed) == [(1, "the army list is refused: U3 Cave Troll: monsters are not allowed in this list")]
    assert parsed.payload["purchases"] == []
    parsed = read(RECRUIT_F + RECRUIT_F.replace("A4", "A5"))
    assert reasons(parsed) == [(8, "F already recruits in your list (one army per fortress per winter)")]
    parsed = read(f"RECRUIT F\nLIST\n{INFANTRY}\nEND LIST")
    assert reasons(parsed) == [(1, "you have 6 armies, the most allowed; name one to disband: "
                                   "RECRUIT <fortress> DISBAND <army>")]


def test_mk_arm_9_acknowledgement_refuses_disband_below_the_cap() -> None:
    parsed = read(f"RECRUIT F DISBAND A1\nLIST\n{INFANTRY}\nEND LIST", board(armies=2))
    assert reasons(parsed) == [(1, "you have 2 armies, under the cap of 6; an army is disbanded only to recruit at "
                                   "the cap")]


def test_mk_arm_8_acknowledgement_counts_recruits_earlier_in_the_list() -> None:
    state = board(armies=5)
    state.tiles["E"].settlement = "fortress"
    parsed = read(f"RECRUIT F\nLIST\n{INFANTRY}\nEND LIST\nRECRUIT E\nLIST\n{INFANTRY}\nEND LIST", state)
    assert reasons(parsed) == [(5, "you have 6 armies, the most allowed; name one to disband: "
                                   "RECRUIT <fortress> DISBAND <army>")]


def test_mk_arm_2_acknowledgement_accepts_a_recruit_at_a_fortress_built_further_down() -> None:
    parsed = read(f"RECRUIT V\nLIST\n{INFANTRY}\nEND LIST\nBUILD fortress V", board(armies=1))
    assert not parsed.problems and len(parsed.payload["purchases"]) == 2
    parsed = read(f"RECRUIT E\nLIST\n{INFANTRY}\nEND LIST", board(armies=1))
    assert reasons(parsed) == [(1, "E holds no fortress, and none is built there in your list")]


def test_mk_bld_7_acknowledgement_accepts_a_build_on_a_settlement_built_elsewhere_in_the_list() -> None:
    parsed = read("BUILD city E\nBUILD village E")
    assert not parsed.problems
    parsed = read("BUILD city E")
    assert reasons(parsed) == [(1, "E is empty; a city is built on a village or a fortress "
                                   "(settlement costs upgrade_chain)")]


def test_mk_bld_1_acknowledgement_refuses_tiles_not_controlled_and_towers() -> None:
    parsed = read("BUILD village H\nBUILD village W\nBUILD village I")
    assert reasons(parsed) == [(1, "H is not yours; you build only on tiles you control"),
                               (2, "W is a wizard's tower; nothing is ever built on it"),
                               (3, "I is swamp; no village can be built on it")]


def test_mk_tth_4_acknowledgement_refuses_a_second_tithe_to_the_same_player() -> None:
    parsed = read("TITHE b 1g 0f\nTITHE Brennia 0g 1f")
    assert reasons(parsed) == [(2, "one tithe per player per winter; line 1 already tithes Brennia")]
    assert parsed.payload["purchases"] == [{"verb": "TITHE", "to": "b", "gold": 1, "food": 0, "message": ""}]


def test_mk_tth_1_acknowledgement_refuses_over_limit_and_empty_tithes() -> None:
    parsed = read("TITHE b 2g 0f\nTITHE b 0g 0f\nTITHE a 1g 0f")
    assert reasons(parsed) == [(1, "a tithe gives at most 1 gold and 1 food, like TITHE <player> 1g 0f"),
                               (2, "a tithe of 0 gold and 0 food gives nothing; give 1g, 1f or both"),
                               (3, "a tithe goes to another player")]


def test_mk_tth_6_acknowledgement_keeps_the_message_as_written() -> None:
    parsed = read("TITHE Brennia 0g 1f keep the peace at H, friend")
    assert parsed.payload["purchases"][0]["message"] == "keep the peace at H, friend"


def test_mk_spd_5_acknowledgement_accepts_what_the_stock_cannot_pay_yet() -> None:
    parsed = read("BUILD city V\nBUILD village E\nBUILD village G")        # 1 gold: the rest waits for tithes
    assert not parsed.problems and len(parsed.payload["purchases"]) == 3


def test_mk_w1_bad_lines_each_get_a_specific_problem() -> None:
    parsed = read("""
        BUILD vilage E
        BUILD village Xyz
        A1 MOVE J
        DEPLOY A1 F
        RECRUIT F DISBAND B1
        LIST
        Spearmen
        END LIST
        RECRUIT J
        hello there
    """)
    kinds = {p.line_no: type(p) for p in parsed.problems}
    found = dict(reasons(parsed))
    assert found[1] == "unknown settlement \u201cvilage\u201d" and parsed.problems[0].suggestion == "village"
    assert found[2].startswith("unknown tile")
    assert found[3].startswith("armies are ordered in the summer months") and kinds[3] is IllegalOrder
    assert found[4] == "deployment and artefacts are sent in the next window, after the purchases"
    assert found[5] == "B1 is not one of your armies; you disband only your own"
    assert found[7].startswith("a unit reads `name | type | Sp Me Ra De Att Ne | special rules | points`")
    assert found[9].startswith("RECRUIT needs the new army's list on the next lines: LIST <name>")
    assert kinds[10] is NotAnOrder
    assert parsed.payload["purchases"] == []


def test_mk_arm_4_unreadable_unit_lines_are_quoted_and_the_recruit_is_not_taken() -> None:
    parsed = read(f"RECRUIT F DISBAND A4\nLIST\n{INFANTRY}\nGoblins | Inf | 5 5+ - 3+ x 10/12 | | 50\nEND LIST")
    assert reasons(parsed) == [(4, "Att \u201cx\u201d must be a number like 4+ or -"),
                               (1, "some unit lines of its list cannot be read (see them below); the recruit is "
                                   "not taken")]
    assert parsed.payload["purchases"] == []


def test_mk_arm_4_a_list_block_never_closed_is_reported_on_its_list_line() -> None:
    parsed = read(f"RECRUIT F DISBAND A4\nLIST Iron Guard\n{INFANTRY}\nBUILD village E")
    found = dict(reasons(parsed))
    assert found[2].startswith("the list opened here has no END LIST")
    assert found[1] == "the recruit's list block is not closed, so the recruit is not taken"
    assert all(isinstance(p, InvalidOrder) for p in parsed.problems)
    assert parsed.payload["purchases"] == [{"verb": "BUILD", "settlement": "village", "tile": "E"}]


def test_mk_w1_list_line_without_recruit_is_explained() -> None:
    assert reasons(read("LIST Iron Guard")) == [
        (1, "LIST belongs to a recruit's list block: RECRUIT <fortress>, then LIST <name>, one unit per line "
            "(`name | type | Sp Me Ra De Att Ne | rules | points`), END LIST")]


def test_mk_w1_quest_and_standing_lines_go_to_their_parsers() -> None:
    parsed = read("QUEST W A1.U1 speed\nRETREAT * J, E\nBUILD village E")
    assert reasons(parsed) == [(1, "A1.U1 Spearmen is not a Hero unit (MK-QST-2); you have no Hero unit")]
    assert parsed.payload["standing"] == [{"verb": "RETREAT", "army": "*", "tiles": ["J", "E"]}]
    assert window_purchases.canonical(view_of(board(), GMAP), view_of(board(), GMAP).settings.players[0],
                                      parsed.payload) == ["BUILD village E", "RETREAT * J, E"]


# -- canonical lines, help, the call ------------------------------------------------------------------
def test_mk_w1_canonical_lines_can_be_sent_again() -> None:
    parsed = read(RECRUIT_F + "TITHE b 1g 0f thanks")
    view = view_of(board(), GMAP)
    lines = window_purchases.canonical(view, view.settings.players[0], parsed.payload)
    assert lines == ["RECRUIT F DISBAND A4", "LIST Iron Guard", INFANTRY, WAR_ENGINE, MONSTER, "END LIST",
                     "TITHE b 1g 0f thanks"]
    again = read("\n".join(lines))
    assert again.payload == parsed.payload
    assert window_purchases.canonical(view, view.settings.players[0], {}) == ["no purchases and no quests"]


def test_mk_w1_help_names_the_players_own_ids() -> None:
    view = view_of(board(), GMAP)
    text = window_purchases.help_text(view, view.settings.players[0])
    assert "You have 1 gold and 3 food" in text
    assert "your tiles: E, F, G, I, J, V" in text and "your fortresses: F" in text
    assert "to: b (Brennia)" in text and "Your armies: A1, A2, A3, A4, A5, A7" in text
    assert "Wizard's towers you may quest at: W" in text


def test_mk_w1_call_shows_stock_fortresses_towers_and_the_pool() -> None:
    state = board()
    view = view_of(state, GMAP)
    made = report(view, "Year 1, month 6: reform", [Section("Gather", ["Albion gathers 0 gold and 0 food"])], "k")
    text = reports.render("mighty_kingdoms", made.kind, {"campaign": {"title": "T", "name": "t"}, "rolls": [],
                                                           **made.context})
    assert "| Albion | a | 1 | 3 | 6 of 6 | F | W |" in text
    assert "| Brennia | b | 2 | 2 | 1 of 6 | none | none |" in text
    assert "a city on a village: 1 gold and 1 food" in text and "for 1 food" in text
    assert "TITHE <kingdom> <gold>g <food>f" in text and "`TITHE Brennia 1g 0f`" in text
    assert "`RECRUIT F`" in text and "`QUEST <tower> <army>.<unit>" in text


# -- resolve -----------------------------------------------------------------------------------------
def test_mk_pbm_8_resolve_runs_standing_then_spending_then_quests_and_opens_deployment() -> None:
    state = board()
    view = view_of(state, GMAP)
    parsed = read("BUILD village E\nRETREAT * J, E", state)
    out = window_purchases.PHASE.resolve(view, {"a": parsed.payload}, ScriptedDice([]))
    assert state.kingdoms["a"].standing.retreats == {"*": ["J", "E"]}
    assert state.calendar.window == DEPLOYMENT and not out.turn_finished
    sections = out.reports[0].context["mk"]["sections"]
    assert [s.title for s in sections] == ["Purchases", "Wizard's quests"]
    assert sections[0].lines[0] == "Cycle 1: Albion builds a village on E for 1 gold; now 0 gold and 3 food"
    assert sections[1].lines == ["No wizard's quest this winter"]
    assert (state.kingdoms["b"].gold, state.kingdoms["b"].food) == (2, 2)      # B sent nothing: bought nothing
    assert out.gm_alerts == []


def test_mk_arm_4_recruited_lists_go_to_the_gm_for_composition() -> None:
    state = board()
    parsed = read(RECRUIT_F, state)
    out = window_purchases.PHASE.resolve(view_of(state, GMAP), {"a": parsed.payload}, ScriptedDice([]))
    assert out.gm_alerts == ["Albion recruited A8 at F (310 points, 3 units): pbem checked its points and forbidden "
                             "units; check the rest of its Kings of War composition and settle any problem with the "
                             "player (the army stands as recruited)"]


def test_mk_pbm_8_no_submission_at_all_buys_nothing() -> None:
    state = board()
    out = window_purchases.PHASE.resolve(view_of(state, GMAP), {}, ScriptedDice([]))
    assert out.reports[0].context["mk"]["sections"][0].lines == [
        "Nobody sent a purchase list; nothing is bought this winter"]
    assert (state.kingdoms["a"].gold, state.kingdoms["a"].food) == (1, 3)


def test_mk_w1_payload_and_winter_scratch_round_trip_through_toml() -> None:
    parsed = read(RECRUIT_F + "TITHE b 1g 0f thanks\nBUILD village E")
    assert tomllib.loads(tomli_w.dumps(parsed.payload)) == parsed.payload
    scratch = WinterScratch(recruited_at=["F"], tithes=["a>b"], fortresses_built=["V"], cycles=3, recruits=["A8"])
    assert from_data(WinterScratch, tomllib.loads(tomli_w.dumps(to_data(scratch)))) == scratch
