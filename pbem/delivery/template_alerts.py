"""Telling the game master about broken template overrides, once per problem.

A broken override never stops a mail (pbem.kit.texts falls back to the built-in template), so
without a word the GM would never learn that his `templates/` is not used. Each problem goes
to him in a GM alert keyed by the problem's text: the alert's Message-ID follows from the
key, and the outbox queues and sends one Message-ID once, so asking every tick tells him once
per distinct problem, and again only when the problem changes (another file, another line).
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from pbem.kit.texts import template_problems
from pbem.rulesets.base import AnyRuleset
from pbem.state.campaign import Campaign


def alert_template_problems(camp: Campaign, ruleset: AnyRuleset, now: datetime) -> list[str]:
    """Queue a GM alert for each problem of the campaign's template overrides not told before;
    returns the problems. The tick calls it once per campaign, before delivering mail."""
    from pbem.delivery.mails import alert_gm
    from pbem.delivery.replies import Outcome

    problems = template_problems(ruleset.templates, camp.folder)
    for problem in problems:
        digest = hashlib.sha256(problem.encode()).hexdigest()[:16]
        alert_gm(camp, ruleset, Outcome(gm_alerts=[f"{camp.folder.name}/{problem}."]), now, key=f"templates/{digest}")
    return problems
