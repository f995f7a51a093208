"""A purchase on a player's W1 list, as stored in the payload, and the verdict on it at one moment.

An item is a TOML-ready table:

    { verb = "BUILD",   settlement = "village", tile = "T5" }
    { verb = "RECRUIT", tile = "T9", disband = "A4", name = "Iron Guard", units = ["<unit line>", ...] }
    { verb = "TITHE",   to = "b", gold = 1, food = 0, message = "for the bridge" }

`disband`, `name` and `message` are "" when not given. A `Verdict` says whether the item can
be bought now, must wait (it stays in its place and is tried again in a later cycle: MK-SPD-7,
A32), or can never be bought this winter (it is dropped with its reason).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

BUILD, RECRUIT, TITHE = "BUILD", "RECRUIT", "TITHE"
VERBS = (BUILD, RECRUIT, TITHE)

Item = Mapping[str, Any]


@dataclass(frozen=True)
class Verdict:
    never: str = ""      # why the item can never be bought this winter: dropped at once
    later: str = ""      # why it cannot be bought yet: it stays and is tried again

    @property
    def ok(self) -> bool:
        return not self.never and not self.later


NOW = Verdict()


def line(item: Item) -> str:
    """The item as its owner wrote it (the list block of a recruit summed up)."""
    verb = item["verb"]
    if verb == BUILD:
        return f"BUILD {item['settlement']} {item['tile']}"
    if verb == RECRUIT:
        disband = f" DISBAND {item['disband']}" if item.get("disband") else ""
        return f"RECRUIT {item['tile']}{disband}"
    message = f" {item['message']}" if item.get("message") else ""
    return f"TITHE {item['to']} {item['gold']}g {item['food']}f{message}"


def lines(item: Item) -> list[str]:
    """The item as lines a player can send again: a recruit with its whole list block."""
    if item["verb"] != RECRUIT:
        return [line(item)]
    name = f" {item['name']}" if item.get("name") else ""
    return [line(item), f"LIST{name}", *item.get("units", []), "END LIST"]


def short(stock: int, needed: int, what: str) -> str:
    """`needs 1 food, has 0`, or "" when the stock covers it."""
    return f"needs {needed} {what}, has {stock}" if stock < needed else ""
