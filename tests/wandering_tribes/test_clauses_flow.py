"""Clauses of the round and the cycle that the acceptance scenarios leave implicit: command
values, re-entered tiles, no-exit stacks, the step cap, skipped entries, default orders, the
cycle, the end of the campaign and the report."""

from __future__ import annotations

from datetime import date

import pytest

from pbem.kit.dice import ScriptedDice, SeededDice
from pbem.rulesets.wandering_tribes.armylist import command_value, legal
from pbem.rulesets.wandering_tribes.battle_results import Report, end_phase, resolve
from pbem.rulesets.wandering_tribes.battle_setup import setup
from pbem.rulesets.wandering_tribes.cycle import campaign_over, final_battles_due, report, stack_lines
from pbem.rulesets.wandering_tribes.model import Marker
from pbem.rulesets.wandering_tribes.movement import Turn, attempt
from pbem.rulesets.wandering_tribes.plan import Attempt, Division, RoundOrders
from pbem.rulesets.wandering_tribes.player_round import play
from pbem.rulesets.wandering_tribes.setup import Choice, deploy
from pbem.rulesets.wandering_tribes.squares import load_squares, squaremap_from_dict
from pbem.rulesets.wandering_tribes.strategic import battle_due, open_round, play_round
from tests.wandering_tribes.helpers import dice, grid, lock, put, row, rules, world

FULL = ["General", "Halberdiers", "Halberdiers", "Crossbowmen", "Crossbowmen"]


@pytest.mark.clause("WT-CMD-1", "WT-CMD-2")
def test_wt_cmd_1_the_general_commands_else_the_best_character_and_the_tomb_king_is_a_general() -> None:
    book, state = rules(), world({"Anna": "empire", "Ulla": "undead"})
    empire = book.nations["empire"]
    assert command_value(empire, put(state, book, "A1", "Anna", "T1", ["Wizard", "General", "Hero"])) == 9
    assert command_value(empire, put(state, book, "A2", "Anna", "T1", ["Wizard", "Hero"])) == 8
    undead = put(state, book, "U1", "Ulla", "T1", ["Liche Priest", "Tomb King"])
    assert command_value(book.nations["undead"], undead) == 9


@pytest.mark.clause("WT-CMD-7")
def test_wt_cmd_7_a_tile_entered_again_counts_again() -> None:
    gmap = squaremap_from_dict({"squares": {
        "T1": {"x": 0, "y": 0, "terrain": "plains", "roads": ["origin>E", "S>E"]},
        "T2": {"x": 1, "y": 0, "terrain": "plains", "roads": ["W>S"]},
        "T3": {"x": 0, "y": 1, "terrain": "plains", "roads": ["E>N"]},
        "T4": {"x": 1, "y": 1, "terrain": "plains", "roads": ["N>W"]}}})
    book, state = rules(), world({"Anna": "empire"})
    put(state, book, "A1", "Anna", "T1", FULL)
    roll = dice(2, 2, 2, 2, 2, 12)
    attempt(Turn(state, book, gmap, "Anna", roll), "A1", Attempt("A1"))
    assert [r.purpose.rsplit("target ", 1)[1] for r in roll.log] == ["9)", "8)", "7)", "6)", "5)", "4)"]
    assert state.stacks["A1"].tile == "T2"


@pytest.mark.clause("WT-MOV-10", "WT-MOV-9")
def test_wt_mov_10_a_stack_with_no_exit_is_attempted_without_a_roll_and_locked_stacks_are_not_tried() -> None:
    gmap, book = row(3), rules()
    state = world({"Anna": "empire", "Ben": "empire"})
    put(state, book, "A1", "Anna", "T3", FULL)
    roll = ScriptedDice()
    done = play(state, book, gmap, "Anna", RoundOrders(rest=False), roll)
    assert [o.stack for o in done.outcomes] == ["A1"] and not done.outcomes[0].moved and roll.log == []
    put(state, book, "B1", "Ben", "T3", FULL)
    lock(state, "A1", "B1")
    done = play(state, book, gmap, "Anna", RoundOrders(rest=False), roll)
    assert done.outcomes == [] and roll.log == []


@pytest.mark.clause("WT-MOV-11")
def test_wt_mov_11_the_step_cap_sends_the_stack_back_and_alerts_the_gm() -> None:
    gmap, book = row(5), rules(**{"movement.max_steps": 1})
    state = world({"Anna": "empire"})
    put(state, book, "A1", "Anna", "T1", FULL)
    turn = Turn(state, book, gmap, "Anna", dice(2, 2))
    out = attempt(turn, "A1", Attempt("A1"))
    assert state.stacks["A1"].tile == "T1" and out.no_recruit and "step cap" in " ".join(turn.log) and turn.alerts


@pytest.mark.clause("WT-ENC-1", "WT-GEN-7", "WT-ENC-14")
def test_wt_enc_1_own_stacks_are_passed_and_any_other_player_even_of_the_same_nation_locks() -> None:
    gmap, book = row(5), rules()
    state = world({"Anna": "empire", "Ben": "empire"})
    put(state, book, "A1", "Anna", "T1", FULL)
    put(state, book, "A2", "Anna", "T2", FULL)
    put(state, book, "B1", "Ben", "T3", FULL)
    roll = dice(2, 2)
    done = play(state, book, gmap, "Anna", RoundOrders(rest=False, attempts=[Attempt("A1")],
                                                        recruit={"ALL": {"plains": [("Knights", 1)]}}), roll)
    after = done.state
    assert after.stacks["A1"].tile == "T3" and after.locked("A1") and done.outcomes[0].moved
    assert after.stacks["A1"].count("Knights") == 0 and not roll.unused


@pytest.mark.clause("WT-PBEM-3", "WT-ORD-7", "WT-RND-7")
def test_wt_pbem_3_a_locked_or_gone_stack_is_skipped_and_said_so_and_other_players_stacks_stay() -> None:
    gmap, book = row(5), rules()
    state = world({"Anna": "empire", "Ben": "empire"})
    put(state, book, "A1", "Anna", "T4", FULL)
    put(state, book, "B1", "Ben", "T4", FULL)
    lock(state, "A1", "B1")
    put(state, book, "A2", "Anna", "T1", FULL)
    orders = RoundOrders(rest=False, attempts=[Attempt("A1"), Attempt("A9")])
    done = play(state, book, gmap, "Anna", orders, dice(12))
    assert "  A1 skipped: it is locked in combat" in done.log and "  A9 skipped: it is gone" in done.log
    assert [o.stack for o in done.outcomes] == ["A2"]
    assert done.state.stacks["B1"] == state.stacks["B1"] and done.state.stacks["A1"].tile == "T4"


@pytest.mark.clause("WT-PBEM-10")
def test_wt_pbem_10_default_orders_rest_if_allowed_try_in_id_order_and_stop_at_a_camp_fire() -> None:
    gmap, book = row(5, campfires={"T2"}), rules()
    state = world({"Anna": "empire"})
    put(state, book, "A1", "Anna", "T3", ["General", "Halberdiers", "Halberdiers", "Crossbowmen"])
    put(state, book, "A2", "Anna", "T1", FULL)
    roll = dice(12, 2)
    done = play(state, book, gmap, "Anna", RoundOrders(), roll)
    after = done.state
    assert [o.stack for o in done.outcomes] == ["A1", "A2"] and after.stacks["A2"].tile == "T2"
    assert not roll.unused and "REST IF-ALLOWED: not allowed" in done.log[1]
    assert after.stacks["A2"].points == 325          # nothing lacking: nothing recruited


@pytest.mark.clause("WT-DIV-14")
def test_wt_div_14_only_a_division_adds_stacks() -> None:
    gmap, book = grid(3, 3), rules()
    state = world({"Anna": "empire"})
    put(state, book, "A1", "Anna", "T5", ["General", "Hero", "Halberdiers", "Halberdiers", "Crossbowmen",
                                          "Crossbowmen"])
    split = Division("A1", [("A1", ["m1", "m3", "m5"]), ("A2", ["m2", "m4", "m6"])])
    done = play(state, book, gmap, "Anna", RoundOrders(rest=False, divisions=[split], attempts=[Attempt("A1")]),
                dice(2, 12))
    assert sorted(done.state.stacks) == ["A1", "A2"]
    again = play(done.state, book, gmap, "Anna", RoundOrders(rest=False), dice(12, 12))
    assert len(again.state.stacks) <= 2


@pytest.mark.clause("WT-GEN-6")
def test_wt_gen_6_legality_looks_at_maximums_points_mounts_and_ratios_never_minimums() -> None:
    book = rules()
    empire = book.nations["empire"]
    assert legal(empire, ["General"], 1000)                          # no Halberdiers: still legal
    assert not legal(empire, ["General", "General"], 1000)
    assert not legal(empire, ["Hero", "Griffon", "Griffon"], 1000)
    assert not legal(empire, ["General"] + ["Knights"] * 8, 1000)
    ratio = rules(**{"nations.empire.ratio": [{"type": "Knights", "at_most_per": "Halberdiers", "factor": 1}]})
    assert not legal(ratio.nations["empire"], ["General", "Knights", "Knights", "Halberdiers"], 1000)


@pytest.mark.clause("WT-GEN-2")
def test_wt_gen_2_the_mode_picks_the_locking_resting_and_idle_player_rules() -> None:
    together, duel = rules(), rules(**{"campaign.mode": "one_on_one"})
    assert (together.per_mode("rest.min_locked_to_declare"), together.per_mode("rest.max_locked_per_player"),
            together.per_mode("battle.idle_players")) == (1, 1, "pairing")
    assert (duel.per_mode("rest.min_locked_to_declare"), duel.per_mode("rest.max_locked_per_player"),
            duel.per_mode("battle.idle_players")) == (2, 0, "ambush")


@pytest.mark.clause("WT-GEN-8", "WT-PBEM-12", "WT-GEN-12", "WT-NAT-5")
def test_wt_pbem_12_the_report_lists_sequence_steps_stacks_counters_and_every_die_with_its_purpose() -> None:
    gmap, book = row(5), rules()
    state = world({"Anna": "empire", "Ben": "empire"})
    put(state, book, "A1", "Anna", "T1", FULL)
    put(state, book, "B1", "Ben", "T5", FULL)
    roll = dice(8, 5, 7, 12)
    state, opening = open_round(state, book, roll)
    state, log, _ = play_round(state, book, gmap, opening.sequence, {}, roll)
    text = "\n".join(report(state, book, opening.sequence, opening.log + log, roll.log))
    assert "Sequence: Anna, Ben" in text and "A1 moves E into T2" in text
    assert "order roll, round 1: Anna: 2D6 = 6+2 = 8" in text
    assert "command test A1 in T1 (target 9): 2D6 = 6+1 = 7" in text and "Battle trigger:" in text
    assert "m1 General 125" in text
    secret = rules(**{"visibility.stack_contents": "owner"})
    lines = stack_lines(state, secret, reader="Anna")
    assert any("m1 General" in line for line in lines) and not any("m6 General" in line for line in lines)


@pytest.mark.clause("WT-GEN-1", "WT-RND-7", "WT-REST-13", "WT-BAT-3")
def test_wt_gen_1_rounds_until_the_trigger_then_a_battle_phase_then_rounds_again() -> None:
    gmap, book = row(8), rules()
    state = world({"Anna": "empire", "Ben": "empire", "Cara": "empire"})
    put(state, book, "A1", "Anna", "T5", FULL)
    put(state, book, "B1", "Ben", "T5", FULL)
    lock(state, "A1", "B1")
    put(state, book, "C1", "Cara", "T1", FULL)
    roll = dice(9, 5, 4, 12)
    state, opening = open_round(state, book, roll)
    orders = {p: RoundOrders(rest=True) for p in ("Anna", "Ben", "Cara")}
    state, _, _ = play_round(state, book, gmap, opening.sequence, orders, roll)
    assert state.players["Anna"].resting and state.players["Ben"].resting and state.stacks["A1"].tile == "T5"
    assert battle_due(state, book)
    battles, log = setup(state, book, gmap, ScriptedDice())
    assert len(battles) == 1 and "Cara is the odd one out and fights no battle this phase" in log
    state, _ = resolve(state, book, gmap, battles[0], Report(winner="Anna", iflose={"Ben": ["E"]}), ScriptedDice())
    state = end_phase(state)
    assert state.stacks["B1"].tile == "T6" and not state.locks
    state, opening = open_round(state, book, dice(5, 6, 7))
    assert sorted(opening.sequence) == ["Anna", "Ben", "Cara"]


@pytest.mark.clause("WT-VIC-1", "WT-VIC-2")
def test_wt_vic_1_the_campaign_ends_after_its_rounds_or_at_its_date_and_fights_locked_pairs_first() -> None:
    state = world({"Anna": "empire", "Ben": "empire", "Cara": "empire"})
    state.round = 6
    assert campaign_over(state, rules(**{"campaign.end_after_rounds": 6}), date(2026, 1, 1))
    assert not campaign_over(state, rules(**{"campaign.end_after_rounds": 7}), date(2026, 1, 1))
    assert campaign_over(state, rules(**{"campaign.end_date": "2026-03-01"}), date(2026, 3, 1))
    assert not campaign_over(state, rules(), date(2030, 1, 1))
    gmap, book = row(5), rules()
    put(state, book, "A1", "Anna", "T2", FULL)
    put(state, book, "B1", "Ben", "T2", FULL)
    put(state, book, "C1", "Cara", "T4", FULL)
    lock(state, "A1", "B1")
    assert final_battles_due(state, book)
    battles, _ = setup(state, book, gmap, ScriptedDice(), final=True)
    assert [(b.defender, b.attacker) for b in battles] == [("A1", "B1")]


@pytest.mark.clause("WT-MAP-5", "WT-CMB-13")
def test_wt_map_5_after_every_players_round_the_tile_invariant_holds_in_a_seeded_season() -> None:
    gmap, book = load_squares("wt_five_tribes"), rules()
    nations = ["empire", "orcs_goblins", "bretonnians", "dwarfs", "chaos"]
    players = ["Anna", "Ben", "Cara", "Dan", "Eve"]
    roll = SeededDice(7)
    state, _ = deploy(book, gmap, {p: Choice(n) for p, n in zip(players, nations, strict=True)}, roll)
    for _ in range(6):
        state, opening = open_round(state, book, roll)
        for player in opening.sequence:
            orders = RoundOrders(rest=True, attempts=[Attempt(s.id, mode="always") for s in state.stacks_of(player)])
            state = play(state, book, gmap, player, orders, roll).state
            for tile in {s.tile for s in state.stacks.values()}:
                here = state.stacks_in(tile)
                owners = [s.owner for s in here]
                assert len(set(owners)) == len(owners), f"two stacks of one player in {tile}"
                assert len(here) == 1 or (len(here) == 2 and state.locked(here[0].id)), tile
        if battle_due(state, book):
            break


@pytest.mark.clause("WT-GEN-10")
def test_wt_gen_10_markers_carry_no_damage_state() -> None:
    """WT-GEN-10: a marker is its id, type and points; nothing else."""
    assert list(Marker("m1", "Knights", 110).__dataclass_fields__) == ["id", "type", "points"]

