"""A troop as the rules read it: its card, label, XP, upgrades, and the stats upgrades change
(SWM-ROS-3, SWM-ROS-6). A troop is a kit roster `Entry` (see model.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pbem.kit.roster import Entry, Mark
from pbem.rulesets.star_wars_miniatures.catalog import Catalog, Miniature
from pbem.rulesets.star_wars_miniatures.model import BANKED, PENDING, UPGRADE


@dataclass(frozen=True)
class Bought:
    name: str
    detail: str
    cost: int


def new_troop(ident: str, mini: Miniature, label: str, turn: int) -> Entry:
    """A fresh troop: 0 XP, no upgrades, whatever served and died before (SWM-ECO-14, SWM-XP-10)."""
    return Entry(ident, mini.name, "troop", points=mini.cost, tags=[label], counters={BANKED: 0, PENDING: 0})


def label(troop: Entry) -> str:
    return troop.tags[0] if troop.tags else ""


def banked(troop: Entry) -> int:
    return troop.counters.get(BANKED, 0)


def pending(troop: Entry) -> int:
    return troop.counters.get(PENDING, 0)


def bought(troop: Entry) -> list[Bought]:
    out = []
    for mark in troop.marks_of(UPGRADE):
        name, _, detail = mark.name.partition(": ")
        out.append(Bought(name, detail, mark.value))
    return out


def buy(troop: Entry, name: str, detail: str, cost: int, turn: int) -> None:
    troop.counters[BANKED] = banked(troop) - cost
    troop.add_mark(Mark(UPGRADE, f"{name}: {detail}" if detail else name, cost, True, turn))


def drop(troop: Entry, name: str) -> None:
    """An upgrade replaced by its successor (Double by Triple Attack, SWM-UPG-11)."""
    kept, done = [], False
    for mark in troop.marks:
        if not done and mark.kind == UPGRADE and mark.name.partition(": ")[0].casefold() == name.casefold():
            done = True
            continue
        kept.append(mark)
    troop.marks = kept


def count(troop: Entry, name: str) -> int:
    return sum(1 for b in bought(troop) if b.name.casefold() == name.casefold())


def force(troop: Entry, catalog: Catalog) -> int:
    """Catalog Force plus "Force 1" and each "Force +1" (SWM-UPG-5, SWM-UPG-6)."""
    return catalog.minis[troop.name].force + count(troop, "Force") + count(troop, "Force +1")


def speed(troop: Entry, catalog: Catalog) -> int:
    """Catalog Speed plus 2 for each Speed upgrade (SWM-UPG-4)."""
    return catalog.minis[troop.name].speed + 2 * count(troop, "Speed")


def has(troop: Entry, ability: str, catalog: Catalog) -> bool:
    """A native or bought ability (SWM-ROS-6)."""
    return catalog.minis[troop.name].has(ability) or count(troop, ability) > 0


def flags(troop: Entry, catalog: Catalog) -> set[str]:
    out = set(catalog.minis[troop.name].flags)
    if count(troop, "Cyborg"):
        out.add("cyborg")
    return out


def extra_labels(troop: Entry) -> list[str]:
    """Black Sun and Mercenary mark the troop in briefings, not for percentages (SWM-UPG-15)."""
    return [b.name for b in bought(troop) if b.name in ("Black Sun", "Mercenary")]


def describe(troop: Entry, catalog: Catalog, notes: Mapping[str, str] | None = None) -> str:
    """One roster line as reports print it (SWM-GEN-9, SWM-XP-18)."""
    mini = catalog.minis[troop.name]
    marks = [m for m, on in (("unique", mini.unique), (f"Force {force(troop, catalog)}", force(troop, catalog) > 0),
                             ("Droid", "droid" in flags(troop, catalog)), ("Cyborg", "cyborg" in flags(troop, catalog)),
                             ("Savage", mini.has("Savage"))) if on]
    notes = notes or {}
    ups = ", ".join(b.name + "".join(f" ({x})" for x in (b.detail, notes.get(b.name, "")) if x)
                    for b in bought(troop))
    text = f"{troop.id} {troop.name} ({label(troop)}) {troop.points} pts"
    text += f"; {', '.join(marks)}" if marks else ""
    text += f"; XP {banked(troop)} banked" + (f", {pending(troop)} pending" if pending(troop) else "")
    return text + (f"; upgrades: {ups}" if ups else "")
