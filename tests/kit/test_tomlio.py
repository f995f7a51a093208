"""Dataclasses to TOML-ready data and back."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.kit.tomlio import from_data, lean, to_data


@dataclass
class Inner:
    name: str
    marks: list[str] = field(default_factory=list)


@dataclass
class Outer:
    turn: int
    inner: Inner
    many: list[Inner] = field(default_factory=list)
    by_id: dict[str, Inner] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    tags: frozenset[str] = frozenset()
    pair: tuple[int, ...] = ()


def test_round_trip_of_nested_dataclasses_and_containers() -> None:
    value = Outer(3, Inner("a", ["x"]), [Inner("b")], {"k": Inner("c", ["y", "z"])}, {"n": 2},
                  frozenset({"q", "p"}), (1, 2))
    data = to_data(value)
    assert data["tags"] == ["p", "q"]
    assert from_data(Outer, data) == value


def test_rebuilt_values_do_not_share_lists_or_dicts_with_the_data() -> None:
    data = to_data(Outer(1, Inner("a", ["x"]), counts={"n": 1}))
    built = from_data(Outer, data)
    built.inner.marks.append("y")
    built.counts["m"] = 2
    assert data["inner"]["marks"] == ["x"] and data["counts"] == {"n": 1}


def test_missing_fields_take_their_defaults() -> None:
    assert from_data(Outer, {"turn": 2, "inner": {"name": "a"}}) == Outer(2, Inner("a"))


def test_lean_data_leaves_out_every_default_and_rebuilds_the_same_value() -> None:
    value = Outer(0, Inner("a"), [Inner("", ["x"])], {"k": Inner("c")}, {"n": 0}, frozenset(), ())
    data = lean(Outer, to_data(value))
    assert data == {"turn": 0, "inner": {"name": "a"}, "many": [{"name": "", "marks": ["x"]}],
                    "by_id": {"k": {"name": "c"}}, "counts": {"n": 0}}     # fields without a default stay
    assert from_data(Outer, data) == value
