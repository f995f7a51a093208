"""Reports as sections of lines (rendered by templates/wandering_tribes/), help texts with the
player's own ids, and the calls that say what each window wants."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.kit.orders import OrderProblem
from pbem.kit.texts import named_lines as named
from pbem.rulesets.base import Report
from pbem.rulesets.wandering_tribes.cycle import stack_lines
from pbem.rulesets.wandering_tribes.game import WTView
from pbem.rulesets.wandering_tribes.rules import Rules, from_book
from pbem.rulesets.wandering_tribes.strategic import counters

Section = tuple[str, Sequence[str]]


def rules_of(view: WTView) -> Rules:
    return from_book(view.rules)


def names_of(view: WTView) -> dict[str, str]:
    """Player id -> the name the campaign shows him by (campaign.toml's `name`)."""
    return view.settings.names()


def named_problems(view: WTView, problems: Sequence[OrderProblem]) -> list[OrderProblem]:
    """An ack's problems as the player reads them: players named by name in each reason (the quoted
    line stays as he wrote it)."""
    names = names_of(view)
    return [type(p)(named(names, [p.reason])[0], p.line_no, p.line, p.suggestion) for p in problems]


def report(view: WTView, title: str, sections: Sequence[Section], key: str) -> Report:
    """The public report of one resolution: its sections, the stacks, the counters (the engine adds
    every die with its purpose), players named by name."""
    game, rules, names = view.state, rules_of(view), names_of(view)
    board: list[Section] = [("Stacks", stack_lines(game.state, rules)),
                            ("Battle trigger", [counters(game.state, rules)])]
    if game.phase == "orders":
        board.append(("Next strategic round", [*game.opening, "Sequence: " + ", ".join(game.sequence)]))
    body = [{"title": t, "lines": named(names, lines)} for t, lines in [*sections, *board] if lines]
    context = {"wt": {"title": title, "sections": body}, "dice_names": names}   # the dice list by name too
    return Report("report", title, ("*",), context, public=True, key=key)


def briefing_report(view: WTView, title: str, lines: Sequence[str], audience: Sequence[str], key: str) -> Report:
    body = named(names_of(view), lines)
    context: dict[str, Any] = {"wt": {"title": title, "sections": [{"title": title, "lines": body}]}}
    return Report("briefing", title, tuple(audience), context, key=key)
