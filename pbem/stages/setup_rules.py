"""Rule settings read when the game is set up apply until the game starts.

A rule system reads some of campaign.toml's `[rules]` only when it sets the game up (`create`):
Conquest's `setup.starting_gold` (COC-SET-12), Diplomacy's `start_year`, a Daemon Rift list's
`lists.points`. `pbem new` cannot pass rules, so a GM sets them by editing campaign.toml, and
the change must not be lost. The rules the game was set up with are kept in state.toml
(`[setup_rules]`); each tick, each GM command given on the command line (`pbem resolve`, `pbem
gm`, ...) and `pbem resolve --dice` before they run compare them with campaign.toml's:

- a change no setup reads (a rule read as play goes) is taken as it is;
- a change a setup reads, before the game has started (no stage resolved, no GM command):
  the game is set up again from the rules as they are now;
- after the start, or in a campaign started from a position, it can no longer apply: one
  settings problem per key, saying what to do, and the campaign is not processed until then.

Which keys a setup reads is found by setting it up with each changed key alone, not by a list a
rule system keeps: no rule system can forget one.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pbem.kit.rulebook import RulesError
from pbem.rulesets.base import AnyRuleset
from pbem.stages import turns
from pbem.stages.record import StageRecord
from pbem.state.campaign import Campaign, Settings, SettingsError

KEY = "setup_rules"
MISSING = object()
REFUSED = (RulesError, ValueError, LookupError, TypeError, OSError)
"""What a rule system's `create` raises for rules it refuses (as `Ruleset.settings_problems` reads it)."""


def record(state: dict[str, Any], settings: Settings, position: bool = False) -> None:
    """Remember the rules the game was just set up with (`position`: from a position file)."""
    state[KEY] = {"rules": copy.deepcopy(dict(settings.rules)), "position": position}


def apply(camp: Campaign, ruleset: AnyRuleset) -> str | None:
    """Take a change of campaign.toml's rules since the game was set up: None when there is none,
    else what was done, for the tick's log (the caller saves). Raises SettingsError for a change
    that can no longer apply."""
    kept = camp.state.get(KEY)
    if not isinstance(kept, Mapping) or kept.get("rules") == camp.settings.rules:
        return None
    before, position = dict(kept.get("rules") or {}), bool(kept.get("position"))
    keys = setup_keys(ruleset, camp.settings, before)
    if keys and (position or started(camp.state)):
        raise SettingsError(camp.folder / "campaign.toml", [refusal(camp, key, before, position) for key in keys])
    record(camp.state, camp.settings, position)
    if not keys:
        return "the rules changed in campaign.toml apply as play goes"
    camp.state["game"] = ruleset.create(camp.settings)
    turns.snapshot_start(camp, StageRecord.read(camp.state).turn)     # what a rollback restores
    return f"the game was set up again with {', '.join(f'rules.{k}' for k in keys)} as campaign.toml has it now"


def started(state: Mapping[str, Any]) -> bool:
    """A stage has been resolved or a GM command given: the game set up is being played."""
    return turns.generation(dict(state)) > 1 or bool(state.get("gm_log"))


def setup_keys(ruleset: AnyRuleset, settings: Settings, before: Mapping[str, Any]) -> list[str]:
    """The changed rule keys (dotted) that change the game `create` sets up, each tried alone."""
    now = flat(settings.rules)
    was = flat(before)
    try:
        base = ruleset.create(replace(settings, rules=dict(before)))
    except REFUSED:             # rules that no longer set a game up (a key since retired): nothing to compare
        return []
    out = []
    for key in sorted(set(now) | set(was)):
        if now.get(key, MISSING) == was.get(key, MISSING):
            continue
        try:
            alone = ruleset.create(replace(settings, rules=nested(was | {key: now.get(key, MISSING)})))
        except REFUSED:         # the key alone refuses to set up: it is read by the setup
            out.append(key)
            continue
        if alone != base:
            out.append(key)
    return out


def refusal(camp: Campaign, key: str, before: Mapping[str, Any], position: bool) -> str:
    value = flat(before).get(key, MISSING)
    back = f"set it back to {show(value)}" if value is not MISSING else "remove it"
    if position:
        return (f"rules.{key}: read only when the game is set up, and {camp.name} was set up from a position; "
                f"{back}, or import the position again (`pbem import {camp.name} POSITION.toml --force`)")
    title = StageRecord.read(camp.state).title or "its first stage"
    return (f"rules.{key}: read only when the game is set up, and {camp.name} has started (now at {title}); "
            f"{back}, or start the campaign again with it")


def show(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)


def flat(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """`{"setup": {"starting_gold": 100}}` -> `{"setup.starting_gold": 100}`."""
    out: dict[str, Any] = {}
    for name, value in table.items():
        if isinstance(value, Mapping):
            out |= flat(value, f"{prefix}{name}.")
        else:
            out[f"{prefix}{name}"] = value
    return out


def nested(values: Mapping[str, Any]) -> dict[str, Any]:
    """The inverse of `flat`; a value MISSING leaves its key out."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        if value is MISSING:
            continue
        *path, last = key.split(".")
        table = out
        for part in path:
            table = table.setdefault(part, {})
        table[last] = value
    return out
