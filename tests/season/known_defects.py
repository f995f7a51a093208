"""Defects the season simulation found outside the rule systems' packages, tolerated by name.

The simulation steps around a defect ONLY while its key is listed here, and only where the code
names the key; `tests/season/test_defects.py` shows each one (a strict xfail), so fixing one makes
that test pass unexpectedly and fail the suite: then delete the entry here.
"""

from __future__ import annotations

KNOWN_DEFECTS: dict[str, str] = {}


def known(key: str) -> bool:
    return key in KNOWN_DEFECTS

