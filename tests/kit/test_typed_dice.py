"""The kit's typed dice (pbem.kit.typed_dice): the dice file's syntax, how strictly a typed purpose
must name the rule's roll, values checked against the die, rolls left over, the prompt asking
again; and `verify` skipping typed rolls while it still recomputes every generated one."""

from __future__ import annotations

import re

import pytest

from pbem.kit.dice import CommittedDice, TypedRoll, log_entry, logged_roll, verify
from pbem.kit.typed_dice import ListedDice, PromptedDice, TypedDiceError, purpose_matches, read_dice_file


@pytest.mark.parametrize(("typed", "wanted", "matches"), [
    ("massacre, battle 1: red", "massacre, battle 1: red", True),
    ("massacre, battle 1:red", "massacre, battle 1: red", False),         # a space only where the rule has one
    ("Massacre,  Battle 1: red", "massacre, battle 1: red", True),
    ("massacre", "massacre, battle 1: red", True),
    ("massacre, battle 1", "massacre, battle 12: red", False),
    ("mass", "massacre, battle 1: red", False),
    ("roll-off", "roll-off, battle 2 at T7", True),
    ("terrain pieces", "swap terrain, battle 1 at T24/T25", False),
    ("", "anything", False),
])
def test_a_typed_purpose_is_the_rules_purpose_or_its_beginning_cut_after_a_whole_word(
        typed: str, wanted: str, matches: bool) -> None:
    assert purpose_matches(typed, wanted) is matches


def test_a_dice_file_skips_comments_and_blank_lines_and_keeps_the_line_numbers() -> None:
    lines = read_dice_file("# club night\n\nmassacre, battle 1: red: 4\ncommand test: 3+5\nnerve: 2 6\n")
    assert [(d.number, d.purpose, d.faces) for d in lines] == [
        (3, "massacre, battle 1: red", (4,)), (4, "command test", (3, 5)), (5, "nerve", (2, 6))]


@pytest.mark.parametrize(("text", "said"), [
    ("4\n", "line 1 `4` is not `purpose: value`"),
    ("massacre: four\n", "line 1 `massacre: four`: 'four' is not a die's value"),
    ("ok: 1\n: 3\n", "line 2 `: 3` is not `purpose: value`"),
    ("massacre: -2\n", "'-2' is not a die's value"),
])
def test_a_line_that_is_no_purpose_and_value_is_named(text: str, said: str) -> None:
    with pytest.raises(TypedDiceError) as caught:
        read_dice_file(text)
    assert said in str(caught.value)


def test_listed_dice_give_the_typed_faces_in_order_and_refuse_leftovers() -> None:
    dice = ListedDice(read_dice_file("first: 3\nsecond: 1+6\nthird: 2\n"), "GM Gus")
    assert dice.roll("first roll").total == 3 and dice.roll("second roll", 2).faces == (1, 6)
    with pytest.raises(TypedDiceError, match=re.escape("line 3 `third: 2` is left over: the rules made 2 roll(s)")):
        dice.finish()
    assert [str(r) for r in dice.log] == ["first roll: D6 = 3 (typed by GM Gus)",
                                          "second roll: 2D6 = 1+6 = 7 (typed by GM Gus)"]


def test_listed_dice_refuse_a_value_off_the_die_naming_the_line() -> None:
    dice = ListedDice(read_dice_file("\nrandom legal city: 4\n"), "GM Gus")
    with pytest.raises(TypedDiceError, match=r"line 2 .*: 4 is not a face of a D3 \(1 to 3\)"):
        dice.roll("random legal city", 1, 3)


def test_prompted_dice_ask_again_until_the_value_fits_the_die() -> None:
    answers, shown = iter(["9", "", "4+1", "3"]), []
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)
    dice = PromptedDice(ask, shown.append, "Ann")
    assert dice.roll("morale: B-1").faces == (3,)
    assert prompts == ["morale: B-1: roll D6, value? "] * 4
    assert shown == ["'9': 9 is not a face of a D6 (1 to 6); type D6 again", "'': not a die's value; type D6 again",
                     "'4+1': 2 values for D6: give one per die, like `3`; type D6 again"]
    assert dice.log == [TypedRoll(0, "morale: B-1", 6, (3,), "Ann")]


def test_verify_skips_typed_rolls_and_still_recomputes_every_generated_one() -> None:
    dice = CommittedDice("secret", "camp/1/orders/x")
    first, second = dice.roll("first"), dice.roll("second", 2)
    typed = TypedRoll(1, "typed at the table", 6, (6,), "GM Gus")
    assert verify("secret", "camp/1/orders/x", [first, typed, second]) == []
    assert logged_roll(log_entry(typed)) == typed and logged_roll(log_entry(first)) == first
    forged = type(second)(second.n, second.purpose, second.sides, (7 - second.faces[0], second.faces[1]))
    assert verify("secret", "camp/1/orders/x", [first, typed, forged]) == [
        f"roll 1 (second): logged {forged.faces}, recomputed {second.faces}"]
