"""Dice rolled at the table with real dice, and typed in instead of derived from the turn secret.

Two sources, both logging `TypedRoll`s (who typed them is part of every roll):

- `ListedDice`: the values a game master lists in a dice file, in the order the rules roll
  them (`pbem resolve CAMPAIGN --dice FILE`). The file must fit the resolution exactly: a
  file that runs short, has lines left over, a value that is not a face of the die, or a
  purpose that is not the roll the rules ask for is refused whole, naming its line.
- `PromptedDice`: asks for each roll on a prompt (`pbem resolve CAMPAIGN --dice typed`,
  `pbem table --dice typed`), the purpose and the die shown, asking again on a bad value.

The dice file, one roll a line, in the order the rules roll them:

    # turn 3 movement, rolled at the club
    dependent roll-off at T12: 4
    massacre, battle 1: red: 2
    command test: 3+5

`purpose: faces`. The purpose is what the report's dice list says (player ids, not names);
case and spacing do not matter, and a purpose may be cut short after any whole word
(`massacre` stands for `massacre, battle 1: red`). The faces of a roll of several dice are
joined by `+` or spaces, one for each die. Blank lines and lines starting with `#` are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pbem.kit.dice import Dice, TypedRoll
from pbem.kit.texts import counted

SHORT_FORM = "a purpose may be cut short after a whole word"


class TypedDiceError(Exception):
    """Typed dice the rules cannot use: one line saying which roll or file line, and the fix."""


@dataclass(frozen=True)
class DiceLine:
    """One line of a dice file: its number in the file, the purpose typed, the faces typed."""

    number: int
    purpose: str
    faces: tuple[int, ...]
    text: str


def read_dice_file(text: str) -> list[DiceLine]:
    """The rolls of a dice file; raises TypedDiceError on the first line that is no `purpose: faces`."""
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line and not line.startswith("#"):
            lines.append(_dice_line(number, line))
    return lines


def _dice_line(number: int, line: str) -> DiceLine:
    purpose, colon, value = line.rpartition(":")
    if not colon or not purpose.strip():
        raise TypedDiceError(f"line {number} `{line}` is not `purpose: value`; write it like `massacre: 4`")
    faces = faces_of(value)
    if faces is None:
        raise TypedDiceError(f"line {number} `{line}`: {value.strip()!r} is not a die's value; "
                             "write whole numbers, the faces of several dice joined by +, like `3+5`")
    return DiceLine(number, purpose.strip(), faces, line)


_FACES = re.compile(r"^\s*\d+(\s*[+\s]\s*\d+)*\s*$")


def faces_of(value: str) -> tuple[int, ...] | None:
    """`"3+5"`, `"3 5"` -> (3, 5); None when `value` is not faces."""
    if not _FACES.match(value):
        return None
    return tuple(int(face) for face in re.split(r"[+\s]+", value.strip()))


def _plain(text: str) -> str:
    return " ".join(text.casefold().split())


def purpose_matches(typed: str, wanted: str) -> bool:
    """The typed purpose names the rule's roll: the same text (case and spacing aside), or its
    beginning cut after a whole word."""
    short, full = _plain(typed), _plain(wanted)
    if not short or not full.startswith(short):
        return False
    return len(full) == len(short) or not (full[len(short)].isalnum() and short[-1].isalnum())


def die_name(count: int, sides: int) -> str:
    return f"{count}D{sides}" if count > 1 else f"D{sides}"


def fault(faces: tuple[int, ...], count: int, sides: int) -> str:
    """What is wrong with `faces` for a roll of `count` dice of `sides` sides ("" when nothing)."""
    if len(faces) != count:
        example = "+".join(str(min(i + 3, sides)) for i in range(count))
        return f"{counted(len(faces), 'value')} for {die_name(count, sides)}: give one per die, like `{example}`"
    off = [f for f in faces if not 1 <= f <= sides]
    return f"{off[0]} is not a face of a D{sides} (1 to {sides})" if off else ""


class TypedDice(Dice):
    """Dice typed in by `typed_by`, standing in for the committed dice of the stage `salt` names
    (the dice log keeps one entry per stage salt)."""

    def __init__(self, typed_by: str, salt: str = "") -> None:
        super().__init__()
        self.typed_by, self.salt = typed_by, salt


class ListedDice(TypedDice):
    """The GM's list of typed rolls, used in order; each must be the roll the rules ask for."""

    def __init__(self, lines: Iterable[DiceLine], typed_by: str, salt: str = "") -> None:
        super().__init__(typed_by, salt)
        self.lines = list(lines)
        self._next = 0

    def roll(self, purpose: str, count: int = 1, sides: int = 6) -> TypedRoll:
        if self._next >= len(self.lines):
            value = "+".join(["<value>"] * count)
            raise TypedDiceError(f"the dice file runs short{self._after()}: the rules roll {die_name(count, sides)} "
                                 f"for `{purpose}`; add the line `{purpose}: {value}` and run it again")
        line = self.lines[self._next]
        if not purpose_matches(line.purpose, purpose):
            raise TypedDiceError(f"line {line.number} `{line.text}` is not the roll the rules ask for here: "
                                 f"{die_name(count, sides)} for `{purpose}`; put that roll's line here "
                                 f"({SHORT_FORM})")
        wrong = fault(line.faces, count, sides)
        if wrong:
            raise TypedDiceError(f"line {line.number} `{line.text}` for `{purpose}`: {wrong}")
        self._next += 1
        result = TypedRoll(len(self.log), purpose, sides, line.faces, self.typed_by)
        self.log.append(result)
        return result

    def _after(self) -> str:
        return f" after line {self.lines[self._next - 1].number}" if self._next else " (it lists no roll)"

    def finish(self) -> None:
        if self._next < len(self.lines):
            line = self.lines[self._next]
            raise TypedDiceError(f"line {line.number} `{line.text}` is left over: the rules made "
                                 f"{self._next} roll(s); remove the lines from {line.number} on, or check "
                                 "that the orders on file are the ones the rolls were made for")


class PromptedDice(TypedDice):
    """Asks for each roll as the rules make it: `ask(prompt)` returns the typed line (EOFError or
    KeyboardInterrupt end the resolution, nothing used), `tell(text)` shows why a value was refused."""

    def __init__(self, ask: Callable[[str], str], tell: Callable[[str], None], typed_by: str,
                 salt: str = "") -> None:
        super().__init__(typed_by, salt)
        self.ask, self.tell = ask, tell

    def roll(self, purpose: str, count: int = 1, sides: int = 6) -> TypedRoll:
        faces = self._faces(purpose, count, sides)
        result = TypedRoll(len(self.log), purpose, sides, faces, self.typed_by)
        self.log.append(result)
        return result

    def _faces(self, purpose: str, count: int, sides: int) -> tuple[int, ...]:
        prompt = f"{purpose}: roll {die_name(count, sides)}, value? "
        while True:
            try:
                answer = self.ask(prompt)
            except (EOFError, KeyboardInterrupt):
                raise TypedDiceError(f"no value was typed for `{purpose}` ({die_name(count, sides)}); "
                                     "nothing was resolved: run it again and type every roll") from None
            faces = faces_of(answer)
            wrong = "not a die's value" if faces is None else fault(faces, count, sides)
            if faces is not None and not wrong:
                return faces
            self.tell(f"{answer.strip()!r}: {wrong}; type {die_name(count, sides)} again")
