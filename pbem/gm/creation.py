"""Creating a campaign folder: settings, hashed secrets, opening state, the welcome mails owed."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import tomllib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem.delivery.welcome import owe as owe_welcomes
from pbem.delivery.welcome import welcome_replies, welcome_reply
from pbem.errors import UserError
from pbem.gm.positions import Position
from pbem.kit.players import field_problems, unknown_fields, with_defaults
from pbem.kit.text import shown, text_problem
from pbem.kit.texts import counted
from pbem.rulesets import registry
from pbem.rulesets.base import AnyRuleset, PositionError
from pbem.stages import setup_rules, turns
from pbem.state import credentials
from pbem.state.campaign import NAME_RE, Campaign, settings_from
from pbem.state.checks import SettingsError, email_problem
from pbem.state.site import FILE as SITE_FILE
from pbem.state.site import load_site
from pbem.state.store import write_toml

__all__ = ["CreationError", "NewPlayer", "create", "welcome_replies", "welcome_reply"]


class CreationError(UserError):
    """Why `pbem new` cannot make the campaign: every problem, each one line; nothing was written."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


@dataclass(frozen=True)
class NewPlayer:
    id: str
    name: str
    email: str
    faction_name: str = ""
    faction: str = ""
    extras: dict[str, str] = field(default_factory=dict, hash=False)    # the rule system's player fields

    @classmethod
    def parse(cls, spec: str) -> NewPlayer:
        """`id,Name,email[,Faction name[,F]][,field=value...]`, e.g. `red,Alice,alice@example.org,Red,R,home=3`."""
        parts = [p.strip() for p in spec.split(",")]
        named = [p for p in parts[3:] if FIELD.match(p)]
        plain = [p for p in parts[3:] if not FIELD.match(p)]
        if len(parts) < 3 or len(plain) > 2:
            raise UserError(f"{shown(spec)}: expected id,Name,email[,Faction[,token prefix]][,field=value...]")
        faction_name = plain[0] if plain else ""     # none given: the player's name, after
        faction = plain[1] if len(plain) > 1 else ""          # the rule system had its say (_with_defaults)
        extras = dict(p.split("=", 1) for p in named)
        return cls(parts[0], parts[1], parts[2].lower(), faction_name, faction,
                   {k.strip(): v.strip() for k, v in extras.items()})

    def problems(self) -> list[str]:
        """What keeps these fields from a campaign.toml entry (the whole campaign is checked later)."""
        given = (("id", self.id), ("name", self.name), ("faction", self.faction_name), ("token prefix", self.faction),
                 *self.extras.items())
        found = [f"{key}: {problem}" for key, value in given if (problem := text_problem(value))]
        if not self.id or re.search(r"\s", self.id):
            found.append(f"id: {shown(self.id)}; expected one word, e.g. red (players sign with PLAYER <id>)")
        elif self.id.casefold() == "gm":
            found.append("id: 'gm' is the game master's; choose another")
        if not self.name.strip():
            found.append("name: missing; expected the player's name")
        if problem := email_problem(self.email):
            found.append(f"email: {problem}")
        return found

    def fields(self, ruleset: AnyRuleset, seat: int) -> dict[str, str]:
        """The rule system's fields as campaign.toml keeps them: given, or the default for `seat`."""
        return with_defaults(ruleset.player_fields, self.extras, seat)

    def field_problems(self, ruleset: AnyRuleset, seat: int) -> list[str]:
        """Fields the rule system does not have, and values it refuses."""
        return unknown_fields(ruleset.player_fields, self.extras, ruleset.title) + \
            field_problems(ruleset.player_fields, self.fields(ruleset, seat))


FIELD = re.compile(r"^\s*[A-Za-z_][A-Za-z0-9_]*\s*=")
"""A `--player` part that names one of the rule system's fields: `home=3`."""


def read_players(specs: list[str]) -> tuple[list[NewPlayer], list[str], list[str]]:
    """The `--player` arguments that have the right form, their labels (`--player 2`) and the
    problems of those that have not."""
    players, labels, problems = [], [], []
    for n, spec in enumerate(specs, start=1):
        try:
            players.append(NewPlayer.parse(spec))
            labels.append(f"--player {n}")
        except UserError as exc:
            problems.append(f"--player {n}: {exc}")
    return players, labels, problems


def argument_problems(root: Path, name: str, ruleset_name: str, players: list[NewPlayer], gm_email: str,
                      labels: list[str] | None = None, address: str = "", timezone: str = "") -> list[str]:
    """Every problem of the arguments that can be seen before the rule system is asked; players
    are named by `labels` (default `player 1`, `player 2`...)."""
    labels = labels or [f"player {n}" for n in range(1, len(players) + 1)]
    problems = [] if NAME_RE.match(name) else [f"name: {shown(name)}: use 1-48 lower-case letters, digits, '-' or '_'"]
    problems += place_problems(address, timezone, [gm_email, *(p.email for p in players)])
    try:
        ruleset: AnyRuleset | None = registry.get(ruleset_name)
    except KeyError as exc:
        ruleset = None
        problems.append(f"ruleset: {exc.args[0]}")
    if problem := email_problem(gm_email):
        problems.append(f"GM email: {problem}")
    seen: dict[str, str] = {}
    mailboxes: dict[str, str] = {}
    for seat, (label, player) in enumerate(zip(labels, players, strict=True)):
        own = player.problems() + (player.field_problems(ruleset, seat) if ruleset else [])
        problems += [f"{label} ({shown(player.id)}): {p}" for p in own]
        first = seen.setdefault(player.id.casefold(), label)
        if first != label:
            problems.append(f"{label}: the id {player.id!r} is taken by {first}")
        first = mailboxes.setdefault(player.email.casefold(), label)
        if first != label and player.email:
            problems.append(f"{label}: {player.email} is also the address of {first}; each player needs an "
                            "address of his own (pbem tells players apart by the address they write from)")
    if not players:
        problems.append("players: at least one --player is needed")
    folder = root / name
    if problems or not folder.exists():
        return problems
    if (folder / "campaign.toml").exists():
        return [f"{folder} already holds a campaign"]
    return [] if folder.is_dir() and not any(folder.iterdir()) else [
        f"{folder} exists and is not an empty folder; move it away or choose another name"]


def place_problems(address: str, timezone: str, people: list[str]) -> list[str]:
    """The campaign's own mail address (empty: the default) and time zone (empty: UTC)."""
    problems = []
    if address and (problem := email_problem(address)):
        problems.append(f"--address: {problem}")
    elif address and address.casefold() in {email.casefold() for email in people}:
        problems.append(f"--address: {address} is a player's or the GM's own address; the campaign needs "
                        "an address of its own that players write to")
    if timezone:
        try:
            ZoneInfo(timezone)
        except (ZoneInfoNotFoundError, ValueError):
            problems.append(f"--timezone: unknown time zone {shown(timezone)}; use a name like Europe/Berlin, "
                            "America/New_York or UTC")
    return problems


def create(root: Path, name: str, ruleset_name: str, map_name: str, players: list[NewPlayer],
           gm_email: str, now: datetime, schedule: dict[str, str] | None = None,
           transport: dict[str, Any] | None = None, rules: dict[str, Any] | None = None,
           fixed_secrets: dict[str, str] | None = None, welcome: bool = False,
           address: str = "", timezone: str = "", position: Position | None = None) -> tuple[Campaign, dict[str, str]]:
    """Write a new campaign; returns it and the generated secrets (sent in welcome mails, owed
    to the next tick when `welcome` is set, which renders them with the settings of that time).

    Everything is checked before anything is written, and the folder is built under a temporary
    name and renamed into place only once complete (welcome mails owed): a failure leaves no
    half-made campaign whose secrets are lost. `fixed_secrets` (player id -> secret) is for the
    demo, whose sample mails are signed. `address` and `timezone` replace the defaults
    (the shared mailbox's address of a pbem.toml in `root`, else NAME@pbem.localhost; UTC).
    `position` starts the game there instead of at the rule system's opening (`pbem new --position`).
    Raises CreationError naming every problem."""
    problems = argument_problems(root, name, ruleset_name, players, gm_email, address=address, timezone=timezone)
    if problems:
        raise CreationError(problems)
    ruleset = registry.get(ruleset_name)
    map_name = map_name or ruleset.default_map
    if not map_name:
        raise CreationError([f"map: {ruleset.title} has no default map: name one with --map"])
    secrets = {p.id: credentials.generate() for p in players} | {"gm": credentials.generate()}
    secrets |= fixed_secrets or {}
    data = _settings_table(root, name, ruleset, map_name, players, gm_email, secrets, schedule, transport, rules)
    shared = not (transport or {}).get("inbox")        # a campaign with a mailbox of its own keeps its address
    data["address"] = address.lower() or (site_address(root) if shared else "") or data["address"]
    data["schedule"] = data["schedule"] | ({"timezone": timezone} if timezone else {})
    try:
        settings_from(data, root / name, root / name / "campaign.toml")
    except SettingsError as exc:
        raise CreationError(exc.problems) from exc
    return _build(root, name, data, now, secrets if welcome else None, position), secrets


def _settings_table(root: Path, name: str, ruleset: AnyRuleset, map_name: str, players: list[NewPlayer], gm_email: str,
                    secrets: dict[str, str], schedule: dict[str, str] | None, transport: dict[str, Any] | None,
                    rules: dict[str, Any] | None) -> dict[str, Any]:
    """campaign.toml as `pbem new` writes it."""
    domain = "pbem.localhost"
    data: dict[str, Any] = {
        "name": name, "title": f"{ruleset.title}: {name}", "ruleset": ruleset.name, "map": map_name,
        "address": f"{name}@{domain}",
        "schedule": schedule or {"timezone": "UTC", **ruleset.windows, "at": "20:00", "reminder": "24h"},
        "transport": transport or _default_transport(root),
        "gm": {"id": "gm", "name": "Game master", "email": gm_email.lower(),
               "secret": credentials.hash_generated(secrets["gm"])},
        "players": [{"id": p.id, "name": p.name, "email": p.email, "faction": p.faction.upper(),
                     "faction_name": p.faction_name, **p.fields(ruleset, seat),
                     "secret": credentials.hash_generated(secrets[p.id])} for seat, p in enumerate(players)],
        "rules": rules or {},
    }
    try:
        data["players"] = _with_defaults(ruleset.assign(map_name, data["players"]))
    except ValueError as exc:
        raise CreationError([f"cannot set up {name}: {exc}"]) from exc
    return data


def _with_defaults(players: list[dict[str, str]]) -> list[dict[str, str]]:
    """A faction not named is called after its player, its token prefix the id's first letter.
    Given only now, so that a rule system reading faction names (Diplomacy's powers) sees what
    was written and tells a misspelt name from none."""
    return [p | {"faction_name": p.get("faction_name") or p["name"], "faction": p.get("faction") or p["id"][:1].upper()}
            for p in players]


def warnings(ruleset_name: str, map_name: str, players: list[NewPlayer]) -> list[str]:
    """What `pbem new` points out but does not refuse: seats the map has that nobody takes, and
    token prefixes written in lower case (read in upper case: the orders name `R-1`, not `r-1`)."""
    found = [f"token prefix {p.faction!r} of {p.id!r} is read as {p.faction.upper()!r}: orders name "
             f"tokens like {p.faction.upper()}-1" for p in players if p.faction != p.faction.upper()]
    seats = map_seats(map_name or registry.get(ruleset_name).default_map)
    if seats and len(players) < seats:
        empty = counted(seats - len(players), "seat")
        found.append(f"{counted(len(players), 'player')} on a map for {seats}: the {empty} nobody takes stay empty "
                     "(add --player to fill them)")
    return found


def choose_map(ruleset_name: str, map_name: str, count: int) -> tuple[str, list[str]]:
    """The map `pbem new` uses and what keeps it from fitting: the map named, or else the smallest
    ready-made map of the rule system drawn for at least `count` players (its default first among
    equals). A ready-made map drawn for fewer, or no map big enough, is a problem naming the maps
    that fit (or the largest there is)."""
    try:
        ruleset = registry.get(ruleset_name)
    except KeyError:
        return map_name, []                         # argument_problems names the rule system
    sized = sorted((seats, m != ruleset.default_map, m) for m in ruleset.ready_maps() if (seats := map_seats(m)))
    fits = [(seats, m) for seats, _, m in sized if seats >= count]
    shown_fits = ", ".join(f"{m} ({seats} players)" for seats, m in fits)
    if map_name:
        seats = map_seats(map_name) if map_name in ruleset.ready_maps() else 0
        if 0 < seats < count:
            return map_name, [f"--map {map_name} is drawn for {seats} players, not {count}; "
                              + (f"maps that fit: {shown_fits}" if fits else _none_fits(ruleset.title, sized, count))]
        return map_name, []
    if fits:
        return fits[0][1], []
    if not sized:                                   # no ready-made map says its size: the rule system's own
        return ruleset.default_map, []
    return ruleset.default_map, [f"map: {_none_fits(ruleset.title, sized, count)}"]


def _none_fits(title: str, sized: list[tuple[int, bool, str]], count: int) -> str:
    largest = ", ".join(f"{m} ({seats} players)" for seats, _, m in sized)
    return (f"no ready-made {title} map is drawn for {count} players (there are {largest}); draw one "
            "(rules/maps/README.md) and give its file with --map")


def site_address(root: Path) -> str:
    """The shared mailbox's address of a pbem.toml in `root` ("" without one): the address every
    campaign under it is written to (the subject tag tells them apart)."""
    try:
        site = load_site(root)
    except SettingsError as exc:
        raise CreationError([f"{SITE_FILE}: {p}" for p in exc.problems]) from exc
    return site.address if site is not None else ""


def map_seats(map_name: str) -> int:
    """How many players a ready-made map or map file is drawn for (its `players`, else its
    homes or powers); 0 when that cannot be read (the rule system reports a bad map)."""
    from pbem.kit.maps import map_path

    path = map_path(map_name)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return 0
    seats = data.get("players") or len(data.get("homes") or {}) or len(data.get("powers") or {})
    return seats if isinstance(seats, int) else 0


def _build(root: Path, name: str, data: dict[str, Any], now: datetime, welcome: dict[str, str] | None,
           position: Position | None = None) -> Campaign:
    """The campaign folder made complete under a hidden temporary name, then renamed into place."""
    folder, staging = root / name, None
    try:
        root.mkdir(parents=True, exist_ok=True)
        for stale in root.glob(f".new-{name}-*"):      # left by a run that was killed while building
            shutil.rmtree(stale, ignore_errors=True)
        staging = Path(tempfile.mkdtemp(prefix=f".new-{name}-", dir=root))
        camp = _fill(staging / name, data, now, welcome, position)
        if folder.is_dir():
            folder.rmdir()                              # empty, or argument_problems refused it
        os.rename(camp.folder, folder)
    except OSError as exc:
        raise UserError(f"cannot create {folder}: {exc.strerror or exc}; nothing was created") from exc
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
    return Campaign(folder)


def _fill(folder: Path, data: dict[str, Any], now: datetime, welcome: dict[str, str] | None,
          position: Position | None = None) -> Campaign:
    """Settings, opening state, first snapshot and (with `welcome`, the secrets) the welcome mails owed."""
    write_toml(folder / "campaign.toml", data,
               header=f"# Campaign {data['name']}: settings. Edit freely; secrets are hashes.")
    write_toml(folder / "state.toml", {})
    camp = Campaign(folder)
    ruleset = registry.get(camp.settings.ruleset)
    try:
        game = position.game(ruleset, camp.settings, now) if position else ruleset.create(camp.settings)
        camp.state = {"game": game, "journal": {}}
    except PositionError as exc:
        raise CreationError([f"{exc.source}: {problem}" for problem in exc.problems]) from exc
    except ValueError as exc:
        raise CreationError([f"cannot set up {data['name']}: {exc}"]) from exc
    if position:
        position.open(camp, ruleset, now)
    else:
        setup_rules.record(camp.state, camp.settings)
        turns.open_stage(camp, ruleset, now)
        turns.snapshot_start(camp, camp.state["stage"]["turn"])
    camp.save()
    if welcome is not None:
        owe_welcomes(camp.folder, welcome)      # rendered by the tick that sends them (pbem/delivery/welcome.py)
    return camp


def _default_transport(root: Path) -> dict[str, Any]:
    """Campaigns under a pbem.toml take its transports (pbem/state/site.py); others get Maildirs."""
    if (root / SITE_FILE).exists():
        return {}
    return {"inbox": {"type": "maildir", "path": "inbox"}, "outbox": {"type": "maildir", "path": "outbox/maildir"}}
