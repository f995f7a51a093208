"""`pbem resolve CAMPAIGN`: resolve the current stage at the next tick, deadline or not.

With `--dice FILE` the stage is resolved now, with the rolls the GM lists in FILE instead of the
turn's committed dice; with `--dice typed` each roll is asked for on the terminal. The syntax of
the file is in pbem/kit/typed_dice.py and the README. A file that does not fit the resolution
exactly is refused whole and nothing is written.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.commands._common import add_campaign, campaign_folder, gm_command
from pbem.errors import UserError

if TYPE_CHECKING:
    from pbem.kit.typed_dice import TypedDice
    from pbem.state.campaign import Campaign

TYPED = "typed"
"""`--dice typed`: ask for each roll on the terminal instead of reading a file."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("--dice", metavar="FILE|typed",
                   help="resolve now with dice rolled at the table: a file of `purpose: value` lines in the "
                        "order the rules roll them, or `typed` to be asked for each roll")
    p.add_argument("--typed-by", metavar="NAME", default="",
                   help="who rolled and typed the dice (default: `GM <the GM's name>`)")


def run(args: argparse.Namespace) -> int:
    if args.typed_by and not args.dice:
        raise UserError("--typed-by names who typed the dice: use it with `--dice FILE` or `--dice typed`")
    if args.dice:
        print(resolve_typed(campaign_folder(args), typed_source(args.dice), args.typed_by))
        return 0
    code = gm_command(args, ["RESOLVE"])
    print("run `pbem tick` (or wait for cron) to resolve and send the reports")
    return code


def typed_source(dice: str) -> Callable[[str], TypedDice]:
    """A maker of the stage's typed dice, given who typed them; a dice file is read and checked
    for its syntax at once, before the campaign is touched."""
    from pbem.kit.typed_dice import ListedDice, PromptedDice, TypedDiceError, read_dice_file

    if dice == TYPED:
        return lambda typed_by: PromptedDice(input, print, typed_by)
    path = Path(dice)
    try:
        lines = read_dice_file(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"cannot read the dice file {path}: {exc.strerror or exc}; give the path of a text file "
                        f"of `purpose: value` lines, or `--dice {TYPED}` to type each roll") from None
    except (UnicodeDecodeError, TypedDiceError) as exc:
        raise UserError(f"dice file {path}: {exc}") from None
    return lambda typed_by: ListedDice(lines, typed_by)


def resolve_typed(folder: Path, make: Callable[[str], TypedDice], typed_by: str = "",
                  now: datetime | None = None) -> str:
    """Resolve the open stage of the campaign in `folder` now with typed dice (`pbem table` uses it
    too). Dice that do not fit raise UserError before anything is written; the reports are queued
    for the next tick to send."""
    from pbem.kit.typed_dice import TypedDiceError
    from pbem.rulesets import registry
    from pbem.stages import turns
    from pbem.stages.record import StageRecord
    from pbem.state.campaign import Campaign
    from pbem.state.store import campaign_lock
    from pbem.tick.log import TickLog
    from pbem.tick.resolve import resolve_stage

    now = now or datetime.now(UTC)
    with campaign_lock(folder):
        camp = Campaign(folder)
        ruleset = registry.get(camp.settings.ruleset)
        stage = ruleset.stage(turns.context(camp, now))
        refuse_unless_open(camp, stage.over)
        dice = make(typed_by or f"GM {camp.settings.gm.name}")
        dice.salt = turns.stage_salt(camp, stage)
        generation, log = turns.stage_generation(camp), TickLog()
        try:
            resolve_stage(camp, ruleset, stage, now, log, dice)
        except TypedDiceError as exc:
            raise UserError(f"not resolved, nothing changed: {exc}") from None
        if turns.stage_generation(camp) == generation:      # the rules asked the GM a question: held for it
            asked = StageRecord.read(camp.state).question
            raise UserError(f"{stage.title} is not resolved: it needs your decision first ({asked.text}); answer "
                            f"with `pbem gm {camp.name} DECIDE {asked.key} <choice>`, then run this again")
    typed = f"{len(dice.log)} typed roll(s), by {dice.typed_by}"
    return f"{stage.title} resolved with {typed}; run `pbem tick` to send the reports"


def refuse_unless_open(camp: Campaign, over: bool) -> None:
    """Typed dice resolve only a stage that waits for its resolution: open, not paused, no question."""
    from pbem.stages.record import StageRecord

    record = StageRecord.read(camp.state)
    name = camp.name
    if not record.started or over:
        raise UserError(f"{name} has no stage waiting to be resolved (over, or not started: run `pbem tick` first)")
    if record.paused:
        raise UserError(f"{name} is paused: resume it with `pbem gm {name} RESUME`, then resolve")
    if record.waiting:
        raise UserError(f"{name} waits for your answer to {record.question.key!r}: answer with "
                        f"`pbem gm {name} DECIDE {record.question.key} <choice>`, then resolve before the next tick")
