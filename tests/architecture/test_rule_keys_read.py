"""Every key of every rules/<system>.toml does something: a game master who changes one must
either change what the processor or the briefings do, or be refused at load.

A key counts as read when its leaf name appears as a word in pbem/ or templates/ (outside the
other rule systems' own packages and templates), when the code reads its table whole (the
table's dotted or own name as a subscript or `section("...")` in the system's package: its keys
are data, such as unit names), or when the system names it, dotted and quoted, in a table of its
package: the refused readings of `pbem.kit.rulebook.shipped_only_problems` and their like."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = tuple(sorted(p.stem for p in (ROOT / "rules").glob("*.toml")))
SOURCES = (".py", ".j2")


def leaves(node: Mapping[str, Any], path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The path of every key that holds a value; the fields of an array of tables as `(..., "list[]", field)`."""
    for key, value in node.items():
        here = (*path, key)
        if isinstance(value, Mapping):
            yield from leaves(value, here)
            continue
        yield here
        if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            yield from dict.fromkeys(f for v in value for f in leaves(v, (*path, key + "[]")))


@cache
def shared_text(system: str) -> str:
    """pbem/ and templates/ without the other rule systems' packages and templates."""
    others = set(SYSTEMS) - {system}
    files = [f for base in ("pbem", "templates") for f in (ROOT / base).rglob("*")
             if f.suffix in SOURCES and not others & set(f.relative_to(ROOT).parts[1:3])]
    return "\n".join(f.read_text(encoding="utf-8") for f in files)


@cache
def package_text(system: str) -> str:
    return "\n".join(f.read_text(encoding="utf-8") for f in (ROOT / "pbem" / "rulesets" / system).rglob("*.py"))


def is_read(system: str, path: tuple[str, ...]) -> bool:
    own = package_text(system)
    if f'"{".".join(path)}"' in own:
        return True
    for table in {".".join(path[:-1]), path[-2]} if len(path) > 1 else ():
        if re.search(rf'(\[|\.section\()"{re.escape(table)}"[\])]', own):
            return True
    leaf = path[-1].removesuffix("[]")
    return re.search(rf"(?<![\w-]){re.escape(leaf)}(?![\w-])", shared_text(system)) is not None


def unread(system: str) -> list[str]:
    book = tomllib.loads((ROOT / "rules" / f"{system}.toml").read_text(encoding="utf-8"))
    return [".".join(path) for path in leaves(book) if not is_read(system, path)]


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_rule_book_key_is_read_by_code_or_refused_by_its_system(system: str) -> None:
    assert unread(system) == [], "keys no code reads and no table of the system refuses"


def test_a_key_nothing_reads_is_found_and_a_refused_or_data_key_is_not() -> None:
    assert not is_read("daemon_rift", ("home", "no_such_setting_anywhere"))
    assert is_read("daemon_rift", ("home", "swap_home_side"))          # refused in options.SHIPPED_ONLY
    assert is_read("wandering_tribes", ("aliases", "M. Horsemen"))     # the aliases table is read whole
