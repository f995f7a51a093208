"""The backbone's sequential mechanisms: ranked lists, orders with alternates, window cycles."""

from __future__ import annotations

import pytest

from pbem.kit.sequential import Cycle, carry_out, ranked_choices


def test_ranked_choices_give_each_player_his_first_entry_still_free() -> None:
    taken: dict[str, str] = {}

    def check(player: str, item: str) -> str:
        return f"{item} is taken" if item in taken.values() else ""

    turns = ranked_choices(["a", "b", "c"], {"a": ["x", "y"], "b": ["x", "y"], "c": ["x"]},
                           check, lambda p, item: taken.__setitem__(p, item))
    assert taken == {"a": "x", "b": "y"}
    assert [t.chosen for t in turns] == [["x"], ["y"], []]
    assert turns[1].attempts[0].reason == "x is taken" and turns[1].attempts[1].rank == 1


def test_ranked_choices_fallback_and_skip() -> None:
    taken: dict[str, str] = {}
    turns = ranked_choices(["a", "b", "c"], {"a": ["x"]}, lambda p, i: "",
                           lambda p, i: taken.__setitem__(p, i),
                           fallback=lambda p: "z" if p == "b" else None,
                           skip=lambda p: "busy" if p == "c" else "")
    assert taken == {"a": "x", "b": "z"}
    assert turns[1].fallback and turns[2].skipped == "busy"


def test_carry_out_tries_alternates_and_stops_at_once() -> None:
    budget = {"a": 3, "b": 5}
    done: list[str] = []

    def attempt(player: str, action: tuple[str, int]) -> str:
        name, cost = action
        if cost > budget[player]:
            return f"needs {cost}, has {budget[player]}"
        budget[player] -= cost
        done.append(f"{player}:{name}")
        return ""

    run = carry_out(["a", "b"], {"a": [[("big", 4), ("small", 2)], [("tiny", 1)]], "b": [[("win", 1)], [("more", 1)]]},
                    attempt, stop=lambda: "b:win" in done)
    assert done == ["a:small", "a:tiny", "b:win"]
    first = run.turns[0].attempts
    assert (first[0].taken, first[0].reason, first[1].alternate) == (False, "needs 4, has 3", 1)
    assert run.stopped_after == "b"


def test_carry_out_names_players_never_reached() -> None:
    run = carry_out(["a", "b", "c"], {"a": [["go"]], "b": [["go"]]}, lambda p, a: "", stop=lambda: True)
    assert run.not_reached == ["b", "c"]


def test_cycle_skips_windows_nobody_needs_and_wraps_into_a_new_round() -> None:
    cycle = Cycle(("orders", "battles", "results", "build"))
    assert cycle.after("orders", lambda w: w != "battles") == ("results", False)
    assert cycle.after("orders", lambda w: False) == ("orders", True)
    assert cycle.after("build", lambda w: True) == ("orders", True)
    assert cycle.skipped("orders", "build") == ["battles", "results"]
    with pytest.raises(ValueError):
        cycle.after("lunch", lambda w: True)
