"""Defects the season simulation found outside the rule systems' packages, tolerated by name.

The simulation steps around a defect ONLY while its key is listed here, and only where the code
names the key; `tests/season/test_defects.py` shows each one (a strict xfail), so fixing one makes
that test pass unexpectedly and fail the suite: then delete the entry here.
"""

from __future__ import annotations

KNOWN_DEFECTS: dict[str, str] = {
    "rollback-keeps-old-deadline": "`pbem rollback` restores the stage with its old deadline, long past: the next "
                                   "tick resolves the restored turn at once with every player missing, though the "
                                   "command says players must resend their orders",
    "rollback-reports-deduplicated": "after `pbem rollback` the replayed turn's reports get the Message-IDs of the "
                                     "first run; the outbox finds them in outbox/sent and never sends them, so "
                                     "nobody hears how the replayed turn went (its dice secret included)",
    "repeat-stage-mail-deduplicated": "a stage resolved a second time in the same turn (the Daemon Rift lists window "
                                      "re-resolved when a late list comes in) mails its GM alert and reports under "
                                      "the keys of the first resolution (engine: turn-<n>-<kind>); the outbox finds "
                                      "them already sent and drops them: the GM never hears of the late list",
}


def known(key: str) -> bool:
    return key in KNOWN_DEFECTS


def rollback_blocked() -> bool:
    """The season's GM leaves `pbem rollback` alone while a rollback defect is listed."""
    return known("rollback-keeps-old-deadline") or known("rollback-reports-deduplicated")
