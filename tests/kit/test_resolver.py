"""The dependency resolver settles chains, consistent cycles and paradoxes."""

from collections.abc import Sequence

from pbem.kit.resolver import Resolver


def _never(r: Resolver[str], cycle: Sequence[str]) -> None:  # pragma: no cover - must not run
    raise AssertionError(f"backup called for {cycle}")


def test_chain_resolves_in_order() -> None:
    rules = {"a": lambda r: not r("b"), "b": lambda r: r("c"), "c": lambda r: True}
    r: Resolver[str] = Resolver(lambda r, k: rules[k](r), _never)
    assert r("a") is False
    assert r("b") is True


def test_cycle_with_one_consistent_outcome_takes_it() -> None:
    # a = b and not x, b = a ; x true -> only "both false" is consistent
    rules = {"a": lambda r: r("b") and not r("x"), "b": lambda r: r("a"), "x": lambda r: True}
    r: Resolver[str] = Resolver(lambda r, k: rules[k](r), _never)
    assert r("a") is False and r("b") is False


def test_cycle_with_two_consistent_outcomes_calls_backup() -> None:
    rules = {"a": lambda r: r("b"), "b": lambda r: r("c"), "c": lambda r: r("a")}
    seen: list[list[str]] = []

    def backup(r: Resolver[str], cycle: Sequence[str]) -> None:
        seen.append(sorted(cycle))
        for k in cycle:
            r.settle(k, True)

    r: Resolver[str] = Resolver(lambda r, k: rules[k](r), backup)
    assert r("a") is True and r("b") is True and r("c") is True
    assert seen == [["a", "b", "c"]]


def test_paradox_with_no_consistent_outcome_calls_backup() -> None:
    rules = {"a": lambda r: not r("b"), "b": lambda r: r("a")}

    def backup(r: Resolver[str], cycle: Sequence[str]) -> None:
        for k in cycle:
            r.settle(k, False)

    r: Resolver[str] = Resolver(lambda r, k: rules[k](r), backup)
    assert r("a") is False and r("b") is False


def test_long_chain_resolves_through_decide_all() -> None:
    n = 20_000
    r: Resolver[int] = Resolver(lambda r, k: True if k == n else r.resolve(k + 1), _never)
    assert r.decide_all([0])[0] is True


def test_known_decisions_are_not_worked_out_again() -> None:
    asked: list[str] = []

    def decide(r: Resolver[str], k: str) -> bool:
        asked.append(k)
        return {"a": lambda: not r("b"), "b": lambda: r("c"), "c": lambda: True}[k]()

    r: Resolver[str] = Resolver(decide, _never, known={"b": False})
    assert r.decide_all(["a", "b"]) == {"a": True, "b": False}
    assert asked == ["a"]


def test_settled_holds_known_and_worked_out_decisions() -> None:
    rules = {"a": lambda r: not r("b"), "c": lambda r: r("a")}
    r: Resolver[str] = Resolver(lambda r, k: rules[k](r), _never, known={"b": False})
    r.decide_all(["c"])
    assert r.settled() == {"b": False, "a": True, "c": True}


def test_cycle_through_a_decision_asked_twice_lists_it_once() -> None:
    # a depends on b twice and b on a: a two-outcome cycle whose backup sees each key once.
    rules = {"a": lambda r: r("b") and r("b"), "b": lambda r: r("a")}
    seen: list[list[str]] = []

    def backup(r: Resolver[str], cycle: Sequence[str]) -> None:
        seen.append(list(cycle))
        for k in cycle:
            r.settle(k, False)

    r: Resolver[str] = Resolver(lambda r, k: rules[k](r), backup)
    assert r("a") is False and r("b") is False
    assert sorted(seen[0]) == ["a", "b"]
