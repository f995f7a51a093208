"""The shape of the files pbem writes itself, checked when a campaign is loaded.

pbem writes state.toml and auth.toml, but a game master may edit them (to move a deadline by
hand, say) and a typo there must not stop the tick with a TypeError. Only the keys the
backbone reads are checked, and only their type and range: the rule system's `[game]` table is
its own business, and keys this module does not know are left alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.kit.text import shown
from pbem.state.between import state_problems as between_state
from pbem.state.checks import TIME_HINT, Table, is_time

HASHES = ("sha256:", "scrypt:")


def state_problems(raw: Mapping[str, Any]) -> list[str]:
    """Every problem of state.toml's stage, submissions, journal, replies, GM log and forum tables."""
    problems: list[str] = []
    state = Table(raw, "", problems)
    _stage(Table.of(state, "stage"))
    submissions = Table.of(state, "submissions")
    for pid, sub in submissions.each(" (player id -> orders on file)").items():
        if isinstance(submissions.raw[pid], Mapping) and "payload" not in sub:
            sub.wrong("payload", "a table of the orders on file")
        Table.of(sub, "payload")
        sub.text("receipt")
        sub.moment("received")
        sub.integer("rejected", 0, least=0)
        sub.integer("missing", 0, least=0)
    Table.of(state, "journal", " (message id -> what was done)")
    Table.of(state, "game", " (the rule system's state)")
    _times(Table.of(state, "replies", " (address -> times of automatic replies)"))
    for entry in state.tables("gm_log"):
        entry.moment("at")
        entry.integer("turn", 0)
        entry.text("text")
    Table.of(Table.of(state, "forum"), "cursor")
    between_state(state)
    return problems


def _stage(stage: Table) -> None:
    if not stage.raw:
        return
    stage.text("kind", required=True)
    stage.text("title")
    stage.integer("turn", 1, least=0)
    stage.moment("opened")
    stage.moment("deadline", required=True)
    stage.moment("paused_at")
    stage.integer("generation", 0, least=0)
    stage.texts("ready", what="a list of player ids (they said READY)")
    stage.texts("wait", what="a list of player ids (they said WAIT)")
    for flag in ("reminded", "force", "paused"):
        stage.boolean(flag)
    if "question" in stage:
        question = Table.of(stage, "question")
        question.text("key", required=True)
        question.text("text", required=True)
        question.texts("options")
    decisions = Table.of(stage, "decisions", " (question key -> the GM's choice)")
    for name in decisions.raw:
        decisions.text(name)


def _times(table: Table) -> None:
    for name in table.raw:
        if not isinstance(table.raw[name], list):
            table.wrong(name, "a list of times")
            continue
        table.problems += [f"{table.key(name)}[{i}]: found {shown(value)}; expected {TIME_HINT}"
                           for i, value in enumerate(table.raw[name]) if not is_time(value)]


def auth_problems(raw: Mapping[str, Any]) -> list[str]:
    """Every problem of auth.toml: `[secrets]` player id -> stored hash, `[failures]` address ->
    times of failed logins."""
    problems: list[str] = []
    auth = Table(raw, "", problems)
    secrets = Table.of(auth, "secrets", " (player id -> stored hash)")
    for pid in secrets.raw:
        value = secrets.text(pid, what="a stored hash (sha256:... or scrypt:...)")
        if value and not value.startswith(HASHES):
            secrets.wrong(pid, "a stored hash (sha256:... or scrypt:...)")
    _times(Table.of(auth, "failures", " (address -> times of failed logins)"))
    return problems
