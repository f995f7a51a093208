"""The one sliding window (pbem/intake/throttle.py) behind the reply limit, the login lock, the
postmaster's replies and the forum's alerts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from pbem.intake.throttle import Throttle

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)
TWICE_AN_HOUR = Throttle(2, HOUR)


def test_admit_lets_the_limit_through_and_records_only_what_it_lets_through() -> None:
    book: dict[str, Any] = {}
    assert [TWICE_AN_HOUR.admit(book, "a", T0 + n * timedelta(minutes=10)) for n in range(4)] == [
        True, True, False, False]
    assert book == {"a": ["2026-11-23T09:00:00+00:00", "2026-11-23T09:10:00+00:00"]}
    assert TWICE_AN_HOUR.admit(book, "b", T0)             # each key apart


def test_the_window_slides_an_event_exactly_a_window_old_no_longer_counts() -> None:
    book: dict[str, Any] = {}
    TWICE_AN_HOUR.record(book, "a", T0)
    TWICE_AN_HOUR.record(book, "a", T0 + 30 * timedelta(minutes=1))
    assert not TWICE_AN_HOUR.allows(book, "a", T0 + HOUR - timedelta(seconds=1))
    assert TWICE_AN_HOUR.allows(book, "a", T0 + HOUR)
    assert book["a"] == ["2026-11-23T09:30:00+00:00"]     # the old event is dropped as it is met


def test_record_counts_every_event_past_the_limit_too() -> None:
    book: dict[str, Any] = {}
    assert [TWICE_AN_HOUR.record(book, "a", T0) for _ in range(4)] == [1, 2, 3, 4]
    assert TWICE_AN_HOUR.count(book, "a", T0 + HOUR) == 0


def test_forget_drops_keys_with_nothing_in_the_window() -> None:
    book: dict[str, Any] = {"old": ["2026-11-23T07:00:00+00:00"], "new": ["2026-11-23T08:30:00+00:00"], "none": []}
    TWICE_AN_HOUR.forget(book, T0)
    assert book == {"new": ["2026-11-23T08:30:00+00:00"]}


def test_a_single_time_as_an_older_book_stored_it_counts_as_one_event() -> None:
    once = Throttle(1, HOUR)
    book: dict[str, Any] = {"a": "2026-11-23T08:30:00+00:00", "b": "2026-11-23T07:00:00+00:00"}
    assert not once.admit(book, "a", T0) and once.admit(book, "b", T0)
    once.forget(book, T0 + HOUR / 2)
    assert book == {"b": ["2026-11-23T09:00:00+00:00"]}
