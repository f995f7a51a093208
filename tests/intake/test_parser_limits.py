"""Order lines too long or too many are answered, not parsed; names are looked up in time that
grows with the line; the lines that once held the tick (issue cases) are now answered at once."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.intake.envelope import read_envelope
from pbem.kit.orders import MAX_LINE_CHARS, MAX_ORDER_LINES, MAX_SUGGEST_CHARS, InvalidOrder, NameIndex, OrderProblem
from tests.support import engine_helpers as dr
from tests.support.parser_contexts import Parser, every_parser

FAST = 0.5          # seconds: each case below once took from 2 to more than 80


@pytest.fixture(scope="module")
def parsers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Parser]]:
    yield every_parser(Path(tmp_path_factory.mktemp("parsers")))


def answered_fast(parser: Parser, line: str) -> list[OrderProblem]:
    started = time.perf_counter()
    problems = parser([(1, line)])
    assert time.perf_counter() - started < FAST
    return problems


# -- the cases seen --------------------------------------------------------------------------

def test_daemon_rift_move_through_a_thousand_territories_is_answered_fast_with_one_problem(
        parsers: dict[str, Parser]) -> None:
    [problem] = answered_fast(parsers["daemon_rift orders"], "R-1 M " + "T5 " * 1000)
    assert problem.line_no == 1 and "T5" in problem.reason


def test_conquest_event_named_a_thousand_times_is_answered_fast_with_one_problem(parsers: dict[str, Parser]) -> None:
    [problem] = answered_fast(parsers["conquest campaign"], "EVENT " + "Land Grab " * 1000)
    assert problem.reason == "Land Grab takes no target"


@pytest.mark.parametrize(("parser", "line"), [
    ("daemon_rift battles", "RESULT 1 " + "- " * 30_000),
    ("daemon_rift battles", "- " * 30_000),
    ("daemon_rift battles", "U1 " + "- " * 30_000),
    ("daemon_rift battles", "U1 " + "[" * 30_000),
    ("conquest results", "RESULT B1 " + "- " * 30_000),
    ("conquest results", "RESULT B1 WITHDREW none VP " + "1-" * 30_000),
])
def test_thirty_thousand_dashes_in_a_battle_result_or_sheet_are_answered_fast(
        parsers: dict[str, Parser], parser: str, line: str) -> None:
    problems = answered_fast(parsers[parser], line)
    assert all(isinstance(p, InvalidOrder | OrderProblem) for p in problems)
    assert problems or not any(c.isalnum() for c in line)      # dashes alone are prose, skipped (pbem.kit.prose)


def test_diplomacy_hyphenated_words_get_no_did_you_mean_each(parsers: dict[str, Parser]) -> None:
    """`Mid-Atlantic` is tried as a move `Mid - Atlantic` first; that try must not run difflib."""
    [problem] = answered_fast(parsers["diplomacy read movement"], "A MUN S " + "Mid-Atlantic " * 1000)
    assert problem.reason.startswith("unknown territory")


def test_a_list_nested_too_deeply_for_tomllib_is_a_problem_not_a_crash(parsers: dict[str, Parser]) -> None:
    """Past the line limit (the parser is its own guard): tomllib recurses once per level."""
    problems = parsers["daemon_rift lists"]([(1, "army = 'R-1'"), (2, "entries = " + "{b = " * 400)])
    assert any("nested too deeply" in p.reason for p in problems)


# -- the line limit ----------------------------------------------------------------------------

def test_a_line_over_the_limit_is_reported_on_its_number_and_not_read() -> None:
    long = "R-1 M " + "T5 " * 1000
    env = read_envelope("[rift] orders", f"PLAYER red x\n\nR-2 H\n{long}\nR-3 H\n")
    assert env.lines == [(3, "R-2 H"), (5, "R-3 H")]
    [problem] = env.problems
    assert problem.line_no == 4
    assert problem.reason.startswith(f"the line is 3,005 characters long; order lines are limited to {MAX_LINE_CHARS}")
    assert "split it" in problem.reason and len(problem.line) < 100


def test_a_line_at_the_limit_is_read() -> None:
    line = "R-1 M " + "T" * (MAX_LINE_CHARS - 6)
    assert read_envelope("", line).lines == [(1, line)]


def test_lines_past_the_most_a_message_may_hold_are_reported_once_and_not_read() -> None:
    env = read_envelope("", "\n".join(["R-1 H"] * (MAX_ORDER_LINES + 40)))
    assert len(env.lines) == MAX_ORDER_LINES
    [problem] = env.problems
    assert problem.line_no == MAX_ORDER_LINES + 1 and "40 from line" in problem.reason


def test_the_ack_names_the_long_line_and_takes_the_others(tmp_path: Path) -> None:
    camp = dr.dr_campaign(tmp_path, {"R-1": "T25", "B-1": "T27"})
    dr.put(camp, "o1", f"PLAYER red {dr.SECRETS['red']}\n{'R-1 M ' + 'T5 ' * 1000}\nR-1 M T24\n")
    started = time.perf_counter()
    dr.run(camp)
    assert time.perf_counter() - started < 10
    [ack] = dr.outbox(camp, "alice")
    text = dr.body(ack)
    assert "line 2 (invalid): `R-1 M T5" in text and (
        "the line is 3,005 characters long; order lines are limited to 200" in text
    )
    assert "R-1 M T24" in text.split("Not accepted")[0]


def test_help_states_the_line_limit(tmp_path: Path) -> None:
    camp = dr.dr_campaign(tmp_path)
    dr.put(camp, "h1", f"PLAYER red {dr.SECRETS['red']}\nHELP\n")
    [ack] = dr.outbox(dr.run(camp), "alice")
    assert f"each at most {MAX_LINE_CHARS} characters long" in dr.body(ack)


# -- name lookup -------------------------------------------------------------------------------

PLACES = NameIndex({"T5": ("Ashford",), "T6": ("Ash Vale", "Vale of Ash"), "T7": ("New Ashford Marsh",)})


def test_the_longest_run_of_words_naming_one_place_wins() -> None:
    words = "Vale of Ash New Ashford Marsh T5".split()
    assert PLACES.longest(words) == ("T6", 3)
    assert PLACES.longest(words, 3) == ("T7", 6)
    assert PLACES.longest(words, 6) == ("T5", 7)
    assert PLACES.longest(["Nowhere"]) is None


def test_a_long_run_of_words_costs_no_more_than_the_longest_name() -> None:
    words = ["Ash"] * 100_000
    started = time.perf_counter()
    assert PLACES.longest(words) is None          # "Ash" alone could be Ashford, Ash Vale or New Ashford
    assert time.perf_counter() - started < 0.05


def test_did_you_mean_is_offered_for_a_typo_but_not_for_a_long_unknown_text() -> None:
    with pytest.raises(InvalidOrder) as typo:
        PLACES.lookup("Ashfrod")
    assert typo.value.suggestion == "T5 Ashford"
    with pytest.raises(InvalidOrder) as long:
        PLACES.lookup("Ashfrod" * 5)
    assert len(normalised := "ashfrod" * 5) > MAX_SUGGEST_CHARS and normalised and long.value.suggestion == ""
