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
from pbem.mail.compose import markdown_to_html

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
    assert "- Alliance this turn: Ben and Cara." in texts["000/squads-squads.md"]
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


def mails_to(root: Path, address: str) -> list[email.message.EmailMessage]:
    found = [email.message_from_bytes(p.read_bytes(), policy=policy.default)
             for p in (root / "outbox" / "new").iterdir()]
    return [m for m in found if isinstance(m, email.message.EmailMessage) and m["To"] == address]


def test_reports_and_briefings_show_players_by_name_while_the_dice_keep_the_ids(demo: Path) -> None:
    texts = reports(demo)
    action = texts["001/action-action-1.md"]
    assert "| Anna | Imperial | T03 |" in action
    assert "Turn order: 1. Anna, 2. Ben + Cara." in action and "Alliances this turn: Ben + Cara." in action
    assert "- Ben: B2 moves to T08." in action and "| T03 Coruscant | Anna | 60 |" in action
    assert "### A1 Vader's Fist (Anna, T03 (Coruscant)): 150 points" in action
    briefing = texts["001/action-briefing-B1-2-1.md"]
    assert "**Ben + Cara** attack **Anna** in **T03 (Coruscant)**" in briefing     # an alliance attacks: "attack"
    assert "### C3 Clan Ordo (Cara): 142 points" in briefing
    pick = texts["000/pick-pick.md"]
    assert "- Pick order: Anna, Cara, Ben." in pick
    assert "- pick order: Anna: D20 = 19" in pick          # the dice list reads by name too
    log = (demo / "campaigns" / "swm-demo" / "history" / "000" / "dice.toml").read_text(encoding="utf-8")
    assert 'purpose = "pick order: anna"' in log          # the purpose the roll was drawn with, unchanged
    for name, text in texts.items():
        assert not re.search(r"^\| (anna|ben|cara) \||\*\*(anna|ben|cara)\b|\((anna|ben|cara), ", text, re.M), name


def test_the_battle_briefing_states_the_deadline_the_battle_window_keeps(demo: Path) -> None:
    texts = reports(demo)
    due = re.search(r"Next: \*\*Turn 1: battle results\*\*, due (.+ GMT)\.", texts["001/action-action-1.md"])
    assert due is not None and due.group(1) == "Mon 30 Nov 2026 20:00 GMT"
    assert texts["001/action-briefing-B1-2-1.md"].rstrip().endswith(f"The report deadline is **{due.group(1)}**.")


def test_the_demo_sends_its_game_master_no_alert(demo: Path) -> None:
    """Three capitals are in play and the demo's rules need three (`victory.capitals_needed`)."""
    subjects = [m["Subject"] for m in mails_to(demo, "gm@players.localhost")]
    assert subjects and not [s for s in subjects if "needs your attention" in s]
    settings = tomllib.loads((demo / "campaigns" / "swm-demo" / "campaign.toml").read_text(encoding="utf-8"))
    assert settings["rules"]["victory"]["capitals_needed"] == 3


def test_the_territories_table_keeps_to_the_territories_in_play(demo: Path) -> None:
    texts = reports(demo)
    action = texts["001/action-action-1.md"]
    rows = re.findall(r"^\| (T\d+) ", action, re.M)
    assert rows == ["T01", "T02", "T03", "T04", "T05", "T06", "T07", "T08", "T21", "T22", "T23", "T24"]
    assert "\n28 territories of factions not in play are inactive.\n" in action and "inactive |" not in action
    assert "</table>\n</div><p>28 territories of factions not in play are inactive.</p>" in markdown_to_html(action)
    assert "No territory is controlled yet: the 40 territories go to their factions with the start regions " \
           "chosen in window S1." in texts["000/pick-pick.md"]


def test_a_purchase_reads_as_english(demo: Path) -> None:
    found = "\n".join(reports(demo).values())
    assert "Anna buys an Intelligence Officer." in found and "buys a Intelligence" not in found
