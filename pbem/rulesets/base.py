"""The interface every rule system implements, with neutral defaults.

The engine owns mail, authentication, deadlines, dice commitment, storage and
delivery; a rule system only says what the campaign waits for (`stage`), reads
order lines (`parse`), and resolves a stage (`resolve`). Game state is stored as a
plain dict in `state.toml` under `[game]`; a rule system declares its typed state
(`load_state`/`dump_state`) and its phases (`phases`, see `pbem.rulesets.phases`),
and the hooks below hand each call to the current phase with a `View` of the game.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic

from pbem.errors import UserError as UserError
from pbem.kit.dice import Dice
from pbem.kit.maps import map_path, ready_made
from pbem.kit.players import PlayerField, field_problems
from pbem.kit.prose import Vocabulary, prose_lines
from pbem.kit.rulebook import RuleBook, RulesError
from pbem.kit.texts import render as render  # a rule system's own texts (HELP) from its templates
from pbem.rulesets.phases import GMDecisionNeeded as GMDecisionNeeded  # the interface's errors live with phases
from pbem.rulesets.phases import GMVerb, M, Outcome, Phase, S, View
from pbem.rulesets.phases import Parsed as Parsed  # what a window read of a player's lines
from pbem.rulesets.phases import PositionError as PositionError
from pbem.rulesets.phases import ask as ask
from pbem.state.campaign import Player as Player
from pbem.state.campaign import Settings as Settings

if TYPE_CHECKING:
    from pbem.kit.scene import Scene

_KEYED = re.compile(r"^[\w.\[\]]+: ")      # a message that begins with its key, like "rules.edition: ..."


@dataclass(frozen=True)
class Stage:
    """One round of mail: who must send what, and which schedule window applies."""

    kind: str                      # e.g. "orders", "battles", "retreats"
    title: str                     # "Turn 3: orders"
    turn: int
    owing: tuple[str, ...]         # player ids whose submissions close the window early
    window: str                    # key in [schedule] for the deadline length
    waiting_for_gm: bool = False   # nothing players can send; the GM must act
    ready: bool = False            # everything needed is in (e.g. GM approvals): resolve now
    over: bool = False             # the campaign has ended
    owing_any: tuple[tuple[str, ...], ...] = ()   # groups one member of which answers for all (a team
                                                  # reporting a battle): when given, the window closes early
                                                  # once every group has a submission, not all of `owing`
    wakes: datetime | None = None  # a moment before the deadline when the stage may become ready with
                                   # no mail (a grace period ending); a tick with nothing to do sleeps until then
    deadline: datetime | None = None   # a deadline the rules fix (`Phase.deadline`), before the schedule's


@dataclass
class Report:
    """A rendered document: to everyone (public), one player, both sides of a battle, or the GM."""

    kind: str                      # template name without extension: "turn_report", "briefing", ...
    subject: str
    audience: tuple[str, ...]      # player ids; "*" = every player; "gm" = the game master
    context: dict[str, Any]
    public: bool = False           # also posted to the forum and kept as the turn's public report
    key: str = ""                  # unique within the turn, for Message-IDs and history file names


@dataclass
class Resolution:
    game: dict[str, Any]
    reports: list[Report] = field(default_factory=list)
    turn_finished: bool = False    # the turn counter moved on: reveal the dice secret, snapshot history
    turn_opened: bool = False      # the setup before the turn's first orders is done (Daemon Rift's army
                                   # lists): the turn starts here, and a rollback to it keeps the setup
    gm_alerts: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Context:
    """What the engine passes to every hook."""

    settings: Settings
    game: Mapping[str, Any]
    now: datetime
    deadline: datetime | None = None
    decisions: Mapping[str, str] = field(default_factory=dict)   # the GM's answers for this stage
    # The view the reading hooks share, by rule system (`Ruleset.reading`): loading the game state
    # for each hook an order mail calls was a sixth of its intake. Nothing edits `game` in place.
    views: dict[object, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)


ENDED = "ended"
"""The key `Ruleset.end` writes into the game: `{turn, reason}` of the GM's FINISH. Every rule
system's `stage` honours it (the base class wraps each `stage` it defines), so a campaign the GM
ended is over whatever its rules would still wait for."""

StageHook = Callable[["Ruleset[Any, Any]", Context], Stage]


def honour_end(stage: StageHook) -> StageHook:
    """`stage`, but over once the GM ended the campaign: nothing is owed, nothing is resolved."""
    if getattr(stage, "honours_end", False):
        return stage

    @functools.wraps(stage)
    def wrapped(self: Ruleset[Any, Any], ctx: Context) -> Stage:
        current = stage(self, ctx)
        ended = ctx.game.get(ENDED)
        if not ended or current.over:
            return current
        return Stage("over", "Campaign over (ended by the game master)", int(ended.get("turn", current.turn)), (),
                     current.window, over=True)

    wrapped.honours_end = True     # type: ignore[attr-defined]  # a mark on the function: wrapped once only
    return wrapped


class Ruleset(Generic[S, M]):
    """Base rule system. A rule system declares its typed state, map, rule book and phases;
    the hooks the engine calls dispatch on the current phase once, here. (A system may still
    override a hook where its rules are truly system-wide.)"""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "stage" in cls.__dict__:           # a new rule system honours FINISH without knowing of it
            setattr(cls, "stage", honour_end(cls.__dict__["stage"]))  # noqa: B010  # mypy refuses assigning a method

    name = "base"
    title = "Base"
    aliases: tuple[str, ...] = ()
    templates = "common"
    default_map = ""                                        # the map `pbem new` uses without --map
    windows: Mapping[str, str] = {"orders": "7d"}         # the stages' windows, with the lengths `pbem new` writes
    player_fields: Mapping[str, PlayerField] = {}         # per-player settings (`--player ...,home=3`): Player.extras

    def assign(self, map_name: str, players: list[dict[str, str]]) -> list[dict[str, str]]:
        """Check the [[players]] tables `pbem new` is about to write and complete them (e.g. the
        faction each player leads); raise ValueError naming every problem."""
        return players

    # -- what a rule system declares ------------------------------------------------------
    phases: Mapping[str, Phase[S, M]] = {}                # the rule system's windows, by the name `phase_of` reports

    def create(self, settings: Settings) -> dict[str, Any]:
        raise NotImplementedError

    def settings_problems(self, settings: Settings) -> list[str]:
        """What this rule system refuses in the map, the rule overrides or the players of a
        campaign.toml: it sets up an opening position from them, as `pbem new` does, and each
        refusal is a problem. Loading settings asks it through the registry (pbem/state/campaign.py)."""
        if settings.map not in self.ready_maps() and not map_path(settings.map).is_file():
            ready = ", ".join(self.ready_maps())
            return [f"map: {settings.map!r} is not a ready-made map ({ready}) nor a .toml map file"]
        fields = [f"players[{n}].{problem}" for n, p in enumerate(settings.players)
                  for problem in field_problems(self.player_fields, p.extras)]
        if fields:
            return fields
        try:
            self.create(settings)
        except RulesError as exc:
            return list(exc.problems)
        except (ValueError, LookupError, TypeError, OSError) as exc:
            text = str(exc).replace("\n", " ")
            refused = f"map, rules or players: the {self.title} rules refuse them: {text}"
            return [text if _KEYED.match(text) else refused]
        return []

    def creation_warnings(self, settings: Settings) -> list[str]:
        """What `pbem new` tells the GM of the campaign it wrote, one line each, without refusing it:
        a rule the rule book's default makes unplayable for so few players, with the key to change
        in campaign.toml before the first tick (e.g. Star Wars Miniatures' capitals to win)."""
        return []

    def ready_maps(self) -> list[str]:
        """The ready-made maps `--map` names (a path to a .toml map file is accepted as well);
        by default every map in rules/maps/, which the rule system's own loader then checks."""
        return ready_made()

    def position(self, settings: Settings, data: Mapping[str, Any], source: str) -> dict[str, Any]:
        """The stored game of a campaign started from a position written by hand (the rule system's
        documented position format, read from TOML): raise `PositionError` naming every problem."""
        raise PositionError(source, [f"{self.title} cannot start from a position yet"])

    def export_position(self, view: View[S, M]) -> dict[str, Any]:
        """The campaign's state in the rule system's documented position format (`pbem
        export-position`): `position` reads it back into the same game. Raise PositionError when
        the state is at a stage the format cannot hold, saying which stages it can."""
        raise PositionError("export", [f"{self.title} cannot write a position yet"])

    def position_opening(self, settings: Settings, game: Mapping[str, Any], dice: Dice) -> dict[str, Any]:
        """The stored game of a position as its stage opens, with what the position left to the dice
        rolled (a round's order of play that opens here): every die through `dice`, which the engine
        logs with the position's turn (`pbem verify-dice`). By default nothing is left to roll."""
        return dict(game)

    def load_state(self, game: Mapping[str, Any]) -> S:
        """The typed state of a stored game (a fresh object: changing it changes nothing stored)."""
        raise NotImplementedError

    def dump_state(self, state: S) -> dict[str, Any]:
        """The stored form of a typed state: `load_state(dump_state(s))` equals `s`."""
        raise NotImplementedError

    def phase_of(self, state: S) -> str:
        raise NotImplementedError

    def turn_of(self, state: S) -> int:
        raise NotImplementedError

    def stage_title(self, view: View[S, M], phase: Phase[S, M]) -> str:
        return f"Turn {self.turn_of(view.state)}: {phase.title}"

    def load_map(self, settings: Settings) -> M:
        raise NotImplementedError

    def load_rules(self, settings: Settings) -> RuleBook:
        raise NotImplementedError

    # -- the phase dispatch ------------------------------------------------------------------
    def view(self, ctx: Context) -> View[S, M]:
        """The game as every hook reads it; each call loads a fresh state, so `resolve` may change its own."""
        return View(ctx.settings, self.load_state(ctx.game), self.load_map(ctx.settings),
                    self.load_rules(ctx.settings), ctx.now, ctx.deadline, ctx.decisions)

    def reading(self, ctx: Context) -> View[S, M]:
        """The view of `ctx` that the hooks which only read share, loaded once per context;
        `resolve` and GM verbs, which change the state, take a fresh one from `view`."""
        kept: View[S, M] | None = ctx.views.get(self)
        if kept is None:
            kept = ctx.views[self] = self.view(ctx)
        return kept

    def current(self, view: View[S, M]) -> Phase[S, M]:
        return self.phases[self.phase_of(view.state)]

    def stage(self, ctx: Context) -> Stage:
        view = self.reading(ctx)
        name = self.phase_of(view.state)
        phase = self.phases[name]
        return Stage(name, self.stage_title(view, phase), self.turn_of(view.state), tuple(phase.owing(view)),
                     phase.window, waiting_for_gm=phase.waiting_for_gm(view), ready=phase.ready(view),
                     over=phase.over, owing_any=tuple(phase.owing_any(view)), wakes=phase.wakes(view),
                     deadline=phase.deadline(view))

    def parse(self, ctx: Context, player: Player, lines: Sequence[tuple[int, str]]) -> Parsed:
        """The window's reading of `lines`; lines of prose it rejected (pbem.kit.prose) are skipped and
        the rest read again, so a greeting never spoils a sheet or a list."""
        view = self.reading(ctx)
        phase = self.current(view)
        parsed: Parsed = phase.parse(view, player, lines)
        vocabulary = Vocabulary.of_map(phase.words(view), self.own_ids(view, player), view.map)
        if prose := prose_lines(lines, parsed.problems, vocabulary):
            kept = [line for line in lines if line not in prose]
            parsed = phase.parse(view, player, kept) if kept else Parsed(payload={})
            parsed.prose = prose
        return parsed

    def own_ids(self, view: View[S, M], player: Player) -> Sequence[str]:
        return ()       # the ids a player's order lines name besides places (tokens, armies, list entries)

    per_entry: frozenset[str] = frozenset()
    """Payload tables that a new submission updates entry by entry instead of replacing: a player
    who reports one battle per mail keeps every report (battle results, battle set-ups...)."""

    def combine(self, ctx: Context, previous: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
        if self.phases:
            view = self.reading(ctx)
            phase = self.current(view)
            if phase.combine is not None:
                return phase.combine(view, previous, new)
        return self.combine_payloads(previous, new)

    def combine_payloads(self, previous: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
        """A new submission replaces the earlier one as a whole, but for the `per_entry` tables."""
        merged = dict(new)
        for key in self.per_entry & previous.keys():
            merged[key] = {**previous[key], **new.get(key, {})}
        return merged

    def canonical(self, ctx: Context, player: Player, payload: Mapping[str, Any]) -> list[str]:
        """The orders on file as canonical lines: what receipts hash and acks quote."""
        if self.phases:
            view = self.reading(ctx)
            phase = self.current(view)
            if phase.canonical is not None:
                return phase.canonical(view, player, payload)
            return self.canonical_lines(view, player, payload)
        return [str(v) for v in payload.values()]

    def canonical_lines(self, view: View[S, M], player: Player, payload: Mapping[str, Any]) -> list[str]:
        return [str(v) for v in payload.values()]

    def missing(self, ctx: Context, player: Player, payload: Mapping[str, Any]) -> list[str]:
        """What this player still has no order for (units, battles...)."""
        if not self.phases:
            return []
        view = self.reading(ctx)
        return self.current(view).missing(view, player, payload)

    def gm_pending(self, ctx: Context) -> list[str]:
        """What waits for the game master (approvals, rulings), each with the command that settles it:
        shown by `pbem status` whenever it is there, not only when a stage stops on it."""
        return []

    def resolve(self, ctx: Context, submissions: Mapping[str, Mapping[str, Any]], dice: Dice) -> Resolution:
        view = self.view(ctx)
        outcome = self.current(view).resolve(view, submissions, dice)
        return self.resolution(ctx, outcome)

    state_keys: frozenset[str] = frozenset()
    """The keys of the stored game the typed state owns: one `dump_state` leaves out is dropped when
    a new state is stored. Other keys (`ENDED`, ...) are always kept."""

    def store(self, game: Mapping[str, Any], state: S) -> dict[str, Any]:
        """The stored game with a new state written in."""
        kept = {k: v for k, v in game.items() if k not in self.state_keys}
        return {**kept, **self.dump_state(state)}

    def resolution(self, ctx: Context, outcome: Outcome[S]) -> Resolution:
        """The engine's record of an outcome: the stored game with the new state written in."""
        game = self.store(ctx.game, outcome.state)
        return Resolution(game, list(outcome.reports), turn_finished=outcome.turn_finished,
                          turn_opened=outcome.turn_opened, gm_alerts=list(outcome.gm_alerts))

    def status(self, ctx: Context, player: Player) -> dict[str, Any]:
        """Extra context for STATUS replies and private summaries."""
        return {}

    def help_text(self, ctx: Context, player: Player) -> str:
        if not self.phases:
            return ""
        view = self.reading(ctx)
        return self.current(view).help(view, player)

    def welcome(self, ctx: Context, player: Player) -> dict[str, Any]:
        """What a player's welcome mail shows of his start: `first_step`, one paragraph saying
        what to send in the first stage (and any limit on it), and `places`, his starting places
        as (place, [neighbouring places]) pairs of display names, and `first_title`, the stage the
        first step is for when it is not the stage open now (an automatic one); any may be left out."""
        return {}

    gm_verbs: Sequence[GMVerb[S, M]] = ()
    """GM verbs of the whole rule system, whatever the phase (a phase adds its own)."""

    def verbs(self, ctx: Context) -> dict[str, GMVerb[S, M]]:
        """The GM verbs open now, by name: the system's and the current phase's."""
        found = {v.name: v for v in self.gm_verbs}
        if self.phases:
            found.update({v.name: v for v in self.current(self.reading(ctx)).gm_verbs})
        return found

    def gm_command(self, ctx: Context, words: Sequence[str]) -> tuple[dict[str, Any], str]:
        """A GM command for this rule system (e.g. RESULT): returns the new game and a reply line."""
        verbs = self.verbs(ctx)
        verb = verbs.get(words[0].upper()) if words else None
        if verb is None:
            known = ", ".join(sorted(verbs)) or "none"
            raise ValueError(f"unknown GM command {' '.join(words)!r}; this stage's rule-system commands: {known}")
        view = self.view(ctx)
        reply = verb.run(view, list(words[1:]))
        return self.store(ctx.game, view.state), reply

    def scene(self, view: View[S, M]) -> Scene | None:
        """What the map picture of this stage shows (owners, pieces, moves, clashes); None draws
        no picture. Rule systems build it from their typed state (`<system>/picture.py`)."""
        return None

    def private_scene(self, view: View[S, M], player: Player) -> Scene | None:
        """What `player`'s own picture shows where the rules hide something from him (hidden
        armies, fog of war): his private reports carry it. None (the default) means he sees the
        picture everyone sees; the shipped rule systems hide nothing on the map."""
        return None

    def standings(self, ctx: Context) -> list[str]:
        """The standings as the rule system can tell them, leader first, one line each (the final
        report shows them); none by default."""
        return []

    def end(self, ctx: Context, reason: str) -> Resolution:
        """The GM ends the campaign (`FINISH` by mail, `pbem end` on the command line; a bare `END`
        line is the envelope's end of orders): the game as it stands, marked over, and a final public
        report to every player and the GM. Override to end in the rules' own terms."""
        stage = self.stage(ctx)
        if stage.over:
            raise ValueError("the campaign is already over")
        game = {**ctx.game, ENDED: {"turn": stage.turn, "reason": reason}}
        context = {"reason": reason, "standings": self.standings(ctx), "ended_in": stage}
        report = Report("final_report", f"Final report: {ctx.settings.title} is over", ("*",), context,
                        public=True, key="final")
        return Resolution(game, [report])


Ruleset.stage = honour_end(Ruleset.stage)      # type: ignore[method-assign, assignment]  # phased systems honour FINISH too

AnyRuleset = Ruleset[Any, Any]        # a rule system whatever its state and map: what the engine holds
