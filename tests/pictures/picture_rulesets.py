"""Test-only rule systems: the shipped ones with the `scene` hook wired to their picture builders
over the stored game as this branch keeps it, as each system's own hook will do. Registered by
tests through the registry."""

from __future__ import annotations

from typing import Any

from pbem.rulesets.base import Context
from pbem.rulesets.conquest import picture as conquest_picture
from pbem.rulesets.conquest.model import ConquestState
from pbem.rulesets.conquest.ruleset import Conquest
from pbem.rulesets.conquest.tiles import campaign_map as conquest_map
from pbem.rulesets.daemon_rift import picture as rift_picture
from pbem.rulesets.daemon_rift.model import DRState
from pbem.rulesets.daemon_rift.ruleset import DaemonRift, campaign_map
from pbem.rulesets.diplomacy import picture as diplomacy_picture
from pbem.rulesets.diplomacy.game import board_for, load_state
from pbem.rulesets.diplomacy.ruleset import Diplomacy
from pbem.rulesets.phases import View
from pbem.tomlio import from_data


def _view(ctx: Context, state: Any, gmap: Any) -> View[Any, Any]:
    return View(ctx.settings, state, gmap, None, ctx.now)  # type: ignore[arg-type]


class PictureRift(DaemonRift):
    def view(self, ctx: Context) -> View[Any, Any]:
        return _view(ctx, from_data(DRState, ctx.game["dr"]), campaign_map(ctx.settings.map))

    def scene(self, view: View[Any, Any]) -> Any:
        return rift_picture.scene(view.state, view.settings.name)


class PictureDiplomacy(Diplomacy):
    def view(self, ctx: Context) -> View[Any, Any]:
        board = board_for(ctx.settings)
        return _view(ctx, load_state(board, ctx.game), board)

    def scene(self, view: View[Any, Any]) -> Any:
        return diplomacy_picture.scene(view.map, view.state, view.settings.name)


class PictureConquest(Conquest):
    def view(self, ctx: Context) -> View[Any, Any]:
        return _view(ctx, from_data(ConquestState, ctx.game["conquest"]), conquest_map(ctx.settings.map))

    def scene(self, view: View[Any, Any]) -> Any:
        return conquest_picture.scene(view.state, view.settings.name)


class NoPictures(PictureConquest):
    """A rule system that draws no pictures (the base hook's answer)."""

    def scene(self, view: View[Any, Any]) -> Any:
        return None


RIFT, DIPLOMACY, CONQUEST, NO_PICTURES = PictureRift(), PictureDiplomacy(), PictureConquest(), NoPictures()
