"""Rule numbers from `rules/<system>.toml`, merged with a campaign's overrides.

Numbers live in TOML, behaviour in code: a campaign overrides single keys
(`[rules.movement] vacated_entry = "diplomacy"`), never copies the file. Every
override is checked against the shipped file, and all mistakes are reported at
once with their dotted key.

A text option whose comment lists its choices, `key = "a"   # default: "a" | "b"`,
takes only those: the comment that tells the game master the choices is the
check, so the two cannot drift apart.
"""

from __future__ import annotations

import copy
import functools
import json
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


class RulesError(ValueError):
    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


class RuleBook:
    """Read-only view of a rule system's settings, addressed by dotted keys."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data = data

    def __getitem__(self, dotted: str) -> Any:
        """A value; tables and lists come as copies, since one book serves many campaigns."""
        node: Any = self._data
        for part in dotted.split("."):
            node = node[part]
        return copy.deepcopy(node) if isinstance(node, (dict, list)) else node

    def get(self, dotted: str, default: Any = None) -> Any:
        try:
            return self[dotted]
        except (KeyError, TypeError):
            return default

    def section(self, name: str) -> Mapping[str, Any]:
        return copy.deepcopy(self._data.get(name, {}))

    def as_dict(self) -> dict[str, Any]:
        return copy.deepcopy(dict(self._data))


def load_rules(system: str, overrides: Mapping[str, Any] | None = None, rules_dir: Path = RULES_DIR) -> RuleBook:
    path = rules_dir / f"{system}.toml"
    try:
        stat = path.stat()
        _parsed(path, stat.st_mtime_ns, stat.st_size)          # an unreadable file is reported here
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RulesError([f"{path}: {exc}"]) from exc
    return _book(path, stat.st_mtime_ns, stat.st_size, json.dumps(overrides or {}, sort_keys=True, default=str))


@functools.lru_cache(maxsize=64)
def _book(path: Path, mtime_ns: int, size: int, overrides_json: str) -> RuleBook:
    """The merged, checked rule book per rules file and campaign overrides: the hooks build
    it for every message, so it is made once per tick (a RuleBook is read-only). A refused
    book raises and is not cached."""
    base, overrides = _parsed(path, mtime_ns, size), json.loads(overrides_json)
    problems: list[str] = []
    merged = _merge(base, overrides, "", problems)
    problems += _off_choices(overrides, "", choices(path))
    if problems:
        raise RulesError(problems)
    return RuleBook(merged)


@functools.lru_cache(maxsize=32)
def _parsed(path: Path, mtime_ns: int, size: int) -> dict[str, Any]:
    """The rules file as parsed, kept while it is unchanged: a tick builds the rule book for
    every message, and parsing the file each time was most of the cost. Never mutated
    (_merge copies it)."""
    return tomllib.loads(path.read_text(encoding="utf-8"))


_TABLE = re.compile(r"^\s*\[([^\[\]]+)\]\s*(#.*)?$")
_ARRAY_TABLE = re.compile(r"^\s*\[\[")
_TEXT_KEY = re.compile(r'^\s*([A-Za-z0-9_-]+)\s*=\s*"([^"]*)"\s*#(.*)$')
_CHOICE = re.compile(r'"([^"]*)"(?=\s*\|)|(?<=\|)\s*"([^"]*)"')


def choices(path: Path) -> dict[str, tuple[str, ...]]:
    """Dotted key -> the values its comment allows (`"a" | "b"`), the shipped value included."""
    stat = path.stat()
    return _choices(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=32)
def _choices(path: Path, mtime_ns: int, size: int) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    prefix: str | None = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if _ARRAY_TABLE.match(line):
            prefix = None                  # keys of an array of tables are overridden as a whole list
            continue
        table = _TABLE.match(line)
        if table:
            prefix = table.group(1).strip() + "."
            continue
        found = _TEXT_KEY.match(line)
        if prefix is None or not found:
            continue
        listed = [a or b for a, b in _CHOICE.findall(found.group(3))]
        if listed:
            out[prefix + found.group(1)] = tuple(dict.fromkeys([found.group(2), *listed]))
    return out


def _off_choices(over: Mapping[str, Any], prefix: str, allowed: Mapping[str, tuple[str, ...]]) -> list[str]:
    out = []
    for key, value in over.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out += _off_choices(value, dotted + ".", allowed)
        elif dotted in allowed and isinstance(value, str) and value not in allowed[dotted]:
            listed = ", ".join(f'"{c}"' for c in allowed[dotted])
            out.append(f"rules: {dotted!r} cannot be {value!r}; choose one of {listed}")
    return out


def _merge(base: Mapping[str, Any], over: Mapping[str, Any], prefix: str, problems: list[str]) -> dict[str, Any]:
    out = copy.deepcopy(dict(base))
    for key, value in over.items():
        dotted = f"{prefix}{key}"
        if key not in base:
            problems.append(f"rules: unknown key {dotted!r}")
        elif isinstance(base[key], dict) and isinstance(value, Mapping):
            out[key] = _merge(base[key], value, dotted + ".", problems)
        elif isinstance(base[key], dict) != isinstance(value, Mapping) or _kind(base[key]) != _kind(value):
            problems.append(f"rules: {dotted!r} should be {_kind(base[key])}, not {_kind(value)}")
        else:
            out[key] = copy.deepcopy(value)
    return out


def shipped_only_problems(system: str, book: RuleBook, shipped_only: Mapping[str, str],
                          rules_dir: Path = RULES_DIR) -> list[str]:
    """A rule system's keys whose shipped value is the only reading the processor plays
    (dotted key -> why), checked: an override that changes one is refused in one line
    rather than silently ignored. The shipped value is read from the rules file, so the
    table holds only the reasons."""
    shipped = load_rules(system, None, rules_dir)
    out = []
    for key, why in shipped_only.items():
        value, only = book.get(key), shipped.get(key)
        if value != only:
            out.append(f"rules: {key} = {_shown(value)} is not played: pbem plays only the shipped reading "
                       f"({_shown(only)}) because {why}; remove the override")
    return out


def _shown(value: Any) -> str:
    """A value as the game master writes it in TOML (true, "text", [1, 2])."""
    return json.dumps(value, ensure_ascii=False)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "a table"
