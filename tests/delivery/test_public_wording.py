"""What every player and the forum read: each rule system's demo is played and every public
post it makes is read as the club reads it. A public report speaks of kingdoms, empires and
players, never to "you"; Conquest speaks of armies, never of tokens; nothing in it is a Python
repr or a template leftover."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem import cli
from pbem.commands.demo import DEMOS
from tests.support.club import post_body

SYSTEMS = tuple(sorted(DEMOS))
"""Every rule system with a demo."""
YOU = re.compile(r"\b(you|your|yours|yourself)\b", re.IGNORECASE)
TOKENS = re.compile(r"\btokens?\b", re.IGNORECASE)
"""Conquest's pieces are armies; "token" is Daemon Rift's and Diplomacy's word."""
LEFTOVER = re.compile(r"\{\{|\{%|\{'|'\}|\bNone\b|object at 0x|Traceback")


@pytest.fixture(scope="module", params=SYSTEMS)
def posts(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[Path]]:
    """The demo of one rule system, played; its public forum posts (not the private folder)."""
    system = str(request.param)
    root = tmp_path_factory.mktemp(system) / "demo"
    assert cli.main(["demo", "--ruleset", system, str(root)]) == 0
    found = sorted(p for p in (root / "forum").glob("*/*.md"))
    assert found, f"{system}: the demo posted nothing"
    return system, found


def test_a_public_report_never_says_you(posts: tuple[str, list[Path]]) -> None:
    system, found = posts
    said = [f"{p.name}: {line.strip()}" for p in found for line in post_body(p).splitlines() if YOU.search(line)]
    assert not said, f"{system}:\n" + "\n".join(said)


def test_conquest_reports_speak_of_armies_never_of_tokens(posts: tuple[str, list[Path]]) -> None:
    system, found = posts
    said = [p.name for p in found if system == "conquest" and TOKENS.search(post_body(p))]
    assert not said, said


def test_a_public_report_holds_no_template_leftover_or_repr(posts: tuple[str, list[Path]]) -> None:
    system, found = posts
    said = [f"{p.name}: {line.strip()}" for p in found for line in post_body(p).splitlines() if LEFTOVER.search(line)]
    assert not said, f"{system}:\n" + "\n".join(said)
