"""Values a game master or player typed, checked for what no setting may hold and shown in one line."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
"""Characters no setting may hold: line breaks (a name or address ends up in mail headers),
other control characters, and the lone surrogates a non-UTF-8 command line leaves."""


_SHOWN = 40


def shown(value: Any) -> str:
    """A found value for a one-line message: its kind for tables and lists, else a short repr."""
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list):
        return "a list"
    text = repr(value)
    return text if len(text) <= _SHOWN else text[:_SHOWN - 4] + "...'"


def text_problem(value: str) -> str:
    """Why `value` cannot stand in a setting ("" when it can)."""
    bad = CONTROL.search(value)
    return f"{shown(value)} holds the control character U+{ord(bad.group()):04X}; remove it" if bad else ""
