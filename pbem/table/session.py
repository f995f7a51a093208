"""A sitting at the table: the open strategic round played player by player, each round stored
(the state, the dice log, the map picture) as soon as it is played, then the round closed by
the same resolution the tick runs.

Nothing is held while the table types: each write takes the campaign lock, reads the campaign
again and checks that the round is still the one the sitting began with, so mail read by the
tick meanwhile is kept and a round resolved elsewhere stops the sitting with one line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pbem.errors import UserError
from pbem.kit.dice import Roll, TypedRoll, log_entry
from pbem.kit.texts import named_lines
from pbem.kit.typed_dice import PromptedDice, TypedDiceError
from pbem.rulesets import registry
from pbem.rulesets.base import AnyRuleset
from pbem.rulesets.wandering_tribes import table as wt
from pbem.stages import turns
from pbem.stages.record import StageRecord
from pbem.state.campaign import Campaign
from pbem.state.schedule import iso
from pbem.state.store import campaign_lock, write_toml
from pbem.table.board import Board
from pbem.table.dice import TABLE_SALT, TableDice
from pbem.table.loaded import Loaded
from pbem.table.orders import Console, take_orders
from pbem.table.record import Pending, Played, TableRecord
from pbem.table.shown import draw, round_header
from pbem.tick.log import TickLog
from pbem.tick.resolve import resolve_stage


class Interrupted(Exception):
    """The table stopped (end of input, Ctrl-C): the line says what is kept and how to go on."""


@dataclass
class Sitting:
    folder: Path
    console: Console
    board: Board = field(default_factory=Board)
    typed_by: str = ""                      # dice typed by this person; "" rolls the turn's committed dice
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    generation: int = 0
    names: dict[str, str] = field(default_factory=dict)   # player id -> the name the table shows

    def tell(self, text: str, board: bool = True) -> None:
        """Say it on the screen (and the projector): players by name, as the reports name them."""
        text = "\n".join(named_lines(self.names, text.split("\n")))
        self.console.tell(text)
        if board:
            self.board.show(lines=text.splitlines())

    def status(self, player: str, what: str) -> None:
        self.board.show(status=f"{self.names.get(player, player)}'s {what}")

    def load(self) -> Loaded:
        """Read the campaign (under the lock) and refuse what the table cannot play."""
        camp = Campaign(self.folder)
        ruleset = registry.get(camp.settings.ruleset)
        refuse(camp, ruleset)
        ctx = turns.context(camp, self.clock())
        stage, view = ruleset.stage(ctx), ruleset.view(ctx)
        why = wt.refusal(view)
        if why:
            raise UserError(f"{camp.name} cannot be played at the table: {why}")
        if self.generation and turns.stage_generation(camp) != self.generation:
            raise UserError(f"{camp.name}: the round was resolved or rolled back while the table played; "
                            f"run `pbem table {camp.name}` again for the round now open")
        return Loaded(camp, ruleset, view, stage, ctx)

    # -- the round ---------------------------------------------------------------------------------
    def run(self) -> str:
        """Play the open round to its end; the last line for the GM."""
        opened = self.open()
        sequence = wt.sequence(opened.view)
        for place, player in enumerate(sequence, 1):
            if player in wt.waiting(opened.view.state):
                self.turn(player, place, len(sequence))
        return self.finish()

    def open(self) -> Loaded:
        with campaign_lock(self.folder):
            got = self.load()
            self.generation = turns.stage_generation(got.camp)
            self.names = got.camp.settings.names()
            record = TableRecord.read(got.camp.state)
            if not record.begun:
                turns.turn_secret(got.camp, got.stage.turn)        # drawn now if the turn has none yet
                record.salt = turns.stage_salt(got.camp, got.stage) + TABLE_SALT
                record.started = iso(self.clock())
                record.write(got.camp.state)
                got.camp.save()
        self.board.show(title=f"{got.camp.settings.title or got.camp.name}: {got.stage.title}", svg=draw(got, "start"),
                        status="the round begins")
        self.tell("\n".join(round_header(got, self.typed_by)))
        return got

    def turn(self, player: str, place: int, count: int) -> None:
        """One player's round: his order (kept pending once confirmed), the dice, and the store."""
        with campaign_lock(self.folder):
            got = self.load()
        record = TableRecord.read(got.camp.state)
        self.tell(f"\n== {player}'s round ({place} of {count}) ==")
        self.status(player, "round")
        if record.pending.player == player:
            lines, source = record.pending.lines, record.pending.source
            self.tell(f"{player}'s order was confirmed before the table stopped ({source}); the round is played "
                      "with it")
        elif why := wt.sits_out(got.view, player):
            lines, source = [], why
            self.tell(f"{player} is {why}: no order is asked for")
        else:
            lines, source = self.ask_orders(got, player)
        self.keep_pending(player, lines, source)
        self.play(player, lines, source, place)

    def ask_orders(self, got: Loaded, player: str) -> tuple[list[str], str]:
        try:
            return take_orders(got, player, self.console)
        except (EOFError, KeyboardInterrupt):
            who = self.names.get(player, player)
            raise Interrupted(f"the table stopped while {who}'s order was typed; nothing of that round is kept: "
                              f"`pbem table {got.camp.name}` goes on with {who}'s round") from None

    def keep_pending(self, player: str, lines: list[str], source: str, rolls: list[Roll] | None = None) -> None:
        """Store his confirmed order (and the dice typed for it) before his round is rolled."""
        with campaign_lock(self.folder):
            got = self.load()
            record = TableRecord.read(got.camp.state)
            typed = [log_entry(r) for r in rolls or [] if isinstance(r, TypedRoll)]
            kept = record.pending.rolls if record.pending.player == player and rolls is None else typed
            record.pending = Pending(player, list(lines), source, kept)
            record.write(got.camp.state)
            got.camp.save()

    def dice(self, record: TableRecord, got: Loaded, again: list[Roll],
             shown: Callable[[Roll], None]) -> TableDice:
        typed = PromptedDice(self.console.ask, self.console.tell, self.typed_by) if self.typed_by else None
        secret = turns.turn_secret(got.camp, got.stage.turn)
        return TableDice(secret, record.salt, record.logged(), typed, again, shown)

    def play(self, player: str, lines: list[str], source: str, place: int) -> None:
        with campaign_lock(self.folder):
            got = self.load()
        record = TableRecord.read(got.camp.state)
        first = len(record.rolls)
        dice: TableDice

        def shown(roll: Roll) -> None:
            self.tell(f"  roll: {roll}")
            if isinstance(roll, TypedRoll):     # kept at once: an interrupted round types none twice
                self.keep_pending(player, lines, source, dice.log[first:])

        dice = self.dice(record, got, record.pending_rolls(), shown)
        try:
            done = wt.play_player(got.view, player, {"lines": lines}, dice)
        except (TypedDiceError, EOFError, KeyboardInterrupt):
            raise Interrupted(f"the table stopped during {self.names.get(player, player)}'s round; the order and the "
                              "dice typed so far are "
                              f"kept: `pbem table {got.camp.name}` plays that round with them") from None
        self.tell("\n".join(done.log))
        self.store(player, got, dice, Played(lines, source), place)

    def store(self, player: str, played: Loaded, dice: TableDice, order: Played, place: int) -> None:
        """The state and the dice log as the round stands now, then the map picture."""
        with campaign_lock(self.folder):
            got = self.load()
            if player not in wt.waiting(got.view.state):
                raise UserError(f"{got.camp.name}: {player}'s round was played elsewhere meanwhile; "
                                f"run `pbem table {got.camp.name}` again")
            got.camp.state["game"] = got.ruleset.store(got.camp.state["game"], played.view.state)
            record = TableRecord.read(got.camp.state)
            record.rolls = [log_entry(r) for r in dice.log]
            record.played[player] = order
            record.pending = Pending()
            record.write(got.camp.state)
            got.camp.save()
            turns.log_dice(got.camp, got.stage.turn, got.stage.kind, dice)
            got = self.load()
        svg = draw(got, f"{got.stage.kind}-{place}-{player}")
        self.board.show(svg=svg)
        self.status(player, "round is played")
        self.tell(f"{player}'s round is stored" + (f"; the map: {picture_path(got, place, player)}.svg" if svg else ""))

    def finish(self) -> str:
        """Every player has played: the round closed as the tick closes it (the battle trigger, the
        next round's order roll or the battles), its report queued for the next tick."""
        with campaign_lock(self.folder):
            got = self.load()
            record = TableRecord.read(got.camp.state)
            self.tell("\n== the round closes ==")
            dice = self.dice(record, got, [], lambda roll: self.tell(f"  roll: {roll}"))
            keep_orders(got, record)
            try:
                resolve_stage(got.camp, got.ruleset, got.stage, self.clock(), TickLog(), dice)
            except (TypedDiceError, EOFError, KeyboardInterrupt):
                raise Interrupted(f"the table stopped as the round closed; every player's round is kept: "
                                  f"`pbem table {got.camp.name}` closes it") from None
            if turns.stage_generation(got.camp) == self.generation:
                asked = StageRecord.read(got.camp.state).question
                raise UserError(f"the round waits for your decision ({asked.text}); answer with "
                                f"`pbem gm {got.camp.name} DECIDE {asked.key} <choice>`")
            opened = StageRecord.read(got.camp.state)
        return self.closed(got, opened)

    def closed(self, got: Loaded, opened: StageRecord) -> str:
        camp = got.camp
        svg = draw(got, got.stage.kind)
        self.board.show(svg=svg, status=f"{got.stage.title} is resolved; next: {opened.title}")
        return (f"{got.stage.title} is resolved at the table; the campaign now waits for {opened.title}. "
                f"Run `pbem tick` to send the report; `pbem verify-dice {camp.name} {got.stage.turn}` checks the dice")


def picture_path(got: Loaded, place: int, player: str) -> Path:
    return got.camp.folder / "pictures" / f"{got.camp.name}-turn-{got.stage.turn:03d}-{got.stage.kind}-{place}-{player}"


def keep_orders(got: Loaded, record: TableRecord) -> None:
    """The orders each round was played with, beside the turn's other records."""
    played = {p: {"lines": o.lines, "source": o.source} for p, o in record.played.items()}
    write_toml(got.camp.history(got.stage.turn) / "table.toml", {"salt": record.salt, "started": record.started,
                                                                 "played": played},
               header="# The strategic round played at the table (`pbem table`): each player's order.")


def refuse(camp: Campaign, ruleset: AnyRuleset) -> None:
    """The engine's reasons not to play now: another rule system, no stage, paused, a question."""
    name = camp.name
    if ruleset.name != "wandering_tribes":
        raise UserError(f"{name} plays {ruleset.title}; `pbem table` plays Wandering Tribes rounds only "
                        "(the other rule systems are played by mail: `pbem tick`)")
    record = StageRecord.read(camp.state)
    if not record.started:
        raise UserError(f"{name} has no window open yet: run `pbem tick` first")
    if record.paused:
        raise UserError(f"{name} is paused: resume it with `pbem gm {name} RESUME`, then run `pbem table {name}`")
    if record.waiting:
        raise UserError(f"{name} waits for your answer to {record.question.key!r}: answer with "
                        f"`pbem gm {name} DECIDE {record.question.key} <choice>` first")
