"""`destruction.character_only_anytime` (catalog A8/A17, WT-DES-2): when true, a stack left with
characters only is destroyed at every step that can leave it so (a division, combining with its
removals, a battle, a retreat into his own stack's tile), not only after battles; when false (the
shipped default) such a stack lives on until its next battle."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.phases import PositionError
from pbem.rulesets.wandering_tribes import position
from pbem.rulesets.wandering_tribes.battle_results import Report, resolve
from pbem.rulesets.wandering_tribes.battle_setup import LOCKED, Battle
from pbem.rulesets.wandering_tribes.plan import Attempt, Division, RoundOrders
from pbem.rulesets.wandering_tribes.player_round import play
from pbem.rulesets.wandering_tribes.rules import Rules
from tests.wandering_tribes.helpers import dice, grid, lock, no_minimums, put, row, rules, world

ANYTIME = "destruction.character_only_anytime"
AFTER_BATTLE = "destruction.character_only_after_battle"


def _divided(book: Rules) -> tuple[dict[str, object], list[str]]:
    gmap, state = row(5), world({"Anna": "empire"})
    put(state, book, "A1", "Anna", "T5", ["General", "Hero", "Hero", "Wizard", "Halberdiers", "Halberdiers",
                                          "Crossbowmen"])
    split = Division("A1", [("A1", ["m1", "m5", "m6", "m7"]), ("A2", ["m2", "m3", "m4"])])
    done = play(state, book, gmap, "Anna", RoundOrders(rest=False, divisions=[split]), ScriptedDice())
    return dict(done.state.stacks), done.log


@pytest.mark.clause("WT-DES-2", "WT-DIV-4")
def test_wt_des_2_anytime_an_all_character_part_of_a_division_is_destroyed_at_once() -> None:
    stacks, log = _divided(rules(**{ANYTIME: True}))
    assert "A2" not in stacks and "  A2 is destroyed: it holds characters only" in log
    kept, log = _divided(rules())                     # A8: it may live until its next battle (here it
    assert "  A1 divides into A1 (270 pts), A2 (205 pts)" in log                  # combines again, WT-CMB)
    assert not any("destroyed" in line for line in log)
    assert {"m2", "m3", "m4"} <= {m.id for s in kept.values() for m in s.markers}  # type: ignore[attr-defined]


def _combined(book: Rules) -> tuple[dict[str, object], list[str]]:
    """A1 (General, Knights) moves onto A2 (Hero, Knights); over the 210-point cap the combining removes
    both Knights, the fewest points it can, and leaves General and Hero (205 pts)."""
    gmap, state = row(5), world({"Anna": "empire"})
    put(state, book, "A1", "Anna", "T1", ["General", "Knights"])
    put(state, book, "A2", "Anna", "T2", ["Hero", "Knights"])
    done = play(state, book, gmap, "Anna", RoundOrders(rest=False, attempts=[Attempt("A1")]), dice(2, 12))
    return dict(done.state.stacks), done.log


@pytest.mark.clause("WT-DES-2", "WT-CMB-9")
def test_wt_des_2_anytime_a_stack_combining_leaves_with_characters_only_is_destroyed() -> None:
    cap = {"campaign.stack_points_cap": 210}
    stacks, log = _combined(no_minimums("empire", **cap, **{ANYTIME: True}))
    assert "A1" not in stacks and "A2" not in stacks and "  A1 is destroyed: it holds characters only" in log
    kept, _ = _combined(no_minimums("empire", **cap))
    assert [m.type for m in kept["A1"].markers] == ["General", "Hero"]    # type: ignore[attr-defined]


def _battle_lost_units(book: Rules) -> dict[str, object]:
    """Ben wins but loses his only unit: General and Hero are left."""
    gmap, state = grid(3, 3), world({"Anna": "empire", "Ben": "empire"})
    put(state, book, "A1", "Anna", "T5", ["General", "Hero", "Halberdiers", "Halberdiers"])
    put(state, book, "B1", "Ben", "T5", ["General", "Hero", "Halberdiers"])
    lock(state, "A1", "B1")
    after, _ = resolve(state, book, gmap, Battle(1, LOCKED, "T5", "A1", "B1"),
                       Report("Ben", lost={"Ben": ["m7"]}, iflose={"Anna": ["N"]}), ScriptedDice())
    return dict(after.stacks)


@pytest.mark.clause("WT-DES-2")
def test_wt_des_2_anytime_applies_after_a_battle_even_with_the_after_battle_check_off() -> None:
    assert "B1" not in _battle_lost_units(no_minimums("empire", **{AFTER_BATTLE: False, ANYTIME: True}))
    assert "B1" in _battle_lost_units(no_minimums("empire", **{AFTER_BATTLE: False}))


def _retreated(book: Rules) -> tuple[dict[str, object], list[str]]:
    """Ben's B1 (General, Knights) loses and retreats E into his own B2 (Hero, Knights); over the cap the
    combining removes both Knights."""
    gmap, state = grid(3, 3), world({"Anna": "empire", "Ben": "empire"})
    put(state, book, "A1", "Anna", "T5", ["General", "Halberdiers", "Halberdiers"])
    put(state, book, "B1", "Ben", "T5", ["General", "Knights"])
    put(state, book, "B2", "Ben", "T6", ["Hero", "Knights"])
    lock(state, "A1", "B1")
    after, log = resolve(state, book, gmap, Battle(1, LOCKED, "T5", "A1", "B1"),
                         Report("Anna", iflose={"Ben": ["E"]}), ScriptedDice())
    return dict(after.stacks), log


@pytest.mark.clause("WT-DES-2", "WT-RES-10")
def test_wt_des_2_anytime_a_retreat_that_combines_into_characters_only_destroys_the_stack() -> None:
    base = {"campaign.stack_points_cap": 210, "retreat.free_tile": "no_enemy"}
    stacks, log = _retreated(no_minimums("empire", **base, **{ANYTIME: True}))
    assert "B1 retreats E from T5 to T6" in log and "B1 is destroyed: it holds characters only" in log
    assert "B1" not in stacks and "B2" not in stacks
    kept, _ = _retreated(no_minimums("empire", **base))
    assert [m.type for m in kept["B1"].markers] == ["General", "Hero"]    # type: ignore[attr-defined]


@pytest.mark.clause("WT-DES-2")
def test_wt_des_2_anytime_a_position_cannot_hold_a_stack_of_characters_only() -> None:
    data = {"window": "orders", "seats": ["anna"], "players": {"anna": {"nation": "empire"}},
            "stacks": [{"id": "A1", "owner": "anna", "tile": "T1", "markers": ["m1 General", "m2 Hero"]}]}
    assert position.read(["anna"], row(3), rules(), data, "pos.toml").state.stacks["A1"]
    with pytest.raises(PositionError, match="A1 holds characters only"):
        position.read(["anna"], row(3), rules(**{ANYTIME: True}), data, "pos.toml")
