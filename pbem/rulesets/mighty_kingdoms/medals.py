"""Medal and scar results on a unit's list (MK-MED-1..10, MK-SCR-1..8, MK-PBM-6).

A result is a row of `[medals] table` or `[scars] table`, chosen by the total; `apply`
carries it out on the unit's roster entry and returns what changed ("" when nothing did:
MK-MED-8) and whether the unit is destroyed. Where the owner chooses (results 2, 4, 5 and 6,
scar 0), his standing reform choice is used when it benefits the unit; otherwise the first
option in table order that benefits (MK-PBM-6). A scar choice prefers an option that does not
destroy the unit, then the stat with the worse current value, then Ra.

Stats are kept as in the list: Me, Ra and De as the target number of "4+" (0 = the unit has
no such stat), nerve as waver and rout (waver 0 = fearless, "-/15").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.kit.roster import Entry
from pbem.rulesets.mighty_kingdoms.armylist import rule_name


@dataclass(frozen=True)
class Change:
    text: str                     # "Me 4+ -> 3+"; "" = no effect
    destroyed: bool = False


def row(table: Sequence[Mapping[str, Any]], total: int) -> Mapping[str, Any]:
    """The table row whose min..max holds the total (the catalog's 7+ and -1-or-less rows are open-ended)."""
    low = min(table, key=lambda r: r["min"])
    high = max(table, key=lambda r: r["max"])
    total = max(low["min"], min(high["max"], total))
    return next(r for r in table if r["min"] <= total <= r["max"])


def apply(entry: Entry, spec: Mapping[str, Any], wished: str) -> Change:
    """Carry out one table row on the unit; `wished` is the owner's standing choice ("" = none)."""
    effect = spec["effect"]
    options = list(spec.get("options", []))
    if effect in _CHOOSING:
        benefit, act = _CHOOSING[effect]
        usable = [o for o in options if benefit(entry, o, spec)]
        choice = wished if wished in usable else _default(effect, entry, usable, spec)
        return act(entry, choice, spec) if choice else Change("")
    return _FIXED[effect](entry, spec)


def _default(effect: str, entry: Entry, usable: list[str], spec: Mapping[str, Any]) -> str:
    if effect != "choose_stat_worsen":
        return usable[0] if usable else ""
    safe = [o for o in usable if entry.counters[o] + spec["step"] <= spec["destroyed_above"]] or usable
    # the stat with the worse current value (the higher target), then Ra
    return max(safe, key=lambda o: (entry.counters[o], o == "ra")) if safe else ""


def _stat(value: int) -> str:
    return f"{value}+" if value else "-"


# -- owner's choices ----------------------------------------------------------------------------
def _lacks_rule(entry: Entry, option: str, spec: Mapping[str, Any]) -> bool:
    return not entry.has(option)


def _gain_rule(entry: Entry, option: str, spec: Mapping[str, Any]) -> Change:
    entry.tags.append(option)
    return Change(f"gains {rule_name(option)}")


def _below_cap(entry: Entry, option: str, spec: Mapping[str, Any]) -> bool:
    return bool(entry.counters.get(option, 0) < spec["cap"])


def _raise_value(entry: Entry, option: str, spec: Mapping[str, Any]) -> Change:
    before = entry.counters.get(option, 0)
    entry.counters[option] = min(spec["cap"], before + spec["step"])
    if not before:
        return Change(f"gains {rule_name(option)} ({entry.counters[option]})")
    return Change(f"{rule_name(option)} ({before}) -> ({entry.counters[option]})")


def _can_improve(entry: Entry, option: str, spec: Mapping[str, Any]) -> bool:
    value = entry.counters.get(option, 0)
    return bool(value) and value > spec["best"]


def _improve(entry: Entry, option: str, spec: Mapping[str, Any]) -> Change:
    before = entry.counters[option]
    entry.counters[option] = max(spec["best"], before - spec["step"])
    return Change(f"{option.capitalize()} {_stat(before)} -> {_stat(entry.counters[option])}")


def _has_stat(entry: Entry, option: str, spec: Mapping[str, Any]) -> bool:
    return bool(entry.counters.get(option, 0))


def _worsen(entry: Entry, option: str, spec: Mapping[str, Any]) -> Change:
    before = entry.counters[option]
    entry.counters[option] = before + spec["step"]
    destroyed = entry.counters[option] > spec["destroyed_above"]
    return Change(f"{option.capitalize()} {_stat(before)} -> {entry.counters[option]}+", destroyed)


_CHOOSING = {
    "choose_rule": (_lacks_rule, _gain_rule),
    "choose_value_up": (_below_cap, _raise_value),
    "choose_stat_improve": (_can_improve, _improve),
    "choose_stat_worsen": (_has_stat, _worsen),
}


# -- fixed results ------------------------------------------------------------------------------
def _nerve(entry: Entry, spec: Mapping[str, Any]) -> Change:
    """Waver and rout move together; a fearless unit (no waver) moves its rout only (MED-3, SCR-4)."""
    c = entry.counters
    before = f"{c['waver'] or '-'}/{c['rout']}"
    if c["waver"]:
        c["waver"] += spec["waver"]
    c["rout"] += spec["rout"]
    destroyed = "destroyed_if_rout_below" in spec and c["rout"] < spec["destroyed_if_rout_below"]
    return Change(f"Ne {before} -> {c['waver'] or '-'}/{c['rout']}", destroyed)


def _def_improve(entry: Entry, spec: Mapping[str, Any]) -> Change:
    before = entry.counters["de"]
    if before >= spec["best"]:
        return Change("")
    entry.counters["de"] = min(spec["best"], before + spec["step"])
    return Change(f"De {before}+ -> {entry.counters['de']}+")


def _def_worsen(entry: Entry, spec: Mapping[str, Any]) -> Change:
    before = entry.counters["de"]
    entry.counters["de"] = before - spec["step"]
    return Change(f"De {before}+ -> {entry.counters['de']}+", entry.counters["de"] < spec["destroyed_below"])


def _gain_fixed_rule(entry: Entry, spec: Mapping[str, Any]) -> Change:
    return Change("") if entry.has(spec["rule"]) else _gain_rule(entry, spec["rule"], spec)


def _inspiring_down(entry: Entry, spec: Mapping[str, Any]) -> Change:
    if entry.has("very_inspiring"):
        entry.tags[entry.tags.index("very_inspiring")] = "inspiring"
        return Change("Very Inspiring becomes Inspiring")
    if entry.has("inspiring"):
        entry.tags.remove("inspiring")
        return Change("loses Inspiring")
    return Change("")


_FIXED = {
    "nerve": _nerve,
    "def_improve": _def_improve,
    "def_worsen": _def_worsen,
    "gain_rule": _gain_fixed_rule,
    "inspiring_down": _inspiring_down,
}
