"""Steps A, B and C of a Daemon Rift turn (DR-TRN-1), chained on at once when a window is not needed.

Step A (movement) runs when the orders window closes, Step B (battles and what follows them) when
no tabletop battle is pending, Step C (retreats and the end of the turn) when no retreat choice is
open. Each step writes what the next one reads into the turn's scratch (`DRGame`), and adds its
reports to the outcome; Step C ends the turn (`Outcome.turn_finished`). Whichever step hands over
to a window or ends the turn records the turn so far for the map picture (`DRGame.last`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from pbem.kit.dice import Dice, ReplayDice
from pbem.kit.tomlio import from_data
from pbem.rulesets.daemon_rift import aftermath as step_b_mod
from pbem.rulesets.daemon_rift import (
    battle_window,
    endturn,
    experience,
    movement,
    picture,
    postbattle,
    reporting,
    validate,
)
from pbem.rulesets.daemon_rift.game_state import DRGame, DRView, PostBattleRecord
from pbem.rulesets.daemon_rift.model import FactionOrders
from pbem.rulesets.phases import Outcome

Turn = Outcome[DRGame]


def by_faction(view: DRView, submissions: Mapping[str, Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    """The submissions by faction id, the way the rules name who sent what."""
    return {p.faction: submissions[p.id] for p in view.settings.players if p.id in submissions}


def step_a(view: DRView, sent: Mapping[str, Mapping[str, Any]], dice: Dice, out: Turn) -> None:
    game = view.state
    submitted = {f: from_data(FactionOrders, s["orders"]) for f, s in sent.items() if "orders" in s}
    game.orders = copy.deepcopy(submitted)
    game.nmr = [f for f in game.live_factions() if f not in submitted and game.dr.tokens_of(f)]
    game.choices = experience.settle_choices(game.dr, view.rules, submitted)
    eff = validate.effective_orders(game.dr, view.map, view.rules, submitted, dice)
    game.movement = movement.step_a(game.dr, view.map, view.rules, eff, submitted, dice, view.decisions)
    game.effective = eff
    game.clear_battle_window()          # a battle number names a battle of this turn only
    game.postbattle = PostBattleRecord()
    game.gm_needed = False
    out.reports += reporting.movement_reports(view, dice)
    if battle_window.tabletop_battles(view):
        game.dr.phase = "battles"
        game.last = picture.turn_marks(game)
        return
    step_b(view, dice, out)


def step_b(view: DRView, dice: Dice, out: Turn) -> None:
    """Step B; it runs again after each further battle window, replaying its earlier dice."""
    game = view.state
    results = battle_window.accepted_results(view)
    submitted = copy.deepcopy(game.orders)
    while True:
        moved = game.movement
        start = copy.deepcopy(game.dr)
        replay = ReplayDice(list(game.replay), dice)
        post = postbattle.PostBattle(game.dr, view.rules, game.sheets)
        try:
            after = step_b_mod.step_b(game.dr, view.map, view.rules, moved, results, replay, submitted,
                                      battle_hook=post, decisions=view.decisions)
            break
        except step_b_mod.SecondWindowNeeded as need:
            game.dr = start
            eff = copy.deepcopy(game.effective)
            battle = movement.dependent_battle(game.dr, view.map, view.rules, eff, submitted, moved,
                                               need.territory, need.tops, replay)
            game.replay = list(replay.log)
            if battle.kind == movement.TABLETOP:
                out.reports += reporting.second_window_reports(view, battle)
                game.dr.phase = "battles"
                game.last = picture.turn_marks(game)
                return
    game.replay = []
    game.postbattle = PostBattleRecord(post.ledgers, post.alerts)
    game.aftermath = after
    out.reports += reporting.battle_reports(view, dice)
    if game.open_retreat_factions():
        game.dr.phase = "retreats"
        game.last = picture.turn_marks(game)
        return
    step_c(view, {}, out)


def step_c(view: DRView, choices: dict[str, str], out: Turn) -> None:
    game = view.state
    facts = step_b_mod.finish_turn_moves(game.dr, view.map, view.rules, game.movement, game.aftermath, choices,
                                         view.decisions)
    game.last = picture.turn_marks(game, facts)        # before the turn's end moves the turn counter on
    eot = endturn.end_turn(game.dr, view.map, view.rules, facts, copy.deepcopy(game.orders))
    for request in eot.lists_requested:          # a list already sent waits for the GM, not the player
        request.awaiting_approval = request.token in game.pending_lists
    game.last = picture.with_end_of_turn(game.last, eot)
    out.reports += reporting.end_of_turn_reports(view, facts, eot)
    game.clear_turn()
    out.turn_finished = True


def titled(view: DRView, turn: int, phase: str) -> None:
    """Name the window of `turn` just resolved in the picture record ("Turn 3: orders")."""
    view.state.last = view.state.last.titled(f"Turn {turn}: {phase}")
