"""Lines that are not orders: greetings, thanks and names around a player's orders.

One rule for every rule system and window. A line the window's parser could not read is an
order line, rejected with its suggestion, when

- its first word is close to one of the window's order words (`CHALENGE Ben`, `CLIAM T7`),
- or it names one of the player's ids or a place of the map (`Ironjaws to Cinder Reach`), or
  one of his ids misspelt (`Wyvren killed` on a sheet listing a Wyvern),
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

from pbem.kit.maps import PlaceMap
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
    """What a window's order lines are made of: its order words, the player's own ids (tokens,
    armies, the entries of his lists) and the places of the map, all folded with `normalise`."""

    words: frozenset[str]
    ids: frozenset[str]
    places: frozenset[str]

    @classmethod
    def of(cls, words: Iterable[str], ids: Iterable[str], places: Iterable[str]) -> Vocabulary:
        return cls(fold(words), fold(ids), fold(places))

    @classmethod
    def of_map(cls, words: Iterable[str], ids: Iterable[str], gmap: object) -> Vocabulary:
        """`of` with the places of a map (`places_of`), folded once per map: a rule system hands
        out one map object per map, and every order mail of a campaign asks again."""
        return cls(fold(words), fold(ids), _map_places(gmap))

    def is_order(self, line: str) -> bool:
        """Whether `line` reads as an order (see the module's rule)."""
        words = _WORD.findall(line)
        if _ORDERLY.search(line):
            return True
        return (bool(words) and close(words[0], self.words)) or any(self.names_one(run) for run in runs(words))

    def names_one(self, run: str) -> bool:
        """A place or an id exactly, or one of the player's ids misspelt (`Wyvren` for Wyvern):
        places are many and short, so only his own few ids are matched loosely."""
        key = normalise(run)
        return key in self.places or close(run, self.ids)


def close(word: str, known: frozenset[str]) -> bool:
    """`word` is one of `known`, or one letter or two away from one when long enough."""
    key = normalise(word)
    if key in known:
        return True
    return len(key) >= MIN_FUZZY_CHARS and bool(difflib.get_close_matches(key, known, n=1, cutoff=CLOSE_RATIO))


def runs(words: Sequence[str]) -> list[str]:
    """Every run of up to MAX_NAME_WORDS words of a line, as the text a name could be."""
    return [" ".join(words[i:i + size]) for size in range(1, MAX_NAME_WORDS + 1) for i in range(len(words) - size + 1)]


def fold(names: Iterable[str]) -> frozenset[str]:
    """Names as a vocabulary holds them: normalised, the empty ones left out."""
    return frozenset(filter(None, map(normalise, names)))


_FOLDED: dict[int, tuple[object, frozenset[str]]] = {}
"""id(map) -> (the map, its places folded); the map is kept so that its id is not reused."""
_FOLDED_MAPS = 32
"""Maps kept folded: a rule system that loads a new map object per call costs a fold, not memory."""


def _map_places(gmap: object) -> frozenset[str]:
    kept = _FOLDED.get(id(gmap))
    if kept is None or kept[0] is not gmap:
        if len(_FOLDED) >= _FOLDED_MAPS:
            del _FOLDED[next(iter(_FOLDED))]        # the oldest
        kept = _FOLDED[id(gmap)] = (gmap, fold(places_of(gmap)))
    return kept[1]


def places_of(gmap: object) -> list[str]:
    """The ids and names of a map's places (none when the map is no `PlaceMap`)."""
    if not isinstance(gmap, PlaceMap):
        return []
    return [name for place in gmap.places() for name in (place, gmap.name_of(place))]


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
