"""The campaign's chronicle as it ends: all press, and each player's on-time record.

`[rules.press] chronicle = true` (the default) publishes every press kept in state.toml
(`[[press]]`, pbem/intake/press.py) in the final report and as `history/press.md`; grey press
stays anonymous. The reliability record (pbem/stages/reliability.py) goes to everyone with it.
"""

from __future__ import annotations

from typing import Any

from pbem.kit.texts import md_escape
from pbem.rulesets.base import Report
from pbem.stages.reliability import Record, records
from pbem.state.campaign import Campaign
from pbem.state.store import write_atomic


def quoted(text: str) -> list[str]:
    """A player's text as a Markdown quote, inert: escaped as `md` escapes, and a line opening with
    a heading, quote or list mark escaped too (`md` leaves a value's first character alone)."""
    lines = [md_escape(line) for line in text.splitlines()]
    return ["> " + ("\\" if line[:1] in "#>+-" else "") + line if line.strip() else ">" for line in lines]


def press_entries(camp: Campaign) -> list[dict[str, Any]]:
    """Every press kept, oldest first: who (or "anonymous"), to whom, when, the lines."""
    settings = camp.settings
    names = {p.id: p.faction_name or p.faction or p.name for p in (*settings.players, settings.gm)}
    return [{"sender": names.get(str(entry.get("from", "")), "anonymous") if entry.get("from") else "anonymous",
             "to": ", ".join(names.get(str(p), str(p)) for p in entry.get("to", [])),
             "stage": str(entry.get("stage", "")), "quoted": quoted(str(entry.get("text", "")))}
            for entry in camp.state.get("press", [])]


def chronicle_context(camp: Campaign) -> dict[str, Any]:
    """What the final report adds: `press` (when the campaign publishes it) and `reliability`."""
    published = camp.settings.between.press.chronicle
    return {"press": press_entries(camp) if published else [], "reliability": records(camp)}


def ended_record(camp: Campaign) -> Report:
    """The record a campaign ended by its own rules sends to all beside its last report (a GM's
    FINISH puts it in the final report itself): the on-time table and, when published, the press."""
    write_press(camp)
    return Report("chronicle", "The record of the campaign", ("*",), chronicle_context(camp), public=True,
                  key="chronicle")


def write_press(camp: Campaign) -> None:
    """`history/press.md`: the press of the whole campaign, when the campaign publishes it."""
    entries = press_entries(camp) if camp.settings.between.press.chronicle else []
    if not entries:
        return
    out = [f"# {md_escape(camp.settings.title)}: the press", ""]
    for entry in entries:
        out += [f"**{md_escape(entry['sender'])} to {md_escape(entry['to'])}**, {md_escape(entry['stage'])}:", ""]
        out += [*entry["quoted"], ""]
    write_atomic(camp.folder / "history" / "press.md", "\n".join(out))


def reliability_lines(rows: list[Record]) -> list[str]:
    return [f"{row.name}: {row.shown()}" for row in rows]
