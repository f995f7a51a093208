"""Dataclasses to TOML-ready dicts and back.

State and orders are plain dataclasses. TOML has no null, so fields never hold
None: absence is an empty string, an empty list, zero or a dedicated flag.
Supported field types: str, int, float, bool, nested dataclasses, and list,
tuple, set/frozenset (stored sorted) and dict[str, ...] of those.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar, get_args, get_origin

T = TypeVar("T")


def to_data(value: Any) -> Any:
    """A value made of dicts, lists and scalars that tomli-w can write."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(to_data(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [to_data(v) for v in value]
    if value is None:
        raise TypeError("None cannot be stored in TOML; use an explicit empty value")
    return value


def from_data(cls: type[T], data: Any) -> T:
    """Rebuild an instance of `cls` (a dataclass or a typing form) from `to_data` output."""
    return typing.cast(T, _builder(typing.cast(Any, cls))(data))


def _same(data: Any) -> Any:
    return data


@cache
def _builder(tp: Any) -> Callable[[Any], Any]:
    """A function rebuilding values of type `tp`, worked out once per type: the hooks rebuild
    the whole game state for every message, and reading the type hints each time was most
    of that cost."""
    origin = get_origin(tp)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        fields = [(name, _builder(hint)) for name, hint in _hints(tp).items()]

        def build_dataclass(data: Any) -> Any:
            return tp(**{name: build(data[name]) for name, build in fields if name in data})
        return build_dataclass
    if origin in (list, tuple, set, frozenset):
        args = get_args(tp)
        item = _builder(args[0] if args else Any)
        kind = origin

        def build_items(data: Any) -> Any:
            return kind(data) if item is _same else kind([item(v) for v in data])
        return build_items
    if origin is dict:
        value = _builder(get_args(tp)[1])

        def build_dict(data: Any) -> Any:
            return dict(data) if value is _same else {k: value(v) for k, v in data.items()}
        return build_dict
    return _same


@cache
def _hints(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls) if f.init}


def lean(cls: Any, data: Any) -> Any:
    """`to_data` output of type `cls` without the fields that hold their default, at every depth:
    `from_data` rebuilds the same value from it (it fills in the defaults), and a file written
    for people to read shows only what the value holds."""
    origin = get_origin(cls)
    if isinstance(cls, type) and dataclasses.is_dataclass(cls) and isinstance(data, dict):
        return {name: lean(hint, data[name]) for name, hint in _hints(cls).items()
                if name in data and data[name] != _default(cls, name)}
    if origin in (list, tuple, set, frozenset) and isinstance(data, list) and get_args(cls):
        return [lean(get_args(cls)[0], v) for v in data]
    if origin is dict and isinstance(data, dict):
        return {k: lean(get_args(cls)[1], v) for k, v in data.items()}
    return data


def _default(cls: type, name: str) -> Any:
    """The stored form of the field's default; a value no stored form equals when it has none."""
    f = next(f for f in dataclasses.fields(cls) if f.name == name)
    if f.default is not dataclasses.MISSING:
        return to_data(f.default)
    if f.default_factory is not dataclasses.MISSING:
        return to_data(f.default_factory())
    return _NO_DEFAULT


_NO_DEFAULT = object()
