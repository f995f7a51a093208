"""The turn under way, exactly as pbem keeps it (docs/positions/daemon_rift.md, "The turn under
way"): what `pbem export-position` writes under `[records]` so that a campaign taken up in the
middle of a turn (army lists waiting for the GM, the battle window, the retreat window, the last
turn's battle record) goes on as it would have. A position written by hand leaves them out.

Each record is the stored form of one field of the turn's scratch (`game_state.DRGame` other
than the board `dr`), read back with `pbem.kit.tomlio`; a record of the wrong form is refused
with its key, never half read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from pbem.kit.tomlio import from_data, lean, to_data
from pbem.rulesets.daemon_rift.game_state import DRGame
from pbem.rulesets.daemon_rift.model import DRState

BOARD = "dr"
RECORDS = tuple(f.name for f in fields(DRGame) if f.name != BOARD)
"""The records a position may carry, in the order the game keeps them."""


def export(game: DRGame) -> dict[str, Any]:
    """Every record away from a fresh game's, in its stored form without the values at their default."""
    stored, fresh = to_data(game), to_data(DRGame())
    return {name: lean(DRGame, {name: stored[name]})[name] for name in RECORDS if stored[name] != fresh[name]}


def read(raw: Any, state: DRState) -> tuple[DRGame, list[str]]:
    """The game of board `state` with the records `raw` (the `records` table), and the problems
    found, each naming its key."""
    if not isinstance(raw, Mapping):
        return DRGame(dr=state), [f"records: must be a table of the turn's records, not {raw!r}"]
    problems = [f"records.{name}: unknown record (known: {', '.join(RECORDS)})" for name in raw
                if name not in RECORDS]
    kept: dict[str, Any] = {}
    for name in RECORDS:
        if name in raw:
            try:
                kept[name] = to_data(from_data(DRGame, {name: raw[name]}))[name]
            except (TypeError, ValueError, KeyError, AttributeError) as exc:
                problems.append(f"records.{name}: not as pbem keeps it ({exc})")
    game = from_data(DRGame, kept) if not problems else DRGame()
    game.dr = state
    return game, problems
