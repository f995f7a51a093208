"""The game master's commands: one registry of verbs for mail and the command line.

The engine's verbs (`pbem.gm.verbs.ENGINE_VERBS`, with `pbem.gm.between`'s) and the rule system's open ones
(`Ruleset.verbs`) are looked up here, run with the campaign restored when they fail, logged
for the turn report, and listed by HELP. A GM's mail (`GM <secret>` and a command a line) and
`pbem gm CAMPAIGN VERB ...` (and its aliases, `pbem extend` ...) both come through `run`.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from pbem.delivery.replies import Outcome, Reply
from pbem.gm.between import BY_NAME, ENGINE_VERBS
from pbem.gm.verbs import Desk
from pbem.intake.answers import answer, masked_subject, reply_mask
from pbem.intake.envelope import Envelope
from pbem.intake.isolation import is_injected, one_line
from pbem.intake.masking import masked
from pbem.kit.orders import OrderProblem
from pbem.mail.message import Submission
from pbem.rulesets.base import AnyRuleset
from pbem.state.campaign import Campaign
from pbem.state.schedule import iso


@dataclass(frozen=True)
class VerbHelp:
    """One line of GM help: how to write the verb and what it does."""

    name: str
    usage: str
    help: str


def open_verbs(desk: Desk) -> list[VerbHelp]:
    """The verbs the GM can use now: the engine's, then the rule system's for this stage."""
    found = [VerbHelp(v.name, v.usage, v.help) for v in ENGINE_VERBS if v.open(desk)]
    found += [VerbHelp(v.name, v.usage, v.help) for name, v in desk.ruleset.verbs(desk.context()).items()
              if name not in BY_NAME]
    return found


def help_lines(desk: Desk) -> list[str]:
    """GM help as plain lines (the command line shows these)."""
    verbs = open_verbs(desk)
    width = max(len(v.usage) for v in verbs)
    return [f"{v.usage:<{width}}  {v.help}" for v in verbs]


def run(desk: Desk, words: Sequence[str]) -> str:
    """Run one GM command; returns what happened, or one line "not done: ..." for a command that
    could not be carried out, whatever raised: a typo of the GM's must never cost the rest of the
    mail or a traceback. A command not done leaves the campaign as it was and asks for no mail."""
    camp = desk.camp
    before, mailings = copy.deepcopy((camp.state, camp.auth)), len(desk.mailings)
    try:
        return _run(desk, list(words))
    except Exception as exc:     # even a full disk: nothing was changed, and the GM should hear it
        if is_injected(exc):
            raise
        camp.state, camp.auth = before
        del desk.mailings[mailings:]
        reason = str(exc) if isinstance(exc, (OrderProblem, ValueError, LookupError)) else one_line(exc)
        return f"not done: {' '.join(reason.split()) or type(exc).__name__}"


def _run(desk: Desk, words: list[str]) -> str:
    name = words[0].upper() if words else ""
    verb = BY_NAME.get(name)
    if verb is not None:
        text = verb.run(desk, words[1:])
    else:
        text = _rule_system_verb(desk, name, words)
    if verb is None or verb.logged:
        log = desk.camp.state.setdefault("gm_log", [])
        log.append({"at": iso(desk.now), "turn": desk.record.turn, "text": f"{' '.join(words)}: {text}"})
    return text


def _rule_system_verb(desk: Desk, name: str, words: list[str]) -> str:
    ctx = desk.context()
    if name not in desk.ruleset.verbs(ctx):
        known = ", ".join(v.name for v in open_verbs(desk))
        shown = name or "(none)"
        raise ValueError(f"unknown GM command {shown}{_did_you_mean(desk, name)}; open now: {known} "
                         "(HELP shows how to write each)")
    game, text = desk.ruleset.gm_command(ctx, words)
    desk.camp.state["game"] = game
    return text


def _did_you_mean(desk: Desk, name: str) -> str:
    """The closest verb by spelling (APROVE, EXTNED), among those open now first, then all."""
    opened = [v.name for v in open_verbs(desk)]
    every = opened + [v for v in BY_NAME if v not in opened]
    close = difflib.get_close_matches(name, opened, n=1, cutoff=0.6) or \
        difflib.get_close_matches(name, every, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if name and close else ""


def take_mail(camp: Campaign, ruleset: AnyRuleset, now: datetime, mailings: list[Reply], sub: Submission,
              env: Envelope) -> Outcome:
    """A GM's mail handed on by intake (`pbem.intake.handler.GMMail`)."""
    return mail(Desk(camp, ruleset, now, mailings), sub, env)


def mail(desk: Desk, sub: Submission, env: Envelope) -> Outcome:
    """A GM's mail, already authenticated: each line one command, answered line by line; HELP
    adds the list of the verbs open now (after the mail's commands ran)."""
    lines = [f"{no}: {run(desk, text.split())}" for no, text in env.lines + env.commands]
    lines += [f"{p.line_no}: {p.reason}" for p in env.problems]
    lines += [f"{block.line_no}: not done: PRESS is between players; write to them directly, or put it in "
              "a NOTE for the turn report" for block in env.press]
    asked = any(text.split()[0].upper() == "HELP" for _, text in env.lines + env.commands if text.split())
    verbs = open_verbs(desk) if asked else []
    mask = reply_mask(desk.camp, sub, desk.camp.settings.gm)
    reply = masked_subject(answer(desk.camp, sub, desk.now, "gm_ack",
                                  {"lines": masked(lines, mask), "verbs": verbs}), mask)
    mails, desk.mailings[:] = list(desk.mailings), []
    return Outcome([reply, *mails], note="processed: gm")
