"""Vocabulary shared by every rule system's order parser.

Errors come in three kinds, as players need to hear them:
``InvalidOrder`` (not understood), ``IllegalOrder`` (understood, not allowed) and
``AmbiguousOrder`` (understood several ways). Each carries the line number, the
line, the reason and, where we can guess, a suggestion. Acknowledgement mails
quote them line by line.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class OrderProblem(Exception):
    """A line the parser could not accept. Subclasses name the kind."""

    reason: str
    line_no: int = 0
    line: str = ""
    suggestion: str = ""

    kind = "problem"

    def __str__(self) -> str:
        where = f"line {self.line_no}: " if self.line_no else ""
        hint = f" (did you mean {self.suggestion}?)" if self.suggestion else ""
        return f"{where}{self.reason}{hint}"

    def at(self, line_no: int, line: str) -> OrderProblem:
        """The same problem, located on a line of the submission."""
        return type(self)(self.reason, line_no, line, self.suggestion)


class InvalidOrder(OrderProblem):
    kind = "invalid"


class IllegalOrder(OrderProblem):
    kind = "illegal"


class AmbiguousOrder(OrderProblem):
    kind = "ambiguous"


def normalise(name: str) -> str:
    """Fold a name for matching: case, spaces, hyphens, apostrophes and dots."""
    return re.sub(r"[\s\-_'.]+", "", name.casefold())


class NameIndex:
    """Resolves names typed by players to ids, with "did you mean" hints.

    Accepts ids, full names and aliases, case-insensitively and ignoring spaces,
    hyphens and apostrophes. A unique prefix of at least 3 letters also matches.
    """

    def __init__(self, names: Mapping[str, Iterable[str]], what: str = "territory") -> None:
        self.what = what
        self._exact: dict[str, set[str]] = {}
        for ident, aliases in names.items():
            for alias in (ident, *aliases):
                self._exact.setdefault(normalise(alias), set()).add(ident)
        self._keys = sorted(self._exact)

    def lookup(self, text: str) -> str:
        """The id `text` names; raises InvalidOrder or AmbiguousOrder."""
        key = normalise(text)
        found = self._exact.get(key)
        if found is None and len(key) >= 3:
            found = {i for k in self._keys if k.startswith(key) for i in self._exact[k]}
        if found and len(found) == 1:
            return next(iter(found))
        if found:
            options = ", ".join(sorted(found))
            raise AmbiguousOrder(f"{text!r} could be any of: {options}", suggestion=options)
        raise InvalidOrder(f"unknown {self.what} {text!r}", suggestion=self.suggest(text))

    def suggest(self, text: str) -> str:
        close = difflib.get_close_matches(normalise(text), self._keys, n=1, cutoff=0.6)
        return ", ".join(sorted(self._exact[close[0]])) if close else ""


def significant_lines(text: str) -> list[tuple[int, str]]:
    """Numbered lines worth parsing: blank lines and `#` comments are dropped."""
    out = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append((no, line))
    return out
