"""Deadlines as calendar events (iCalendar, RFC 5545), so a player's calendar knows them.

The mail that opens a stage carries its deadline as `deadline.ics` to each player who owes
orders in it; the same events are kept in the campaign's feed, `history/<campaign>.ics`, for
players who subscribe. Each opening of a stage has one UID, stable while it is open
(`pbem extend` keeps the stage's generation), and a SEQUENCE the extension raises: calendars
update the event instead of adding a second one. In a battle window (a stage owed by some
players only) each of its players gets an event of his own, with his own UID, so his calendar
holds his battle and not another's.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from icalendar import Calendar, Component, Event

from pbem.rulesets.base import Stage
from pbem.state.campaign import Campaign, Player
from pbem.state.store import write_atomic

ICS = ("deadline.ics", "text/calendar")
LEAD = timedelta(minutes=30)
"""The event ends at the deadline and starts this much earlier: a moment to send orders in."""


def sequence(state: MutableMapping[str, Any], generation: int) -> int:
    """How often the deadline of the stage opening `generation` has moved."""
    kept = state.get("calendar", {})
    return int(kept.get("sequence", 0)) if kept.get("generation") == generation else 0


def moved(state: MutableMapping[str, Any], generation: int) -> int:
    """The deadline of the open stage moved: its events' SEQUENCE goes up by one."""
    raised = sequence(state, generation) + 1
    state["calendar"] = {"generation": generation, "sequence": raised}
    return raised


def uid(camp: Campaign, turn: int, kind: str, generation: int, player: str = "") -> str:
    """The event's UID: the campaign, the stage's opening and, in a battle window, the player."""
    mine = f".{player}" if player else ""
    return f"{camp.name}.turn-{turn}.g{generation}.{kind}{mine}@{camp.settings.domain}"


def own_events(stage: Stage, players: tuple[Player, ...]) -> bool:
    """A battle window (a stage kind naming a battle, or a stage owed by some players only, as
    Conquest's setup and results windows are): each of its players gets his own event."""
    return bool(stage.owing) and ("battle" in stage.kind or set(stage.owing) != {p.id for p in players})


def event(camp: Campaign, stage: Stage, generation: int, deadline: datetime, now: datetime,
          player: Player) -> Event:
    """The deadline of `stage` as `player`'s event."""
    settings = camp.settings
    own = own_events(stage, settings.players)
    ev = Event()
    ev.add("uid", uid(camp, stage.turn, stage.kind, generation, player.id if own else ""))
    ev.add("dtstamp", now)
    ev.add("dtstart", deadline - LEAD)
    ev.add("dtend", deadline)
    ev.add("sequence", sequence(camp.state, generation))
    what = "your battle: due" if "battle" in stage.kind else "your orders due" if own else "orders due"
    ev.add("summary", f"[{camp.name}] {stage.title}: {what}")
    ev.add("description", f"Deadline of {stage.title} in {settings.title}. Send your orders to "
                          f"{settings.address} before {settings.schedule.show(deadline)}. "
                          "pbem updates this event when the deadline moves.")
    ev.add("transp", "TRANSPARENT")
    return ev


def calendar(*events: Component) -> Calendar:
    cal = Calendar()
    cal.add("prodid", "-//pbem//deadlines//EN")
    cal.add("version", "2.0")
    cal.add("method", "PUBLISH")
    for ev in events:
        cal.add_component(ev)
    return cal


def attachment(camp: Campaign, stage: Stage, generation: int, deadline: datetime | None, now: datetime,
               player: Player | None) -> tuple[tuple[str, str, bytes], ...]:
    """`deadline.ics` for `player`'s mail opening `stage`, or none when he owes nothing in it."""
    if deadline is None or player is None or player.id not in stage.owing or stage.over:
        return ()
    return ((ICS[0], ICS[1], calendar(event(camp, stage, generation, deadline, now, player)).to_ical()),)


def feed_path(camp: Campaign) -> Path:
    """`history/<campaign>.ics`, beside the turns' reports."""
    return camp.folder / "history" / f"{camp.name}.ics"


def write_feed(camp: Campaign, stage: Stage, generation: int, deadline: datetime | None, now: datetime) -> None:
    """The campaign's feed with this stage's events added, or replaced where their UID is known."""
    if deadline is None or stage.over or not stage.owing:
        return
    players = [p for p in camp.settings.players if p.id in stage.owing]
    if not own_events(stage, camp.settings.players):
        players = players[:1]
    fresh = [event(camp, stage, generation, deadline, now, p) for p in players]
    uids = {str(ev["uid"]) for ev in fresh}
    path = feed_path(camp)
    kept = [c for c in Calendar.from_ical(path.read_bytes()).walk("VEVENT") if str(c["uid"]) not in uids] \
        if path.exists() else []
    write_atomic(path, calendar(*kept, *fresh).to_ical())
