"""Moved to `pbem.kit.dice`; this module re-exports it for the rule systems that still import
it from here, and goes once every rule system imports from the kit."""

from __future__ import annotations

from pbem.kit.dice import (
    CommittedDice,
    Dice,
    DiceExhausted,
    ReplayDice,
    Roll,
    ScriptedDice,
    SeededDice,
    commitment,
    derive_face,
    dice_spec,
    new_secret,
    stage_salt,
    verify,
)

__all__ = [
    "CommittedDice", "Dice", "DiceExhausted", "ReplayDice", "Roll", "ScriptedDice", "SeededDice", "commitment",
    "derive_face", "dice_spec", "new_secret", "stage_salt", "verify",
]
