"""Reports as sections of lines (rendered by templates/wandering_tribes/), help texts with the
player's own ids, and the calls that say what each window wants."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.rulesets.base import Report
from pbem.rulesets.wandering_tribes.cycle import stack_lines
from pbem.rulesets.wandering_tribes.game import WTView
from pbem.rulesets.wandering_tribes.rules import Rules, from_book
from pbem.rulesets.wandering_tribes.strategic import counters

Section = tuple[str, Sequence[str]]


def rules_of(view: WTView) -> Rules:
    return from_book(view.rules)


def report(view: WTView, title: str, sections: Sequence[Section], key: str) -> Report:
    """The public report of one resolution: its sections, the stacks, the counters (the engine adds
    every die with its purpose)."""
    game, rules = view.state, rules_of(view)
    board: list[Section] = [("Stacks", stack_lines(game.state, rules)),
                            ("Battle trigger", [counters(game.state, rules)])]
    if game.phase == "orders":
        board.append(("Next strategic round", [*game.opening, "Sequence: " + ", ".join(game.sequence)]))
    body = [{"title": t, "lines": list(lines)} for t, lines in [*sections, *board] if lines]
    return Report("report", title, ("*",), {"wt": {"title": title, "sections": body}}, public=True, key=key)


def briefing_report(title: str, lines: Sequence[str], audience: Sequence[str], key: str) -> Report:
    context: dict[str, Any] = {"wt": {"title": title, "sections": [{"title": title, "lines": list(lines)}]}}
    return Report("briefing", title, tuple(audience), context, key=key)
