"""The windows through the rule system's hooks on a real campaign (`create`): welcome and HELP with
the player's own ids, acks quoting each refused line, out-of-window and foreign orders, setup
waiting for the GM's NATION, a resolution with fixed dice, and the map scene."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from pbem.gm.creation import NewPlayer, create
from pbem.kit.dice import SeededDice
from pbem.rulesets.base import Context, Parsed
from pbem.rulesets.wandering_tribes.game import ORDERS, SETUP
from pbem.rulesets.wandering_tribes.model import Lock
from pbem.rulesets.wandering_tribes.ruleset import RULESET
from pbem.state.campaign import Campaign

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
PLAYERS = [NewPlayer(p, p.title(), f"{p}@wt.localhost", f"{p.title()}'s Tribe") for p in ("anna", "ben", "cara")]


def _campaign(root: Path) -> Campaign:
    transport = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    secrets = {p.id: f"SECRET-{p.id.upper():>4}-0000-0001" for p in PLAYERS} | {"gm": "GMGM-TEST-0000-0000-0000"}
    camp, _ = create(root / "campaigns", "wt", "wandering_tribes", "wt_three_tribes", PLAYERS, "gm@wt.localhost",
                     T0, transport=transport, fixed_secrets=secrets)
    return camp


def _ctx(camp: Campaign, game: dict[str, Any] | None = None) -> Context:
    return Context(camp.settings, game if game is not None else camp.state["game"], T0)


def _parse(camp: Campaign, game: dict[str, Any], pid: str, text: str) -> Parsed:
    player = camp.settings.player(pid)
    assert player is not None
    return RULESET.parse(_ctx(camp, game), player, list(enumerate(text.strip().splitlines(), 1)))


def _set_up(camp: Campaign) -> dict[str, Any]:
    sent = {"anna": {"nation": "empire", "towns": ["T3"]}, "ben": {"nation": "orcs_goblins", "towns": ["T8"]},
            "cara": {"nation": "dwarfs", "towns": ["T26"]}}
    return RULESET.resolve(_ctx(camp), sent, SeededDice(5)).game


def test_welcome_and_setup_help_name_the_nations_and_towns(tmp_path: Path) -> None:
    camp = _campaign(tmp_path)
    player = camp.settings.player("anna")
    assert player is not None
    first = RULESET.welcome(_ctx(camp), player)["first_step"]
    assert "NATION empire" in first and "T3, T8, T11" in first and "kislevites (Kislevites)" in first


@pytest.mark.clause("WT-SET-1")
def test_setup_lines_are_read_and_a_nation_without_a_table_is_refused(tmp_path: Path) -> None:
    camp = _campaign(tmp_path)
    parsed = _parse(camp, camp.state["game"], "anna", "NATION Lizardmen\nNATION High Elves\nTOWNS T3, T4")
    reasons = [str(p) for p in parsed.problems]
    assert "has no nation table" in reasons[0] and "T4 is not a town" in reasons[1]
    assert parsed.payload == {"nation": "high_elves"}


def test_setup_waits_for_a_nation_until_the_gm_assigns_one(tmp_path: Path) -> None:
    camp = _campaign(tmp_path)
    done = RULESET.resolve(_ctx(camp), {"anna": {"nation": "empire"}}, SeededDice(5))
    assert done.gm_alerts and RULESET.load_state(done.game).phase == SETUP
    assert RULESET.gm_pending(_ctx(camp, done.game))[0] == "assign a nation to ben: NATION ben empire"
    game, reply = RULESET.gm_command(_ctx(camp, done.game), ["NATION", "ben", "dwarfs"])
    game, _ = RULESET.gm_command(_ctx(camp, game), ["NATION", "cara", "Undead"])
    assert "ben leads Dwarfs" in reply
    opened = RULESET.resolve(_ctx(camp, game), {"anna": {"nation": "empire"}}, SeededDice(5))
    state = RULESET.load_state(opened.game)
    assert state.phase == ORDERS and state.state.players["cara"].nation == "undead" and state.sequence


@pytest.mark.clause("WT-PBEM-2", "WT-PBEM-13")
def test_orders_help_names_own_stacks_and_acks_refuse_foreign_or_resting_orders(tmp_path: Path) -> None:
    camp = _campaign(tmp_path)
    game = _set_up(camp)
    anna = camp.settings.player("anna")
    assert anna is not None
    help_text = RULESET.help_text(_ctx(camp, game), anna)
    general = RULESET.load_state(game).state.stacks["A1"].markers[0]
    assert "TRY A1 UNTIL-SUCCESS" in help_text and "A1 in T3" in help_text and f"{general.id} General" in help_text
    parsed = _parse(camp, game, "anna", "TRY B1 ALWAYS\nTRY A1 ALWAYS FIRST E")
    assert "B1 is Ben's stack, not yours" in str(parsed.problems[0])     # named by name in the ack
    assert parsed.payload["lines"][1] == "TRY A1 ALWAYS FIRST E CAMPFIRE STOP"
    typed = RULESET.load_state(game)
    typed.state.players["anna"].resting = True
    resting = RULESET.dump_state(typed)
    parsed = _parse(camp, resting, "anna", "TRY A1 ALWAYS\nVOLUNTEER YES")
    reasons = " | ".join(str(p) for p in parsed.problems)
    assert "line 1: you are resting this round: only VOLUNTEER is read" in reasons


def test_a_round_resolves_with_defaults_and_the_scene_shows_stacks_and_moves(tmp_path: Path) -> None:
    camp = _campaign(tmp_path)
    game = _set_up(camp)
    done = RULESET.resolve(_ctx(camp, game), {}, SeededDice(9))
    state = RULESET.load_state(done.game)
    assert done.reports[0].public and state.resolved == "Strategic round 1" and state.moves
    scene = RULESET.scene(RULESET.view(_ctx(camp, done.game)))
    assert {p.id for p in scene.pieces} == set(state.state.stacks)
    assert [m.piece for m in scene.moves] == [m.stack for m in state.moves if m.path[-1] != m.start]


@pytest.mark.clause("WT-RES-2")
def test_the_gm_sets_a_battle_result_nobody_reported_with_result(tmp_path: Path) -> None:
    camp = _campaign(tmp_path)
    game = RULESET.resolve(_ctx(camp, _set_up(camp)), {}, SeededDice(9)).game
    typed = RULESET.load_state(game)
    assert typed.phase == "battle" and typed.battles
    battle = typed.battles[0]
    defender = typed.state.stacks[battle.defender]
    lost = defender.markers[-1].id
    game, reply = RULESET.gm_command(_ctx(camp, game), ["RESULT", str(battle.id), "DRAW", "LOST", defender.owner, lost])
    assert reply == f"battle {battle.id}: a draw (set by the GM)"
    with pytest.raises(ValueError, match="name a battle"):
        RULESET.gm_command(_ctx(camp, game), ["RESULT", "9", "DRAW"])
    done = RULESET.resolve(_ctx(camp, game), {}, SeededDice(4))
    after = RULESET.load_state(done.game)
    assert after.phase == "orders" and not after.gm_results
    assert all(m.id != lost for s in after.state.stacks.values() for m in s.markers)


def test_a_player_who_may_rest_is_missing_nothing_and_one_without_attempts_is_told_the_default(
        tmp_path: Path) -> None:
    camp = _campaign(tmp_path)
    game = _set_up(camp)
    anna = camp.settings.player("anna")
    assert anna is not None
    told = RULESET.missing(_ctx(camp, game), anna, {"lines": ["REST IF-ALLOWED"]})
    assert told and "tried in id order" in told[0]          # nothing locked: the rest will not be allowed
    typed = RULESET.load_state(game)
    other = next(s for s in typed.state.stacks.values() if s.owner != "anna")
    other.tile = typed.state.stacks["A1"].tile
    typed.state.locks.append(Lock("A1", other.id, other.tile))
    assert RULESET.missing(_ctx(camp, RULESET.dump_state(typed)), anna, {"lines": ["REST IF-ALLOWED"]}) == []
