"""`campaign.game_system` names the tabletop game the battles are fought with: the briefings say
it where they send the players to that game's own rules (the siege scenario, cancelled Scouts)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.texts import render
from pbem.rulesets.conquest.battles import step_b
from pbem.rulesets.conquest.model import Battle
from pbem.state.schedule import Schedule

from .battle_helpers import land, rules, state
from .test_bat_step_b import MAP, Camp, briefing_text


@pytest.mark.clause("COC-SIE-8")
def test_siege_briefing_names_the_shipped_game_or_the_campaigns_own() -> None:
    def text(game_system: str | None) -> str:
        book = rules(campaign={"game_system": game_system}) if game_system else rules()
        battle = Battle("B3", "siege", ["anna"], ["dan"], "T50")
        game = state(players=("anna", "dan"), battles=[battle], tiles={"T50": ("anna", "castle")})
        _, briefings, _ = step_b(game, {}, book, ScriptedDice(), MAP)
        context = {"campaign": Camp(), "schedule": Schedule.from_settings({}),
                   "next_deadline": datetime(2026, 12, 1, tzinfo=UTC)} | briefings[0].context
        return render("conquest", "briefing", context)
    assert "from the Siege and fortresses section of Warmaster at" in text(None)
    assert "from the Siege and fortresses section of Warmaster Ancients at" in text("Warmaster Ancients")


@pytest.mark.clause("COC-EVT-15")
def test_cancelled_scouts_send_the_players_to_the_campaigns_game() -> None:
    both = {"ben": "scouts", "cara": "scouts"}
    shipped, _ = briefing_text(land("B1", ["ben"], ["cara"]), events=both)
    assert "the first turn follow the normal Warmaster rules." in shipped
    other, _ = briefing_text(land("B1", ["ben"], ["cara"]), events=both,
                             book=rules(campaign={"game_system": "Warmaster Ancients"}))
    assert "the first turn follow the normal Warmaster Ancients rules." in other
