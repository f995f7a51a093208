"""Squad composition: the points window, the faction tables, the special characters, the
uniques and the Yuuzhan Vong ban (SWM-SQD-1, SWM-SQD-4, SWM-FAC, SWM-UNQ).

`problems` judges one squad's troops for the faction of their owner and returns every reason
it is not an active squad (none: it is active); `army_problems` adds the per-army unique limit.
Percentages are kept in whole numbers (points x 100 against the percentage x total), so 20.0%
is within "0-20%" and 20.67% is not (SWM-FAC-13).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pbem.kit.roster import Entry
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures.catalog import Catalog


def size_problem(points: int, book: RuleBook) -> str:
    """SWM-SQD-1: more than 75 (or 75 itself when min_inclusive), at most 150."""
    least, most = book["squad.min_points"], book["squad.max_points"]
    if points > most:
        return f"{points} points is over the {most}-point maximum of a squad"
    if points < least or (points == least and not book["squad.min_inclusive"]):
        return f"{points} points is not more than {least}: a squad needs more than {least} points"
    return ""


def problems(faction: str, squad: Sequence[Entry], catalog: Catalog, book: RuleBook) -> list[str]:
    """Every reason `squad` is not a legal active squad of `faction` (SWM-SQD-4)."""
    points = sum(t.points for t in squad)
    out = [p for p in [size_problem(points, book)] if p]
    return out + share_problems(faction, squad, catalog, book) + person_problems(squad, catalog) + \
        ban_problems(faction, squad, catalog, book)


def counted(faction: str, squad: Sequence[Entry], catalog: Catalog, book: RuleBook) -> dict[str, str]:
    """Troop id -> the label it counts under for percentages; exempt troops are left out
    (SWM-FAC-1, SWM-FAC-14..18: the special characters named in [faction_specials])."""
    out = {t.id: tr.label(t) for t in squad}
    names = {t.name.casefold() for t in squad}
    for spec in book.section("faction_specials").values():
        if spec["faction"] != faction or str(spec["character"]).casefold() not in names:
            continue
        for t in squad:
            if t.name.casefold() != str(spec["character"]).casefold() and _matches(t, spec["match"], catalog):
                if spec["effect"] == "exempt":
                    out.pop(t.id, None)
                else:
                    out[t.id] = spec["count_as_label"]
    return out


def _matches(troop: Entry, match: Mapping[str, Any], catalog: Catalog) -> bool:
    checks: dict[str, Callable[[str], bool]] = {
        "flag": lambda v: v in tr.flags(troop, catalog), "label": lambda v: tr.label(troop) == v,
        "ability": lambda v: tr.has(troop, v, catalog)}
    return all(checks[k](str(v)) for k, v in match.items() if k in checks)


def share_problems(faction: str, squad: Sequence[Entry], catalog: Catalog, book: RuleBook) -> list[str]:
    """SWM-FAC-2: a minimum share per "X% or more", a maximum per "0-Y%", nothing unlisted."""
    table = book[f"factions.{faction}"]
    labels = counted(faction, squad, catalog, book)
    points = {t.id: t.points for t in squad}
    total = sum(points[i] for i in labels)
    listed = {row["label"] for row in table["limits"]}
    out = [f"{lb} troops are not allowed in a {table['name']} squad"
           for lb in sorted(set(labels.values()) - listed)]
    for row in table["limits"]:
        mine = sum(points[i] for i, lb in labels.items() if lb == row["label"])
        out += _limit(row, mine, total)
    return out


def _limit(row: Mapping[str, Any], mine: int, total: int) -> list[str]:
    if not total:
        return []
    share = f"{row['label']} {mine} of {total} points ({mine * 100 / total:.1f}%)"
    if "min_pct" in row and mine * 100 < row["min_pct"] * total:
        return [f"{share} is under the {row['min_pct']}% minimum"]
    if "min_pct" in row and row.get("exact") and mine * 100 != row["min_pct"] * total:
        return [f"{share} must be exactly {row['min_pct']}%"]
    if "max_pct" in row and mine * 100 > row["max_pct"] * total:
        return [f"{share} is over the {row['max_pct']}% maximum"]
    return []


def person_problems(squad: Sequence[Entry], catalog: Catalog) -> list[str]:
    """SWM-UNQ-1: one troop per character name in a squad, whichever card."""
    seen: dict[str, str] = {}
    out = []
    for t in squad:
        person = catalog.minis[t.name].person
        if person and person.casefold() in seen:
            out.append(f"{t.name} and {seen[person.casefold()]} are both {person}: one per squad")
        elif person:
            seen[person.casefold()] = t.name
    return out


def ban_problems(faction: str, squad: Iterable[Entry], catalog: Catalog, book: RuleBook) -> list[str]:
    """SWM-FAC-19: no Force rating, droid or cyborg in a Yuuzhan Vong army (scope: the army, or
    only Yuuzhan Vong-labelled troops)."""
    forbid = book.get(f"factions.{faction}.forbid_in_army", [])
    scoped = book.get(f"factions.{faction}.forbid_scope", "army") == "army"
    out = []
    for t in squad:
        if not scoped and tr.label(t) != book[f"factions.{faction}.name"]:
            continue
        why = [w for w, on in (("a Force rating", "force_rating" in forbid and tr.force(t, catalog) > 0),
                               ("the droid flag", "droid" in forbid and "droid" in tr.flags(t, catalog)),
                               ("the cyborg flag", "cyborg" in forbid and "cyborg" in tr.flags(t, catalog))) if on]
        if why:
            out.append(f"{t.id} {t.name} has {' and '.join(why)}, which the {book[f'factions.{faction}.name']} "
                       "army may not field")
    return out


def army_problems(army: Iterable[Entry], catalog: Catalog) -> list[str]:
    """SWM-UNQ-3: at most one copy of each unique card in one faction's whole army (other
    factions are not counted, SWM-UNQ-4; allies only with `uniques.alliances_merge`, SWM-UNQ-6, in
    economics)."""
    seen: set[str] = set()
    out = []
    for t in army:
        if catalog.minis[t.name].unique:
            if t.name.casefold() in seen:
                out.append(f"the army already has {t.name}: one copy of a unique card per army")
            seen.add(t.name.casefold())
    return out


def active(faction: str, squad: Sequence[Entry], catalog: Catalog, book: RuleBook) -> bool:
    return not problems(faction, squad, catalog, book)
