"""The season loop: players answer each stage (or stay silent), the GM acts on a seeded script,
and the clock moves in steps past deadlines until the campaign is over.

The GM's script, drawn once per season: one PAUSE and a RESUME some ticks later, one EXTEND, one
typo, one REPLACE of a player by a newcomer, one RESOLVE (forcing the stage), one `pbem rollback` (once the
second turn is reached); besides, he answers what `gm_pending` says waits for
him (approvals, disputed results) on most ticks, and any question a resolution stopped on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pbem.cli import main as pbem_main
from tests.season.agents import AGENTS, STEP_CHOICES, Agent
from tests.season.harness import Season

SILENCE = 0.15        # chance a player sends nothing for a stage
RESEND = 0.1          # chance a player sends his orders again (a correction) later in the stage
GM_DILIGENCE = 0.7    # chance per tick that the GM deals with what waits for him
FORGED = 0.03         # chance a player first signs with a wrong secret (refused, still answered once)
ASK = 0.1             # chance a player adds STATUS or HELP to his orders
PASSWORD = 0.02       # chance a player first chooses a secret of his own (PASSWORD), then signs with it
CLEAR = 0.03          # chance a player first withdraws what he has on file (CLEAR), then sends again


@dataclass
class Script:
    """Which tick each scripted GM action happens at."""

    pause: int
    resume: int
    extend: int
    typo: int
    replace: int
    rollback: int
    force: int
    done: set[str] = field(default_factory=set)      # the season's record of what the GM did


def draw_script(season: Season) -> Script:
    """Early enough that the shortest season (about a dozen ticks) sees every action."""
    rng = season.rng
    pause = rng.randint(2, 6)
    return Script(pause, pause + rng.randint(1, 3), rng.randint(1, 8), rng.randint(1, 8), rng.randint(3, 9),
                  rng.randint(6, 12), rng.randint(2, 10), season.gm_done)


def play(root: Path, system: str, seed: int, quick: bool = False) -> Season:
    """Play one season of `system` to its end; every tick is checked (tests/season/checks.py)."""
    agent: Agent = AGENTS[system](quick=quick)
    season = Season(root, system, seed, agent.setup)
    script = draw_script(season)
    answered: set[tuple[object, ...]] = set()
    while not season.stage().over:
        assert season.ticks < agent.max_ticks, f"{season.where()}: not over after {agent.max_ticks} ticks"
        players_act(season, agent, answered)
        gm_acts(season, agent, script)
        season.tick(season.rng.choice(STEP_CHOICES))
    for pid in sorted(season.seats):   # late mail after the end (STATUS of a finished game): answered once
        season.send(pid, ["STATUS", "HELP"])
    season.tick(STEP_CHOICES[0])
    return season


def players_act(season: Season, agent: Agent, answered: set[tuple[object, ...]]) -> None:
    stage, meta = season.stage(), season.stage_meta()
    key = (meta.get("turn"), meta.get("kind"), meta.get("opened"))
    for pid in stage.owing:
        first = (key, pid) not in answered
        answered.add((key, pid))
        if (first and season.rng.random() < SILENCE) or (not first and season.rng.random() >= RESEND):
            continue
        if season.rng.random() < PASSWORD:
            seat = season.seats[pid]
            new = f"{pid}-chosen-secret-{season.rng.randint(1000, 9999)}"
            season.send(pid, [f"PASSWORD {new}"])
            seat.secret = new
        if season.rng.random() < CLEAR:
            season.send(pid, ["CLEAR"])
        if season.rng.random() < FORGED:
            season.send(pid, agent.orders(season, pid, stage), secret="WRONG-SECRET-0000")
        lines = agent.orders(season, pid, stage)
        if lines:
            extra = [season.rng.choice(["STATUS", "HELP"])] if season.rng.random() < ASK else []
            season.send(pid, lines + extra)


def gm_acts(season: Season, agent: Agent, script: Script) -> None:
    lines = [*scripted(season, agent, script), *agent.end(season)]
    question = season.stage_meta().get("question")
    if question:
        lines.append(f"DECIDE {question['key']} {(question.get('options') or ['yes'])[0]}")
    if lines:
        season.send_gm(lines)
    if season.rng.random() < GM_DILIGENCE:
        rulings = [agent.ruling(season, task) for task in season.ruleset.gm_pending(season.context())]
        if rulings:       # a mail of their own: what `pbem status` asks of the GM is always accepted
            season.rulings.add(season.send_gm(rulings))
    for sender, mail, who in season.after_gm:
        season.drop(sender, mail, "orders", who)
    season.after_gm.clear()


def scripted(season: Season, agent: Agent, script: Script) -> list[str]:
    now, lines = season.ticks, []
    if now >= script.pause and "pause" not in script.done:
        script.done.add("pause")
        lines.append("PAUSE")
    if now >= script.resume and "resume" not in script.done and "pause" in script.done:
        script.done.add("resume")
        lines.append("RESUME")
    if now >= script.extend and "extend" not in script.done:
        script.done.add("extend")
        lines.append("EXTEND 1d")
    if now >= script.typo and "typo" not in script.done:
        script.done.add("typo")
        lines.append(agent.typo(season.rng))
    if now >= script.replace and "replace" not in script.done:
        script.done.add("replace")
        lines.append(replace(season))
    if now >= script.force and "resolve" not in script.done:
        script.done.add("resolve")
        lines.append("RESOLVE")
    if now >= script.rollback and "rollback" not in script.done and season.turns_seen[-1] >= 2:
        script.done.add("rollback")
        rollback(season)
    return lines


def rollback(season: Season) -> None:
    """`pbem rollback` on the command line: back to the start of the previous turn."""
    code = pbem_main(["rollback", "season", "--root", str(season.root / "campaigns"), "--now", season.now.isoformat()])
    assert code == 0, f"{season.where()}: pbem rollback exited {code}"
    season.rolled_back = True
    season.forget()


def replace(season: Season) -> str:
    """Hand a seat to a newcomer; the newcomer signs with the secret from his welcome mail. The
    player replaced sends one more mail, after the GM's, with his old address and secret: it is
    refused, and answered once like any other."""
    seat = season.seats[season.rng.choice(sorted(season.seats))]
    old_email, old_secret = seat.email, seat.secret
    seat.email = f"{seat.pid}-new@players.localhost"
    season.awaiting_welcome.add(seat.email)
    season.after_gm.append((old_email, [f"PLAYER {seat.pid} {old_secret}", "STATUS"], seat.pid))
    return f"REPLACE {seat.pid} {seat.email} Newcomer"
