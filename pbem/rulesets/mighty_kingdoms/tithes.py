"""Winter: tithes (MK-TTH-1..6).

A tithe gives one other player up to `tithe.max_gold` gold and `tithe.max_food` food from the
giver's stock, at least one of them when `tithe.require_nonzero` (A29). The recipient cannot
refuse; the resources move at once and may be spent in his later purchases (MK-TTH-2, MK-TTH-3).
Each player tithes each other player at most `tithe.per_recipient_per_winter` times
(MK-TTH-4). A tithe is the giver's purchase for the cycle (MK-TTH-5). Its free-text message is
relayed in the report and never enforced (MK-TTH-6).
"""

from __future__ import annotations

from pbem.kit.rulebook import RuleBook
from pbem.rulesets.mighty_kingdoms.model import MKState
from pbem.rulesets.mighty_kingdoms.purchase import NOW, Item, Verdict, short


def amount_problem(rules: RuleBook, gold: int, food: int) -> str:
    """Why the amounts make no tithe ("" if they do)."""
    top_gold, top_food = rules["tithe.max_gold"], rules["tithe.max_food"]
    if not 0 <= gold <= top_gold or not 0 <= food <= top_food:
        return f"a tithe gives at most {top_gold} gold and {top_food} food, like TITHE <player> 1g 0f"
    if rules["tithe.require_nonzero"] and not gold and not food:
        return "a tithe of 0 gold and 0 food gives nothing; give 1g, 1f or both"
    return ""


def given(state: MKState, giver: str, recipient: str) -> int:
    """How many tithes the giver has made to the recipient this winter."""
    return state.winter.tithes.count(f"{giver}>{recipient}")


def verdict(state: MKState, rules: RuleBook, giver: str, item: Item) -> Verdict:
    recipient = item["to"]
    if recipient == giver or recipient not in state.kingdoms:
        return Verdict(never="a tithe goes to another player")
    problem = amount_problem(rules, int(item["gold"]), int(item["food"]))
    if problem:
        return Verdict(never=problem)
    if given(state, giver, recipient) >= rules["tithe.per_recipient_per_winter"]:
        return Verdict(never=f"{state.kingdoms[giver].name} has already tithed "
                             f"{state.kingdoms[recipient].name} this winter (one tithe per recipient)")
    kingdom = state.kingdoms[giver]
    lack = short(kingdom.gold, int(item["gold"]), "gold") or short(kingdom.food, int(item["food"]), "food")
    return Verdict(later=lack) if lack else NOW


def give(state: MKState, giver: str, item: Item) -> str:
    """Move the resources at once (MK-TTH-2); returns the report line, message relayed (MK-TTH-6)."""
    gold, food, recipient = int(item["gold"]), int(item["food"]), item["to"]
    source, target = state.kingdoms[giver], state.kingdoms[recipient]
    source.gold, source.food = source.gold - gold, source.food - food
    target.gold, target.food = target.gold + gold, target.food + food
    state.winter.tithes.append(f"{giver}>{recipient}")
    said = f"; message: \u201c{item['message']}\u201d" if item.get("message") else ""
    return (f"{source.name} tithes {gold} gold and {food} food to {target.name} "
            f"({source.name} now {source.gold} gold and {source.food} food, "
            f"{target.name} {target.gold} gold and {target.food} food){said}")
