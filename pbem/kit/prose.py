"""Lines that are not orders: greetings, thanks and names around a player's orders.

One rule for every rule system and window. A line the window's parser could not read is an
order line, rejected with its suggestion, when

- its first word is close to one of the window's order words (`CHALENGE Ben`, `CLIAM T7`),
- or it names one of the player's ids or a place of the map (`Ironjaws to Cinder Reach`),
- or it carries a digit or a `|` (ids, counts, list entries: nobody greets in numbers);

any other line ("Hi GM,", "What a game! Thanks Alice.", "Cheers,") is prose: skipped with one
note in the acknowledgement, wherever it stands in the mail. A line the parser accepted is
an order, whatever it looks like, so the rule never loses an order a window reads.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pbem.kit.orders import InvalidOrder, OrderProblem, normalise
from pbem.kit.texts import md_code

# How alike a typed first word and an order word must be (difflib's ratio) to read the line
# as a misspelt order: CLIAM/CLAIM is 0.8, CHALENGE/CHALLENGE 0.94, while greetings stay far
# from every order word (THANKS/TANKS would be 0.91, so short words must match exactly).
CLOSE_RATIO = 0.75
# Words this short are only order words when typed exactly: "Hi" is not "H".
MIN_FUZZY_CHARS = 4
# The longest name, in words, looked for in a line ("Cinder Reach", "North Atlantic Ocean").
MAX_NAME_WORDS = 3

_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")
_ORDERLY = re.compile(r"[\d|]")


@dataclass(frozen=True)
class Vocabulary:
    """What a window's order lines are made of: its order words, and the ids and places a line
    may name (all folded with `normalise`)."""

    words: frozenset[str]
    names: frozenset[str]

    @classmethod
    def of(cls, words: Iterable[str], names: Iterable[str]) -> Vocabulary:
        return cls(frozenset(filter(None, map(normalise, words))), frozenset(filter(None, map(normalise, names))))

    def is_order(self, line: str) -> bool:
        """Whether `line` reads as an order (see the module's rule)."""
        words = _WORD.findall(line)
        return bool(_ORDERLY.search(line)) or (bool(words) and self.close_word(words[0])) or self.names_one(words)

    def close_word(self, word: str) -> bool:
        key = normalise(word)
        if key in self.words:
            return True
        if len(key) < MIN_FUZZY_CHARS:
            return False
        return bool(difflib.get_close_matches(key, self.words, n=1, cutoff=CLOSE_RATIO))

    def names_one(self, words: Sequence[str]) -> bool:
        """Whether a run of up to MAX_NAME_WORDS words is exactly an id or a place's name."""
        keys = [normalise(w) for w in words]
        return any("".join(keys[i:i + size]) in self.names
                   for size in range(1, MAX_NAME_WORDS + 1) for i in range(len(keys) - size + 1))


def prose_lines(lines: Sequence[tuple[int, str]], problems: Sequence[OrderProblem],
                vocabulary: Vocabulary) -> list[tuple[int, str]]:
    """The lines to skip as prose: rejected as not understood (never as illegal or ambiguous,
    which means the parser knew the line for an order) and reading as no order."""
    refused = {p.line_no for p in problems if type(p) is not OrderProblem and isinstance(p, InvalidOrder)}
    return [(no, line) for no, line in lines if no in refused and not vocabulary.is_order(line)]


def prose_note(prose: Sequence[tuple[int, str]]) -> str:
    """The acknowledgement's one note on skipped lines: `2 lines read as prose and skipped: ...`."""
    count = "1 line" if len(prose) == 1 else f"{len(prose)} lines"
    shown = ", ".join(f"line {no} {md_code(line)}" for no, line in prose)
    return f"{count} read as prose and skipped: {shown}."
