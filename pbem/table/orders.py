"""A player's order at the table: the one he mailed, confirmed by the table, or lines typed now in
the mail's syntax, read by the window's own parse and acknowledged as a mail is (what was
understood, each refused line with its reason and suggestion, what is still missing)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.kit.orders import MAX_ORDER_LINES, significant_lines
from pbem.kit.prose import prose_note
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.wandering_tribes import table as wt

if TYPE_CHECKING:
    from pbem.table.loaded import Loaded

TYPED = "typed at the table"
MAILED = "mailed"
HELP = "HELP"


@dataclass(frozen=True)
class Console:
    """The terminal: `ask` shows a prompt and returns the line typed (EOFError at the end of input,
    KeyboardInterrupt on Ctrl-C); `tell` shows text."""

    ask: Callable[[str], str]
    tell: Callable[[str], None]


def take_orders(got: Loaded, player_id: str, console: Console) -> tuple[list[str], str]:
    """His order for this round as canonical lines, and where it came from."""
    player = got.camp.settings.player(player_id)
    if player is None:
        raise ValueError(f"no player {player_id!r} in campaign.toml")
    mailed = got.camp.state.get("submissions", {}).get(player_id, {}).get("payload", {})
    if mailed.get("lines") and use_mailed(got, player, mailed, console):
        return wt.order_lines(mailed), MAILED
    while True:
        parsed = got.ruleset.parse(got.ctx, player, typed_lines(got, player, console))
        console.tell("\n".join(ack(got, player, parsed)))
        answer = console.ask(f"Play {player.name or player_id}'s round with this order? [y]es / [n]o, type it again: ")
        if answer.strip().lower() in ("", "y", "yes"):
            return wt.order_lines(parsed.payload), TYPED


def use_mailed(got: Loaded, player: Player, mailed: dict[str, object], console: Console) -> bool:
    """Show the order he mailed (and the lines that no longer hold now) and ask the table."""
    console.tell(f"{player.name or player.id} mailed an order for this round:")
    console.tell("\n".join(f"  {line}" for line in wt.order_lines(mailed)))
    dropped = wt.dropped(got.view, player.id, mailed)
    if dropped:
        console.tell("Lines that no longer hold now, dropped if it is used:\n" + "\n".join(f"  {d}" for d in dropped))
    while True:
        answer = console.ask("[u]se the mailed order, or [t]ype one at the table? ").strip().lower()
        if answer in ("", "u", "use", "y", "yes"):
            return True
        if answer in ("t", "type", "n", "no"):
            return False
        console.tell("type u to use the mailed order, t to type one now")


def typed_lines(got: Loaded, player: Player, console: Console) -> list[tuple[int, str]]:
    """Order lines up to an empty line, numbered as in a mail; HELP shows the syntax with his ids."""
    console.tell(f"Type {player.name or player.id}'s order, one line each as in a mail; an empty line ends it "
                 "(HELP shows the syntax and the player's stacks):")
    text: list[str] = []
    while len(text) < MAX_ORDER_LINES:
        line = console.ask(f"{player.name or player.id}> ")
        if not line.strip():
            break
        if line.strip().upper() == HELP:
            console.tell(got.ruleset.help_text(got.ctx, player))
            continue
        text.append(line)
    return significant_lines("\n".join(text))


def ack(got: Loaded, player: Player, parsed: Parsed) -> list[str]:
    """The mail's acknowledgement, as lines for the screen."""
    lines: list[str] = []
    if parsed.accepted:
        lines += ["Understood:", *(f"  line {no}: {text}" for no, text in parsed.accepted)]
    problems = sorted(parsed.problems, key=lambda p: p.line_no)
    if problems:
        lines.append("Not accepted:")
        lines += [f"  line {p.line_no} ({p.kind}): {quote(p.line)}{p.reason}"
                  + (f"; did you mean {p.suggestion}?" if p.suggestion else "") for p in problems]
    if parsed.prose:
        lines.append(prose_note(parsed.prose))
    lines += [*parsed.notes]
    order = got.ruleset.canonical(got.ctx, player, parsed.payload) if parsed.payload else []
    lines += ["Order for this round:", *(f"  {line}" for line in order)] if order else \
        ["No order: the round is played as for a player who sent none"]
    lines += [f"Still missing: {m}" for m in got.ruleset.missing(got.ctx, player, parsed.payload)]
    return lines


def quote(line: str) -> str:
    return f"\u201c{' '.join(line.split())}\u201d: " if line else ""

