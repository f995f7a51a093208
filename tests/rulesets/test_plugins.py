"""Entry-point registries (pbem/plugins.py): pyproject.toml is the one list of the built-in rule
systems, forum kinds, inboxes and transports, and any distribution on the path adds to them."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from pbem import plugins
from pbem.mail.inbox import open_inbox
from pbem.mail.outbox import open_transport
from pbem.rulesets import registry
from pbem.state.forumconfig import forum_problems

GROUPS = {"pbem.rulesets": plugins.RULESETS, "pbem.forums": plugins.FORUMS,
          "pbem.inboxes": plugins.INBOXES, "pbem.transports": plugins.TRANSPORTS}


class Pigeon:
    """A transport from another distribution: it keeps what it is given."""

    def __init__(self) -> None:
        self.sent: list[EmailMessage] = []

    def send(self, msg: EmailMessage) -> None:
        self.sent.append(msg)


def open_pigeon(spec: Mapping[str, Any], base: Path, *, journal_dir: Path, log: object = None) -> Pigeon:
    return Pigeon()


def distribution(root: Path, name: str, groups: dict[str, dict[str, str]]) -> Path:
    """A minimal installed distribution: NAME.dist-info with METADATA and entry_points.txt."""
    info = root / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in entries.items()) + "\n"
        for group, entries in groups.items()))
    return root


def test_the_built_in_entries_are_the_ones_in_pyproject() -> None:
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    declared = pyproject["project"]["entry-points"]
    assert set(declared) == set(GROUPS)
    for group, found in GROUPS.items():
        assert found.entries() == declared[group], group
    assert plugins.from_source_tree()


def test_every_built_in_entry_loads_as_what_its_group_needs() -> None:
    shape = {"pbem.rulesets": "aliases", "pbem.forums": "open", "pbem.inboxes": "__call__",
             "pbem.transports": "__call__"}
    for group, found in GROUPS.items():
        for name in found.entries():
            assert hasattr(found.load(name), shape[group]), name


def test_names_list_the_default_first_then_the_others_alphabetically() -> None:
    assert plugins.INBOXES.names() == ["maildir", "eml", "imap"]
    assert plugins.TRANSPORTS.names() == ["maildir", "smtp"]
    assert plugins.FORUMS.names() == ["folder", "discord", "discourse"]
    assert registry.RULESETS.names() == ["conquest", "daemon_rift", "diplomacy", "mighty_kingdoms",
                                         "star_wars_miniatures", "wandering_tribes"]


def test_a_test_registers_a_rule_system_through_extra_without_replacing_a_built_in(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.RULESETS.extra, "crashy", "tests.support.crashy_ruleset:RULESET")
    monkeypatch.setitem(registry.RULESETS.extra, "diplomacy", "tests.support.crashy_ruleset:RULESET")
    assert registry.get("crashy").aliases == ("crashy",)
    assert registry.available()["diplomacy"] == "pbem.rulesets.diplomacy.ruleset:RULESET"
    monkeypatch.undo()
    with pytest.raises(KeyError, match="unknown ruleset 'crashy'"):
        registry.get("crashy")


def test_entry_points_of_any_distribution_on_the_path_are_found(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(distribution(tmp_path, "pbem_pigeon", {
        "pbem.rulesets": {"crashy": "tests.support.crashy_ruleset:RULESET"},
        "pbem.transports": {"pigeon": "tests.rulesets.test_plugins:open_pigeon"},
        "pbem.forums": {"loft": "pbem.forum.folder:KIND"},
    })))
    assert registry.get("crashy").aliases == ("crashy",)
    assert isinstance(open_transport({"type": "pigeon"}, tmp_path), Pigeon)
    assert plugins.TRANSPORTS.names() == ["maildir", "pigeon", "smtp"]
    assert not forum_problems({"kind": "loft"}, [])


def test_stale_metadata_of_pbem_itself_is_not_read_when_running_from_a_source_tree(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An editable install's metadata is written once; the source tree's pyproject.toml is the list."""
    monkeypatch.syspath_prepend(str(distribution(tmp_path, "pbem", {
        "pbem.rulesets": {"retired": "tests.support.crashy_ruleset:RULESET"}})))
    assert "retired" not in registry.available()


def test_unknown_kinds_name_the_registered_ones(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"unknown inbox type 'pop3'; expected one of: maildir, eml, imap$"):
        open_inbox({"type": "pop3", "path": "x"}, tmp_path)
    assert forum_problems({"kind": "usenet"}, []) == [
        "transport.forum.kind: 'usenet'; expected one of folder, discord, discourse"]
    assert forum_problems({"kind": "discourse"}, [])[:2] == [
        "transport.forum.url: the Discourse site's address, https://...",
        "transport.forum.topic: the campaign thread's topic id (a positive number)"]


def test_a_distribution_written_into_a_folder_already_on_the_path_is_found_after_a_rescan(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "crashy" not in registry.available()
    distribution(tmp_path, "pbem_late", {"pbem.rulesets": {"crashy": "tests.support.crashy_ruleset:RULESET"}})
    plugins.rescan()
    assert registry.get("crashy").aliases == ("crashy",)
