"""What the table sees besides the prompts: the round's header, and the map picture of the game
as it stands, drawn as the tick draws a stage's picture and kept where `pbem render` puts them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.intake.isolation import one_line
from pbem.rulesets.wandering_tribes import table as wt
from pbem.stages.record import StageRecord
from pbem.state.store import write_atomic

if TYPE_CHECKING:
    from pbem.table.loaded import Loaded


def draw(got: Loaded, step: str) -> str:
    """The map of the stored game as SVG text ("" when it cannot be drawn: the round goes on
    without it, as the tick's reports do), written as `<campaign>-turn-NNN-<step>.svg/.png` in
    the campaign's pictures/ folder."""
    from pbem.pictures.picture import picture_of  # drawing pulls in numeric libraries: loaded when drawn

    name = f"{got.camp.name}-turn-{got.stage.turn:03d}-{step}"
    try:
        picture = picture_of(got.ruleset, got.camp.settings, got.camp.state["game"], name, now=got.ctx.now)
    except Exception as exc:  # noqa: BLE001  # a map picture never holds back the table
        print(f"(no map picture: {one_line(exc)})")
        return ""
    if picture is None:
        return ""
    for file, data in picture.files().items():
        write_atomic(got.camp.folder / "pictures" / file, data)
    return picture.svg


def round_header(got: Loaded, typed_by: str) -> list[str]:
    """The round as the window published it, who has played already, and which dice roll."""
    game = got.view.state
    sequence, played = wt.sequence(got.view), [p for p in wt.sequence(got.view) if p not in wt.waiting(game)]
    dice = (f"dice rolled at the table and typed in (recorded as typed by {typed_by})" if typed_by else
            f"the turn's committed dice; `pbem verify-dice {got.camp.name} {got.stage.turn}` recomputes them "
            "once the round is resolved")
    lines = [f"{got.camp.name}: {got.stage.title} at the table", *wt.opening(got.view),
             "Sequence: " + (", ".join(sequence) or "nobody plays (everyone rests)"), f"Dice: {dice}"]
    if played:
        lines.append("Played already: " + ", ".join(played) + f"; the table goes on with {wt.waiting(game)[0]}"
                     if wt.waiting(game) else "Every player has played; the round closes")
    due = StageRecord.read(got.camp.state).due
    deadline = got.camp.settings.schedule.show(due) if due else "none"
    lines.append(f"Once the first round is stored, the deadline ({deadline}) waits for the table")
    return lines
