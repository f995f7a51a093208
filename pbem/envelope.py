"""The order envelope: which campaign, who signs, and the engine's own commands.

    Subject: [rift-demo] orders turn 3        <- campaign tag (or a CAMPAIGN line)
    PLAYER red K7QD-M2XP-4TRA-9B2C-WZ5E        <- player id, faction or name, then the secret
    R-1 M T5                                   <- everything else goes to the rule system
    END                                        <- optional; nothing after it is read

Engine commands, on a line of their own: HELP, STATUS, CLEAR (withdraw the
orders on file), PASSWORD <new secret>. The game master signs with
`GM <secret>` instead of PLAYER. Envelope lines carry secrets and are never
quoted back.

No line longer than MAX_LINE_CHARS is read, and at most MAX_ORDER_LINES lines go to the
rule system: the rest become `problems`, so every parser's work stays linear and small.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pbem.orders import MAX_ORDER_LINES, InvalidOrder, OrderProblem, significant_lines, too_long

TAG_RE = re.compile(r"\[([a-z0-9][a-z0-9_-]{0,47})\]", re.IGNORECASE)
ENGINE_COMMANDS = ("HELP", "STATUS", "CLEAR", "PASSWORD")


@dataclass
class Envelope:
    campaign: str = ""
    player: str = ""
    secret: str = ""
    gm: bool = False
    commands: list[tuple[int, str]] = field(default_factory=list)   # engine commands (PASSWORD's argument kept)
    lines: list[tuple[int, str]] = field(default_factory=list)      # lines for the rule system
    problems: list[OrderProblem] = field(default_factory=list)      # lines not read: too long, too many


def campaign_tag(subject: str) -> str:
    match = TAG_RE.search(subject)
    return match.group(1).lower() if match else ""


def read_envelope(subject: str, text: str) -> Envelope:
    env = Envelope(campaign=campaign_tag(subject))
    for no, line in significant_lines(text):
        problem = too_long(no, line)
        if problem is not None:
            env.problems.append(problem)
            continue
        word, _, rest = line.partition(" ")
        keyword = word.upper()
        if keyword == "END":
            break
        if keyword == "CAMPAIGN" and rest:
            env.campaign = rest.split()[0].strip("[]").lower()
        elif keyword in ("PLAYER", "FACTION") and rest:
            who, _, secret = rest.strip().partition(" ")
            env.player, env.secret = who, secret.strip()
        elif keyword == "GM":
            env.gm, env.secret = True, rest.strip()
        elif keyword in ENGINE_COMMANDS:
            env.commands.append((no, f"{keyword} {rest.strip()}".strip()))
        else:
            env.lines.append((no, line))
    _cap_lines(env)
    return env


def _cap_lines(env: Envelope) -> None:
    """Lines past MAX_ORDER_LINES are left unread, with one problem saying so."""
    if len(env.lines) > MAX_ORDER_LINES:
        first = env.lines[MAX_ORDER_LINES][0]
        env.problems.append(InvalidOrder(f"only the first {MAX_ORDER_LINES} order lines of a message are read; "
                                         f"{len(env.lines) - MAX_ORDER_LINES} from line {first} on were not: "
                                         "send fewer lines", first))
        del env.lines[MAX_ORDER_LINES:]
    del env.problems[MAX_ORDER_LINES:]
