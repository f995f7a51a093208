"""Property-based tests of every order parser: whatever a player writes on lines of up to the
line limit (orders, their words shuffled and repeated, junk), the parser answers with order
problems only, located on the lines given, in bounded time per line."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.intake.envelope import read_envelope
from pbem.kit.orders import MAX_LINE_CHARS, MAX_ORDER_LINES, AmbiguousOrder, IllegalOrder, InvalidOrder, OrderProblem
from tests.support.parser_contexts import Parser, every_parser, openings_of, places_of, words_of

SECONDS_PER_LINE = 0.05
PROBLEMS = (InvalidOrder, IllegalOrder, AmbiguousOrder)
# What a mail line may hold: anything but what splits lines (str.splitlines) and the comment mark.
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029#"
JUNK = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters=LINE_BREAKS), max_size=12)


@pytest.fixture(scope="module")
def parsers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Parser]]:
    yield every_parser(Path(tmp_path_factory.mktemp("parsers")))


def order_lines(system: str) -> st.SearchStrategy[list[tuple[int, str]]]:
    """Lines of a system's words and junk; half open like an order and go on with a short phrase,
    most often of names only (a path, a ranking), repeated up to the line limit."""
    word = st.one_of(st.sampled_from(words_of(system)), JUNK)
    phrase = st.lists(word, min_size=1, max_size=4).map(" ".join)
    names = st.lists(st.sampled_from(places_of(system)), min_size=1, max_size=2).map(" ".join)
    plain = st.lists(word, max_size=30).map(" ".join)
    opening = st.sampled_from(openings_of(system))

    def repeated(body: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.builds(lambda head, text, times: f"{head} {' '.join([text] * times)}",
                         opening, body, st.integers(1, 120))

    line = st.one_of(plain, repeated(phrase), repeated(names), repeated(names))
    return st.lists(line.map(lambda text: text[:MAX_LINE_CHARS].strip()).filter(bool), min_size=1, max_size=8) \
        .map(lambda lines: list(enumerate(lines, start=1)))


def timed(parser: Parser, lines: list[tuple[int, str]]) -> tuple[list[OrderProblem], float]:
    started = time.perf_counter()
    problems = parser(lines)
    return problems, time.perf_counter() - started


def check(parser: Parser, lines: list[tuple[int, str]]) -> None:
    problems, elapsed = timed(parser, lines)
    for _ in range(2):                 # a busy machine can stall any call: the best of three counts
        if elapsed < SECONDS_PER_LINE * len(lines):
            break
        elapsed = min(elapsed, timed(parser, lines)[1])
    assert elapsed < SECONDS_PER_LINE * len(lines), f"{elapsed:.3f} s for {len(lines)} lines"
    numbers = {no for no, _ in lines}
    for problem in problems:
        assert isinstance(problem, PROBLEMS), repr(problem)
        assert problem.line_no in numbers and problem.reason


def _property(system: str, names: tuple[str, ...]) -> None:
    @pytest.mark.parametrize("name", names)
    @settings(derandomize=True, max_examples=50, deadline=None)
    @given(lines=order_lines(system))
    def test(parsers: dict[str, Parser], name: str, lines: list[tuple[int, str]]) -> None:
        check(parsers[f"{system} {name}"], lines)

    test.__name__ = f"test_{system}_parsers_answer_only_order_problems_in_bounded_time"
    test.__doc__ = f"Every {system} parser ({', '.join(names)}): only order problems, on their lines, fast."
    globals()[test.__name__] = test


_property("daemon_rift", ("orders", "lists", "battles", "retreats"))
_property("conquest", ("capitals", "campaign", "setup", "results", "conquest"))
_property("diplomacy", ("movement", "read movement", "read retreat", "read adjustment"))


@settings(derandomize=True, max_examples=60, deadline=None)
@given(body=st.lists(st.one_of(JUNK, st.builds(lambda w, n: w * n, JUNK, st.integers(1, 400))), max_size=30)
       .map("\n".join))
def test_the_envelope_hands_on_only_lines_within_the_limits(body: str) -> None:
    env = read_envelope("[camp] orders", body)
    assert all(len(line) <= MAX_LINE_CHARS for _, line in env.lines + env.commands)
    assert len(env.lines) <= MAX_ORDER_LINES
    assert all(isinstance(p, InvalidOrder) and p.line_no for p in env.problems)
