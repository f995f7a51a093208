"""Dataclasses to TOML-ready dicts and back.

State and orders are plain dataclasses. TOML has no null, so fields never hold
None: absence is an empty string, an empty list, zero or a dedicated flag.
Supported field types: str, int, float, bool, nested dataclasses, and list,
tuple, set/frozenset (stored sorted) and dict[str, ...] of those.
"""

from __future__ import annotations

import dataclasses
import types
import typing
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
    return typing.cast(T, _build(cls, data))


def _build(tp: Any, data: Any) -> Any:
    origin = get_origin(tp)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        kwargs = {name: _build(hints[name], data[name]) for name in hints if name in data}
        return tp(**kwargs)
    if origin in (list, tuple, set, frozenset):
        args = get_args(tp)
        item = args[0] if args else Any
        built = [_build(item, v) for v in data]
        return tuple(built) if origin is tuple else origin(built)
    if origin is dict:
        _, val = get_args(tp)
        return {k: _build(val, v) for k, v in data.items()}
    if origin in (typing.Union, types.UnionType):
        return data
    return data


@cache
def _hints(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls) if f.init}
