"""The acceptance scenarios' test map, catalog and a state builder (catalog: Acceptance scenarios)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.kit.roster import Roster
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.star_wars_miniatures import rules
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures.catalog import Catalog, load_catalog
from pbem.rulesets.star_wars_miniatures.model import Land, Player, Squad, SWMState
from pbem.rulesets.star_wars_miniatures.regions import RegionMap, map_from_dict

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_CATALOG = ROOT / "rules" / "star_wars_miniatures" / "example_catalog.toml"
TEN_FACTIONS = ROOT / "rules" / "star_wars_miniatures" / "ten_factions.toml"

# Territory, region, income, stacking, capital
TERRITORIES = [("A1", "RA", 60, 2, True), ("A2", "RA", 30, 1, False), ("A3", "RA", 20, 2, False),
               ("B1", "RB", 60, 2, True), ("B2", "RB", 30, 2, False), ("B3", "RB", 20, 1, False),
               ("B4", "RB", 10, 1, False), ("C1", "RC", 60, 2, True), ("C2", "RC", 30, 1, False)]
LINKS = ["A1-A2", "A1-A3", "A2-B2", "A3-B2", "A3-C2", "B1-B2", "B1-B3", "B1-B4", "B2-B3", "B3-C2", "C1-C2"]
OWNERS = {"RA": "alice", "RB": "bob", "RC": "cara"}
FACTIONS = {"alice": "imperial", "bob": "rebel", "cara": "mandalorian"}


def map_data() -> dict[str, Any]:
    pairs = [tuple(link.split("-")) for link in LINKS]
    rows = []
    for ident, region, income, stacking, capital in TERRITORIES:
        adjacent = sorted({b for a, b in pairs if a == ident} | {a for a, b in pairs if b == ident})
        rows.append({"id": ident, "name": ident, "region": region, "income": income, "stacking": stacking,
                     "capital": capital, "mapboards": ["Cantina", "Hangar Bay"], "adjacent": adjacent})
    regions = [{"id": r, "name": r, "capital": r[1] + "1"} for r in ("RA", "RB", "RC")]
    return {"name": "Test map", "region": regions, "territory": rows}


def test_map() -> RegionMap:
    return map_from_dict(map_data(), "test map")


def catalog() -> Catalog:
    return load_catalog(EXAMPLE_CATALOG)


def state() -> SWMState:
    """Turn 1 of the test map: Alice Imperial, Bob Rebel, Cara Mandalorian, capitals fortified."""
    st = SWMState(turn=1)
    for ident, region, _, _, capital in TERRITORIES:
        st.lands[ident] = Land(owner=OWNERS[region], fortified=capital)
    for player, faction in FACTIONS.items():
        region = next(r for r, p in OWNERS.items() if p == player)
        st.players[player] = Player(player, faction, region, region[1] + "1")
    st.sides = [[p] for p in FACTIONS]
    return st


def squad(st: SWMState, cat: Catalog, ident: str, owner: str, place: str, cards: list[str],
          ids: list[str] | None = None, damaged: bool = False) -> Squad:
    """A squad of `cards` ("Stormtrooper x5" repeats), troops named by `ids` or t<n>."""
    names: list[str] = []
    for card in cards:
        name, _, times = card.rpartition(" x")
        names += [name] * int(times) if name and times.isdigit() else [card]
    made = Squad(ident, owner, place, roster=Roster(ident), damaged=damaged)
    for n, name in enumerate(names):
        mini = cat.lookup(name)
        tid = ids[n] if ids and n < len(ids) else f"t{st.next_troop}"
        st.next_troop += 1
        made.roster.entries.append(tr.new_troop(tid, mini, mini.labels[0], st.turn))
    st.squads[ident] = made
    st.arrive(made, place)
    return made


def chosen(section: str, key: str, value: Any) -> RuleBook:
    """The rule book of a campaign.toml saying `[rules.<section>] <key> = <value>`."""
    return rules.load({section: {key: value}})
