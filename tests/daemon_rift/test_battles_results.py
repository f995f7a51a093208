"""DR-BAT-7, DR-BAT-9..17 and DR-ROL-10..13: applying battle and roll-off results."""

from __future__ import annotations

from pbem.kit.dice import Dice
from pbem.rulesets.daemon_rift.model import LIST_ELIMINATED, BattleResult, PairBattle
from pbem.rulesets.daemon_rift.movement import Battle

from .conftest import build_map, build_state
from .helpers_movement import Turn

LOCKED = [PairBattle(1, ["B", "R"]), PairBattle(2, ["B", "R"])]


def duel(dice: list[int] = (), locked: bool = False) -> Turn:  # type: ignore[assignment]
    state = build_state({"R-1": "T5", "B-1": "T6"}, control={"T9": "B"})
    if locked:
        state.battles_fought = list(LOCKED)
    return Turn(state, build_map(), {"R-1": "M T6"}, dice=dice)


def test_dr_bat_7_dr_bat_11_obliterated_loser_eliminated_without_die() -> None:
    turn = duel()
    after = turn.results(BattleResult(1, "R", massacred=True, obliterated=True))
    assert after.outcomes[0].massacre_die == 0 and after.outcomes[0].eliminated == "B-1"
    assert after.eliminations[0].cause == "obliteration" and turn.state.factions["R"].tokens_eliminated == 1


def test_dr_bat_9_dr_bat_13_supporter_champion_stays_home_principal_takes_loss() -> None:
    state = build_state({"R-1": "T5", "R-2": "T3", "B-1": "T6", "B-2": "T9"})
    turn = Turn(state, build_map(), {"R-1": "M T6 champion R-2", "R-2": "S R-1 T5-T6", "B-2": "S B-1"})
    after = turn.results(BattleResult(1, "B"))
    assert after.fates["R-2"] == "stayed" and after.fates["R-1"] == "returned"


def test_dr_bat_10_dr_bat_12_massacre_die_eliminates_on_one_to_three() -> None:
    turn = duel(dice=[3])
    after = turn.results(BattleResult(1, "R", massacred=True))
    assert after.outcomes[0].massacre_die == 3 and "B-1" not in turn.state.tokens
    assert turn.state.lists["B-1"].status == LIST_ELIMINATED and after.fates["B-1"] == "eliminated"


def test_dr_bat_14_dr_rol_10_no_massacre_die_for_draw_or_rolloff() -> None:
    turn = duel()
    turn.results(BattleResult(1, "", massacred=True))
    assert turn.dice.log == []
    turn = duel(dice=[1], locked=True)
    turn.results(BattleResult(1, "R", massacred=True))
    assert len(turn.dice.log) == 1 and "B-1" in turn.state.tokens


def test_dr_bat_15_dr_bat_16_records_and_hook_after_massacre_die() -> None:
    seen: list[tuple[int, int]] = []

    def hook(battle: Battle, result: BattleResult, dice: Dice) -> None:
        seen.append((battle.number, len(dice.log)))

    turn = duel(dice=[5])
    from pbem.rulesets.daemon_rift.aftermath import step_b
    step_b(turn.state, turn.gmap, turn.rules, turn.movement, {1: BattleResult(1, "B", massacred=True)}, turn.dice,
           turn.submitted, battle_hook=hook)
    assert seen == [(1, 1)]
    assert turn.state.battles_fought == [PairBattle(3, ["B", "R"])] and turn.state.factions["B"].defeated == ["R"]
    assert turn.state.lists["R-1"].battles == 2 and turn.state.lists["B-1"].battles == 2


def test_dr_bat_17_massacred_champion_principal_goes_back() -> None:
    state = build_state({"R-1": "T5", "R-2": "T3", "B-1": "T6", "B-2": "T9"})
    turn = Turn(state, build_map(), {"R-1": "M T6 champion R-2", "R-2": "S R-1 T5-T6", "B-2": "S B-1"}, dice=[2])
    after = turn.results(BattleResult(1, "B", massacred=True))
    assert after.fates["R-2"] == "eliminated" and after.fates["R-1"] == "returned"


def test_dr_rol_11_rolloff_loser_without_retreat_destroyed_and_credited() -> None:
    state = build_state({"R-1": "T5", "B-1": "T6", "B-2": "T3", "B-3": "T9"})
    state.battles_fought = list(LOCKED)
    turn = Turn(state, build_map(), {"R-1": "M T6"}, dice=[1])
    after = turn.results()
    assert after.retreats[0].how == "destroyed" and after.retreats[0].beaten_in == "rolloff"
    facts = turn.finish()
    assert facts.eliminated[0].credited_to == "R" and turn.state.factions["R"].tokens_eliminated == 1


def test_dr_rol_12_dr_rol_13_rolloff_no_pair_count_but_defeat_recorded() -> None:
    turn = duel(dice=[2], locked=True)
    turn.results()
    assert len(turn.state.battles_fought) == 2 and turn.state.lists["R-1"].battles == 1
    assert turn.state.factions["R"].defeated == [] and turn.state.factions["R"].defeated_by_rolloff == ["B"]
