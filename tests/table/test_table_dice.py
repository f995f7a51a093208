"""The dice of a round at the table across sittings: a later sitting continues the committed
sequence where the last stopped, so the whole round verifies as one stage; typed rolls between
take no face from the secret; rolls typed before an interruption come back before anything is
asked again."""

from __future__ import annotations

from pbem.kit.dice import CommittedDice, TypedRoll, verify
from pbem.kit.typed_dice import PromptedDice
from pbem.table.dice import TableDice

SECRET, SALT = "s" * 64, "wt/1/orders/digest/table"


def test_a_later_sitting_continues_the_committed_sequence() -> None:
    first = TableDice(SECRET, SALT, [])
    first.roll("command test A1", 2)
    first.roll("command test A1 again", 2)
    second = TableDice(SECRET, SALT, first.log)
    second.roll("command test B1", 2)
    whole = CommittedDice(SECRET, SALT)
    for purpose in ("command test A1", "command test A1 again", "command test B1"):
        whole.roll(purpose, 2)
    assert [r.faces for r in second.log] == [r.faces for r in whole.log]
    assert [r.n for r in second.log] == [0, 1, 2] and verify(SECRET, SALT, second.log) == []


def test_typed_rolls_take_no_face_and_come_back_after_an_interruption() -> None:
    answers = iter(["3+4"])
    typed = PromptedDice(lambda prompt: next(answers), print, "Ann")
    sitting = TableDice(SECRET, SALT, [], typed)
    sitting.roll("command test A1", 2)
    committed = TableDice(SECRET, SALT, sitting.log)
    committed.roll("order roll: ann", 2)
    assert verify(SECRET, SALT, committed.log) == []
    again = TableDice(SECRET, SALT, [], PromptedDice(lambda prompt: "6+6", print, "Ann"), again=sitting.log)
    assert again.roll("command test A1", 2) == TypedRoll(0, "command test A1", 6, (3, 4), "Ann")
    assert again.roll("command test A1 in T9", 2).faces == (6, 6)
