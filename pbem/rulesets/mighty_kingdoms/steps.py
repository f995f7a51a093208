"""How the calendar runs on between windows (the catalog's Calendar).

After the Orders window resolves, and after each battle result, the month goes on by
itself: the next battle is chosen (a slaughter is applied at once, a tabletop battle opens
window B), and once no contested tile remains Reform runs and the next month's Orders
window opens, or, after the last summer month, winter's Gather runs and window W1 opens.
After W2's deployment the next year's month 1 opens, or the campaign ends after the winter
of year `campaign.years`.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.kit.dice import Dice
from pbem.rulesets.mighty_kingdoms import battles, briefing, gather, reform
from pbem.rulesets.mighty_kingdoms.chronicle import Section, report
from pbem.rulesets.mighty_kingdoms.model import BATTLE, ORDERS, OVER, PURCHASES, WINTER, MKState, MKView
from pbem.rulesets.mighty_kingdoms.winter_state import WinterScratch
from pbem.rulesets.phases import Outcome


def month_goes_on(view: MKView, dice: Dice, sections: list[Section]) -> str:
    """The next battle, or Reform and what follows it; returns the window now open."""
    if battles.select(view, sections):
        view.state.calendar.window = BATTLE
        return BATTLE
    reform.run(view, dice, sections)
    return next_month(view, sections)


def next_month(view: MKView, sections: list[Section]) -> str:
    """After Reform: the next month's Orders window, or winter's Gather and window W1 (MK-YR-1..3)."""
    cal = view.state.calendar
    if cal.month < view.rules["campaign.summer_months"]:
        cal.month += 1
        cal.window = ORDERS
    else:
        sections.append(Section("Winter", [f"Month {cal.month} was the last summer month of year {cal.year}: "
                                           "winter begins with Gather, then the purchases."]))
        cal.month = WINTER
        view.state.winter = WinterScratch()
        gather.run(view, sections)
        cal.window = PURCHASES
    return cal.window


def next_year(view: MKView) -> str:
    """After deployment: month 1 of the next year (MK-YR-4), or the end of the campaign (A32)."""
    cal, years = view.state.calendar, view.rules["campaign.years"]
    if years and cal.year >= years:
        cal.window = OVER
    else:
        cal.year, cal.month, cal.window = cal.year + 1, 1, ORDERS
    return cal.window


def outcome(view: MKView, turn_before: int, title: str, sections: Sequence[Section], key: str) -> Outcome[MKState]:
    """The outcome of a resolution: the state, its public report, and whether the turn moved on; when
    window B is open, the report's call lists the open battles and each new battle's briefing goes
    to its two players and the public thread."""
    state = view.state
    public = report(view, title, sections, key)
    if state.calendar.window == BATTLE:
        public.context["mk"]["battle"] = briefing.call(view)
    reports = [public, *briefing.briefings(view)] if state.calendar.window == BATTLE else [public]
    return Outcome(state, reports, turn_finished=state.calendar.turn != turn_before)
