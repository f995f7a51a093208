"""`pbem demo --ruleset star_wars_miniatures` plays setup and two full turns with an alliance, a
battle on a fortified territory and an upgrade, leaving readable reports (issue 25, done when)."""

from __future__ import annotations

import email
import re
import tomllib
from email import policy
from pathlib import Path

import pytest

from pbem.commands.demo import play

LEFTOVER = re.compile(r"\{\{|\{%|\bNone\b|Undefined|Traceback")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("swm-demo")
    steps: list[str] = []
    play(root, "star_wars_miniatures", lambda _lines, step: steps.append(step))
    assert steps[-1] == "reminders"
    return root


def reports(root: Path) -> dict[str, str]:
    folder = root / "campaigns" / "swm-demo" / "history"
    return {str(p.relative_to(folder)): p.read_text(encoding="utf-8") for p in folder.rglob("*.md")}


def test_the_demo_ends_with_turn_3_cleanup_and_initiative_open(demo: Path) -> None:
    state = tomllib.loads((demo / "campaigns" / "swm-demo" / "state.toml").read_text(encoding="utf-8"))
    game = state["game"]["star_wars_miniatures"]
    assert (game["turn"], game["window"]) == (2, "initiative")
    assert game["alliances"] == [["ben", "cara"]]


def test_the_demo_has_an_alliance_a_fortified_battle_and_an_upgrade(demo: Path) -> None:
    texts = reports(demo)
    assert "- Alliance this turn: ben and cara." in texts["000/squads-squads.md"]
    briefing = texts["001/action-briefing-B1-2-1.md"]
    assert "**Fortified.** The defender chooses the mapboard" in briefing
    assert "- Battle B1-2-1: the defender wins." in texts["001/battle-battle-1-2.md"]
    assert "- t2 buys Defense for 50 XP (4 left)." in texts["001/initiative-initiative-2.md"]
    assert any("Turn 2: Action." in text for name, text in texts.items() if name.startswith("002/"))


def test_no_mail_of_the_demo_leaks_template_or_python_text(demo: Path) -> None:
    for path in sorted((demo / "outbox" / "new").iterdir()):
        message = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        body = message.get_body(("plain",))  # type: ignore[attr-defined]
        text = body.get_content() if body is not None else ""
        assert not LEFTOVER.search(text), (message["Subject"], LEFTOVER.search(text))
