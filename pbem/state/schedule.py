"""Deadlines in the campaign's time zone.

`[schedule]` in campaign.toml:

    timezone = "Europe/Berlin"   # deadlines are announced and fall in this zone
    orders = "7d"                # how long each window stays open
    battles = "7d"
    retreats = "2d"
    at = "20:00"                 # a deadline is moved to the next such local time
    reminder = "24h"             # remind players still owing orders this long before
    early_close = "ready"        # a stage closes before its deadline once every player is ready;
                                 # "never": only at the deadline (or when the GM resolves it)

Times are stored as ISO 8601 in UTC and shown in the campaign's zone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

_DURATION = re.compile(r"^\s*(?:(\d+)\s*d)?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m)?\s*$", re.IGNORECASE)


def parse_duration(text: str) -> timedelta:
    """`7d`, `36h`, `1d12h`, `90m`."""
    match = _DURATION.match(text)
    if not match or not any(match.groups()):
        raise ValueError(f"{text!r} is not a duration like 7d, 36h or 1d12h")
    days, hours, minutes = (int(g or 0) for g in match.groups())
    return timedelta(days=days, hours=hours, minutes=minutes)


def parse_time(text: str) -> datetime:
    """An ISO time; naive times are taken as UTC."""
    value = datetime.fromisoformat(text.strip())
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).replace(microsecond=0).isoformat()


NOT_WINDOWS = frozenset({"timezone", "at", "reminder", "early_close"})
EARLY_CLOSE = ("ready", "never")
"""`early_close`: "ready" closes a stage as soon as every player owing orders is ready (clean orders
on file, or READY), "never" keeps every stage open to its deadline."""


@dataclass(frozen=True)
class Schedule:
    zone: ZoneInfo
    windows: dict[str, timedelta]
    at: time | None
    reminder: timedelta
    early_close: str = "ready"

    @classmethod
    def from_settings(cls, raw: dict[str, str]) -> Schedule:
        try:
            zone = ZoneInfo(raw.get("timezone", "UTC"))
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"schedule.timezone: unknown time zone {raw.get('timezone')!r}") from exc
        windows = {k: parse_duration(v) for k, v in raw.items() if k not in NOT_WINDOWS}
        at = time.fromisoformat(raw["at"]) if raw.get("at") else None
        early = raw.get("early_close", "ready")
        if early not in EARLY_CLOSE:
            raise ValueError(f"schedule.early_close: {early!r} is not one of {', '.join(EARLY_CLOSE)}")
        return cls(zone, windows, at, parse_duration(raw.get("reminder", "24h")), early)

    def deadline(self, opened: datetime, window: str, length: timedelta | None = None) -> datetime:
        """When a window opened at `opened` closes: after `length` when the rules set it, else after
        the window's `[schedule]` length; then moved to the next `at` time if one is set."""
        due = opened + (length if length is not None else
                        self.windows.get(window, self.windows.get("default", timedelta(days=7))))
        if self.at is None:
            return due
        local = due.astimezone(self.zone)
        fixed = datetime.combine(local.date(), self.at, tzinfo=self.zone)
        if fixed < local:
            fixed = datetime.combine(local.date() + timedelta(days=1), self.at, tzinfo=self.zone)
        return fixed.astimezone(UTC)

    def local_time(self, text: str) -> datetime:
        """A time the GM typed: with an offset (`+01:00`, `Z`) as written, without one in the
        campaign's zone (a GM in Berlin writes Berlin time)."""
        value = datetime.fromisoformat(text.strip())
        return value if value.tzinfo else value.replace(tzinfo=self.zone)

    def show(self, moment: datetime) -> str:
        """`Sat 28 Nov 2026 20:00 CET` in the campaign's zone."""
        return moment.astimezone(self.zone).strftime("%a %d %b %Y %H:%M %Z")
