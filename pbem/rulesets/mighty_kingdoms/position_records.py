"""The window under way, exactly as pbem keeps it (docs/positions/mighty_kingdoms.md, "Any
window, as pbem keeps it"): what `pbem export-position` writes under `window` and `[records]` so
that a campaign taken up at setup, in a battle window or at a winter's deployment goes on as it
would have. A position written by hand leaves them out and opens at a summer month's Orders or
a winter's purchases.

Each record is the stored form of one scratch of the state (`MKState.setup`, `month`, `battle`,
`winter`), read back with `pbem.kit.tomlio`; a record of the wrong form is refused with its key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.kit.tomlio import from_data, lean, to_data
from pbem.rulesets.mighty_kingdoms.model import MKState

RECORDS = ("setup", "month", "battle", "winter")


def export(state: MKState) -> dict[str, Any]:
    """Every record away from a fresh campaign's, in its stored form without the values at their default."""
    stored, fresh = to_data(state), to_data(MKState())
    return {name: lean(MKState, {name: stored[name]})[name] for name in RECORDS if stored[name] != fresh[name]}


def read(raw: Any, state: MKState) -> list[str]:
    """Set the records `raw` (the `records` table) on `state`; the problems found, each naming its key."""
    if not isinstance(raw, Mapping):
        return [f"records: must be a table of the window's records, not {raw!r}"]
    problems = [f"records.{name}: unknown record (known: {', '.join(RECORDS)})" for name in raw
                if name not in RECORDS]
    for name in RECORDS:
        if name in raw:
            try:
                setattr(state, name, getattr(from_data(MKState, {name: raw[name]}), name))
                to_data(getattr(state, name))
            except (TypeError, ValueError, KeyError, AttributeError) as exc:
                problems.append(f"records.{name}: not as pbem keeps it ({exc})")
    return problems
