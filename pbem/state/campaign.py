"""A campaign folder: settings the GM edits, state pbem writes, history it keeps.

    <campaign>/campaign.toml      settings: ruleset, map, schedule, transports, players, GM, rule overrides
    <campaign>/state.toml         pbem's state: stage, deadline, submissions, message journal, game
    <campaign>/auth.toml          secrets players changed, failed-login counters
    <campaign>/private/           dice secrets not yet revealed
    <campaign>/outbox/queue/      mail waiting for delivery; outbox/sent.txt names it once handed over
    <campaign>/history/<turn>/    state at the start of the turn, the game after each resolved stage
                                  (stages/), every report, the dice log
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pbem.kit.text import text_problem
from pbem.plugins import RULESETS
from pbem.state.between import Between, between_rules, split
from pbem.state.checks import SettingsError as SettingsError  # callers import it from here
from pbem.state.checks import Table, check_transport, email_problem, read_file
from pbem.state.forumconfig import forum_problems
from pbem.state.schedule import Schedule
from pbem.state.site import load_site
from pbem.state.statecheck import auth_problems, state_problems
from pbem.state.store import StoreError, toml_text, write_together

KEEP_DAYS = 60
"""How long a handled message is remembered after it was last met (pbem/intake/journal.py), and a
sent mail's line in the send journal (pbem/delivery/outqueue.py)."""

NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,47}$")


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    emails: tuple[str, ...]
    secret: str                          # stored hash, never the secret
    faction: str = ""
    faction_name: str = ""
    forum: str = ""                      # forum account; the forum authenticates it
    extras: dict[str, str] = field(default_factory=dict, hash=False)
    """The rule system's own fields (`Ruleset.player_fields`), as the [[players]] entry gives them."""

    @property
    def email(self) -> str:
        return self.emails[0]

    @property
    def home(self) -> str:
        """Daemon Rift's home realm, read here until its code reads `extras["home"]`."""
        return self.extras.get("home", "")


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
    archive: dict[str, Any] = field(default_factory=dict)  # [archive]: the site and BBCode written as turns end
    reports: dict[str, Any] = field(default_factory=dict)  # [reports]: what a report mail carries
    between: Between = field(default_factory=Between)     # [rules.absence|press|mail]: the engine's (state/between.py)

    def player(self, ident: str) -> Player | None:
        key = ident.casefold()
        return next((p for p in self.players if key in (p.id.casefold(), p.name.casefold(), p.faction.casefold(),
                                                          p.faction_name.casefold())), None)

    def names(self) -> dict[str, str]:
        """Player id -> the name reports show him by (his `name`, else the id)."""
        return {p.id: p.name or p.id for p in self.players}

    def players_at(self, address: str) -> list[Player]:
        return [p for p in self.players if address.casefold() in p.emails]


def load_settings(folder: Path) -> Settings:
    """campaign.toml, checked: a StoreError when it cannot be read, a SettingsError naming every
    key of the wrong type, out of range or refused by the rule system."""
    path = folder / "campaign.toml"
    return settings_from(read_file(path), folder, path)


def settings_from(raw: Mapping[str, Any], folder: Path, path: Path) -> Settings:
    """The settings a campaign.toml table describes (also used by `pbem new` before it writes
    one); raises SettingsError(path, every problem)."""
    problems: list[str] = []
    settings = _settings(raw, folder, problems)
    if settings is not None and not problems:
        problems += _rule_system_problems(settings)
    if problems or settings is None:
        raise SettingsError(path, problems)
    return settings


def _settings(raw: Mapping[str, Any], folder: Path, problems: list[str]) -> Settings | None:
    top = Table(raw, "", problems)
    name = top.text("name", required=True, what="the campaign's name, the same as its folder's")
    ruleset, map_name = top.text("ruleset", required=True), top.text("map", required=True)
    address = top.text("address", required=True, what="the campaign's mail address")
    if name and not NAME_RE.match(name):
        problems.append(f"name: {name!r} must be 1-48 lower-case letters, digits, '-' or '_'")
    if name and name != folder.name:
        problems.append(f"name: {name!r} differs from the folder name {folder.name!r}")
    if address and (problem := email_problem(address)):
        problems.append(f"address: {problem}")
    schedule_raw, schedule = _schedule(Table.of(top, "schedule", " of windows, e.g. [schedule] orders = \"7d\""))
    gm = _person(Table.of(top, "gm", ": [gm] with email and secret"), problems)
    players = tuple(_person(p, problems) for p in top.tables("players", " with id, name, email and secret"))
    if not players:
        problems.append("players: at least one [[players]] entry is needed")
    _check_unique(players, problems)
    transport = Table.of(top, "transport", " of [transport.inbox], [transport.outbox], [transport.forum]")
    inbox, outbox = Table.of(transport, "inbox").raw, Table.of(transport, "outbox").raw
    check_transport(transport)
    problems += forum_problems(transport.raw.get("forum"), [(f"players[{i}]", p.forum) for i, p in enumerate(players)])
    rules_table = Table.of(top, "rules", " of rule options, e.g. [rules.orders]")
    rules, between = split(rules_table.raw)[0], between_rules(rules_table)
    max_bytes = top.integer("max_mail_bytes", 256 * 1024, least=1024, what="a size in bytes")
    title = top.text("title", name)
    site_inbox, site_outbox = _site_transport(folder, problems)
    if problems:
        return None
    return Settings(
        name=name, title=title, ruleset=ruleset, map=map_name, address=address.lower(),
        domain=address.partition("@")[2] or "localhost", schedule=schedule, schedule_raw=schedule_raw,
        inbox=dict(inbox or site_inbox or {"type": "maildir", "path": "inbox"}),
        outbox=dict(outbox or site_outbox or {"type": "maildir", "path": "outbox/maildir"}),
        gm=gm, players=players, rules=dict(rules), max_mail_bytes=max_bytes,
        forum=dict(transport.raw.get("forum") or {}), archive=_archive(Table.of(top, "archive", ARCHIVE_HINT)),
        reports=_reports(Table.of(top, "reports", " of report mail options, e.g. [reports] attach_svg = true")),
        between=between,
    )


ARCHIVE_HINT = ' of the campaign archive, e.g. [archive] path = "site"'
ARCHIVE_KEYS = {"path": "a folder (relative to the campaign's)", "picture_url": "the web address the pictures "
                "are published at", "bbcode": "true or false", "bbcode_tables": "true or false"}


def _archive(table: Table) -> dict[str, Any]:
    """`[archive]`: `path` (the static site, written again as each turn ends), `bbcode` (each public
    report also as BBCode beside it in history/), `bbcode_tables`, `picture_url`."""
    for key in table.raw:
        if key not in ARCHIVE_KEYS:
            table.wrong(key, "a known key: " + ", ".join(sorted(ARCHIVE_KEYS)))
    return {"path": table.text("path"), "picture_url": table.text("picture_url"),
            "bbcode": table.boolean("bbcode"), "bbcode_tables": table.boolean("bbcode_tables")}


REPORTS_KEYS = {"attach_svg": "true or false"}


def _reports(table: Table) -> dict[str, Any]:
    """`[reports]`: `attach_svg` (each report mail also carries its map as SVG, to print large;
    off by default, as the PNG shown in the mail is a third of the bytes)."""
    for key in table.raw:
        if key not in REPORTS_KEYS:
            table.wrong(key, "a known key: " + ", ".join(sorted(REPORTS_KEYS)))
    return {"attach_svg": table.boolean("attach_svg")}


SCHEDULE_VALUES = {"timezone": "a time zone like \"Europe/Berlin\"", "at": "a local time like \"20:00\"",
                   "early_close": "\"ready\" (close once every player is ready) or \"never\" (only at the deadline)"}
DURATION = "a duration like \"7d\", \"36h\" or \"1d12h\""


def _schedule(table: Table) -> tuple[dict[str, str], Schedule]:
    """`[schedule]`: each value checked on its own, so every bad one is reported."""
    raw: dict[str, str] = {}
    for key, value in table.raw.items():
        what = SCHEDULE_VALUES.get(key, DURATION)
        try:
            if not isinstance(value, str) or text_problem(value):
                raise ValueError(value)
            Schedule.from_settings({key: value} if key in SCHEDULE_VALUES else {"reminder": value})
        except ValueError:
            table.wrong(key, what)
            continue
        raw[key] = value
    return raw, Schedule.from_settings(raw)


_CHECKED: dict[str, list[str]] = {}
"""The rule system's verdict per ruleset, map, rules and players, the only settings it reads: one
run loads a campaign again and again, and finding the rule system alone takes milliseconds."""


def _rule_system_problems(settings: Settings) -> list[str]:
    players = [dataclasses.astuple(p) for p in settings.players]
    key = json.dumps([settings.ruleset, settings.map, settings.rules, players], sort_keys=True, default=str)
    if key not in _CHECKED:
        _CHECKED[key] = _ask_rule_system(settings)
    return list(_CHECKED[key])


class SettingsJudge(Protocol):
    """What loading settings asks of their rule system: `Ruleset.settings_problems`
    (pbem/rulesets/base.py). Validation that needs a rule system lives above the campaign's files;
    they reach it through the plugin registry (pbem/plugins.py), never by importing a rule system."""

    def settings_problems(self, settings: Settings) -> list[str]:
        ...


def _ask_rule_system(settings: Settings) -> list[str]:
    """What the rule system refuses in the map, the rule overrides or the players."""
    try:
        judge: SettingsJudge = RULESETS.find(settings.ruleset)
    except KeyError as exc:
        return [f"ruleset: {exc.args[0]}"]
    return judge.settings_problems(settings)


def _site_transport(folder: Path, problems: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The transports a campaign inherits from pbem.toml in its parent folder (pbem/state/site.py)."""
    try:
        site = load_site(folder.parent)
    except (StoreError, ValueError) as exc:
        problems.append(f"shared settings: {exc}")
        return {}, {}
    return (site.inbox, site.outbox) if site else ({}, {})


def _person(table: Table, problems: list[str]) -> Player:
    """`[gm]` or one `[[players]]` entry."""
    is_gm = table.where == "gm"
    emails = table.texts("emails", "a list of mail addresses") if "emails" in table else \
        [e for e in [table.text("email", required=True, what="a mail address")] if e]
    problems += [f"{table.key('emails' if 'emails' in table else 'email')}: {p}"
                 for p in map(email_problem, emails) if p]
    if "emails" in table and not emails:
        problems.append(f"{table.key('emails')}: needs at least one mail address")
    secret = table.text("secret", required=True, what="a stored hash (sha256:... or scrypt:...)")
    if secret and not secret.startswith(("sha256:", "scrypt:")):
        table.wrong("secret", "a stored hash (sha256:... or scrypt:...); `pbem new` writes them")
    ident = table.text("id", "gm" if is_gm else "", required=not is_gm, what="a player id like \"red\"")
    if ident and re.search(r"\s", ident):
        table.wrong("id", "one word: players sign with `PLAYER <id> <secret>`")
    if not is_gm and ident.casefold() == "gm":
        table.wrong("id", "another id: 'gm' is the game master's")
    return Player(
        id=ident, name=table.text("name", ident), emails=tuple(e.lower() for e in emails), secret=secret,
        faction=table.text("faction"), faction_name=table.text("faction_name"), forum=table.text("forum"),
        extras={} if is_gm else _extras(table),
    )


PERSON_KEYS = frozenset({"id", "name", "email", "emails", "secret", "faction", "faction_name", "forum"})


def _extras(table: Table) -> dict[str, str]:
    """Every other key of a [[players]] entry: the rule system's fields (a whole number reads as
    text, so `home = 3` is `home = "3"`). Which it knows and takes is its business."""
    extras = {}
    for key, value in table.raw.items():
        if key in PERSON_KEYS:
            continue
        number = isinstance(value, int) and not isinstance(value, bool)
        extras[str(key)] = str(value) if number else table.text(key, what="text or a whole number")
    return extras


def _check_unique(players: tuple[Player, ...], problems: list[str]) -> None:
    """Ids and token prefixes are one name space (a PLAYER line and an order both name them):
    a clash names the field and both players, so the GM knows which value to change."""
    seen: dict[str, str] = {}
    for p in players:
        fields = {p.id.casefold(): f"the id of {p.id}"}
        fields.setdefault(p.faction.casefold(), f"the token prefix (faction) of {p.id}")
        for key, what in fields.items():
            if key and key in seen:
                problems.append(f"players: {key.upper() if 'prefix' in what else key!r} is {seen[key]} and also "
                                f"{what}; give each player his own (a token prefix is the 5th part of --player, "
                                "e.g. red,Alice,alice@example.org,Red,R)")
            seen.setdefault(key, what)


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
        check_loaded(folder, self.state, self.auth)

    @property
    def name(self) -> str:
        return self.settings.name

    def _read_state(self) -> dict[str, Any]:
        path = self.folder / "state.toml"
        if not path.exists():
            raise StoreError(f"{path}: missing; create campaigns with `pbem new`")
        return read_file(path)

    def _read_optional(self, name: str) -> dict[str, Any]:
        path = self.folder / name
        return read_file(path) if path.exists() else {}

    def commit(self) -> None:
        """Store the state (with its message journal) and, when it changed, the auth file as one
        write: after a crash both are old or both new (pbem/state/store.py write_together), so a batch
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


WRITTEN = ("", "history", "private", "outbox", "outbox/queue")
"""The campaign folder and the folders in it that every tick may write to."""


def check_loaded(folder: Path, state: Mapping[str, Any], auth: Mapping[str, Any]) -> None:
    """What a campaign needs beyond its settings: state.toml and auth.toml of the shape the
    backbone reads (SettingsError naming each key), and folders it can write to (StoreError),
    so that neither fails half-way through a tick."""
    for name, problems in (("state.toml", state_problems(state)), ("auth.toml", auth_problems(auth))):
        if problems:
            raise SettingsError(folder / name, problems)
    for sub in WRITTEN:
        path = folder / sub
        effective = os.access in os.supports_effective_ids
        if path.is_dir() and not os.access(path, os.W_OK | os.X_OK, effective_ids=effective):
            raise StoreError(f"{path}: pbem cannot write here (permission denied or a read-only file system); "
                             f"give the user running pbem (uid {os.geteuid()}) write access to it")


