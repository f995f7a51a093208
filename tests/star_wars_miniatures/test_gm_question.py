"""A Star Wars Miniatures question to the GM through the engine: with `battle.no_winner_control =
"gm"` (A11) a battle both sides lost holds the battle window, the GM is alerted with the DECIDE
line, the window waits past its deadline, and his answer by mail lets the next tick finish it."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from pbem.gm.creation import NewPlayer, create
from pbem.rulesets import registry
from pbem.stages import turns
from pbem.state.campaign import Campaign
from tests.star_wars_miniatures import flow
from tests.star_wars_miniatures.test_flow import to_battle
from tests.support.engine_helpers import T0, body, outbox, put, run

SECRETS = {"alice": "AAAA-TEST-0000-0000-0001", "bob": "BBBB-TEST-0000-0000-0002",
           "cara": "CCCC-TEST-0000-0000-0003", "gm": "GMGM-TEST-0000-0000-0000"}
RULES = {"battle": {"no_winner_control": "gm"}}


def at_battle(root: Path) -> Campaign:
    """The flow game's battle window B1-2-1 (cara attacks alice's T03) as a campaign on disk, named
    "rift" as the engine helpers' mail is addressed."""
    players = [NewPlayer(p, p.title(), f"{p}@test.localhost") for p in flow.PLAYERS]
    mail = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    camp, _ = create(root / "campaigns", "rift", "star_wars_miniatures", "swm_ten_factions", players,
                     "gm@test.localhost", T0, transport=mail, rules=RULES, fixed_secrets=SECRETS)
    camp.state["game"] = to_battle().game
    turns.open_stage(camp, registry.get("star_wars_miniatures"), T0)
    camp.save()
    return camp


def test_swm_pbc_14_a11_the_engine_holds_the_battle_window_until_the_gm_decides(tmp_path: Path) -> None:
    camp = at_battle(tmp_path)
    for player in ("alice", "cara"):
        put(camp, player, f"PLAYER {player} {SECRETS[player]}\nWINNER B1-2-1 none\n",
            sender=f"{player.title()} <{player}@test.localhost>")
    camp = run(camp)
    assert camp.state["stage"]["question"]["key"] == "control_B1-2-1"
    [alert] = [m for m in outbox(camp, "gm@") if "attention" in str(m["Subject"])]
    assert "DECIDE control_B1-2-1 <choice>" in body(alert) and "alice, bob, cara" in body(alert)
    camp = run(camp, T0 + timedelta(days=9))                           # past the deadline: still waits
    assert camp.state["stage"]["question"]["key"] == "control_B1-2-1"
    put(camp, "g1", f"GM {SECRETS['gm']}\nDECIDE control_B1-2-1 cara\n", sender="GM <gm@test.localhost>")
    camp = run(camp, T0 + timedelta(days=9, hours=1))
    assert "question" not in camp.state["stage"]
    state = registry.get("star_wars_miniatures").load_state(camp.state["game"])
    assert state.owner("T03") == "cara" and state.window == "initiative"
