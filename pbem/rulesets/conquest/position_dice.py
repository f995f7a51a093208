"""The dice a Conquest position may carry, as the reports show them: `capital_rolls` (the rolls
that drew window S's pick order, COC-SET-4) and `tiebreaks` (the round's size tie-break dice,
COC-ORD-6), each `{ anna = [3, 5] }`, every die a whole number from 1 up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Reads(Protocol):
    players: list[str]

    def fail(self, key: str, text: str) -> None: ...

    def get(self, data: Mapping[str, Any], name: str, where: str, kind: type[dict[str, Any]],
            default: dict[str, Any]) -> dict[str, Any]: ...

    def player(self, value: Any, key: str) -> str: ...


def rolls(r: Reads, data: Mapping[str, Any], name: str) -> dict[str, list[int]]:
    out = {}
    for player, faces in r.get(data, name, "", dict, {}).items():
        key = f"{name}.{player}"
        if not r.player(player, key):
            continue
        if not isinstance(faces, list) or not all(isinstance(f, int) and not isinstance(f, bool) and f >= 1
                                                  for f in faces):
            r.fail(key, f"the dice rolled, whole numbers from 1 up like [3, 5], not {faces!r}")
            continue
        out[player] = list(faces)
    return out
