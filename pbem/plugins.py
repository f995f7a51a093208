"""Entry-point registries: rule systems, forum kinds, inboxes and outgoing-mail transports.

Every kind of thing pbem can be extended with is one entry point group, and pyproject.toml is
the only list of the built-in ones:

    pbem.rulesets     name -> a Ruleset                  (pbem/rulesets/registry.py)
    pbem.forums       kind -> a ForumKind                (pbem/forum/backends.py)
    pbem.inboxes      type -> an inbox opener            (pbem/mail/inbox.py)
    pbem.transports   type -> an outgoing-mail opener    (pbem/mail/outbox.py)

A third-party package adds to a group in its own metadata, and is found like the built-ins.

pbem's own entries: when pbem runs from a source tree (a pyproject.toml of project "pbem" beside
the package), they are read from that pyproject.toml, and the installed metadata of a
distribution called "pbem" is not consulted: an editable install's metadata is written once,
at install time, and goes stale as soon as the source adds an entry. Installed from a wheel
(no pyproject.toml beside the package), they come from the metadata like everyone else's.

Tests add entries without writing metadata through `Registry.extra`, a plain dict that
`monkeypatch.setitem(registry.RULESETS.extra, "crashy", "tests.support.crashy_ruleset:RULESET")`
fills for one test; extra entries come after the built-in ones and never replace them. A test
may also install a distribution for real: a folder with `NAME.dist-info/METADATA` and
`entry_points.txt`, put on sys.path (`monkeypatch.syspath_prepend`). Installed metadata is read
once per sys.path; `rescan()` reads it again when the folder was on the path already.
"""

from __future__ import annotations

import functools
import importlib
import re
import sys
import tomllib
from dataclasses import dataclass, field
from importlib.metadata import distributions
from pathlib import Path
from typing import Any

PROJECT = "pbem"
SOURCE_PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


@dataclass
class Registry:
    """One entry point group: names to `module:attribute` targets, loaded on demand."""

    group: str
    default: str = ""
    """Listed first in `names()`, as the kind a setting falls back to; the rest are sorted."""
    extra: dict[str, str] = field(default_factory=dict)
    """Entries added by tests (see the module docstring)."""
    noun: str = "entry"
    """What one entry is called in messages ("unknown ruleset 'x'")."""

    def entries(self) -> dict[str, str]:
        """Every name and its target: pbem's own, then other distributions', then `extra`;
        the first to claim a name keeps it."""
        found = dict(own_entries(self.group))
        for name, target, distribution in installed(self.group):
            if distribution == PROJECT and from_source_tree():
                continue        # stale editable metadata: the source tree's pyproject.toml said it
            found.setdefault(name, target)
        for name, target in self.extra.items():
            found.setdefault(name, target)
        return found

    def names(self) -> list[str]:
        """The names, the default first and the others in alphabetical order (for messages)."""
        names = sorted(self.entries())
        return sorted(names, key=lambda name: name != self.default)

    def load(self, name: str) -> Any:
        """The object `name` stands for; KeyError when no entry has that name."""
        return load_target(self.entries()[name])

    def find(self, name: str) -> Any:
        """The object `name` or one of its `aliases` stands for ("dr", "daemon-rift" for
        daemon_rift); KeyError with a sentence naming the known entries."""
        key = name.strip().lower().replace("-", "_")
        entries = self.entries()
        if key in entries:
            return self.load(key)
        for entry in entries:
            found = self.load(entry)
            if key in getattr(found, "aliases", ()):
                return found
        raise KeyError(f"unknown {self.noun} {name!r}; known: {', '.join(sorted(entries))}")


def load_target(target: str) -> Any:
    """`module:attribute.attribute` (the entry point syntax) to the object it names."""
    module, _, attribute = target.partition(":")
    found: Any = importlib.import_module(module.strip())
    for part in attribute.strip().split(".") if attribute.strip() else ():
        found = getattr(found, part)
    return found


def installed(group: str) -> list[tuple[str, str, str]]:
    """(name, target, distribution) of every installed entry point of the group."""
    return _scan(tuple(sys.path)).get(group, [])


@functools.lru_cache(maxsize=8)
def _scan(path: tuple[str, ...]) -> dict[str, list[tuple[str, str, str]]]:
    """pbem's groups of every distribution on `path`, read once per sys.path: reading all the
    metadata takes long enough (tens of milliseconds) to matter when every settings check
    asks, and a distribution installed meanwhile is found by the next run (or, in a test, by
    putting its folder on sys.path)."""
    found: dict[str, list[tuple[str, str, str]]] = {}
    seen: set[str] = set()
    for dist in distributions(path=list(path)):
        name = str(dist.metadata["Name"] or "")
        if _normal(name) in seen:
            continue            # the first of a name on the path is the one imported, as entry_points() says
        seen.add(_normal(name))
        for ep in dist.entry_points:
            if ep.group.startswith(f"{PROJECT}."):
                found.setdefault(ep.group, []).append((ep.name, ep.value, name))
    return found


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def rescan() -> None:
    """Read the metadata again: for a distribution written into a folder already on sys.path."""
    _scan.cache_clear()


def from_source_tree() -> bool:
    """pbem runs from a checkout whose pyproject.toml lists its entry points."""
    return _source_groups() is not None


def own_entries(group: str) -> dict[str, str]:
    """pbem's own entries of a group, from the source tree's pyproject.toml (empty when pbem
    is installed, whose entries come through the metadata)."""
    return dict((_source_groups() or {}).get(group, {}))


@functools.lru_cache(maxsize=1)
def _source_groups() -> dict[str, dict[str, str]] | None:
    """The entry point groups of the pyproject.toml beside the package; None when there is
    none, or it is not pbem's."""
    try:
        project = tomllib.loads(SOURCE_PYPROJECT.read_text(encoding="utf-8")).get("project", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    if project.get("name") != PROJECT:
        return None
    groups = project.get("entry-points", {})
    return {str(group): {str(k): str(v) for k, v in table.items()}
            for group, table in groups.items() if isinstance(table, dict)}


RULESETS = Registry("pbem.rulesets", noun="ruleset")
FORUMS = Registry("pbem.forums", default="folder")
INBOXES = Registry("pbem.inboxes", default="maildir")
TRANSPORTS = Registry("pbem.transports", default="maildir")
