"""Reading the times and durations a game master types, with errors that show what fits."""

from __future__ import annotations

from datetime import datetime, timedelta

from pbem.errors import UserError

EXAMPLES = "a duration like 2d, 12h or 1d12h, or a date and time like 2026-11-30T20:00"
NOW_HELP = ("act as if it were this date and time, for trying a campaign out: UTC unless it has an offset, "
            "e.g. 2026-11-30T20:00 (UTC) or 2026-11-30T20:00+01:00")


def moment(text: str, option: str) -> datetime:
    """An ISO time (naive is UTC), or a UserError naming the option and an example."""
    from pbem.state.schedule import parse_time

    try:
        return parse_time(text)
    except ValueError:
        raise UserError(f"{option} {text!r} is not a date and time; write e.g. 2026-11-30T20:00") from None


def duration_or_moment(text: str) -> timedelta | datetime:
    """What `pbem extend` accepts, checked before the campaign is touched."""
    from pbem.state.schedule import parse_duration, parse_time

    for parse in (parse_duration, parse_time):
        try:
            return parse(text)
        except ValueError:
            pass
    raise UserError(f"{text!r} is neither: give {EXAMPLES}")
