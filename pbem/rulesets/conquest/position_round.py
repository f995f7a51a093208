"""A Conquest round's records after window 1, exactly as pbem keeps them (docs/positions/conquest.md,
"The round's records as pbem keeps them"): what `pbem export-position` writes so that a round
taken up in window 2, 3 or 4 goes on as it would have. A position written by hand leaves them
out; each is checked for its form (known keys, whole numbers, text, true or false).

- `challenges` (`[[challenges]]`: challenger, target, sea, broke_team, note); `revenue` and
  `disaster` (`[[revenue]]`, `[[disaster]]`: window 1's mine revenue and Disaster rolls); the lists
  `missed_challenges`, `missed_sea_challenges`, `assaults`, `disputed` and `log` (the round's notes
  no report showed yet); `team_choice` (`{ anna = "team" }`), `siege_consent` (`{ cara = ["ben"] }`),
  `setup_orders` and `standing_setups` (`{ anna = [{ battle = "B1", points = 2000 }] }`), `reports`
  (`[[reports]]`, each side's battle report);
- besides what a hand-written position gives: a set-up's `note` and `abstract`, an army's
  `largest_bonus`, `gold_bonus` and `stand_in`; an outcome's `how` and abstract dice
  (`abstract_faces`, `abstract_bonus`, `abstract_total`); an EP award's `battles`, `average` and
  `all_or_nothing` (`[ep.anna]` as a table with `earned`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar, get_type_hints

from pbem.kit.scene import Resolved
from pbem.kit.tomlio import from_data, lean, to_data
from pbem.rulesets.conquest.model import (
    W_CONQUEST,
    Army,
    BattleEP,
    BattleOutcome,
    BattleSetup,
    Challenge,
    ConquestState,
    DisasterRoll,
    EPAward,
    MineRevenue,
    ResultReport,
    SetupOrder,
    Win,
)

T = TypeVar("T")

LISTS = ("missed_challenges", "missed_sea_challenges", "assaults", "disputed", "log")
TABLES = ("team_choice", "siege_consent", "setup_orders", "standing_setups")
KEYS = ("challenges", "reports", "revenue", "disaster", *LISTS, *TABLES)
ANY_WINDOW = ("last",)
SETUP_EXTRA = ("note", "abstract")
ARMY_EXTRA = ("largest_bonus", "gold_bonus", "stand_in")
OUTCOME_EXTRA = ("how", "abstract_faces", "abstract_bonus", "abstract_total")
AWARD_EXTRA = ("battles", "average", "all_or_nothing")


class Reads(Protocol):
    def fail(self, key: str, text: str) -> None: ...


class Reading(Reads, Protocol):
    """What `position.Reading` offers the readers here."""

    def get(self, data: Mapping[str, Any], name: str, where: str, kind: type[T], default: T) -> T: ...

    def number(self, data: Mapping[str, Any], name: str, where: str, least: int = 0) -> int: ...

    def player(self, value: Any, key: str) -> str: ...

    def tables(self, data: Mapping[str, Any], name: str) -> list[tuple[str, Mapping[str, Any]]]: ...

    def known(self, data: Mapping[str, Any], allowed: Sequence[str], where: str) -> None: ...


def awards(r: Reading, state: ConquestState, data: Mapping[str, Any]) -> None:
    """Window 4: `[ep]` (EP earned this round, carried EP added, COC-SPD-2) and `[[wins]]` (COC-RES-17)."""
    if state.round.window != W_CONQUEST:
        return
    earned = r.get(data, "ep", "", dict, {})
    for player in earned:
        r.player(player, f"ep.{player}")
    for player in state.active():
        given = earned.get(player, 0)       # a number, or a table with `earned` (position_round)
        ep = r.number(given, "earned", f"ep.{player}.") if isinstance(given, Mapping) else \
            r.number(earned, player, "ep.") if player in earned else 0
        carried = state.empires[player].carried_ep
        state.round.ep.append(EPAward(player, earned=ep, carried=carried, available=ep + carried))
    for where, entry in r.tables(data, "wins"):
        r.known(entry, ("winner", "loser", "count"), where)
        win = Win(r.player(entry.get("winner", ""), f"{where}winner"),
                  r.player(entry.get("loser", ""), f"{where}loser"), r.number(entry, "count", where, least=1)
                  if "count" in entry else 1)
        state.round.wins.append(win)


def read(r: Reads, state: ConquestState, data: Mapping[str, Any]) -> None:
    """The exact records of the round, into `state.round` (after the hand-written ones are read)."""
    rnd = state.round
    rnd.challenges = records(r, Challenge, _list(r, data, "challenges"), "challenges")
    rnd.reports = records(r, ResultReport, _list(r, data, "reports"), "reports")
    rnd.revenue = records(r, MineRevenue, _list(r, data, "revenue"), "revenue")
    rnd.disaster = records(r, DisasterRoll, _list(r, data, "disaster"), "disaster")
    for name in LISTS:
        setattr(rnd, name, [str(v) for v in _list(r, data, name)])
    rnd.team_choice = {str(p): str(v) for p, v in _table(r, data, "team_choice").items()}
    rnd.siege_consent = {str(p): [str(x) for x in v] for p, v in _table(r, data, "siege_consent").items()
                         if isinstance(v, list)}
    for name in ("setup_orders", "standing_setups"):
        setattr(rnd, name, {str(p): records(r, SetupOrder, v, f"{name}.{p}")
                            for p, v in _table(r, data, name).items() if isinstance(v, list)})
    _extras(r, state, data)


def _extras(r: Reads, state: ConquestState, data: Mapping[str, Any]) -> None:
    rnd = state.round
    for i, entry in enumerate(_list(r, data, "setups")):
        setup = rnd.setup(str(entry.get("battle", ""))) if isinstance(entry, Mapping) else None
        if setup is not None:
            _fill(r, setup, BattleSetup, entry, SETUP_EXTRA, f"setups[{i}].")
            for j, army in enumerate(entry.get("armies", [])):
                if isinstance(army, Mapping) and j < len(setup.armies):
                    _fill(r, setup.armies[j], Army, army, ARMY_EXTRA, f"setups[{i}].armies[{j}].")
    for i, entry in enumerate(_list(r, data, "outcomes")):
        outcome = rnd.outcome(str(entry.get("battle", ""))) if isinstance(entry, Mapping) else None
        if outcome is not None:
            _fill(r, outcome, BattleOutcome, entry, OUTCOME_EXTRA, f"outcomes[{i}].")
    given = _table(r, data, "ep")
    for award in rnd.ep:
        entry = given.get(award.player)
        if isinstance(entry, Mapping):
            _fill(r, award, EPAward, entry, AWARD_EXTRA, f"ep.{award.player}.")
            award.battles = [b for b in award.battles if isinstance(b, BattleEP)]


def last(r: Reads, state: ConquestState, data: Mapping[str, Any]) -> None:
    """`[last]`, at any window: what the last window did, for its map picture, as pbem keeps it."""
    if "last" in data:
        try:
            state.last = from_data(Resolved, data["last"])
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            r.fail("last", f"not as pbem keeps it ({exc})")


def export_last(state: ConquestState, out: dict[str, Any]) -> None:
    if state.last != Resolved():
        out["last"] = lean(Resolved, to_data(state.last))


def records(r: Reads, cls: type[T], values: list[Any], key: str) -> list[T]:
    built = [exact(r, cls, value, f"{key}[{i}]") for i, value in enumerate(values)]
    return [b for b in built if b is not None]


def exact(r: Reads, cls: type[T], value: Any, key: str) -> T | None:
    """A record of `cls` from its table, its known keys each of the field's kind; None (and a
    problem) when it is not one."""
    if not isinstance(value, Mapping):
        r.fail(key, "must be a table")
        return None
    hints = get_type_hints(cls)
    problems = [f"{key}.{name}: not a key here; the keys are {', '.join(hints)}" for name in value
                if name not in hints]
    problems += [f"{key}.{name}: must be {_kind(hints[name])}, not {v!r}" for name, v in value.items()
                 if name in hints and not _fits(hints[name], v)]
    problems += [f"{key}.{f.name}: missing" for f in dataclasses.fields(cls)     # type: ignore[arg-type]
                 if f.name not in value and f.default is dataclasses.MISSING
                 and f.default_factory is dataclasses.MISSING]
    for problem in problems:
        where, text = problem.split(": ", 1)
        r.fail(where, text)
    return None if problems else from_data(cls, value)


def _fill(r: Reads, target: Any, cls: type[Any], entry: Mapping[str, Any], names: tuple[str, ...],
          where: str) -> None:
    hints = get_type_hints(cls)
    for name in names:
        if name not in entry:
            continue
        if not _fits(hints[name], entry[name]):
            r.fail(f"{where}{name}", f"must be {_kind(hints[name])}, not {entry[name]!r}")
            continue
        setattr(target, name, from_data(hints[name], entry[name]))


def _fits(hint: Any, value: Any) -> bool:
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    origin = getattr(hint, "__origin__", None)
    if origin is list:
        return isinstance(value, list) and all(_fits(hint.__args__[0], v) for v in value)
    if dataclasses.is_dataclass(hint):
        return isinstance(value, Mapping)
    return True


def _kind(hint: Any) -> str:
    return {bool: "true or false", int: "a whole number", str: "text"}.get(hint, "a list" if
                                                                           getattr(hint, "__origin__", None) is list
                                                                           else "a table")


def _list(r: Reads, data: Mapping[str, Any], name: str) -> list[Any]:
    value = data.get(name, [])
    if not isinstance(value, list):
        r.fail(name, "must be a list")
        return []
    return value


def _table(r: Reads, data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, Mapping):
        r.fail(name, "must be a table")
        return {}
    return value


def export(state: ConquestState, out: dict[str, Any]) -> None:
    """The exact records into the exported position `out` (its hand-written records already in)."""
    rnd = state.round
    data = to_data(rnd)
    for name in KEYS:
        if data.get(name):
            out[name] = data[name]
    out.pop("log", None)
    if rnd.log[rnd.log_shown:]:           # what the next report shows: the lines shown already are not again
        out["log"] = rnd.log[rnd.log_shown:]
    for entry, setup in zip(out.get("setups", []), rnd.setups, strict=False):
        entry |= {n: getattr(setup, n) for n in SETUP_EXTRA}
        for army_entry, army in zip(entry["armies"], setup.armies, strict=False):
            army_entry |= {n: getattr(army, n) for n in ARMY_EXTRA}
    for entry, outcome in zip(out.get("outcomes", []), rnd.outcomes, strict=False):
        entry |= {n: to_data(getattr(outcome, n)) for n in OUTCOME_EXTRA}
    if "ep" in out:
        out["ep"] = {a.player: {"earned": a.earned, **{n: to_data(getattr(a, n)) for n in AWARD_EXTRA}}
                     for a in rnd.ep}
