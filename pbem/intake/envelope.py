"""The order envelope: which campaign, who signs, and the engine's own commands.

    Subject: [rift-demo] orders turn 3        <- campaign tag
    CAMPAIGN rift-demo                         <- or a CAMPAIGN line, above the orders
    PLAYER red K7QD-M2XP-4TRA-9B2C-WZ5E        <- player id, faction or name, then the secret
    R-1 M T5                                   <- everything else goes to the rule system
    END                                        <- optional, alone on its line; nothing after it is read

Engine commands, on a line of their own: HELP, STATUS, CLEAR (withdraw the
orders on file), READY (the stage may close early with the orders on file), WAIT (not before
the deadline, until READY or CLEAR), PASSWORD <new secret>, and between deadlines ABSENT,
STANDING (alone on its line) and MAIL (pbem/intake/between.py); `PRESS TO ...` opens a block of
press up to `END PRESS`, never read as orders (pbem/intake/press.py). The game master signs with
`GM <secret>` instead of PLAYER. Envelope lines carry secrets and are never
quoted back.

A CAMPAIGN line is envelope only above the first order line, as the first word of its line
followed by one name and nothing else: "Campaign going well so far" is table talk, read (and
refused) with the orders. Which campaign a mail is for is decided by `campaign_named`, which
also wants the name to be one of a known set: a correct subject tag always wins, so no line
in the body can send a mail elsewhere.

No line longer than MAX_LINE_CHARS is read, and at most MAX_ORDER_LINES lines go to the
rule system: the rest become `problems`, so every parser's work stays linear and small.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

from pbem.kit.orders import MAX_ORDER_LINES, InvalidOrder, OrderProblem, significant_lines, too_long

TAG_RE = re.compile(r"\[([a-z0-9][a-z0-9_-]{0,47})\]", re.IGNORECASE)
NAME_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,47}", re.IGNORECASE)
ENGINE_COMMANDS = ("HELP", "STATUS", "CLEAR", "READY", "WAIT", "PASSWORD", "ABSENT", "STANDING", "MAIL")


@dataclass(frozen=True)
class PressBlock:
    """`PRESS TO France Germany` (or `PRESS TO ALL`, `PRESS GREY TO ...`), its text as written, up
    to a line `END PRESS` (pbem/intake/press.py); `closed` is False when no END PRESS came."""

    line_no: int
    header: str
    text: str
    closed: bool = True


@dataclass
class Envelope:
    campaign: str = ""         # the subject tag, else the CAMPAIGN line (any name; see campaign_named)
    tag: str = ""              # the first [tag] of the subject
    tags: tuple[str, ...] = ()  # every [tag] of the subject ("[EXTERNAL] [rift] orders")
    campaign_line: str = ""    # the name on a CAMPAIGN line of the envelope
    player: str = ""
    secret: str = ""
    gm: bool = False
    commands: list[tuple[int, str]] = field(default_factory=list)   # engine commands (PASSWORD's argument kept)
    lines: list[tuple[int, str]] = field(default_factory=list)      # lines for the rule system
    problems: list[OrderProblem] = field(default_factory=list)      # lines not read: too long, too many
    press: list[PressBlock] = field(default_factory=list)           # press to relay, never read as orders


def campaign_tag(subject: str) -> str:
    match = TAG_RE.search(subject)
    return match.group(1).lower() if match else ""


def read_envelope(subject: str, text: str) -> Envelope:
    tags = tuple(dict.fromkeys(t.lower() for t in TAG_RE.findall(subject)))
    env = Envelope(tag=tags[0] if tags else "", tags=tags)
    press: tuple[int, str] | None = None        # the PRESS line of a block not yet closed
    for no, line in significant_lines(text):
        word, _, rest = line.partition(" ")
        if press is not None:
            if word.upper() == "END" and rest.strip().upper() == "PRESS":
                env.press.append(_press_block(text, *press, no))
                press = None
            continue
        if word.upper() == "PRESS" and rest.strip():
            press = (no, rest.strip())
            continue
        problem = too_long(no, line)
        if problem is not None:
            env.problems.append(problem)
            continue
        keyword = word.upper()
        if keyword == "END" and not rest.strip():    # "END LIST" closes a rule system's block, not the mail
            break
        if keyword == "CAMPAIGN" and not env.lines and (name := _campaign_name(rest)):
            env.campaign_line = env.campaign_line or name
        elif keyword in ("PLAYER", "FACTION") and rest and not (env.secret and len(rest.split()) < 2):
            # a signature like "Player aus" after the signed line is prose, not a second, unsigned PLAYER line
            who, _, secret = rest.strip().partition(" ")
            env.player, env.secret = who, secret.strip()
        elif keyword == "GM":
            env.gm, env.secret = True, rest.strip()
        elif keyword in ENGINE_COMMANDS and not (keyword == "STANDING" and rest.strip()):
            # STANDING alone is the engine's (pbem/stages/absence.py); with a word it is a rule
            # system's order (Conquest's `STANDING team`)
            env.commands.append((no, f"{keyword} {rest.strip()}".strip()))
        else:
            env.lines.append((no, line))
    if press is not None:
        env.press.append(_press_block(text, *press, 0))
    env.campaign = env.tag or env.campaign_line
    _cap_lines(env)
    return env


def _press_block(text: str, first: int, header: str, end: int) -> PressBlock:
    """The lines between the PRESS line and END PRESS as written (blank lines and # kept); `end` 0:
    no END PRESS came, and the block is kept unclosed so that it is refused, not relayed cut short."""
    lines = text.splitlines()
    body = lines[first:end - 1] if end else lines[first:]
    return PressBlock(first, header, "\n".join(body).strip("\n"), closed=bool(end))


def _cap_lines(env: Envelope) -> None:
    """Lines past MAX_ORDER_LINES are left unread, with one problem saying so."""
    if len(env.lines) > MAX_ORDER_LINES:
        first = env.lines[MAX_ORDER_LINES][0]
        env.problems.append(InvalidOrder(f"only the first {MAX_ORDER_LINES} order lines of a message are read; "
                                         f"{len(env.lines) - MAX_ORDER_LINES} from line {first} on were not: "
                                         "send fewer lines", first))
        del env.lines[MAX_ORDER_LINES:]
    del env.problems[MAX_ORDER_LINES:]


def _campaign_name(rest: str) -> str:
    """The name of `CAMPAIGN <name>` (brackets allowed), or "" when the rest is not one name."""
    words = rest.split()
    match = NAME_RE.fullmatch(words[0].strip("[]")) if len(words) == 1 else None
    return match.group().lower() if match else ""


def campaign_named(env: Envelope, known: Collection[str]) -> str:
    """The known campaign a mail names: a tag of its subject, else its CAMPAIGN line; "" if
    none names a campaign in `known`."""
    for name in (*env.tags, env.campaign_line):
        if name and name in known:
            return name
    return ""
