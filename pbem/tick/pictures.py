"""The map pictures of a resolved stage: the public one and each player's own."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.intake.isolation import one_line
from pbem.rulesets.base import AnyRuleset, Stage
from pbem.state.campaign import Campaign
from pbem.state.store import StoreError

if TYPE_CHECKING:          # drawing pulls in numeric libraries: loaded only when a picture is made
    from pbem.pictures.picture import Picture
from pbem.tick.log import TickLog


def stage_picture(camp: Campaign, ruleset: AnyRuleset, stage: Stage, now: datetime, log: TickLog,
                  keep_beside: Path | None = None) -> Picture | None:
    """The map picture of the game just resolved, or None: a rule system without pictures, or a
    picture that failed (logged; the reports go out without it). Drawn once for every mail and
    post of the stage, and kept beside `keep_beside` (the stage's stored game) for `pbem render`
    and the archive."""
    from pbem.pictures.kept import keep
    from pbem.pictures.picture import picture_of

    try:
        drawn = picture_of(ruleset, camp.settings, camp.state["game"],
                           f"{camp.name}-turn-{stage.turn:03d}-{stage.kind}", now=now)
    except Exception as exc:  # noqa: BLE001  # a map picture never holds back a turn's reports
        log(f"{camp.name}: no map picture for {stage.title}: {one_line(exc)}")
        return None
    if drawn is not None and keep_beside is not None:
        try:
            keep(drawn, keep_beside)
        except StoreError as exc:       # only a copy: `pbem render` draws it again
            log(f"{camp.name}: the map picture of {stage.title} was not kept: {one_line(exc)}")
    return drawn


def private_pictures(camp: Campaign, ruleset: AnyRuleset, stage: Stage, now: datetime,
                     log: TickLog) -> dict[str, Picture]:
    """Player id -> his own picture, for the players the rule system hides something from
    (`Ruleset.private_scene`); the others see the public picture."""
    from pbem.pictures.picture import picture_of

    own = {}
    for player in camp.settings.players:
        name = f"{camp.name}-turn-{stage.turn:03d}-{stage.kind}-{player.id}"
        try:
            drawn = picture_of(ruleset, camp.settings, camp.state["game"], name, now=now, player=player)
        except Exception as exc:  # noqa: BLE001  # a map picture never holds back a turn's reports
            log(f"{camp.name}: no map picture of {player.id}'s own for {stage.title}: {one_line(exc)}")
            continue
        if drawn is not None:
            own[player.id] = drawn
    return own
