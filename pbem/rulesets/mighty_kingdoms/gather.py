"""Winter: gather resources (MK-GTH-1..8).

Every player gathers at once (MK-GTH-1): each village he controls gives food, each city gold
(a captured capital is an ordinary city for its captor, MK-GEN-9, MK-GTH-5), and his own
capital, while he holds it, one gold more (MK-GTH-4). Fortresses, empty tiles and towers give
nothing (MK-GTH-6). What is left from earlier winters stays (`resources.carry_over`, A24).
"""

from __future__ import annotations

from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import CITY, FORTRESS, VILLAGE, MKState, MKView

PLURAL = {CITY: "cities", VILLAGE: "villages", FORTRESS: "fortresses"}


def income(view: MKView, player: str) -> tuple[int, int]:
    """(gold, food) the player's kingdom yields this winter."""
    state, rules = view.state, view.rules
    cities = len(state.settlements_of(player, CITY))
    villages = len(state.settlements_of(player, VILLAGE))
    fortresses = len(state.settlements_of(player, FORTRESS))
    gold = cities * rules["resources.city_gold"] + fortresses * rules["resources.fortress_income"]
    if state.capital_of(player):
        gold += rules["resources.capital_bonus_gold"]
    return gold, villages * rules["resources.village_food"]


def run(view: MKView, sections: list[Section]) -> None:
    """Every player gathers at once: villages give food, cities gold, an own capital one more gold."""
    state, section = view.state, Section("Gather")
    yields = {p: income(view, p) for p in players(state)}      # all at once, before anyone's stock changes
    for player, (gold, food) in yields.items():
        kingdom = state.kingdoms[player]
        if not view.rules["resources.carry_over"]:
            kingdom.gold = kingdom.food = 0
        kingdom.gold += gold
        kingdom.food += food
        state.winter.income[player] = [gold, food]
        section.add(f"{kingdom.name} gathers {gold} gold and {food} food{sources(view, player)}; "
                    f"now {kingdom.gold} gold and {kingdom.food} food")
    sections.append(section)


def players(state: MKState) -> list[str]:
    """Every kingdom, in player order (those missing from the order after them)."""
    return list(state.order) + [p for p in state.kingdoms if p not in state.order]


def sources(view: MKView, player: str) -> str:
    """` (2 cities, capital bonus, 1 village)`: where the income comes from."""
    state = view.state
    parts = []
    for kind in (CITY, VILLAGE):
        n = len(state.settlements_of(player, kind))
        if n:
            parts.append(f"{n} {kind if n == 1 else PLURAL[kind]}")
    if state.capital_of(player):
        parts.insert(1 if state.settlements_of(player, CITY) else 0, "capital bonus")
    return f" ({', '.join(parts)})" if parts else " (no village or city)"
