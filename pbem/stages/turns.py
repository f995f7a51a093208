"""Opening, reminding and resolving stages; dice commitment; history.

A turn has a dice secret drawn when it begins. Its SHA-256 is published with
the turn's first mails; every roll of the turn is derived from it and from the
digest of the receipts resolved at that stage; the turn report reveals it and
`pbem verify-dice` recomputes everything from `history/<turn>/dice.toml`.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from pbem.kit import dice as dicemod
from pbem.rulesets.base import AnyRuleset, Context, Stage
from pbem.stages.readiness import readiness
from pbem.stages.record import StageRecord
from pbem.state.campaign import Campaign
from pbem.state.schedule import iso, parse_time  # noqa: F401  (parse_time: callers read it from here)
from pbem.state.store import read_toml, write_atomic, write_toml

# -- stages ----------------------------------------------------------------------


def context(camp: Campaign, now: datetime) -> Context:
    record = StageRecord.read(camp.state)
    return Context(camp.settings, camp.state.get("game", {}), now, record.due, record.decisions)


def open_stage(camp: Campaign, ruleset: AnyRuleset, now: datetime) -> Stage:
    """Record the stage the game now waits for, with its deadline and a new generation."""
    stage = ruleset.stage(context(camp, now))
    deadline = stage.deadline or camp.settings.schedule.deadline(now, stage.window)   # the rules' own first
    paused = StageRecord.read(camp.state).paused
    camp.state.pop("stage", None)        # a new record: the last stage's question and decisions are gone
    StageRecord(stage.kind, stage.title, stage.turn, iso(now), iso(deadline), paused=paused,
                generation=next_generation(camp)).write(camp.state)
    camp.state["submissions"] = {}
    return stage


def next_generation(camp: Campaign) -> int:
    """Count one more stage opening. The counter only grows (a rollback keeps it), so the keys of
    the mail a stage sends are new for every opening, while a tick re-run after a crash starts
    from the saved state and makes the same keys again: the outbox sends each key once."""
    camp.state["generation"] = generation(camp.state) + 1
    return int(camp.state["generation"])


def generation(state: dict[str, Any]) -> int:
    """The campaign's stage-opening counter (0 before any stage opened under it)."""
    value = state.get("generation", 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def stage_generation(camp: Campaign) -> int:
    """The generation of the stage now open: part of every key its reports, alerts and reminders use."""
    return StageRecord.read(camp.state).generation


def is_due(camp: Campaign, stage: Stage, now: datetime) -> bool:
    """Resolve now? Never while paused (RESUME moves the deadline by the time paused) or over."""
    record = StageRecord.read(camp.state)
    if stage.over or record.held:
        return False
    if record.force or stage.ready:
        return True
    if stage.waiting_for_gm:
        return False
    return (record.due is not None and now >= record.due) or closes_early(camp, stage)


def closes_early(camp: Campaign, stage: Stage) -> bool:
    """Every player owing orders is ready (pbem.stages.readiness), unless the campaign keeps each
    stage open to its deadline (`[schedule] early_close = "never"`)."""
    if camp.settings.schedule.early_close == "never":
        return False
    owing = set(stage.owing).union(*stage.owing_any)
    ready = {p for p in owing if readiness(camp.state, p, stage).ready}
    if stage.owing_any:
        return all(ready & set(group) for group in stage.owing_any)
    return bool(stage.owing) and set(stage.owing) <= ready


def missing_players(camp: Campaign, stage: Stage) -> list[str]:
    """Who still owes a submission; with `owing_any`, the members of groups nobody answered for."""
    submitted = camp.state.get("submissions", {})
    if stage.owing_any:
        open_groups = [g for g in stage.owing_any if not any(p in submitted for p in g)]
        return [p for p in stage.owing if any(p in g for g in open_groups)]
    return [p for p in stage.owing if p not in submitted]


def reminder_due(camp: Campaign, stage: Stage, now: datetime) -> bool:
    """Once per stage, inside the reminder window; never while paused: the clock stands still."""
    record = StageRecord.read(camp.state)
    if record.reminded or record.held or stage.over or stage.waiting_for_gm or not stage.owing:
        return False
    deadline = record.due
    return deadline is not None and deadline - camp.settings.schedule.reminder <= now < deadline


# -- dice ------------------------------------------------------------------------


def _secret_path(camp: Campaign) -> Path:
    return camp.folder / "private" / "dice.toml"


def turn_secret(camp: Campaign, turn: int) -> str:
    """The turn's secret, drawn once and kept private until the turn ends."""
    path = _secret_path(camp)
    data = read_toml(path) if path.exists() else {}
    secrets: dict[str, str] = data.setdefault("secrets", {})
    if str(turn) not in secrets:
        secrets[str(turn)] = dicemod.new_secret()
        write_toml(path, data, header="# Unrevealed dice secrets. Never publish before the turn is resolved.")
    return secrets[str(turn)]


def commitment(camp: Campaign, turn: int) -> str:
    return dicemod.commitment(turn_secret(camp, turn))


def stage_salt(camp: Campaign, stage: Stage) -> str:
    """The stage's salt (pbem.kit.dice.stage_salt), bound to the receipts it resolves."""
    receipts = sorted(f"{p}:{s.get('receipt', '')}" for p, s in camp.state.get("submissions", {}).items())
    digest = hashlib.sha256("\n".join(receipts).encode()).hexdigest()
    return dicemod.stage_salt(camp.name, stage.turn, stage.kind, digest)


def stage_dice(camp: Campaign, stage: Stage) -> dicemod.CommittedDice:
    return dicemod.CommittedDice(turn_secret(camp, stage.turn), stage_salt(camp, stage))


class StageDice(Protocol):
    """A stage's dice as the log keeps them: committed ones, or typed ones standing in for them."""

    salt: str
    log: list[dicemod.Roll]


def log_dice(camp: Campaign, turn: int, stage: str, dice: StageDice) -> None:
    path = camp.history(turn) / "dice.toml"
    data: dict[str, Any] = read_toml(path) if path.exists() else {"turn": turn, "commitment": commitment(camp, turn),
                                                                  "stages": []}
    data["stages"] = [s for s in data["stages"] if s["salt"] != dice.salt] + [{
        "stage": stage, "salt": dice.salt, "rolls": [dicemod.log_entry(r) for r in dice.log],
    }]
    write_toml(path, data, header="# Every die of this turn; verify with `pbem verify-dice`.")


def reveal(camp: Campaign, turn: int) -> str:
    secret = turn_secret(camp, turn)
    path = camp.history(turn) / "dice.toml"
    data = read_toml(path) if path.exists() else {"turn": turn, "commitment": commitment(camp, turn), "stages": []}
    data["secret"] = secret
    write_toml(path, data, header="# Every die of this turn; verify with `pbem verify-dice`.")
    return secret


# -- history ---------------------------------------------------------------------


def snapshot_start(camp: Campaign, turn: int) -> None:
    """The state as the turn begins: what `pbem rollback` restores."""
    write_toml(camp.history(turn) / "start.toml", camp.state, header="# State at the start of this turn.")


STAGES = "stages"
"""The folder of a turn's history that keeps the game after each of its resolved stages."""


def snapshot_stage(camp: Campaign, stage: Stage, generation: int) -> Path:
    """The game as the resolution of `stage` left it: what `pbem render --stage` draws. The first
    resolution of a kind in a turn is `<kind>.toml`, a later one `<kind>-2.toml` (a battle window
    opened again); a tick re-run after a crash writes the same file again (same generation)."""
    record = {"kind": stage.kind, "title": stage.title, "turn": stage.turn, "generation": generation}
    path = _stage_file(camp.history(stage.turn) / STAGES, stage.kind, generation)
    write_toml(path, {"resolved": record, "game": camp.state["game"]},
               header=f"# The game after {stage.title} was resolved.")
    return path


def _stage_file(folder: Path, kind: str, generation: int) -> Path:
    n = 1
    while True:
        path = folder / (f"{kind}.toml" if n == 1 else f"{kind}-{n}.toml")
        if not path.exists() or read_toml(path).get("resolved", {}).get("generation") == generation:
            return path
        n += 1


def stage_snapshots(camp: Campaign, turn: int) -> list[tuple[str, Path]]:
    """(name, file) of each stored stage of `turn`, in the order they were resolved."""
    files = sorted((camp.history(turn) / STAGES).glob("*.toml"))
    order = {path: int(read_toml(path).get("resolved", {}).get("generation", 0)) for path in files}
    return [(path.stem, path) for path in sorted(files, key=lambda f: order[f])]


def save_report(camp: Campaign, turn: int, key: str, text: str, public: bool = False) -> None:
    """Keep a report in the turn's history; a public one is also named in `public.toml`, so that
    `pbem export` finds what may be posted where the club talks."""
    name = f"{key.replace('/', '-')}.md"
    write_atomic(camp.history(turn) / name, text)
    if public and name not in public_reports(camp, turn):
        write_toml(camp.history(turn) / PUBLIC, {"reports": [*public_reports(camp, turn), name]})


PUBLIC = "public.toml"


def public_reports(camp: Campaign, turn: int) -> list[str]:
    """The file names of a turn's public reports in history, in the order they were made."""
    path = camp.history(turn) / PUBLIC
    return [str(name) for name in read_toml(path).get("reports", [])] if path.exists() else []


def rollback(camp: Campaign) -> int:
    """Undo the last resolved turn: restore the start of the previous turn.

    The message journal is kept, so mail already processed is not read again, and so is the
    generation counter, so the replayed turn's mail gets keys of its own; players resend orders
    for the restored turn. The restored turn gets a new dice secret: the old one was revealed with
    its report, and dice anyone can foresee would let a player pick his orders by their rolls.
    """
    turn = StageRecord.read(camp.state).turn if "stage" in camp.state else 1
    target = turn - 1
    start = camp.history(target) / "start.toml"
    if target < 0 or not start.exists():        # a ruleset's setup may be turn 0
        raise ValueError(f"no earlier turn to roll back to (now at turn {turn})")
    journal, counter = camp.state.get("journal", {}), generation(camp.state)
    paused = StageRecord.read(camp.state).paused
    kept = {key: camp.state[key] for key in BETWEEN_KEYS if key in camp.state}
    camp.state = read_toml(start) | kept
    camp.state["journal"] = {**camp.state.get("journal", {}), **journal}
    camp.state["generation"] = max(counter, generation(camp.state))
    if "stage" in camp.state:            # a paused campaign stays paused until the GM resumes it
        record = StageRecord.read(camp.state)
        record.paused = paused
        record.write(camp.state)
    stamp = iso(datetime.now()).replace(":", "")
    for undone in (camp.history(turn), camp.history(target) / STAGES):   # the stages replayed are stored anew
        if undone.exists():
            shutil.move(str(undone), str(undone.with_name(f"{undone.name}.rolled-back-{stamp}")))
    dice_stale = camp.history(target) / "dice.toml"
    if dice_stale.exists():
        dice_stale.unlink()
    forget_secrets(camp, target)
    return target


BETWEEN_KEYS = ("absences", "standing", "press", "mail_choice", "mail_zone", "digest")
"""What players did between deadlines, kept through a rollback as the journal is: an absence
everyone was told of, press already relayed, a delivery choice, mail held for a digest. (The
on-time record is not: the stages replayed are counted again.)"""


BEFORE_END = "before-end.toml"
"""The state just before the GM ended the campaign (`pbem end`), kept in the turn's history:
a rollback of an ended campaign returns there, not to the start of the turn before."""


def snapshot_before_end(camp: Campaign, turn: int) -> None:
    write_toml(camp.history(turn) / BEFORE_END, camp.state, header="# State just before the GM ended the campaign.")


def undo_end(camp: Campaign) -> int | None:
    """Restore the state just before `pbem end` (the journal and the generation counter kept, as a
    rollback keeps them); the turn it is in, or None when the campaign was not ended by the GM."""
    turn = StageRecord.read(camp.state).turn if "stage" in camp.state else 0
    path = camp.history(turn) / BEFORE_END
    if not path.exists():
        return None
    journal, counter = camp.state.get("journal", {}), generation(camp.state)
    kept = {key: camp.state[key] for key in BETWEEN_KEYS if key in camp.state}
    camp.state = read_toml(path) | kept
    camp.state["journal"] = {**camp.state.get("journal", {}), **journal}
    camp.state["generation"] = max(counter, generation(camp.state))
    shutil.move(str(path), str(path.with_name(f"before-end.rolled-back-{iso(datetime.now()).replace(':', '')}.toml")))
    return turn


def forget_secrets(camp: Campaign, first: int) -> None:
    """Drop the dice secrets of turn `first` and later: the next use draws new ones."""
    path = _secret_path(camp)
    if not path.exists():
        return
    data = read_toml(path)
    data["secrets"] = {t: s for t, s in data.get("secrets", {}).items() if not t.isdigit() or int(t) < first}
    write_toml(path, data, header="# Unrevealed dice secrets. Never publish before the turn is resolved.")


def reopen(camp: Campaign, ruleset: AnyRuleset, now: datetime) -> Stage:
    """After a rollback: the restored stage again, with a deadline counted from now (its own is
    long past, and the players must have time to resend) and a generation of its own."""
    return open_stage(camp, ruleset, now)


def receipts(camp: Campaign) -> dict[str, str]:
    return {p: s.get("receipt", "") for p, s in camp.state.get("submissions", {}).items()}


def engine_context(camp: Campaign, stage: Stage, dice: dicemod.Dice, missing: Iterable[str],
                   now: datetime) -> dict[str, Any]:
    """What every report can use besides the rule system's own context."""
    names = {p.id: p for p in camp.settings.players}
    return {
        "campaign": camp.settings, "now": now, "schedule": camp.settings.schedule, "stage": stage,
        "rolls": list(dice.log), "receipts": receipts(camp),
        "nmr": [names[p] for p in missing if p in names], "players": names,
        "gm_log": [e for e in camp.state.get("gm_log", []) if e.get("turn") == stage.turn],
    }



def stage_key(stage: Stage, gen: int) -> str:
    """What every mail of one opening of a stage starts its key with. The generation tells the
    openings apart (a second resolution of a stage in one turn, a turn replayed after a
    rollback); a tick re-run after a crash opens nothing new, so its keys repeat and dedupe."""
    return f"turn-{stage.turn}/g{gen}/{stage.kind}"
