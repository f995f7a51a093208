"""The phase shape: what one window of a rule system needs, side by side.

A rule system declares its phases once (`Ruleset.phases`, keyed by the name its state
reports through `Ruleset.phase_of`); the base `Ruleset` asks for the current phase once
per hook and hands the call to it. Every hook reads a `View` (the campaign's settings,
its typed state, its map and rule book, the moment); `resolve` gets a view over its own
copy of the state, changes it, and returns an `Outcome`. A phase's GM verbs (RESULT,
APPROVE, ...) are declared with it as `GMVerb`s, the same registration serving `GM` lines
in mail and `pbem gm` on the command line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar

from pbem.kit.dice import Dice
from pbem.kit.orders import OrderProblem
from pbem.kit.rulebook import RuleBook
from pbem.state.campaign import Player, Settings

S = TypeVar("S")        # a rule system's typed state (a dataclass that round-trips through TOML)
M = TypeVar("M")        # its map (a `pbem.kit.maps.PlaceMap`)

Lines = Sequence[tuple[int, str]]
Payload = Mapping[str, Any]
Submissions = Mapping[str, Payload]        # player id -> that player's payload for the stage


@dataclass
class Parsed:
    """What a player's lines meant for the current stage."""

    payload: dict[str, Any]                      # TOML-ready orders, merged by `combine`
    accepted: list[tuple[int, str]] = field(default_factory=list)
    problems: list[OrderProblem] = field(default_factory=list)
    commands: list[tuple[int, str]] = field(default_factory=list)   # lines for the engine (RESULT, ...)
    prose: list[tuple[int, str]] = field(default_factory=list)      # greetings, thanks: skipped (pbem.kit.prose)
    notes: list[str] = field(default_factory=list)      # warnings on accepted lines, for the ack ("no legal city")


@dataclass(frozen=True)
class View(Generic[S, M]):
    """What every hook reads. Hooks other than `resolve` must not change `state`: it may be
    shared by several hooks reading the same stored game."""

    settings: Settings
    state: S
    map: M
    rules: RuleBook
    now: datetime
    deadline: datetime | None = None
    decisions: Mapping[str, str] = field(default_factory=dict)   # the GM's answers for this stage

    def player_of(self, faction: str) -> str:
        """The id of the player leading `faction` ("" when nobody does)."""
        return next((p.id for p in self.settings.players if p.faction == faction), "")


@dataclass
class Outcome(Generic[S]):
    """What resolving a stage (or a GM verb) gave: the new state and what to tell whom."""

    state: S
    reports: list[Any] = field(default_factory=list)        # `pbem.rulesets.base.Report`s
    gm_alerts: list[str] = field(default_factory=list)
    turn_finished: bool = False      # the turn counter moved on: reveal the dice secret, snapshot history
    turn_opened: bool = False        # the setup before the turn's first orders is done: the turn starts here


@dataclass(frozen=True)
class GMVerb(Generic[S, M]):
    """A game master's command of a rule system: `GM <NAME> <args>` by mail, `pbem gm CAMPAIGN NAME args`
    on the command line. `run` gets a view over a copy of the state and the words after the verb,
    changes the state and returns the reply line; it raises ValueError with a one-line reason."""

    name: str                         # upper case: "RESULT"
    usage: str                        # "RESULT <battle> <winner|draw>"
    help: str                         # one line for GM help
    run: Callable[[View[S, M], Sequence[str]], str]


def _nobody(view: View[Any, Any]) -> Sequence[str]:
    return ()


def _no_groups(view: View[Any, Any]) -> Sequence[tuple[str, ...]]:
    return ()


def _never(view: View[Any, Any]) -> bool:
    return False


def _no_wake(view: View[Any, Any]) -> datetime | None:
    return None


def _no_help(view: View[Any, Any], player: Player) -> str:
    return ""


def _no_words(view: View[Any, Any]) -> Sequence[str]:
    return ()


def _nothing_missing(view: View[Any, Any], player: Player, payload: Payload) -> list[str]:
    return []


@dataclass(frozen=True)
class Phase(Generic[S, M]):
    """One window of a rule system: who owes, how their lines read, how the window closes.

    `parse` and `resolve` are required; everything else has a neutral default. `combine` and
    `canonical` left as None use the rule system's own (`Ruleset.combine_payloads`,
    `Ruleset.canonical_lines`)."""

    title: str                                                   # "orders": the stage reads "Turn 3: orders"
    window: str                                                  # the `[schedule]` key of its deadline
    parse: Callable[[View[S, M], Player, Lines], Parsed]
    resolve: Callable[[View[S, M], Submissions, Dice], Outcome[S]]
    owing: Callable[[View[S, M]], Sequence[str]] = _nobody       # player ids whose mail closes the window early
    owing_any: Callable[[View[S, M]], Sequence[tuple[str, ...]]] = _no_groups   # see `Stage.owing_any`
    ready: Callable[[View[S, M]], bool] = _never                 # resolve now, without waiting
    waiting_for_gm: Callable[[View[S, M]], bool] = _never        # nothing players can send; the GM must act
    missing: Callable[[View[S, M], Player, Payload], list[str]] = _nothing_missing
    combine: Callable[[View[S, M], Payload, Payload], dict[str, Any]] | None = None
    canonical: Callable[[View[S, M], Player, Payload], list[str]] | None = None
    help: Callable[[View[S, M], Player], str] = _no_help
    words: Callable[[View[S, M]], Sequence[str]] = _no_words    # the window's order words, for telling a
                                                                # misspelt order from prose (pbem.kit.prose)
    gm_verbs: Sequence[GMVerb[S, M]] = ()
    over: bool = False                                           # the campaign has ended
    wakes: Callable[[View[S, M]], datetime | None] = _no_wake    # before the deadline, when `ready` may turn
                                                                 # true with no mail (a grace period ending)
    deadline: Callable[[View[S, M]], datetime | None] = _no_wake  # a deadline the rules fix (a player's own
                                                                 # extension, the GM's grace, a window of their own
                                                                 # length): the engine keeps it, not the schedule's



class PositionError(ValueError):
    """A position file (`pbem import`, `pbem new --position`) that cannot start a campaign: every
    problem at once, each naming the key it is about."""

    def __init__(self, source: str, problems: Sequence[str]) -> None:
        super().__init__(f"{source}: " + "; ".join(problems))
        self.source, self.problems = source, list(problems)


class GMDecisionNeeded(Exception):
    """Resolution cannot go on without the game master's word (a rule option says the GM decides).

    The engine leaves the stage, its submissions and the game untouched, asks the GM,
    and resolves the stage again once `DECIDE <key> <choice>` is in. The same orders
    give the same dice, so nothing rolled before the question changes; the answer
    reaches the ruleset as `ctx.decisions[key]`.
    """

    def __init__(self, key: str, question: str, options: Sequence[str]) -> None:
        super().__init__(f"{key}: {question}")
        self.key, self.question, self.options = key, question, list(options)


def ask(decisions: Mapping[str, str], key: str, question: str, options: Sequence[str]) -> str:
    """The GM's answer to `key` for this stage, or stop the resolution to ask for it."""
    if key in decisions:
        return decisions[key]
    raise GMDecisionNeeded(key, question, options)
