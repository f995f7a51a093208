"""Defects the season simulation found outside the rule systems' packages, tolerated by name.

The simulation steps around a defect ONLY while its key is listed here, and only where the code
names the key; `tests/season/test_defects.py` shows each one (a strict xfail), so fixing one makes
that test pass unexpectedly and fail the suite: then delete the entry here.
"""

from __future__ import annotations

KNOWN_DEFECTS: dict[str, str] = {
    "reminders-while-paused": "a paused stage still sends its reminders (turns.reminder_due does not look at "
                              "`paused`)",
    "resume-after-deadline-resolves": "RESUME after the deadline passed resolves the stage at the next tick with "
                                      "everyone who had not sent orders missing: the pause did not stop the clock",
    "ack-after-end-invites-orders": "a player's mail after the campaign ended is acknowledged with the over "
                                    "stage's deadline and 'You may send new orders until then' "
                                    "(templates/common/ack.md.j2 shows any deadline)",
    "conquest-no-end": "Campaigns of Conquest has no GM command to end a campaign (and no round cap): a season "
                       "that stalls short of the target size cannot be ended with a final report",
}


def known(key: str) -> bool:
    return key in KNOWN_DEFECTS

