"""Standing preferences (MK-PBM-5): lines any window accepts, kept until replaced or cleared.

    BATTLE T5 B, T7 *, * C        ranked (tile, opponent) pairs; * is a wildcard (MK-PBM-3)
    SLAUGHTER B2, C1               enemy armies to remove first in a slaughter (MK-BAT-11)
    RETREAT A1 T4, T3              ranked retreat tiles for one army; RETREAT * T4 for every army
    WINMOVE A2 T4                  the move after a win (MK-BRS-5); WINMOVE NONE
    REFORM A1.U2 2=brutal 4=elite 5=piercing 6=ra scar0=me    reform choices for one unit (MK-PBM-6)

`CLEAR` after a verb (after the army or unit for RETREAT and REFORM) clears that preference.
A window's parse hands each such line to `parse` and keeps the entries, in order, as a list
under the payload's "standing" key (`entries`); its resolve calls `apply` first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.kit.orders import IllegalOrder, InvalidOrder, NameIndex, quoted
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.base import Player
from pbem.rulesets.mighty_kingdoms.model import Kingdom, MKState, MKView, Standing

VERBS = ("BATTLE", "SLAUGHTER", "RETREAT", "WINMOVE", "REFORM")
ANY = "*"
CLEAR = ("CLEAR", "NONE")
SYNTAX = {
    "BATTLE": "BATTLE <tile> <kingdom>, ... (best first; * for any tile or any kingdom), or BATTLE CLEAR",
    "SLAUGHTER": "SLAUGHTER <enemy army>, ... (removed first in a slaughter), or SLAUGHTER CLEAR",
    "RETREAT": "RETREAT <army or *> <tile>, <tile>, ... (best first), or RETREAT <army or *> CLEAR",
    "WINMOVE": "WINMOVE <army> <tile>, or WINMOVE NONE",
    "REFORM": "REFORM <army.unit> 2=brutal 4=elite 5=piercing 6=ra scar0=me (any of them), or REFORM <army.unit> CLEAR",
}


def parse(view: MKView, player: Player, verb: str, words: Sequence[str]) -> dict[str, Any]:
    """One standing-preference line (verb upper case, the words after it) as a payload entry under
    "standing"; raises InvalidOrder naming what is wrong."""
    if verb not in VERBS:
        raise InvalidOrder(f"{verb} is not a standing preference; they are {', '.join(VERBS)}")
    if not words:
        raise InvalidOrder(f"{verb} needs more: {SYNTAX[verb]}")
    return _PARSERS[verb](view, player.id, list(words))


def entries(payload: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The standing entries of a submission, in the order they were sent (a list of `parse`'s
    entries; a single entry stored on its own is read as a list of one)."""
    found = payload.get("standing", [])
    if isinstance(found, Mapping):
        return [found] if "verb" in found else []
    return [e for e in found if isinstance(e, Mapping) and e.get("verb") in _APPLY] if isinstance(found, list) else []


def apply(state: MKState, player: str, payload: Mapping[str, Any]) -> None:
    """Write a submission's standing preferences into the player's `Kingdom.standing`."""
    kept = state.kingdoms[player].standing
    for entry in entries(payload):
        _APPLY[str(entry["verb"])](kept, entry)


def canonical(entry: Mapping[str, Any]) -> str:
    """The line an entry was read from, as the processor writes it back."""
    verb = str(entry["verb"])
    if verb == "BATTLE":
        return "BATTLE " + (", ".join(entry["choices"]) or "CLEAR")
    if verb == "SLAUGHTER":
        return "SLAUGHTER " + (", ".join(entry["armies"]) or "CLEAR")
    if verb == "RETREAT":
        return f"RETREAT {entry['army']} " + (", ".join(entry["tiles"]) or "CLEAR")
    if verb == "WINMOVE":
        return f"WINMOVE {entry['move'] or 'NONE'}"
    choices = " ".join(f"{k}={v}" for k, v in entry["choices"].items())
    return f"REFORM {entry['unit']} {choices or 'CLEAR'}"


# -- names a line uses ----------------------------------------------------------------------
def kingdoms(state: MKState) -> NameIndex:
    """Kingdoms by player id or kingdom name."""
    return NameIndex({p: (k.name,) for p, k in state.kingdoms.items()}, what="kingdom")


def kingdom(state: MKState, text: str) -> str:
    return kingdoms(state).lookup(text)


def army(state: MKState, text: str, owner: str = "", enemy_of: str = "") -> str:
    """The army id `text` names; with `owner`, it must be his; with `enemy_of`, it must not be."""
    found = next((a for a in state.armies if a.casefold() == text.casefold()), "")
    if not found:
        index = NameIndex({a: () for a in state.armies}, what="army")
        yours = f"; yours are {_ids(state, owner)}" if owner else ""
        raise InvalidOrder(f"there is no army {quoted(text)}{yours}", suggestion=index.suggest(text))
    if owner and state.armies[found].owner != owner:
        raise IllegalOrder(f"{found} is not your army; yours are {_ids(state, owner)}")
    if enemy_of and state.armies[found].owner == enemy_of:
        raise IllegalOrder(f"{found} is your own army; name an enemy army")
    return found


def unit(state: MKState, text: str, owner: str = "") -> str:
    """The unit key `A1.U2` names (an army of `owner` when given)."""
    army_text, dot, unit_text = text.partition(".")
    if not dot or not unit_text:
        raise InvalidOrder(f"{quoted(text)} is not a unit; write army.unit, like A1.U2")
    ident = army(state, army_text, owner)
    entry = state.armies[ident].roster.get(unit_text.upper())
    if entry is None:
        units = ", ".join(e.id for e in state.armies[ident].roster.entries)
        raise InvalidOrder(f"{ident} has no unit {unit_text.upper()}; its units are {units}")
    return f"{ident}.{entry.id}"


def tile(view: MKView, text: str) -> str:
    return view.map.lookup(text)


def _ids(state: MKState, owner: str) -> str:
    return ", ".join(a.id for a in state.armies_of(owner)) or "none"


def _items(words: Sequence[str]) -> list[str]:
    return [part.strip() for part in " ".join(words).split(",") if part.strip()]


def _clearing(words: Sequence[str]) -> bool:
    return len(words) == 1 and words[0].upper() in CLEAR


# -- one parser per verb ---------------------------------------------------------------------
def _battle(view: MKView, player: str, words: list[str]) -> dict[str, Any]:
    if _clearing(words):
        return {"verb": "BATTLE", "choices": []}
    choices = []
    for item in _items(words):
        parts = item.split(None, 1)
        if len(parts) != 2:
            raise InvalidOrder(f"{quoted(item)} needs a tile and a kingdom, like `T5 B` or `* B`")
        where = ANY if parts[0] == ANY else tile(view, parts[0])
        who = ANY if parts[1] == ANY else kingdom(view.state, parts[1])
        if who == player:
            raise IllegalOrder("you cannot choose to fight your own kingdom")
        choices.append(f"{where} {who}")
    return {"verb": "BATTLE", "choices": choices}


def _slaughter(view: MKView, player: str, words: list[str]) -> dict[str, Any]:
    if _clearing(words):
        return {"verb": "SLAUGHTER", "armies": []}
    return {"verb": "SLAUGHTER", "armies": [army(view.state, a, enemy_of=player) for a in _items(words)]}


def _retreat(view: MKView, player: str, words: list[str]) -> dict[str, Any]:
    which = ANY if words[0] == ANY else army(view.state, words[0], owner=player)
    rest = words[1:]
    if not rest:
        raise InvalidOrder(f"RETREAT {which} needs tiles: {SYNTAX['RETREAT']}")
    tiles = [] if _clearing(rest) else [tile(view, t) for t in _items(rest)]
    return {"verb": "RETREAT", "army": which, "tiles": tiles}


def _win_move(view: MKView, player: str, words: list[str]) -> dict[str, Any]:
    if _clearing(words):
        return {"verb": "WINMOVE", "move": ""}
    if len(words) != 2:
        raise InvalidOrder(f"WINMOVE names one army and one tile: {SYNTAX['WINMOVE']}")
    return {"verb": "WINMOVE", "move": f"{army(view.state, words[0], owner=player)} {tile(view, words[1])}"}


def reform_options(rules: RuleBook) -> dict[str, tuple[str, ...]]:
    """The owner's choices of the medal and scar tables: medal totals "2".."6", scar "scar0"."""
    found: dict[str, tuple[str, ...]] = {}
    for prefix, table in (("", rules["medals.table"]), ("scar", rules["scars.table"])):
        for row in table:
            if "options" in row and row["min"] == row["max"]:
                found[f"{prefix}{row['min']}"] = tuple(row["options"])
    return found


def _reform(view: MKView, player: str, words: list[str]) -> dict[str, Any]:
    key = unit(view.state, words[0], owner=player)
    rest = words[1:]
    if not rest:
        raise InvalidOrder(f"REFORM {key} needs choices: {SYNTAX['REFORM']}")
    if _clearing(rest):
        return {"verb": "REFORM", "unit": key, "choices": {}}
    options = reform_options(view.rules)
    choices: dict[str, str] = {}
    for word in rest:
        result, eq, choice = word.partition("=")
        result, choice = result.casefold(), choice.casefold()
        if not eq or result not in options:
            raise InvalidOrder(f"{quoted(word)} is not a reform choice; write result=choice with result one of "
                               f"{', '.join(options)}, like 2=brutal or scar0=me")
        if choice not in options[result]:
            raise IllegalOrder(f"result {result} offers {' or '.join(options[result])}, not {quoted(choice)}")
        choices[result] = choice
    return {"verb": "REFORM", "unit": key, "choices": choices}


_PARSERS = {"BATTLE": _battle, "SLAUGHTER": _slaughter, "RETREAT": _retreat, "WINMOVE": _win_move,
            "REFORM": _reform}


# -- writing them into the kingdom ----------------------------------------------------------
def _set_battle(kept: Standing, entry: Mapping[str, Any]) -> None:
    kept.battles = list(entry["choices"])


def _set_slaughter(kept: Standing, entry: Mapping[str, Any]) -> None:
    kept.slaughter = list(entry["armies"])


def _set_retreat(kept: Standing, entry: Mapping[str, Any]) -> None:
    if entry["tiles"]:
        kept.retreats[str(entry["army"])] = list(entry["tiles"])
    else:
        kept.retreats.pop(str(entry["army"]), None)


def _set_win_move(kept: Standing, entry: Mapping[str, Any]) -> None:
    kept.win_move = str(entry["move"])


def _set_reform(kept: Standing, entry: Mapping[str, Any]) -> None:
    if entry["choices"]:
        kept.reform[str(entry["unit"])] = dict(entry["choices"])
    else:
        kept.reform.pop(str(entry["unit"]), None)


_APPLY = {"BATTLE": _set_battle, "SLAUGHTER": _set_slaughter, "RETREAT": _set_retreat, "WINMOVE": _set_win_move,
          "REFORM": _set_reform}


def described(k: Kingdom) -> list[str]:
    """A kingdom's standing preferences as lines it could send again (for acknowledgements)."""
    kept, out = k.standing, []
    if kept.battles:
        out.append("BATTLE " + ", ".join(kept.battles))
    if kept.slaughter:
        out.append("SLAUGHTER " + ", ".join(kept.slaughter))
    out += [f"RETREAT {a} " + ", ".join(t) for a, t in kept.retreats.items()]
    if kept.win_move:
        out.append(f"WINMOVE {kept.win_move}")
    out += [f"REFORM {u} " + " ".join(f"{k}={v}" for k, v in c.items()) for u, c in kept.reform.items()]
    return out
