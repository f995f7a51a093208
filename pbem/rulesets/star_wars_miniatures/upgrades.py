"""Upgrade purchases (SWM-UPG): the row an order names, its price for this troop (the Yuuzhan
Vong prices), and every restriction, checked against the troop as it stands after the upgrades
bought earlier in the same list (A37: purchases may chain)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.kit.orders import NameIndex
from pbem.kit.roster import Entry
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.rules import TABLES, upgrade_rows


@dataclass(frozen=True)
class Row:
    name: str
    table: str
    cost: int
    yv_cost: int
    restriction: str
    repeatable: bool
    note: str


def rows(book: RuleBook) -> dict[str, Row]:
    out = {}
    for table in TABLES:
        for raw in upgrade_rows(book, table):
            out[raw["name"]] = _row(raw, table)
    return out


def _row(raw: Mapping[str, Any], table: str) -> Row:
    return Row(raw["name"], table, int(raw["cost"]), int(raw.get("yv_cost", 0)), str(raw.get("restriction", "")),
               bool(raw.get("repeatable", False)), str(raw.get("note", "")))


def index(book: RuleBook) -> NameIndex:
    """Upgrade names as players type them (case-insensitive, with suggestions)."""
    return NameIndex({name: () for name in rows(book)}, what="upgrade")


def price(row: Row, troop: Entry) -> int:
    """SWM-UPG-12: the Yuuzhan Vong price for a troop fielded under that label."""
    return row.yv_cost if row.yv_cost and tr.label(troop) == "Yuuzhan Vong" else row.cost


def refusal(row: Row, troop: Entry, detail: str, faction: str, catalog: Catalog, book: RuleBook) -> str:
    """Why `troop` of a `faction` army may not buy `row` now; "" when it may (XP aside)."""
    if not row.repeatable and (tr.count(troop, row.name) or (row.table == "abilities" and tr.has(troop, row.name,
                                                                                                   catalog))):
        return f"{troop.id} already has {row.name}, which can be bought only once"
    if row.name in book["upgrades.army_rules.yuuzhan_vong_forbidden"] and faction == "yuuzhan_vong":
        return f"a troop of the Yuuzhan Vong army may not buy {row.name} (SWM-UPG-14)"
    return _restricted(row, troop, detail, faction, catalog, book)


def _restricted(row: Row, troop: Entry, detail: str, faction: str, catalog: Catalog, book: RuleBook) -> str:
    kind, _, arg = row.restriction.partition(":")
    mini = catalog.minis[troop.name]
    force = tr.force(troop, catalog)
    flags = tr.flags(troop, catalog)
    checks = {
        "force_user": (force >= 1, "only a Force user may buy it"),
        "non_force_user": (force == 0, "only a troop with Force rating 0 may buy it"),
        "savage": (tr.has(troop, "Savage", catalog), "only a Savage troop may buy it"),
        "droid": ("droid" in flags, "only a droid may buy it"),
        "not_droid_or_cyborg": (not flags & {"droid", "cyborg"}, "a droid or cyborg may not buy it"),
        "base_2x2_plus": (mini.base_size() >= 2, "only a troop on a 2x2 or larger base may buy it"),
        "no_lightsaber": (not tr.has(troop, "Lightsaber", catalog), "only a troop without a lightsaber may buy it"),
        "names_unique": (_names_unique(detail, catalog), "it must name a unique from the catalog"),
        "requires": (bool(arg) and tr.has(troop, arg, catalog), f"{troop.id} must first have {arg}"),
        "faction": (_faction_ok(arg, troop, faction, book), f"only the {arg.replace('_', ' ')} army may buy it"),
    }
    if kind not in checks or checks[kind][0]:
        return ""
    return f"{row.name}: {checks[kind][1]}"


def _names_unique(detail: str, catalog: Catalog) -> bool:
    found = catalog.get(detail) if detail else None
    return bool(found and found.unique)


def _faction_ok(key: str, troop: Entry, faction: str, book: RuleBook) -> bool:
    """SWM-UPG-8 (A22): by the army's faction, or by the troop's own label."""
    if book["upgrades.army_rules.faction_restriction_scope"] == "player":
        return faction == key
    return bool(tr.label(troop) == book.get(f"factions.{key}.name"))


def buy(row: Row, troop: Entry, detail: str, turn: int) -> None:
    """Pay from banked XP and record it; Triple/Quadruple Attack replace their predecessor (SWM-UPG-11)."""
    if row.restriction.startswith("requires:"):
        tr.drop(troop, row.restriction.partition(":")[2])
    tr.buy(troop, row.name, detail, price(row, troop), turn)
