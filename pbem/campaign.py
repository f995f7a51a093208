"""A campaign folder: settings the GM edits, state pbem writes, history it keeps.

    <campaign>/campaign.toml      settings: ruleset, map, schedule, transports, players, GM, rule overrides
    <campaign>/state.toml         pbem's state: stage, deadline, submissions, message journal, game
    <campaign>/auth.toml          secrets players changed, failed-login counters
    <campaign>/private/           dice secrets not yet revealed
    <campaign>/outbox/queue/      mail waiting for delivery; outbox/sent/ once handed over
    <campaign>/history/<turn>/    state at the start of the turn, every report, the dice log
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.forum.config import forum_problems
from pbem.schedule import Schedule
from pbem.site import load_site
from pbem.store import StoreError, read_toml, toml_text, write_together

NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,47}$")


class SettingsError(ValueError):
    """campaign.toml problems, all of them, each with its key."""

    def __init__(self, path: Path, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(f"{path}: " + "; ".join(problems))


def check_name(name: str) -> str:
    """Campaign names become folder names and mail tags: keep them plain."""
    if not NAME_RE.match(name):
        raise ValueError(f"campaign name {name!r}: use 1-48 lower-case letters, digits, '-' or '_'")
    return name


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    emails: tuple[str, ...]
    secret: str                          # stored hash, never the secret
    faction: str = ""
    faction_name: str = ""
    home: str = ""
    forum: str = ""                      # forum account; the forum authenticates it

    @property
    def email(self) -> str:
        return self.emails[0]


@dataclass(frozen=True)
class Settings:
    name: str
    title: str
    ruleset: str
    map: str
    address: str
    domain: str
    schedule: Schedule
    schedule_raw: dict[str, str]
    inbox: dict[str, str]
    outbox: dict[str, str]
    gm: Player
    players: tuple[Player, ...]
    rules: dict[str, Any] = field(default_factory=dict)
    max_mail_bytes: int = 256 * 1024
    forum: dict[str, Any] = field(default_factory=dict)   # [transport.forum]; empty: no forum

    def player(self, ident: str) -> Player | None:
        key = ident.casefold()
        return next((p for p in self.players if key in (p.id.casefold(), p.name.casefold(), p.faction.casefold(),
                                                          p.faction_name.casefold())), None)

    def players_at(self, address: str) -> list[Player]:
        return [p for p in self.players if address.casefold() in p.emails]


def load_settings(folder: Path) -> Settings:
    path = folder / "campaign.toml"
    raw = read_toml(path)
    problems: list[str] = []
    settings = _settings(raw, folder, problems)
    if problems or settings is None:
        raise SettingsError(path, problems)
    return settings


def _settings(raw: Mapping[str, Any], folder: Path, problems: list[str]) -> Settings | None:
    def need(key: str) -> str:
        value = raw.get(key)
        if not isinstance(value, str) or not value:
            problems.append(f"{key}: required text")
            return ""
        return value

    name, ruleset, map_name, address = need("name"), need("ruleset"), need("map"), need("address")
    if name and not NAME_RE.match(name):
        problems.append(f"name: {name!r} must be 1-48 lower-case letters, digits, '-' or '_'")
    if name and name != folder.name:
        problems.append(f"name: {name!r} differs from the folder name {folder.name!r}")
    schedule_raw = {k: str(v) for k, v in raw.get("schedule", {}).items()}
    try:
        schedule = Schedule.from_settings(schedule_raw)
    except ValueError as exc:
        problems.append(f"schedule: {exc}")
        schedule = Schedule.from_settings({})
    gm = _person(raw.get("gm", {}), "gm", problems)
    players = tuple(_person(p, f"players[{i}]", problems) for i, p in enumerate(raw.get("players", [])))
    if not players:
        problems.append("players: at least one [[players]] entry is needed")
    _check_unique(players, problems)
    transport = raw.get("transport", {})
    problems += forum_problems(transport.get("forum"), [(f"players[{i}]", p.forum) for i, p in enumerate(players)])
    site_inbox, site_outbox = _site_transport(folder, problems)
    if problems:
        return None
    return Settings(
        name=name, title=str(raw.get("title", name)), ruleset=ruleset, map=map_name, address=address.lower(),
        domain=address.partition("@")[2] or "localhost", schedule=schedule, schedule_raw=schedule_raw,
        inbox=dict(transport.get("inbox") or site_inbox or {"type": "maildir", "path": "inbox"}),
        outbox=dict(transport.get("outbox") or site_outbox or {"type": "maildir", "path": "outbox/maildir"}),
        gm=gm, players=players, rules=dict(raw.get("rules", {})),
        max_mail_bytes=int(raw.get("max_mail_bytes", 256 * 1024)), forum=dict(transport.get("forum", {})),
    )


def _site_transport(folder: Path, problems: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The transports a campaign inherits from pbem.toml in its parent folder (pbem/site.py)."""
    try:
        site = load_site(folder.parent)
    except (StoreError, ValueError) as exc:
        problems.append(f"shared settings: {exc}")
        return {}, {}
    return (site.inbox, site.outbox) if site else ({}, {})


def _person(raw: Mapping[str, Any], where: str, problems: list[str]) -> Player:
    emails = raw.get("emails") or ([raw["email"]] if raw.get("email") else [])
    if not emails:
        problems.append(f"{where}: needs email")
    if not str(raw.get("secret", "")).startswith(("sha256:", "scrypt:")):
        problems.append(f"{where}: secret must be a stored hash (sha256:... or scrypt:...)")
    ident = str(raw.get("id", "gm" if where == "gm" else ""))
    if not ident:
        problems.append(f"{where}: needs id")
    return Player(
        id=ident, name=str(raw.get("name", ident)), emails=tuple(e.lower() for e in emails),
        secret=str(raw.get("secret", "")), faction=str(raw.get("faction", "")),
        faction_name=str(raw.get("faction_name", "")), home=str(raw.get("home", "")),
        forum=str(raw.get("forum", "")),
    )


def _check_unique(players: tuple[Player, ...], problems: list[str]) -> None:
    seen: set[str] = set()
    for p in players:
        for key in {p.id.casefold(), p.faction.casefold()} - {""}:
            if key in seen:
                problems.append(f"players: {key!r} is used twice")
            seen.add(key)


STATE_HEADER = "# Written by pbem; edit with care."
AUTH_HEADER = "# Written by pbem: changed secrets and login failures."


class Campaign:
    """Settings plus the mutable state file, with history snapshots."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.settings = load_settings(folder)
        self.state: dict[str, Any] = self._read_state()
        self.auth: dict[str, Any] = self._read_optional("auth.toml")
        self._auth_saved = copy.deepcopy(self.auth)

    @property
    def name(self) -> str:
        return self.settings.name

    def _read_state(self) -> dict[str, Any]:
        path = self.folder / "state.toml"
        if not path.exists():
            raise StoreError(f"{path}: missing; create campaigns with `pbem new`")
        return read_toml(path)

    def _read_optional(self, name: str) -> dict[str, Any]:
        path = self.folder / name
        return read_toml(path) if path.exists() else {}

    def commit(self) -> None:
        """Store the state (with its message journal) and, when it changed, the auth file as one
        write: after a crash both are old or both new (pbem/store.py write_together), so a batch
        that is run again counts nothing twice."""
        files = {self.folder / "state.toml": toml_text(self.state, header=STATE_HEADER)}
        if self.auth != self._auth_saved:      # most mail changes no secret and fails no login
            files[self.folder / "auth.toml"] = toml_text(self.auth, header=AUTH_HEADER)
        write_together(self.folder, files)
        self._auth_saved = copy.deepcopy(self.auth)

    def save(self) -> None:
        """The same as commit(): the state is never stored without the auth changes beside it."""
        self.commit()

    def save_auth(self) -> None:
        """commit() when the auth file changed (then with the state), else nothing."""
        if self.auth != self._auth_saved:
            self.commit()

    def history(self, turn: int) -> Path:
        return self.folder / "history" / f"{turn:03d}"

    def secret_of(self, player: Player) -> str:
        return str(self.auth.get("secrets", {}).get(player.id, player.secret))


def discover(root: Path) -> list[Path]:
    """Campaign folders under `root` (or `root` itself if it is one), sorted by name."""
    if (root / "campaign.toml").exists():
        return [root]
    return sorted(p.parent for p in root.glob("*/campaign.toml"))
