"""Vocabulary shared by every rule system's order parser.

Errors come in three kinds, as players need to hear them:
``InvalidOrder`` (not understood), ``IllegalOrder`` (understood, not allowed) and
``AmbiguousOrder`` (understood several ways). Each carries the line number, the
line, the reason and, where we can guess, a suggestion. Acknowledgement mails
quote them line by line.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

# The longest line an order parser reads. Orders run to 60 characters or so (a Conquest battle
# result, a Daemon Rift repair plan); the longest lines players send, a list entry with its
# magic items, stay under 150. 200 leaves room for long names and comments while keeping each
# line's parse small, so no mail can hold the tick. Longer lines are reported, never parsed
# (pbem.intake.envelope.read_envelope).
MAX_LINE_CHARS = 200

# The most lines of one message handed to a rule system. A player's orders run to a few dozen
# lines (a whole army list to perhaps 60); the cap bounds the work and the length of the
# acknowledgement (one line per problem) for a message of thousands of junk lines.
MAX_ORDER_LINES = 500

# "Did you mean" compares a typed word with every known name (difflib, quadratic in the
# lengths): only words of a name's size get a suggestion.
MAX_SUGGEST_CHARS = 30

# An ambiguous name lists its choices only when a player can read them at a glance.
MAX_CHOICES = 5


def quoted(text: str) -> str:
    """What a player typed, quoted for a mail: plain double quotes, never a Python repr."""
    return f"\u201c{' '.join(text.split())}\u201d"


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


class NotAnOrder(InvalidOrder):
    """A line that does not start like any order of the window: a misspelt order word, or prose
    (a greeting, a signature), which the rule system's parse skips (pbem.kit.prose)."""


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
        self._labels: dict[str, str] = {}
        for ident, aliases in names.items():
            aliases = tuple(aliases)
            self._labels[ident] = _label(ident, aliases[0] if aliases else ident)
            for alias in (ident, *aliases):
                self._exact.setdefault(normalise(alias), set()).add(ident)
        self._keys = sorted(self._exact)
        self._longest_key = max(map(len, self._keys), default=0)

    def lookup(self, text: str) -> str:
        """The id `text` names; raises InvalidOrder or AmbiguousOrder."""
        found = self._candidates(normalise(text))
        if len(found) == 1:
            return next(iter(found))
        if found:
            few = len(found) <= MAX_CHOICES
            ranked = ", ".join(self._ranked(text, found)) if few else ""
            raise AmbiguousOrder(self._choices(text, found), suggestion=ranked)
        raise InvalidOrder(f"unknown {self.what} {quoted(text)}", suggestion=self.suggest_label(text))

    def label(self, ident: str) -> str:
        """How a suggestion names an id: `T27 Cinder Reach`, or the name alone when it is the id."""
        return self._labels.get(ident, ident)

    def _ranked(self, text: str, idents: Iterable[str]) -> list[str]:
        """Labels of `idents`, the most like `text` first (ties in id order)."""
        key = normalise(text)
        score = {i: max(difflib.SequenceMatcher(None, key, normalise(self.label(i))).ratio(),
                        difflib.SequenceMatcher(None, key, normalise(i)).ratio()) for i in idents}
        return [self.label(i) for i in sorted(score, key=lambda i: (-score[i], i))]

    def _choices(self, text: str, found: set[str]) -> str:
        """The reason of an ambiguous name: the choices follow as the suggestion when few."""
        if len(found) > MAX_CHOICES:
            return f"{quoted(text)} matches {len(found)} names; type more of the {self.what}'s name"
        return f"{quoted(text)} could be more than one {self.what}"

    def find(self, text: str) -> str | None:
        """The id `text` names, or None when it names none or several: `lookup` without the
        problem and its suggestion, for trying a word before knowing what it is."""
        found = self._candidates(normalise(text))
        return next(iter(found)) if len(found) == 1 else None

    def _candidates(self, key: str) -> set[str]:
        """Ids whose name is `key`, else whose name starts with it (3 letters at least)."""
        found = self._exact.get(key)
        if found is not None or len(key) < 3 or len(key) > self._longest_key:
            return found or set()
        first = bisect.bisect_left(self._keys, key)     # the keys starting with `key` follow it
        out: set[str] = set()
        for k in self._keys[first:]:
            if not k.startswith(key):
                break
            out |= self._exact[k]
        return out

    def longest(self, words: Sequence[str], start: int = 0, stop: int | None = None) -> tuple[str, int] | None:
        """The longest run `words[start:end]` (end <= stop) that names exactly one id, as
        (id, end); None when no run does. Runs longer than the longest name are never tried
        (a word of bare punctuation counts as one letter), so the cost grows with the line,
        not with its square."""
        stop = len(words) if stop is None else stop
        best, key, size, end = None, "", 0, start
        while end < stop:
            part = normalise(words[end])
            key, size, end = key + part, size + max(len(part), 1), end + 1
            if size > self._longest_key:
                break
            found = self._candidates(key)
            if len(found) == 1:
                best = (next(iter(found)), end)
        return best

    def suggest(self, text: str) -> str:
        """The closest known name, for "did you mean"; nothing for text longer than a name."""
        key = normalise(text)
        if not key or len(key) > MAX_SUGGEST_CHARS:
            return ""
        close = difflib.get_close_matches(key, self._keys, n=1, cutoff=0.6)
        return ", ".join(sorted(self._exact[close[0]])) if close else ""

    def suggest_label(self, text: str) -> str:
        """`suggest` naming the place as a player reads it: `T27 Cinder Reach`."""
        close = self.suggest(text)
        return ", ".join(self.label(i) for i in close.split(", ")) if close else ""

    def unknown(self, words: Sequence[str], first: int, bad: int) -> InvalidOrder:
        """The problem of `words[bad]`, which starts no name, when `words[first:bad]` were read as
        the start of one: a misspelt later word ("Cinder Reech") is judged with the words before
        and after it, and the run most like a known name is the one quoted and matched."""
        best = (0.0, words[bad], "")
        for start in range(max(first, bad - 2), bad + 1):
            for end in range(bad + 1, min(len(words), bad + 3) + 1):
                text = " ".join(words[start:end])
                close = self.suggest(text)
                if close:
                    closest = normalise(self.label(close.split(", ")[0]))
                    ratio = difflib.SequenceMatcher(None, normalise(text), closest).ratio()
                    ratio = max(ratio, difflib.SequenceMatcher(None, normalise(text), normalise(close)).ratio())
                    if ratio > best[0]:
                        best = (ratio, text, self.suggest_label(text))
        return InvalidOrder(f"unknown {self.what} {quoted(best[1])}", suggestion=best[2])


def _label(ident: str, name: str) -> str:
    return name if normalise(name) == normalise(ident) else f"{ident} {name}"


def significant_lines(text: str) -> list[tuple[int, str]]:
    """Numbered lines worth parsing: blank lines and `#` comments are dropped."""
    out = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append((no, line))
    return out


def too_long(line_no: int, line: str) -> InvalidOrder | None:
    """The problem of a line longer than MAX_LINE_CHARS, which no parser reads."""
    if len(line) <= MAX_LINE_CHARS:
        return None
    return InvalidOrder(f"the line is {len(line):,} characters long; order lines are limited to "
                        f"{MAX_LINE_CHARS}, so it was not read: split it", line_no, line[:60] + "…")
