"""Kings of War army lists on the kit's roster model: read, written back, checked (MK-SET-8/9, MK-ARM-4..7).

A list is sent by mail as one line per unit, fields separated by `|`:

    Spearmen Regiment | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100
    Captain | Hero (Inf) | 5 3+ - 5+ 5 -/13 | Individual, Inspiring, Crushing Strength (1) | 80

name, unit type, the six stats (Sp Me Ra De Att Ne; "-" for none, Ne as waver/rout with "-"
for a fearless unit's waver), special rules (comma separated, may be empty) and points. A sixth
field names a magic item with its points (`| Blade of Slashing 5`), which the rules forbid.
Units get the ids U1, U2, ... in list order.

Each unit is a roster `Entry`: its type in `kind` (inf, cav, lge_cav, mon, ...), "hero" among
its `tags` for a hero, its stats in `counters` (sp, me, ra, de, att, waver, rout; 0 = none),
valued rules such as Crushing Strength (1) in `counters` too, other special rules in `tags`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pbem.kit.orders import InvalidOrder, quoted
from pbem.kit.roster import Entry, Item, Roster
from pbem.kit.rulebook import RuleBook

# Every spelling of a KoW unit type -> its canonical kind.
KINDS: dict[str, str] = {
    "inf": "inf", "infantry": "inf",
    "hv inf": "hv_inf", "heavy infantry": "hv_inf",
    "lrg inf": "lrg_inf", "large infantry": "lrg_inf", "mon inf": "lrg_inf", "monstrous infantry": "lrg_inf",
    "cav": "cav", "cavalry": "cav",
    "lge cav": "lge_cav", "lrg cav": "lge_cav", "large cavalry": "lge_cav",
    "cht": "cht", "chariot": "cht",
    "mon": "mon", "monster": "mon",
    "titan": "titan",
    "war engine": "war_engine", "war eng": "war_engine", "we": "war_engine",
    "swarm": "swarm",
}
KIND_NAMES = {"inf": "Inf", "hv_inf": "Hv Inf", "lrg_inf": "Lrg Inf", "cav": "Cav", "lge_cav": "Lge Cav",
              "cht": "Cht", "mon": "Mon", "titan": "Titan", "war_engine": "War Engine", "swarm": "Swarm"}
MONSTER_KINDS = ("mon", "titan")
STATS = ("sp", "me", "ra", "de", "att", "waver", "rout")
VALUED = ("crushing_strength", "piercing")     # rules whose value medals raise (MK-MED-5)
LIVING_LEGEND = "living_legend"

_HERO = re.compile(r"^hero\s*\((?P<kind>[^)]+)\)$", re.IGNORECASE)
_VALUED_RULE = re.compile(r"^(?P<name>.+?)\s*\((?P<value>\d+)\)$")
_STAT = re.compile(r"^(?:(?P<value>\d+)\+?|-)$")
_NERVE = re.compile(r"^(?P<waver>\d+|-)/(?P<rout>\d+)$")
_ITEM = re.compile(r"^(?P<name>.+?)\s+(?P<points>\d+)$")
FORMAT = "name | type | Sp Me Ra De Att Ne | special rules | points"
EXAMPLE = "Spearmen Regiment | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100"


def rule_key(text: str) -> str:
    """A special rule's stored name: "Yellow-Bellied" -> "yellow_bellied"."""
    return re.sub(r"[^a-z0-9()]+", "_", text.strip().casefold()).strip("_")


def rule_name(key: str) -> str:
    """A stored rule name as KoW writes it: "crushing_strength" -> "Crushing Strength"."""
    return " ".join(word.capitalize() for word in key.split("_"))


def parse_unit(line: str, ident: str) -> Entry:
    """One unit line; raises InvalidOrder saying which field is wrong."""
    fields = [f.strip() for f in line.split("|")]
    if len(fields) not in (5, 6):
        raise InvalidOrder(f"a unit reads `{FORMAT}` ({len(fields)} fields found, 5 needed), for example `{EXAMPLE}`")
    name, kind_text, stats_text, rules_text, points_text = fields[:5]
    if not name:
        raise InvalidOrder(f"the unit has no name; for example `{EXAMPLE}`")
    kind, hero = _kind(kind_text)
    if not points_text.isdigit():
        raise InvalidOrder(f"points {quoted(points_text)} must be a whole number, like 100")
    entry = Entry(ident, name, kind, points=int(points_text), counters=_stats(stats_text))
    entry.tags = (["hero"] if hero else []) + _rules(rules_text, entry)
    if len(fields) == 6 and fields[5]:
        entry.items = [_item(fields[5])]
    return entry


def _kind(text: str) -> tuple[str, bool]:
    hero = _HERO.match(text.strip())
    key = " ".join((hero["kind"] if hero else text).casefold().replace(".", "").split())
    if key not in KINDS:
        raise InvalidOrder(f"unknown unit type {quoted(text)}; one of " + ", ".join(KIND_NAMES.values()) +
                           ", or Hero (<type>)")
    return KINDS[key], bool(hero)


def _stats(text: str) -> dict[str, int]:
    words = text.split()
    if len(words) != 6:
        raise InvalidOrder(f"stats {quoted(text)} need six values: Sp Me Ra De Att Ne, like `5 4+ - 4+ 12 14/16`")
    values = {}
    for name, word in zip(("sp", "me", "ra", "de", "att"), words[:5], strict=True):
        found = _STAT.match(word)
        if not found:
            raise InvalidOrder(f"{name.capitalize()} {quoted(word)} must be a number like 4+ or -")
        values[name] = int(found["value"] or 0)
    nerve = _NERVE.match(words[5])
    if not nerve:
        raise InvalidOrder(f"Ne {quoted(words[5])} must be waver/rout like 14/16, or -/16 for a fearless unit")
    values["waver"] = 0 if nerve["waver"] == "-" else int(nerve["waver"])
    values["rout"] = int(nerve["rout"])
    return values


def _rules(text: str, entry: Entry) -> list[str]:
    tags = []
    for part in (p.strip() for p in text.split(",")):
        valued = _VALUED_RULE.match(part)
        if valued:
            entry.counters[rule_key(valued["name"])] = int(valued["value"])
        elif part:
            tags.append(rule_key(part))
    return tags


def _item(text: str) -> Item:
    found = _ITEM.match(text)
    if not found:
        raise InvalidOrder(f"magic item {quoted(text)} needs its points, like `Blade of Slashing 5`")
    return Item(found["name"], int(found["points"]))


def read(army: str, name: str, lines: Iterable[tuple[int, str]]) -> tuple[Roster, list[tuple[int, str, str]]]:
    """A list from its unit lines: the roster and, for every line that cannot be read, (line number,
    line, reason). Unit ids follow the lines that were read."""
    roster, problems = Roster(army, name), []
    for number, line in lines:
        try:
            roster.entries.append(parse_unit(line, f"U{len(roster.entries) + 1}"))
        except InvalidOrder as exc:
            problems.append((number, line, str(exc)))
    return roster, problems


def unit_line(entry: Entry) -> str:
    """The unit as its owner would send it: `read` gives the same unit back."""
    kind = KIND_NAMES[entry.kind]
    kind = f"Hero ({kind})" if entry.has("hero") else kind
    fields = [entry.name, kind, stat_line(entry), rules_text(entry), str(entry.points)]
    if entry.items:
        fields.append("; ".join(f"{i.name} {i.points}" for i in entry.items))
    return " | ".join(fields)


def stat_line(entry: Entry) -> str:
    """`5 4+ - 4+ 12 14/16`: Sp Me Ra De Att Ne."""
    c = entry.counters

    def plus(value: int) -> str:
        return f"{value}+" if value else "-"
    waver = str(c["waver"]) if c.get("waver") else "-"
    return f"{c['sp']} {plus(c['me'])} {plus(c['ra'])} {plus(c['de'])} {c['att']} {waver}/{c['rout']}"


def rules_text(entry: Entry) -> str:
    tags = [rule_name(t) for t in entry.tags if t != "hero"]
    valued = [f"{rule_name(k)} ({v})" for k, v in entry.counters.items() if k not in STATS and v]
    return ", ".join(tags + valued)


def categories(entry: Entry) -> set[str]:
    """The restricted categories a unit falls in (the catalog's army list restrictions, A26)."""
    found = set()
    if entry.has(LIVING_LEGEND):
        found.add("living_legend")
    if entry.items:
        found.add("magic_item")
    if entry.kind == "war_engine":
        found.add("war_engine")
    if entry.kind in MONSTER_KINDS:
        found.add("hero_monster" if entry.has("hero") else "monster")
    return found


def problems(roster: Roster, rules: RuleBook, allowed: Sequence[str] = ()) -> list[str]:
    """Why the list may not be fielded: points (A30) and forbidden categories, loosened by `allowed`
    ("monster", "war_engine": MK-ARM-5/6; a hero monster counts as a monster when the rules say so)."""
    out = []
    if not roster.entries:
        out.append("the list has no units")
    limit, points = rules["army_list.points"], roster.points
    if rules["army_list.points_rule"] == "exact" and points != limit:
        out.append(f"the list comes to {points} points; it must be exactly {limit}")
    elif points > limit:
        out.append(f"the list comes to {points} points, over the limit of {limit}")
    loosened = set(allowed)
    if "monster" in loosened and rules["army_list.loosening.monster_includes_hero_monster"]:
        loosened.add("hero_monster")
    forbidden = set(rules["army_list.forbidden"]) - loosened
    for entry in roster.entries:
        for category in sorted(categories(entry) & forbidden):
            out.append(f"{entry.id} {entry.name}: {category.replace('_', ' ')}s are not allowed in this list")
    return out
