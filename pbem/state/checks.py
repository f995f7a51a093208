"""Values read out of a parsed TOML file with their type and range checked.

Valid TOML can still hold `max_mail_bytes = "abc"` or `gm = "x"`. Every loader of a file pbem
reads (campaign.toml, state.toml, auth.toml, pbem.toml) goes through a `Table`: a value of the
wrong type or out of range is not an exception but one problem, with its dotted key, what was
found and what to write instead, and the loader goes on with a neutral value. So a file's every
problem is reported at once (as mkdocs checks its config), and a broken campaign ends in one
line naming file and key, never in a TypeError from deep inside a tick.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem.errors import UserError
from pbem.kit.text import shown, text_problem
from pbem.plugins import INBOXES, TRANSPORTS
from pbem.state.store import StoreError, read_toml

EMAIL = re.compile(r"^[^@\s<>(),;:\"\[\]\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                   r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$")






def email_problem(value: str) -> str:
    """Why `value` is not a plain mail address like alice@example.org ("" when it is)."""
    return text_problem(value) or ("" if EMAIL.match(value) else
                                   f"{shown(value)} is not a mail address like alice@example.org")


TIME_HINT = "a time like 2026-11-28T20:00:00+00:00"


def is_time(value: Any) -> bool:
    """An ISO 8601 time in text, as pbem stores deadlines and receipts."""
    try:
        datetime.fromisoformat(value.strip())
    except (AttributeError, ValueError):
        return False
    return isinstance(value, str)


class SettingsError(UserError, ValueError):
    """Problems of a file pbem reads (campaign.toml, state.toml, auth.toml, pbem.toml), all of
    them, each with its key: one line naming the file. A UserError, so that any command meeting
    one ends with that line, not a traceback."""

    def __init__(self, path: Path, problems: list[str]) -> None:
        self.path, self.problems = path, problems
        super().__init__(f"{path}: " + "; ".join(problems))


def read_file(path: Path) -> dict[str, Any]:
    """A TOML file as a table; whatever keeps it from being read is a StoreError naming it
    (not found, permission denied, broken TOML, not UTF-8)."""
    try:
        return read_toml(path)
    except OSError as exc:
        raise StoreError(f"{path}: cannot be read ({exc.strerror or exc}); give the user running pbem "
                         "read access to it") from exc


class Table:
    """One table of a TOML file, read key by key; problems go to the shared list as
    `dotted.key: found ...; expected ...`."""

    def __init__(self, raw: Any, where: str, problems: list[str], hint: str = "") -> None:
        self.where, self.problems = where, problems
        self.raw: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
        if raw is not None and not isinstance(raw, Mapping):
            self.problems.append(f"{where}: found {shown(raw)}; expected a table{hint}")

    @classmethod
    def of(cls, parent: Table, name: str, hint: str = "") -> Table:
        return cls(parent.raw.get(name), parent.key(name), parent.problems, hint)

    def key(self, name: str) -> str:
        return f"{self.where}.{name}" if self.where else name

    def wrong(self, name: str, expected: str) -> None:
        found = f"found {shown(self.raw[name])}" if name in self.raw else "missing"
        self.problems.append(f"{self.key(name)}: {found}; expected {expected}")

    def __contains__(self, name: str) -> bool:
        return name in self.raw

    def text(self, name: str, default: str = "", required: bool = False, what: str = "text") -> str:
        """A line of text without control characters; `required` refuses it missing or empty."""
        value = self.raw.get(name)
        if value is None or (required and value == ""):
            if required:
                self.problems.append(f"{self.key(name)}: missing; expected {what}")
            return default
        if not isinstance(value, str):
            self.wrong(name, what)
            return default
        if problem := text_problem(value):
            self.problems.append(f"{self.key(name)}: {problem}")
            return default
        return value

    def integer(self, name: str, default: int, least: int | None = None, what: str = "a whole number") -> int:
        value = self.raw.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int) or (least is not None and value < least):
            self.wrong(name, what if least is None else f"{what} of at least {least}")
            return default
        return value

    def boolean(self, name: str, default: bool = False) -> bool:
        value = self.raw.get(name, default)
        if not isinstance(value, bool):
            self.wrong(name, "true or false")
            return default
        return value

    def moment(self, name: str, required: bool = False) -> str:
        """An ISO 8601 time such as 2026-11-28T20:00:00+00:00."""
        value = self.text(name, required=required, what=TIME_HINT)
        if value and not is_time(value):
            self.wrong(name, TIME_HINT)
            return ""
        return value

    def texts(self, name: str, what: str = "a list of text") -> list[str]:
        value = self.raw.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.wrong(name, what)
            return []
        return list(value)

    def tables(self, name: str, hint: str = "") -> list[Table]:
        """An array of tables, `[[name]]`."""
        value = self.raw.get(name, [])
        if not isinstance(value, list):
            self.wrong(name, f"[[{name}]] tables{hint}")
            return []
        return [Table(v, f"{self.key(name)}[{i}]", self.problems, hint) for i, v in enumerate(value)]

    def each(self, hint: str = "") -> dict[str, Table]:
        """Every value of a table keyed by free names (players, addresses), each itself a table."""
        return {str(k): Table(v, self.key(str(k)), self.problems, hint) for k, v in self.raw.items()}


def check_transport(transport: Table) -> None:
    """`[transport.inbox]` and `[transport.outbox]`: tables of a known type, a folder's path for
    the local kinds. Server settings (host, TLS, login) are checked where pbem.mail opens them,
    each tick, with the same key in the message."""
    for name, registry in (("inbox", INBOXES), ("outbox", TRANSPORTS)):
        table = Table.of(transport, name)
        kinds = registry.names()
        kind = table.raw.get("type")
        if table.raw and kind not in kinds:
            table.wrong("type", f"one of {', '.join(kinds)}")
        elif kind in ("maildir", "eml"):
            table.text("path", required=True, what=f"the {kind} folder's path")
