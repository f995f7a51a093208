"""The GM-supplied miniature catalog (SWM-ROS-1): what the processor must know of each SWM card.

The processor cannot know SWM stats on its own; the game master lists the cards his campaign
uses in a TOML file (`[[miniatures]]` rows, the catalog's schema):

    [[miniatures]]
    name = "General Windu"        # the exact card name
    character = "Mace Windu"      # uniques: the one-name-per-squad rule (SWM-UNQ-1)
    unique = true
    labels = ["Republic"]         # the first is the default label (SWM-ROS-4)
    cost = 53
    speed = 6
    force = 4                     # 0 = not a Force user
    abilities = ["Lightsaber"]
    flags = []                    # droid, cyborg, wookiee, order_66
    size = "medium"               # small | medium | large | huge
    base = "1x1"
    transport = { small_or_medium = 0, large = 0 }
    stats = { hp = 0, defense = 0, attack = 0, damage = 0 }   # optional, printed only

Every problem of a file is reported at once (`CatalogError`); a name typed in an order is
matched case-insensitively and an unknown one is answered with the nearest names (SWM-ROS-2).
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.kit.orders import NameIndex
from pbem.rulesets.base import UserError

LABELS = ("Old Republic", "Republic", "Sith", "Mandalorian", "Separatist", "Imperial", "Rebel", "New Republic",
          "Yuuzhan Vong", "Fringe")
FLAGS = ("droid", "cyborg", "wookiee", "order_66")
SIZES = ("small", "medium", "large", "huge")
STATS = ("hp", "defense", "attack", "damage")
READ_ABILITIES = ("Recon", "Disruptive", "Savage", "Lightsaber", "Double Attack", "Triple Attack",
                  "Damage Reduction", "Shields")


class CatalogError(UserError):
    """A catalog that cannot be used: the file, then every problem with its row."""

    def __init__(self, source: str, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__(f"{source}: " + "; ".join(self.problems))


@dataclass(frozen=True)
class Miniature:
    name: str
    labels: tuple[str, ...]
    cost: int
    speed: int
    force: int = 0
    unique: bool = False
    character: str = ""
    abilities: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    size: str = "medium"
    base: str = "1x1"
    carries_small: int = 0         # transport capacity (SWM-MOV-7): small or medium troops
    carries_large: int = 0
    stats: Mapping[str, int] = field(default_factory=dict)

    @property
    def person(self) -> str:
        """The character name of a unique (SWM-UNQ-1): its card name when none is given."""
        return (self.character or self.name) if self.unique else ""

    @property
    def transport(self) -> bool:
        return bool(self.carries_small or self.carries_large)

    def has(self, ability: str) -> bool:
        return any(a.casefold() == ability.casefold() for a in self.abilities)

    def base_size(self) -> int:
        """The side of the base in squares: "2x2" -> 2."""
        head = self.base.lower().split("x")[0]
        return int(head) if head.isdigit() else 1


@dataclass
class Catalog:
    minis: dict[str, Miniature]
    index: NameIndex = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.index = NameIndex({m: () for m in self.minis}, what="miniature")

    def lookup(self, text: str) -> Miniature:
        """The card `text` names (case-insensitive, a unique prefix will do); raises an
        OrderProblem with the nearest names as the suggestion (SWM-ROS-2)."""
        return self.minis[self.index.lookup(text)]

    def get(self, name: str) -> Miniature | None:
        found = self.index.find(name)
        return self.minis[found] if found and found.casefold() == name.casefold() else None


def load_catalog(path: Path | str) -> Catalog:
    source = str(path)
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise CatalogError(source, [
            "no such catalog file; the GM writes one (see docs/positions/star_wars_miniatures.md), "
            "e.g. rules/star_wars_miniatures/example_catalog.toml"]) from exc
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CatalogError(source, [f"cannot be read: {exc}"]) from exc
    return catalog_from_dict(data, source)


def catalog_from_dict(data: Mapping[str, Any], source: str = "catalog") -> Catalog:
    rows = data.get("miniatures")
    if not isinstance(rows, list) or not rows:
        raise CatalogError(source, ["miniatures: missing; write one [[miniatures]] table per card"])
    problems: list[str] = []
    minis: dict[str, Miniature] = {}
    for n, row in enumerate(rows):
        found = _mini(row if isinstance(row, Mapping) else {}, f"miniatures[{n}]", problems)
        if found is None:
            continue
        if found.name.casefold() in {m.casefold() for m in minis}:
            problems.append(f"miniatures[{n}].name: {found.name!r} is listed twice")
        minis[found.name] = found
    if problems:
        raise CatalogError(source, problems)
    return Catalog(minis)


def _mini(row: Mapping[str, Any], where: str, problems: list[str]) -> Miniature | None:
    before = len(problems)
    name = row.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append(f"{where}.name: every card needs its exact name")
    labels = row.get("labels", ())
    if not isinstance(labels, list) or not labels or any(lb not in LABELS for lb in labels):
        problems.append(f"{where}.labels: {labels!r}; give one or more of {', '.join(LABELS)}")
    for key, least in (("cost", 1), ("speed", 0), ("force", 0)):
        value = row.get(key, 0 if key == "force" else None)
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            problems.append(f"{where}.{key}: {value!r} is not a whole number of at least {least}")
    problems += _extras(row, where)
    if len(problems) > before:
        return None
    carry = row.get("transport", {})
    return Miniature(str(name).strip(), tuple(labels), row["cost"], row["speed"], row.get("force", 0),
                     bool(row.get("unique", False)), str(row.get("character", "")),
                     tuple(map(str, row.get("abilities", ()))), tuple(row.get("flags", ())),
                     str(row.get("size", "medium")), str(row.get("base", "1x1")),
                     int(carry.get("small_or_medium", 0)), int(carry.get("large", 0)),
                     {k: int(v) for k, v in row.get("stats", {}).items()})


def _extras(row: Mapping[str, Any], where: str) -> list[str]:
    out = []
    flags = row.get("flags", [])
    if not isinstance(flags, list) or any(f not in FLAGS for f in flags):
        out.append(f"{where}.flags: {flags!r}; each is one of {', '.join(FLAGS)}")
    if row.get("size", "medium") not in SIZES:
        out.append(f"{where}.size: {row.get('size')!r} is not one of {', '.join(SIZES)}")
    if not isinstance(row.get("abilities", []), list):
        out.append(f"{where}.abilities: write a list of ability names")
    carry = row.get("transport", {})
    if not isinstance(carry, Mapping) or any(k not in ("small_or_medium", "large") or not isinstance(v, int)
                                             or isinstance(v, bool) or v < 0 for k, v in carry.items()):
        out.append(f"{where}.transport: write {{ small_or_medium = 2, large = 1 }}")
    stats = row.get("stats", {})
    if not isinstance(stats, Mapping) or any(k not in STATS or not isinstance(v, int) for k, v in stats.items()):
        out.append(f"{where}.stats: write {{ hp = 80, defense = 18, attack = 10, damage = 20 }}")
    if row.get("character") and not row.get("unique"):
        out.append(f"{where}.character: only a unique has a character name (set unique = true)")
    return out


EXAMPLE = Path(__file__).resolve().parents[3] / "rules" / "star_wars_miniatures" / "example_catalog.toml"


def catalog_of(book: Mapping[str, Any] | Any) -> Catalog:
    """The campaign's catalog: `[rules.catalog] file`, "example" for the shipped example catalog
    (rules/star_wars_miniatures/example_catalog.toml), else a path; read once per file version."""
    name = str(book["catalog.file"])
    path = EXAMPLE if name == "example" else Path(name)
    try:
        stat = path.stat()
    except OSError:
        return load_catalog(path)             # reports the missing file
    return _cached(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=16)
def _cached(path: str, mtime_ns: int, size: int) -> Catalog:
    return load_catalog(path)
