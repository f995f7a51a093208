"""Per-player settings a rule system owns: declared once on the Ruleset (`player_fields`), given at
`pbem new` as `--player id,Name,email,...,home=3`, kept in the player's `[[players]]` entry of
campaign.toml and read back as `Player.extras`. The backbone checks them through the declaration,
so a rule system with fields of its own needs no change to campaign.py, creation.py or new.py."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from pbem.kit.text import shown, text_problem


def any_value(value: str) -> str:
    return ""


def no_default(seat: int) -> str:
    return ""


def one_word(value: str) -> str:
    """A check for a field that must be given, as one word."""
    if not value:
        return "missing"
    return f"{shown(value)} is not one word" if re.search(r"\s", value) else ""


@dataclass(frozen=True)
class PlayerField:
    """One field: what it means (shown when it is refused), why a value is refused ("" when it
    is fine), and the value for the player in seat `n` (0 = first `--player`) who gives none."""

    help: str
    check: Callable[[str], str] = any_value
    default: Callable[[int], str] = no_default


def field_problems(fields: Mapping[str, PlayerField], extras: Mapping[str, str]) -> list[str]:
    """Every refused value of one player's fields, each led by the field's name."""
    problems = []
    for name, spec in fields.items():
        value = extras.get(name, "")
        problem = text_problem(value) or spec.check(value)
        if problem:
            problems.append(f"{name}: {problem}; expected {spec.help}")
    return problems


def unknown_fields(fields: Mapping[str, PlayerField], extras: Mapping[str, str], system: str) -> list[str]:
    """Fields a player was given that the rule system does not have (a typo at `pbem new`; in an
    older campaign.toml they are kept and ignored)."""
    return [f"{name}: {system} has no player field {name!r}; {_known(fields)}" for name in extras if name not in fields]


def with_defaults(fields: Mapping[str, PlayerField], extras: Mapping[str, str], seat: int) -> dict[str, str]:
    """The fields given, and the default of each field not given (left out when empty)."""
    filled = {name: spec.default(seat) for name, spec in fields.items() if name not in extras}
    return {**{k: v for k, v in filled.items() if v}, **extras}


def _known(fields: Mapping[str, PlayerField]) -> str:
    if not fields:
        return "it takes none"
    return "its fields: " + "; ".join(f"{name} ({spec.help})" for name, spec in fields.items())


def named(words: Sequence[str], find: Callable[[str], str]) -> list[str]:
    """The players a GM's words name, each by id or by a name of one or more words ("Red Realm",
    "Anna"): `find` gives the player id of a text ("" when none); the longest run of words that
    names a player is taken first. A word naming nobody raises ValueError."""
    out, start = [], 0
    while start < len(words):
        end = next((e for e in range(len(words), start, -1) if find(" ".join(words[start:e]))), 0)
        if not end:
            raise ValueError(f"“{words[start]}” names no player")
        found = find(" ".join(words[start:end]))
        out += [] if found in out else [found]
        start = end
    return out
