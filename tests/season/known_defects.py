"""Defects the season simulation found outside the rule systems' packages, tolerated by name.

The simulation steps around a defect ONLY while its key is listed here, and only where the code
names the key; `tests/season/test_defects.py` shows each one (a strict xfail), so fixing one makes
that test pass unexpectedly and fail the suite: then delete the entry here.
"""

from __future__ import annotations

KNOWN_DEFECTS: dict[str, str] = {
    "gm-typo-raises": "a GM command a rule system's parser refuses (RESULT 7 Red with no battle 7, APPROVE R1X, "
                      "DRAW Turey France, CAPITAL Anan T1) raises InvalidOrder out of the tick: "
                      "Intake.gm_command catches ValueError/IndexError/KeyError but not OrderProblem",
    "reminders-while-paused": "a paused stage still sends its reminders (turns.reminder_due does not look at "
                              "`paused`)",
    "resume-after-deadline-resolves": "RESUME after the deadline passed resolves the stage at the next tick with "
                                      "everyone who had not sent orders missing: the pause did not stop the clock",
    "conquest-no-end": "Campaigns of Conquest has no GM command to end a campaign (and no round cap): a season "
                       "that stalls short of the target size cannot be ended with a final report",
}


def known(key: str) -> bool:
    return key in KNOWN_DEFECTS
