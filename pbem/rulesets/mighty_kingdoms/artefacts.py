"""Magical artefacts: one campaign-wide pool, each owned by one player and one army (MK-ART-1..14).

An artefact nobody owns is in the pool (no `Holding`); a held one sits on a unit of one of
its owner's armies, or at his capital (`Holding.army == ""`).

The pool is `[artefacts] pool` in the rule book, in rules order (A32: a random draw is one die
over the eligible artefacts in that order). Each entry has a name, its points and the KoW
restrictions that say which units it suits (MK-ART-11):

    { name = "Blade of Slashing", points = 5 }                             any unit
    { name = "Wings of Honeymaze", points = 25, heroes_only = true }       Hero units only
    { name = "Banner of the Griffin", points = 20, troops_only = true }    no Hero units
    { name = "Mace of Crushing", points = 10, kinds = ["inf", "hv_inf"] }  these unit types only
    { name = "Hail of Doom Arrows", points = 5, requires_ranged = true }   a unit with a Ra value
    { name = "Staff of Flight", points = 30, requires_rule = "fly" }       a unit with that special rule
    { name = "Fenulian Amulet", points = 10, requires_spell = "lightning_bolt" }
                                                    an army with a unit that casts that spell

Artefacts are bonus items: they never count toward any points (MK-ART-10); nothing here adds
them to a roster, whose points are the list's alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.kit.dice import Dice
from pbem.kit.roster import Entry
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.mighty_kingdoms.armylist import KIND_NAMES, KINDS
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import Army, Holding, MKState, unit_key

RESTRICTIONS = ("heroes_only", "troops_only", "kinds", "requires_ranged", "requires_rule", "requires_spell")


@dataclass(frozen=True)
class Artefact:
    name: str
    points: int
    heroes_only: bool = False
    troops_only: bool = False
    kinds: tuple[str, ...] = ()
    requires_ranged: bool = False
    requires_rule: str = ""
    requires_spell: str = ""

    def restriction(self) -> str:
        """The restrictions as a player reads them: `Hero units only, Inf or Hv Inf`."""
        parts = ["Hero units only"] if self.heroes_only else []
        parts += ["no Hero units"] if self.troops_only else []
        parts += [" or ".join(KIND_NAMES[k] for k in self.kinds) + " units"] if self.kinds else []
        parts += ["a unit with Ra"] if self.requires_ranged else []
        parts += [f"a unit with {self.requires_rule.replace('_', ' ')}"] if self.requires_rule else []
        parts += [f"an army with a {self.requires_spell.replace('_', ' ')} caster"] if self.requires_spell else []
        return ", ".join(parts) or "any unit"


def pool(rules: RuleBook) -> list[Artefact]:
    """The whole pool in rules order."""
    return [_artefact(raw) for raw in rules["artefacts.pool"]]


def _artefact(raw: Mapping[str, Any]) -> Artefact:
    known = {k: v for k, v in raw.items() if k in RESTRICTIONS}
    if "kinds" in known:
        known["kinds"] = tuple(kind_of(str(k)) for k in known["kinds"])
    return Artefact(str(raw["name"]), int(raw["points"]), **known)


def kind_of(text: str) -> str:
    """A unit type as the pool names it ("hv_inf", "Hv Inf") -> its canonical kind, "" if unknown."""
    key = " ".join(text.casefold().replace("_", " ").split())
    return KINDS.get(key, key.replace(" ", "_") if key.replace(" ", "_") in KINDS.values() else "")


def find(rules: RuleBook, name: str) -> Artefact | None:
    return next((a for a in pool(rules) if a.name == name), None)


def pool_problems(rules: RuleBook) -> list[str]:
    """Pool entries the processor could not play by, each named by its place in the list."""
    raw_pool = rules.get("artefacts.pool", [])
    if not isinstance(raw_pool, list):
        return ["rules: 'artefacts.pool' must be a list of { name = ..., points = ... } entries"]
    out, seen = [], set()
    if rules.get("artefacts.unique") is not True:
        out.append("rules: 'artefacts.unique' must stay true: each artefact has one holder at a time (MK-ART-1)")
    for n, raw in enumerate(raw_pool, start=1):
        where = f"rules: artefacts.pool entry {n}"
        if not isinstance(raw, Mapping) or not isinstance(raw.get("name"), str) or not raw.get("name"):
            out.append(f"{where}: needs a name, like {{ name = \"Blade of Slashing\", points = 5 }}")
            continue
        if raw["name"] in seen:
            out.append(f"{where}: {raw['name']!r} is in the pool twice; artefacts are unique (MK-ART-1)")
        seen.add(raw["name"])
        unknown = sorted(set(raw) - {"name", "points", *RESTRICTIONS})
        if unknown:
            out.append(f"{where} ({raw['name']}): unknown fields {', '.join(unknown)}; restrictions are "
                       f"{', '.join(RESTRICTIONS)}")
        points = raw.get("points")
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            out.append(f"{where} ({raw['name']}): points must be a whole number of at least 0")
        out += [f"{where} ({raw['name']}): {reason}" for reason in _field_problems(raw)]
        kinds = raw.get("kinds", [])
        bad_kinds = [k for k in kinds if not kind_of(str(k))] if isinstance(kinds, list) else []
        if bad_kinds:
            out.append(f"{where} ({raw['name']}): unknown unit types {bad_kinds!r}; use "
                       f"{', '.join(sorted(set(KINDS.values())))}")
    return out


def _field_problems(raw: Mapping[str, Any]) -> list[str]:
    out = [f"{key} must be true or false" for key in ("heroes_only", "troops_only", "requires_ranged")
           if key in raw and not isinstance(raw[key], bool)]
    out += [f"{key} must be text" for key in ("requires_rule", "requires_spell")
            if key in raw and not isinstance(raw[key], str)]
    if "kinds" in raw and not isinstance(raw["kinds"], list):
        out.append("kinds must be a list of unit types, like [\"inf\", \"hv_inf\"]")
    return out


# -- suitability (MK-ART-11, MK-ART-14) ---------------------------------------------------------
def unsuited(item: Artefact, army: Army, entry: Entry) -> str:
    """Why `item` may not go to `entry` of `army` ("" when it may): its KoW restrictions."""
    if item.heroes_only and not entry.has("hero"):
        return f"{item.name} is for Hero units only"
    if item.troops_only and entry.has("hero"):
        return f"{item.name} may not go to a Hero unit"
    if item.kinds and entry.kind not in item.kinds:
        return f"{item.name} suits only {' or '.join(KIND_NAMES[k] for k in item.kinds)} units"
    if item.requires_ranged and not entry.counters.get("ra"):
        return f"{item.name} needs a unit with a Ra value"
    if item.requires_rule and not _has_rule(entry, item.requires_rule):
        return f"{item.name} needs a unit with {item.requires_rule.replace('_', ' ')}"
    if item.requires_spell and not any(_has_rule(e, item.requires_spell) for e in army.roster.entries):
        return f"{item.name} needs an army with a {item.requires_spell.replace('_', ' ')} caster"
    return ""


def _has_rule(entry: Entry, rule: str) -> bool:
    return entry.has(rule) or bool(entry.counters.get(rule))


def carried_by(state: MKState, army: str, unit: str = "") -> list[str]:
    """The artefacts on an army (or on one of its units)."""
    return [name for name, h in state.artefacts.items() if h.army == army and (not unit or h.unit == unit)]


def room(state: MKState, rules: RuleBook, army: str, unit: str, ignoring: str = "") -> bool:
    """MK-ART-14: the unit carries fewer than `artefacts.max_per_unit` artefacts (besides `ignoring`)."""
    held = [n for n in carried_by(state, army, unit) if n != ignoring]
    return len(held) < int(rules["artefacts.max_per_unit"])


def why_not(state: MKState, rules: RuleBook, name: str, army: Army, entry: Entry) -> str:
    """Why artefact `name` may not be allocated to `entry` of `army` now ("" when it may)."""
    item = find(rules, name)
    if item is None:
        return f"{name} is not in the artefact pool of the rules"
    reason = unsuited(item, army, entry)
    if reason:
        return reason
    if not room(state, rules, army.id, entry.id, ignoring=name):
        limit = rules["artefacts.max_per_unit"]
        return f"{unit_key(army.id, entry.id)} already carries {limit} artefact{'s' if limit > 1 else ''} (MK-ART-14)"
    return ""


def first_unit(state: MKState, rules: RuleBook, name: str, armies: Sequence[Army]) -> tuple[str, str]:
    """The first unit, in the armies' order then list order, that may take `name`: (army, unit), or ("", "")."""
    for army in armies:
        for entry in army.roster.entries:
            if not why_not(state, rules, name, army, entry):
                return army.id, entry.id
    return "", ""


def allocate(state: MKState, name: str, owner: str, army: str, unit: str) -> None:
    state.artefacts[name] = Holding(owner, army, unit)


def hold_or_pool(state: MKState, name: str, owner: str, section: Section) -> None:
    """MK-ART-7/8 (and MK-PBM-11's last resort): held at the owner's capital, or back to the pool."""
    kingdom = state.kingdoms[owner].name
    if state.capital_of(owner):
        state.artefacts[name] = Holding(owner)
        section.add(f"{name} is held at {kingdom}'s capital")
    else:
        state.artefacts.pop(name, None)
        section.add(f"{name} goes back to the pool ({kingdom} holds no capital)")


def release(state: MKState, army: str, unit: str, section: Section) -> None:
    """MK-ART-13: the artefacts of a unit or army lost other than by capture (scar, retreat,
    slaughter, disbanding) go to the owner's capital if he controls it, else back to the pool."""
    for name in carried_by(state, army, unit):
        hold_or_pool(state, name, state.artefacts[name].owner, section)


# -- the pool and its draws (MK-ART-2, MK-ART-3) -------------------------------------------------
def unowned(state: MKState, rules: RuleBook, low: int, high: int) -> list[Artefact]:
    """The artefacts nobody owns whose points fall in low..high, in rules order."""
    return [a for a in pool(rules) if a.name not in state.artefacts and low <= a.points <= high]


def bands(rules: RuleBook) -> list[tuple[int, int]]:
    """The reward bands of the quest table, lowest first."""
    return sorted({(int(row["reward_min"]), int(row["reward_max"])) for row in rules["quests.table"]})


def draw(state: MKState, rules: RuleBook, dice: Dice, band: tuple[int, int], owner: str, section: Section) -> str:
    """A random unowned artefact of the band, now owned by `owner` and held until W2 allocates it;
    "" when the band is empty (A22: no reward, or the nearest lower band with `next_lower`)."""
    tried = [band]
    if rules["artefacts.empty_band"] == "next_lower":
        tried += [b for b in reversed(bands(rules)) if b[1] < band[0]]
    for low, high in tried:
        eligible = unowned(state, rules, low, high)
        if eligible:
            return _pick(state, dice, eligible, owner, section, f"{_band(low, high)} points")
        section.add(f"No unowned artefact of {_band(low, high)} points is left in the pool")
    return ""


def _pick(state: MKState, dice: Dice, eligible: Sequence[Artefact], owner: str, section: Section,
          band: str) -> str:
    if len(eligible) == 1:
        item = eligible[0]
        section.add(f"{item.name} ({item.points} points) is the only unowned artefact of {band}")
    else:
        face = dice.roll("artefact draw", 1, len(eligible)).total
        item = eligible[face - 1]
        section.add(f"Artefact draw over the {len(eligible)} unowned artefacts of {band}: "
                    f"D{len(eligible)} = {face}, {item.name} ({item.points} points)")
    state.artefacts[item.name] = Holding(owner)
    return item.name


def _band(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


# -- a captured artefact (MK-ART-6..8) -----------------------------------------------------------
def award(state: MKState, rules: RuleBook, name: str, winner: str, armies: Sequence[Army], section: Section,
          choice: str = "") -> None:
    """A captured (or taken-over) artefact goes to `winner`: to the unit `choice` ("A1.U2") if it
    may carry it, else to the first unit of `armies` (army order, then list order) that may; with
    none, it is held at the winner's capital, or goes back to the pool when he holds none."""
    army, unit = _chosen(state, rules, name, armies, choice, section)
    if not army:
        army, unit = first_unit(state, rules, name, armies)
    if army:
        allocate(state, name, winner, army, unit)
        section.add(f"{name} goes to {unit_key(army, unit)} {state.armies[army].roster.entry(unit).name}")
        return
    section.add(f"{name} suits no unit of {', '.join(a.id for a in armies) or 'the winning armies'}")
    hold_or_pool(state, name, winner, section)


def _chosen(state: MKState, rules: RuleBook, name: str, armies: Sequence[Army], choice: str,
            section: Section) -> tuple[str, str]:
    if not choice:
        return "", ""
    army_id, _, unit = choice.partition(".")
    army = next((a for a in armies if a.id == army_id), None)
    entry = army.roster.get(unit) if army else None
    reason = "it is not a unit of the winning armies" if army is None or entry is None else \
        why_not(state, rules, name, army, entry)
    if reason:
        section.add(f"{name} cannot go to {choice}: {reason}")
        return "", ""
    return army_id, unit


# -- a capital taken over (MK-ART-9, A20, A32) ---------------------------------------------------
def capital_taken(state: MKState, tile: str, taker_army: str, section: Section,
                  rules: RuleBook | None = None) -> None:
    """Call when `taker_army`'s player has just taken `tile` by a Move, a battle win or Reform
    occupancy. If the tile was another player's capital holding artefacts, each goes to the first
    unit of the taking army, in list order, that may carry it (A32); if none may, it is held at the
    taker's capital, or goes back to the pool when he holds none (MK-ART-7/8 applied to the taker).
    `rules` gives the pool's restrictions; pass the campaign's (`view.rules`)."""
    book = rules if rules is not None else _shipped()
    taker = state.armies[taker_army]
    loser = state.original_owner(tile)
    held = [n for n, h in state.artefacts.items() if h.owner == loser and not h.army]
    if not loser or loser == taker.owner or not held:
        return
    for name in held:
        section.add(f"{name}, held at {state.kingdoms[loser].name}'s capital, is taken by {taker.id}")
        award(state, book, name, taker.owner, [taker], section)


def _shipped() -> RuleBook:
    from pbem.rulesets.mighty_kingdoms.rules import load  # imported here: the rules module uses this one
    return load()


def owned_by(state: MKState, player: str) -> list[str]:
    """The player's artefacts, by name."""
    return sorted(n for n, h in state.artefacts.items() if h.owner == player)


def describe(state: MKState, name: str) -> str:
    """Where an artefact is: `on A1.U2` or `held at the capital`."""
    h = state.artefacts[name]
    return f"on {unit_key(h.army, h.unit)}" if h.army else "held at the capital"
