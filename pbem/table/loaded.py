"""The campaign as a step of the table reads it under the lock."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.rulesets.base import AnyRuleset, Context, Stage
from pbem.state.campaign import Campaign


@dataclass
class Loaded:
    """The campaign with its rule system, the game's view, the open stage and the hooks' context."""

    camp: Campaign
    ruleset: AnyRuleset
    view: Any                  # a Wandering Tribes view (pbem.rulesets.wandering_tribes.game.WTView)
    stage: Stage
    ctx: Context
