"""The invariants a season checks after every tick, one small function each.

Each check returns the problems it found (empty when all is well); `after_tick` runs them all and
fails with every problem and where it happened (rule system, seed, tick, clock).
"""

from __future__ import annotations

import contextlib
import io
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from pbem.cli import main as pbem_main
from pbem.state.schedule import parse_time
from pbem.state.store import read_toml
from tests.season.harness import body

if TYPE_CHECKING:
    from tests.season.harness import Season

NEVER_ANSWERED: frozenset[str] = frozenset()
"""Senders pbem must never answer (auto-replies, its own address): the simulation sends none."""


def no_traceback(season: Season) -> list[str]:
    """The tick's log holds no Python traceback (the tick raising is caught in Season.tick)."""
    return [f"traceback in the tick log: {line}" for line in season.tick_logs[-1].lines if "Traceback" in line]


def answered_once(season: Season) -> list[str]:
    """Every mail taken from the inbox got exactly one reply In-Reply-To its Message-ID."""
    pending = {p.name for p in (season.root / "inbox").glob("*.eml")}
    counts = Counter(s.in_reply_to for s in season.outbox if s.in_reply_to)
    problems = []
    for mid, who in season.expected.items():
        if who in NEVER_ANSWERED or season.mail_files[mid] in pending:   # not read yet
            continue
        if counts[mid] != 1:
            problems.append(f"mail {mid} from {who} got {counts[mid]} replies, not 1")
    return problems


def unique_message_ids(season: Season) -> list[str]:
    """No Message-ID went out twice."""
    counts = Counter(s.message_id for s in season.outbox)
    return [f"Message-ID {mid} sent {n} times" for mid, n in counts.items() if n > 1 or not mid]


def turns_in_order(season: Season, before: int) -> list[str]:
    """The turn never goes back (but after a GM rollback) and never skips: every turn passed over in
    this tick was played (its dice log is in history)."""
    after = season.turns_seen[-1]
    rolled_back, season.rolled_back = season.rolled_back, False
    if after < before and not rolled_back:
        return [f"turn went back from {before} to {after}"]
    skipped = [t for t in range(before, after) if not (season.folder / "history" / f"{t:03d}" / "dice.toml").exists()]
    return [f"turn {t} was skipped (no dice log) going from {before} to {after}" for t in skipped]


def deadline_explained(season: Season) -> list[str]:
    """A stage past its deadline says why in `pbem status` (paused or waiting for the GM)."""
    meta = season.stage_meta()
    if not meta.get("deadline") or season.stage().over or parse_time(meta["deadline"]) > season.now:
        return []
    out = status_text(season)
    if "PAUSED" in out or "waiting for the GM" in out:
        return []
    return [f"{meta.get('title')} is past its deadline {meta['deadline']} and `pbem status` gives no reason:\n{out}"]


def status_text(season: Season) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = pbem_main(["status", "--root", str(season.root / "campaigns")])
    return buf.getvalue() + ("" if code == 0 else f"\n(pbem status exited {code})")


def dice_verify(season: Season) -> list[str]:
    """Every finished turn (its secret revealed) passes `pbem verify-dice`."""
    problems = []
    for path in sorted((season.folder / "history").glob("[0-9][0-9][0-9]/dice.toml")):
        turn = int(path.parent.name)
        if turn in season.verified_turns or not read_toml(path).get("secret"):
            continue
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            code = pbem_main(["verify-dice", "season", str(turn), "--root", str(season.root / "campaigns")])
        if code != 0:
            problems.append(f"turn {turn}: verify-dice exited {code}: {buf.getvalue().strip()}")
        season.verified_turns.add(turn)
    return problems


def resolutions_reported(season: Season) -> list[str]:
    """A tick that resolved a stage mailed its report or a GM alert (a mail that answers nobody)."""
    resolved = [line for line in season.tick_logs[-1].lines if ": resolved " in line]
    reports = [s for s in season.outbox if s.tick == season.ticks and not s.in_reply_to]
    return [f"{line}: but no report went out" for line in resolved[:1] if not reports]


def dice_published(season: Season) -> list[str]:
    """Every finished turn's secret, and the commitment of every turn once it is played, went out in
    some mail (the README's promise: players can check the dice without the GM's files)."""
    problems = []
    bodies = None
    for turn in sorted(season.verified_turns - season.published_turns):
        data = read_toml(season.folder / "history" / f"{turn:03d}" / "dice.toml")
        bodies = bodies if bodies is not None else "\n".join(body(s.message) for s in season.outbox)
        for what in ("secret", "commitment"):
            if data[what] not in bodies:
                problems.append(f"turn {turn}: its dice {what} {data[what][:12]}... was never mailed")
        season.published_turns.add(turn)
    return problems


def final_report(season: Season) -> list[str]:
    """Once the campaign is over, every player and the GM got a report that is no reply, in the
    tick that ended it."""
    if not season.stage().over:
        return []
    season.over_tick = season.over_tick or season.ticks
    reports = [s for s in season.outbox if s.tick == season.over_tick and not s.in_reply_to]
    people = [seat.email for seat in season.seats.values()] + [season.gm_email]
    return [f"no final report to {who}" for who in people if not any(who in s.to.lower() for s in reports)]


def missing_only_after_a_window(season: Season) -> list[str]:
    """A stage that resolves with players missing was open to them at least one tick before: a
    stage opened and closed in the same tick on someone's silence gave him no chance to answer."""
    seen = set(season.titles[:-1])
    problems = []
    for line in season.tick_logs[-1].lines:
        title, missing = line.partition("resolved ")[2].partition("; waiting for ")[::2]
        if missing and title not in seen:
            problems.append(f"{title} resolved with {missing.removesuffix(' was over')} missing in the tick it opened")
    return problems


def signed_mail_taken(season: Season) -> list[str]:
    """A player's mail from his address, signed with his secret (the first, a chosen one, or a
    newcomer's from his welcome mail) is never refused."""
    return [f"{s.in_reply_to}: signed by its seat, but refused" for s in season.outbox
            if s.tick == season.ticks and s.in_reply_to in season.genuine and "was not accepted" in body(s.message)]


def no_orders_invited_after_the_end(season: Season) -> list[str]:
    """Once the campaign is over, no reply to a mail sent after the end invites new orders or
    names a deadline (a mail read in the tick that ended it, before the end, may)."""
    return [f"{s.in_reply_to}: answered after the end with a deadline or 'You may send new orders'"
            for s in season.outbox if s.tick == season.ticks and s.in_reply_to in season.after_end
            and ("You may send new orders" in body(s.message) or "Deadline:" in body(s.message))]


def rulings_accepted(season: Season) -> list[str]:
    """The commands `pbem status` names for what waits for the GM are accepted when he sends them."""
    return [f"{s.in_reply_to}: a ruling pbem asked for was refused: {line.strip()}" for s in season.outbox
            if s.tick == season.ticks and s.in_reply_to in season.rulings
            for line in body(s.message).splitlines() if "not done" in line]


def owed_mail_read(season: Season) -> list[str]:
    """A player who sent mail while the stage owed it him is never told that nothing is expected
    from him in that same stage."""
    problems = []
    for sent in season.outbox:
        stage = season.sent_in.get(sent.in_reply_to, "")
        if sent.tick == season.ticks and stage and f"Nothing is expected from you in this stage ({stage})" in \
                body(sent.message):
            problems.append(f"{sent.in_reply_to}: sent while {stage} owed it, answered 'Nothing is expected'")
    return problems


CHECKS: tuple[Callable[[Season], list[str]], ...] = (no_traceback, answered_once, unique_message_ids,
                                                     deadline_explained, dice_verify, dice_published,
                                                     final_report, resolutions_reported,
                                                     missing_only_after_a_window, owed_mail_read,
                                                     signed_mail_taken, no_orders_invited_after_the_end,
                                                     rulings_accepted)


def after_tick(season: Season, before: int) -> None:
    problems = [p for check in CHECKS for p in check(season)] + turns_in_order(season, before)
    assert not problems, f"{season.where()}:\n" + "\n".join(problems)
