"""One reading of dice text for every rule book (pbem.kit.dice.dice_spec)."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice, dice_spec
from pbem.rulesets.conquest.rules import dice_spec as conquest_dice_spec
from pbem.rulesets.daemon_rift.options import dice_spec as dr_dice_spec


@pytest.mark.parametrize(("text", "expected"), [
    ("D6", (1, 6)), ("d6", (1, 6)), ("1d6", (1, 6)), ("2D6", (2, 6)), ("1d3", (1, 3)), (" 3 d 10 ", (3, 10)),
    ("d100", (1, 100)),
])
def test_dice_text_reads_as_count_and_sides(text: str, expected: tuple[int, int]) -> None:
    assert dice_spec(text) == expected


@pytest.mark.parametrize(("text", "says"), [
    ("", "is not a dice roll like \"D6\""), ("6", "is not a dice roll"), ("2x6", "is not a dice roll"),
    ("d", "is not a dice roll"), ("-1d6", "is not a dice roll"), ("1d6+1", "is not a dice roll"),
    ("0d6", "rolls no dice"), ("2d1", "a die has at least 2 sides"), ("d0", "a die has at least 2 sides"),
    ("\u0663d6", "is not a dice roll"),
])
def test_anything_else_is_one_clear_value_error(text: str, says: str) -> None:
    with pytest.raises(ValueError, match=says) as err:
        dice_spec(text)
    assert repr(text) in str(err.value) and "\n" not in str(err.value)


def test_both_rule_systems_read_dice_the_kits_way() -> None:
    assert conquest_dice_spec is dice_spec and dr_dice_spec is dice_spec
    assert dr_dice_spec("d6") == (1, 6)            # Daemon Rift refused this before there was one reading


def test_a_spec_drives_a_roll() -> None:
    count, sides = dice_spec("2d3")
    roll = ScriptedDice([3, 1]).roll("test", count, sides)
    assert roll.faces == (3, 1) and str(roll) == "test: 2D3 = 3+1 = 4"


def test_a_rule_book_with_a_one_die_spec_loads() -> None:
    from pbem.rulesets.daemon_rift import options

    book = options.load({"massacre": {"die": "D6"}})
    assert book["massacre.die"] == "D6"
