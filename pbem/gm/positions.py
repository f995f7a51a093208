"""Starting a campaign from a position written by hand (`pbem import`, `pbem new --position`).

A position file is TOML in the rule system's documented format (`Ruleset.position` reads it
and names every problem at once); pbem itself reads one key of it, `deadline` (a time, e.g.
`2026-12-01T20:00Z`, for the first stage; default: the schedule's window from now). The
campaign opens the stage the position is in, at its turn, and every player is mailed which
stage it is and what to send by when.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import tomli_w

from pbem.delivery.replies import Reply
from pbem.errors import UserError
from pbem.kit.dice import CommittedDice, stage_salt
from pbem.rulesets.base import AnyRuleset, PositionError, Stage
from pbem.stages import setup_rules, turns
from pbem.stages.record import StageRecord
from pbem.state.campaign import Campaign, Settings
from pbem.state.schedule import iso, parse_time

ENGINE_KEYS = ("deadline",)


@dataclass(frozen=True)
class Position:
    """A position file as read: the rule system's part, where it came from, the engine's keys."""

    data: Mapping[str, Any]
    source: str
    deadline: Any = ""          # as written: a TOML time or text; checked by `game`

    def game(self, ruleset: AnyRuleset, settings: Settings, now: datetime) -> dict[str, Any]:
        """The stored game the rule system makes of the position; PositionError names every
        problem, the rule system's and the engine's keys' together."""
        problems = self.deadline_problems(now)
        try:
            game = ruleset.position(settings, self.data, self.source)
        except PositionError as exc:
            raise PositionError(self.source, [*exc.problems, *problems]) from exc
        if problems:
            raise PositionError(self.source, problems)
        return game

    def due(self) -> datetime | None:
        """The deadline the position names (a time without a zone is UTC), or None."""
        if isinstance(self.deadline, datetime):
            return parse_time(self.deadline.isoformat())
        return parse_time(str(self.deadline)) if self.deadline else None

    def deadline_problems(self, now: datetime) -> list[str]:
        try:
            due = self.due()
        except (TypeError, ValueError):
            return [f"deadline: {self.deadline!s} is no time; write it like 2026-12-01T20:00Z"]
        if due is not None and due <= now:
            return [f"deadline: {iso(due)} has passed; give a later time or leave it out"]
        return []

    def open(self, camp: Campaign, ruleset: AnyRuleset, now: datetime) -> Stage:
        """Roll what the position left to the dice, open its stage (its deadline if it names one) and
        snapshot the turn's start."""
        self.roll(camp, ruleset)
        setup_rules.record(camp.state, camp.settings, position=True)
        stage = turns.open_stage(camp, ruleset, now)
        due = self.due()
        if due is not None:
            record = StageRecord.read(camp.state)
            record.due = due
            record.write(camp.state)
        turns.snapshot_start(camp, stage.turn)
        return stage


    def roll(self, camp: Campaign, ruleset: AnyRuleset) -> None:
        """What the position leaves to the dice (a Conquest round's order of play), rolled with the
        turn's committed dice, salted with the position's content, and logged with the turn."""
        turn = ruleset.turn_of(ruleset.load_state(camp.state["game"]))
        digest = hashlib.sha256(json.dumps(self.data, sort_keys=True, default=str).encode()).hexdigest()
        dice = CommittedDice(turns.turn_secret(camp, turn), stage_salt(camp.name, turn, "position", digest))
        camp.state["game"] = ruleset.position_opening(camp.settings, camp.state["game"], dice)
        if dice.log:
            turns.log_dice(camp, turn, "position", dice)


def export_position(camp: Campaign, ruleset: AnyRuleset, now: datetime) -> str:
    """The campaign's state as a position file (TOML) in the rule system's documented format, for
    `pbem import` into another campaign of the same players; PositionError when the format cannot
    hold the stage the campaign is at."""
    data = ruleset.export_position(ruleset.view(turns.context(camp, now)))
    record = StageRecord.read(camp.state)
    head = (f"# {camp.name} at {record.title or 'its start'}: the position as `pbem export-position` wrote it "
            f"on {iso(now)}.\n# `pbem import CAMPAIGN FILE` starts a campaign of the same players here.\n\n")
    return head + tomli_w.dumps(data)


def read_position(path: Path) -> Position:
    """The position file, or one line saying why it cannot be read (UserError)."""
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise UserError(f"{path}: no such position file") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: not valid TOML: {exc}; fix the file and run the command again") from None
    engine = {key: data.pop(key) for key in ENGINE_KEYS if key in data}
    return Position(data, str(path), engine.get("deadline", ""))


def started(state: Mapping[str, Any]) -> bool:
    """Has the campaign been played: mail handled, a stage resolved, a GM command given? A
    campaign `pbem new` has just made has not, and a position may replace its opening."""
    record = StageRecord.read(dict(state))
    return record.started and bool(state.get("journal") or state.get("submissions") or state.get("gm_log")
                                   or record.generation > 1)


def start_campaign(camp: Campaign, ruleset: AnyRuleset, position: Position, now: datetime,
                   force: bool = False) -> tuple[Stage, list[Reply]]:
    """Replace the campaign's game with the position, open its stage and return the mails that
    tell each player what to send. Raises UserError for a campaign already played (unless
    `force`) and PositionError for a position that cannot start it; either way nothing changed.
    The caller queues the mails and saves."""
    if started(camp.state) and not force:
        record = StageRecord.read(camp.state)
        raise UserError(f"{camp.name} has already started (now at {record.title}); importing a position "
                        "replaces its game: add --force to do so")
    game = position.game(ruleset, camp.settings, now)
    if force:
        set_aside(camp, now)
    camp.state = {"game": game, "journal": dict(camp.state.get("journal", {})),
                  "generation": turns.generation(camp.state)}
    stage = position.open(camp, ruleset, now)
    return stage, stage_mails(camp, ruleset, stage, now)


def set_aside(camp: Campaign, now: datetime) -> None:
    """What the replaced game left: its history (a rollback must not go back into it) and its
    dice secrets (one revealed could make the new game's dice foreseeable)."""
    history = camp.folder / "history"
    if history.exists():
        shutil.move(str(history), str(history.with_name(f"history.replaced-{iso(now).replace(':', '')}")))
    turns.forget_secrets(camp, 0)


def stage_mails(camp: Campaign, ruleset: AnyRuleset, stage: Stage, now: datetime) -> list[Reply]:
    """To each player: the stage the campaign is in, what to send by when (or that nothing is
    owed), the order help and the turn's dice commitment."""
    settings, record = camp.settings, StageRecord.read(camp.state)
    ctx = turns.context(camp, now)
    base = {"campaign": settings, "stage": stage, "deadline": record.due, "schedule": settings.schedule,
            "now": now, "commitment": turns.commitment(camp, stage.turn)}
    return [Reply(f"stage-open/g{record.generation}/{player.id}", (player.email,),
                  f"[{camp.name}] {stage.title}: due {settings.schedule.show(record.due)}" if record.due else
                  f"[{camp.name}] {stage.title}", "stage_open",
                  base | {"player": player, "help": ruleset.help_text(ctx, player)}, auto_reply=False)
            for player in settings.players]
