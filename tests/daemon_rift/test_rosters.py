"""The generic roster (pbem/kit/roster.py) and Daemon Rift list registration (DR-LST)."""

from __future__ import annotations

import pytest

from pbem.kit.orders import OrderProblem
from pbem.kit.roster import (
    Entry,
    Item,
    Mark,
    Roster,
    RosterError,
    format_entry,
    parse_entry,
    roster_from_toml,
    roster_to_toml,
    toml_blocks,
)
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.daemon_rift.model import (
    LIST_ACTIVE,
    LIST_ELIMINATED,
    ArmyList,
    DRState,
)
from pbem.rulesets.daemon_rift.rosters import (
    KINDS,
    parse_lists,
    shared_names,
    split_list_lines,
)
from pbem.rulesets.daemon_rift.setup import approve_list
from tests.daemon_rift.conftest import build_state, rules_with

LIST = """\
LIST R-2 Iron Host
ARTILLERY R-2 yes
FAST R-2 no
U1 infantry 20 Spearmen @6
C1 character Captain @50 W2 general | Sword of Might 25; Shield 10
M1 machine Cannon @100 W3 artillery"""


def lines(text: str) -> list[tuple[int, str]]:
    return list(enumerate(text.splitlines(), start=1))


def opened(**lists: dict[str, object]) -> DRState:
    state = build_state({"R-1": "T1", "R-2": "T2", "R-D1": "T4", "B-1": "T9"})
    state.lists["R-2"].approved = False
    for key, fields in lists.items():
        for name, value in fields.items():
            setattr(state.lists[key.replace("_", "-")], name, value)
    return state


def register(state: DRState, rules: RuleBook, text: str, faction: str = "R"):  # type: ignore[no-untyped-def]
    return parse_lists(state, rules, faction, lines(text))


# --- the generic roster --------------------------------------------------------------------

def test_roster_entry_lines_parse_and_format_as_a_pair() -> None:
    e = parse_entry("C1 character Orc Warboss @95 W3 general | Armour of Gork 50; Porko's Pigstikka 25", KINDS)
    assert (e.kind, e.models, e.wounds, e.points, e.tags) == ("character", 1, 3, 95, ["general"])
    assert e.items == [Item("Armour of Gork", 50), Item("Porko's Pigstikka", 25)] and e.cost == 170
    assert parse_entry(format_entry(e), KINDS) == e
    assert parse_entry("u2 2w 6 Flesh Hounds @35", KINDS).kind == "twowound"
    with pytest.raises(OrderProblem, match="unknown kind"):
        parse_entry("U1 dragonfly 3 Things @5", KINDS)
    with pytest.raises(OrderProblem, match="an entry reads"):
        parse_entry("U1 infantry 20 Spearmen", KINDS)


def test_roster_round_trips_through_toml_with_its_ledger_and_history() -> None:
    r = Roster("R-1", "Host", 2250, ["artillery"], [Entry("U1", "Spearmen", "infantry", 20, 1, 6)])
    r.entries[0].add_mark(Mark("missing_models", "", 2, permanent=False, turn=3))
    r.entries[0].counters["deaths"] = 1
    r.note(3, "U1", "battle 1: 2 models fewer")
    assert roster_from_toml(roster_to_toml(r)) == r


def test_roster_from_a_player_refuses_ledger_keys_and_reports_every_problem() -> None:
    text = 'army = "R-1"\nhistory = []\n[[entries]]\nid = "U1"\nkind = "infantry"\nmodels = "ten"\nmarks = []\n'
    with pytest.raises(RosterError) as error:
        roster_from_toml(text, KINDS, ledger=False)
    assert {"unknown key 'history'", "entry 1: unknown key 'marks'", "entry 1: `name` is missing",
            "entry 1: `models` must be a whole number"} <= set(error.value.problems)


def test_roster_problems_limit_and_duplicates() -> None:
    r = Roster("R-1", "Host", 100, [], [Entry("U1", "A", "infantry", 10, 1, 6), Entry("u1", "B", "infantry", 10, 1, 6)])
    assert r.problems(["infantry"]) == ["entry id u1 is used twice", "R-1 comes to 120 points, over its limit of 100"]


def test_toml_blocks_split_two_attached_rosters() -> None:
    blocks = toml_blocks([(1, 'army = "R-1"'), (2, "[[entries]]"), (3, 'army = "R-2"'), (4, 'name = "x"')])
    assert [[n for n, _ in b] for b in blocks] == [[1, 2], [3, 4]]


def test_roster_take_and_clear_temporary() -> None:
    e = Entry("U1", "Spearmen", "infantry", 20, 1, 6)
    e.add_mark(Mark("missing_models", "", 2, permanent=False))
    e.add_mark(Mark("missing_models", "", 1, permanent=False))
    assert e.take("missing_models", 2) == 2 and e.total("missing_models") == 1
    r = Roster("R-1", entries=[e])
    e.add_mark(Mark("upgrade", "WS", 1))
    assert len(r.clear_temporary()) == 1 and [m.kind for m in e.marks] == ["upgrade"]


# --- DR-LST registration ----------------------------------------------------------------------

def test_dr_lst_9_list_lines_with_entries_are_registered_whole(rules: RuleBook) -> None:
    state = opened()
    regs, accepted, problems = register(state, rules, LIST)
    assert problems == [] and len(accepted) == 6
    reg = regs["R-2"]
    assert (reg.name, reg.artillery, reg.fast) == ("Iron Host", True, False)
    assert [e.id for e in reg.roster.entries] == ["U1", "C1", "M1"] and reg.roster.points == 305
    assert reg.lines()[:3] == ["LIST R-2 Iron Host", "ARTILLERY R-2 yes", "FAST R-2 no"]
    again, _, _ = register(state, rules, "\n".join(reg.lines()))          # canonical lines read back the same
    assert again["R-2"].roster == reg.roster
    approve_list(state, "R-2", name=reg.name, artillery=reg.artillery, fast=reg.fast, declared=reg.declared,
                 roster=reg.roster)
    lst = state.lists["R-2"]
    assert lst.approved and lst.artillery and lst.roster.points == 305 and lst.roster.army == "R-2"
    assert {"Sword of Might", "Shield"} <= set(lst.declared)


def test_dr_lst_1_no_list_for_a_defensive_token_and_only_own_slots(rules: RuleBook) -> None:
    state = opened()
    _, _, problems = register(state, rules, "LIST R-D1 Guards\nU1 infantry 10 Guard @5")
    assert "defensive tokens have no list" in problems[0].reason and len(problems) == 1
    _, _, problems = register(state, rules, "LIST B-1 Stolen")
    assert "not one of your list slots" in problems[0].reason


def test_dr_lst_2_points_limit_2250_and_2200_for_a_replacement(rules: RuleBook) -> None:
    big = "LIST R-2 Big Host\nU1 infantry 40 Knights @55\nU2 infantry 10 Guard @6"
    state = opened()
    regs, _, problems = register(state, rules, big)                    # 2200 + 60 = 2260
    assert regs == {} and any("2260 points, over its limit of 2250" in p.reason for p in problems)
    assert any("was not registered" in p.reason for p in problems)
    state = opened(R_2={"points": 2200, "replacement": True})
    regs, _, problems = register(state, rules, "LIST R-2 Host\nU1 infantry 40 Knights @55\nU2 infantry 1 Page @1")
    assert regs == {} and "over its limit of 2200" in problems[0].reason
    regs, _, _ = register(opened(), rules, "LIST R-2 Host\nU1 infantry 40 Knights @55")
    assert regs["R-2"].roster.points == 2200


def test_dr_lst_2_a_raised_replacement_may_send_its_list_again_keeping_its_ledger(rules: RuleBook) -> None:
    state = opened(R_2={"approved": True, "points": 2250})
    old = Roster("R-2", "Host", 2200, [], [Entry("U1", "Spearmen", "infantry", 20, 1, 6)])
    old.entries[0].add_mark(Mark("upgrade", "WS", 1))
    state.lists["R-2"].roster = old
    regs, _, problems = register(state, rules, "LIST R-2 Host\nU1 infantry 20 Spearmen @6\nU2 infantry 8 Guard @6")
    assert problems == []
    approve_list(state, "R-2", name="Host", artillery=False, fast=False, declared=[], roster=regs["R-2"].roster)
    new = state.lists["R-2"].roster
    assert new.limit == 2250 and new.get("U1").marks_of("upgrade")            # type: ignore[union-attr]
    _, _, problems = register(state, rules, "LIST R-2 Host again\nU1 infantry 20 Spearmen @6")
    assert "already approved" in problems[0].reason


def test_dr_lst_3_special_characters_and_items_shared_between_lists_are_flagged(rules: RuleBook) -> None:
    state = opened()
    first = Roster("R-1", "One", 2250, [], [parse_entry("C1 character Grimgor @345 W3 special | Axe 50", KINDS)])
    state.lists["R-1"].roster = first
    regs, accepted, problems = register(state, rules, "LIST R-2 Two\nC1 character Grimgor @345 W3 special"
                                               "\nC2 character Boss @60 W2 | Axe 50; Charm 10; Charm 10")
    assert problems == []
    assert "the GM will check: R-2: “Charm” appears twice" in dict(accepted)[1]
    flags = regs["R-2"].flags
    assert "R-2: “Charm” appears twice in this list" in flags
    assert "R-2: “Grimgor” is also in R-1 (active)" in flags and "R-2: “Axe” is also in R-1 (active)" in flags
    state.lists["R-1"].status = LIST_ELIMINATED                           # only active or shelved lists count
    assert not [f for f in shared_names(state, regs["R-2"]) if "R-1" in f]


@pytest.mark.parametrize("option,flagged,free", [
    ({"share_special_characters": True}, ["“Axe”", "“Charm”"], ["“Grimgor”"]),
    ({"share_unique_magic_items": True}, ["“Grimgor”"], ["“Axe”", "“Charm”"]),
    ({"share_special_characters": True, "share_unique_magic_items": True}, [], ["“Grimgor”", "“Axe”", "“Charm”"]),
])
def test_dr_lst_3_share_options_leave_out_what_may_be_shared(option: dict[str, bool], flagged: list[str],
                                                             free: list[str]) -> None:
    rules = rules_with(lists=option)
    state = opened()
    first = Roster("R-1", "One", 2250, [], [parse_entry("C1 character Grimgor @345 W3 special | Axe 50", KINDS)])
    state.lists["R-1"].roster = first
    state.lists["R-1"].declared = ["Grimgor", "Axe"]
    regs, _, problems = register(state, rules, "LIST R-2 Two\nC1 character Grimgor @345 W3 special"
                                               "\nC2 character Boss @60 W2 | Axe 50; Charm 10; Charm 10")
    assert problems == []
    approved = approve_list(state, "R-2", name="Two", artillery=False, fast=False, declared=[],
                            roster=regs["R-2"].roster, rules=rules)
    for text in (regs["R-2"].flags, approved):                          # at registration, and at approval
        joined = "; ".join(text).casefold()
        assert all(f.casefold() in joined for f in flagged), joined
        assert not any(n.casefold() in joined for n in free), joined


def test_dr_lst_4_lists_may_share_ordinary_units_and_models(rules: RuleBook) -> None:
    state = opened()
    state.lists["R-1"].roster = Roster("R-1", "One", 2250, [], [parse_entry("U1 infantry 20 Spearmen @6", KINDS)])
    regs, _, problems = register(state, rules, "LIST R-2 Two\nU1 infantry 20 Spearmen @6")
    assert problems == [] and regs["R-2"].flags == []


def test_dr_lst_8_lists_come_with_the_orders_and_entry_lines_follow_their_list_line() -> None:
    mine, rest = split_list_lines(lines("R-1 H\nLIST R-2 Host\nU1 infantry 20 Spearmen @6\nR-2 H\nU2 infantry 1 x @1"))
    assert [n for n, _ in mine] == [2, 3] and [n for n, _ in rest] == [1, 4, 5]


def test_lists_as_a_toml_attachment(rules: RuleBook) -> None:
    text = ('army = "R-2"\nname = "Iron Host"\ntags = ["artillery"]\n[[entries]]\nid = "u1"\nkind = "2w"\n'
            'name = "Flesh Hounds"\nmodels = 6\npoints = 35')
    regs, accepted, problems = register(opened(), rules, text)
    assert problems == [] and regs["R-2"].artillery
    assert regs["R-2"].roster.entries[0].wounds == 2 and regs["R-2"].roster.entries[0].id == "U1"
    assert accepted == [(1, "LIST R-2 Iron Host (attached, 1 entries)")]
    _, _, problems = register(opened(), rules, 'army = "R-2"\n[[entries]]\nid = "U1"\nkind = "infantry"')
    assert any("`name` is missing" in p.reason for p in problems)
    _, _, problems = register(opened(), rules, 'army = "R-2"\nname = ')
    assert "not valid TOML" in problems[0].reason


def test_malformed_entry_lines_get_line_errors_and_spoil_the_list(rules: RuleBook) -> None:
    regs, _, problems = register(opened(), rules, "LIST R-2 Host\nU1 infantry 20 Spearmen\nM1 monster Rat @20 W2"
                                                  "\nC1 character 2 Twins @40 W2 wizard\nHello there")
    assert regs == {}
    by_line = {p.line_no: p.reason for p in problems}
    assert "an entry reads" in by_line[2] and "3+ wounds" in by_line[3] and "single model" in by_line[4]
    assert "not a list line" in by_line[5] and "was not registered" in by_line[1]


def test_dr_lst_9_list_fields_kept_for_each_list(rules: RuleBook) -> None:
    lst = ArmyList("R", 1, status=LIST_ACTIVE)
    assert (lst.points, lst.battles, lst.artillery, lst.fast, lst.roster.empty) == (2250, 0, False, False, True)


def test_dr_bat_12_a_replacement_list_starts_with_a_fresh_roster(rules: RuleBook) -> None:
    from pbem.rulesets.daemon_rift.endturn import REPLACEMENT, _ready_list
    state = opened()
    old = Roster("R-2", "Host", 2250, [], [Entry("U1", "Spearmen", "infantry", 20, 1, 6)])
    old.entries[0].add_mark(Mark("upgrade", "WS", 1))
    state.lists["R-2"].roster, state.lists["R-2"].status = old, LIST_ELIMINATED
    lst = _ready_list(state, rules, "R", 2, REPLACEMENT)
    assert lst.points == 2200 and lst.roster.empty and not lst.approved
    regs, _, problems = register(state, rules, "LIST R-2 New Host\nU1 infantry 20 Spearmen @6")
    assert problems == [] and regs["R-2"].roster.limit == 2200


def test_veterans_roll_of_honour_lists_the_most_upgraded_entries_of_active_lists() -> None:
    from pbem.rulesets.daemon_rift.rosters import veterans
    state = opened()
    r = Roster("R-1", "One", 2250, [], [Entry("U1", "Spearmen", "infantry", 20, 1, 6),
                                       Entry("C1", "Captain", "character", 1, 2, 50)])
    r.entries[0].add_mark(Mark("upgrade", "WS", 1))
    r.entries[1].add_mark(Mark("upgrade", "M", 1))
    r.entries[1].add_mark(Mark("upgrade", "T", 1))
    r.entries[1].counters["deaths"] = 1
    state.lists["R-1"].roster = r
    rows = veterans(state)
    assert [row["name"] for row in rows] == ["Captain", "Spearmen"]
    assert rows[0]["honours"] == "+1 Move, +1 T, survived 1 death"
    state.lists["R-1"].status = LIST_ELIMINATED
    assert veterans(state) == []
