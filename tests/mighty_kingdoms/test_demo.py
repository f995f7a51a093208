"""`pbem demo --ruleset mighty_kingdoms` plays setup, two summer months with exploration and a battle,
its reports and the Reform, and a winter, from the sample mails, to year 2 month 1 (issue 16, done when)."""

from __future__ import annotations

import email
import re
import tomllib
from collections import Counter
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.commands.demo import play

REPR = re.compile(r"(?<![A-Za-z])'[^'\s]+'(?![A-Za-z])")        # 'x', as Python's !r writes it
LEFTOVER = re.compile(r"\{\{|\{%|\bNone\b|Undefined|\\[_*#`\[\]]")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mk-demo")
    steps: list[str] = []
    play(root, "mighty_kingdoms", lambda _lines, step: steps.append(step))
    assert steps[-1] == "reminders"
    return root


def history(root: Path) -> dict[str, str]:
    """Every report of the campaign's history by its path there, turn folder first (`002/orders-orders.md`)."""
    folder = root / "campaigns" / "mk-demo" / "history"
    return {str(p.relative_to(folder)): p.read_text(encoding="utf-8") for p in folder.rglob("*.md")}


def mails(root: Path) -> list[EmailMessage]:
    out = []
    for path in sorted((root / "outbox" / "new").iterdir()):
        message = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        assert isinstance(message, EmailMessage)
        out.append(message)
    return out


def text_of(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def test_demo_ends_in_year_2_month_1_orders(demo: Path) -> None:
    state = tomllib.loads((demo / "campaigns" / "mk-demo" / "state.toml").read_text(encoding="utf-8"))
    assert state["game"]["mighty_kingdoms"]["calendar"] == {"year": 2, "month": 1, "window": "orders", "summer": 2}


def test_demo_reports_exploration_a_battle_its_results_and_the_reform(demo: Path) -> None:
    reports = history(demo)
    month1, orders2, month2 = reports["001/orders-orders.md"], reports["002/orders-orders.md"], \
        reports["002/battle-battle-Y1M2-B1.md"]
    assert "T50 explored, 2D6 = 3+4 = 7: a village, controlled by Green Hold" in month1
    assert "T30 explored, 2D6 = 6+2 = 8: a village, controlled by Red Realm" in month1
    assert "Y1M2-B1: Blue March chooses T42 (Storridge) against Green Hold" in orders2
    assert "Green Hold wins against Blue March (both reports agree)" in month2
    assert "BLUE1 moves to T34 (Kelmere) (as reported) and is on its side" in month2
    assert "## Reform" in month2 and "1 leftover medal, D6 = " in month2 and "1 leftover scar, D6 = " in month2
    assert "- medal roll for GREEN1.U1: D6 = " in month2
    assert "Armies on their side stand up: BLUE1" in month2
    assert "Month 2 was the last summer month of year 1: winter begins" in month2


def test_demo_winter_builds_recruits_tithes_refuses_the_quest_and_deploys(demo: Path) -> None:
    reports = history(demo)
    winter, deployment = reports["003/purchases-winter-1.md"], reports["003/deployment-deployment.md"]
    assert "Green Hold recruits GREEN2 at T60 (Ashmire)" in winter
    assert "Red Realm builds a fortress on T29 (Draydale)" in winter
    assert "Green Hold tithes 1 gold and 0 food to Blue March" in winter
    assert "GREEN1 deploys to T55 (Lordale)" in deployment and "## Orders for Year 2, month 1" in deployment
    ack = next(text_of(m) for m in mails(demo) if "red-w1@" in str(m["X-Pbem-Key"]))
    assert "T31 (Ulfford) is not a wizard's tower" in ack


def test_every_demo_mail_is_free_of_python_quotes_and_template_leftovers(demo: Path) -> None:
    for message in mails(demo):
        text = text_of(message)
        assert not REPR.search(text), f"{message['Subject']}: {REPR.search(text)}"
        assert not LEFTOVER.search(text), f"{message['Subject']}: {LEFTOVER.search(text)}"
        assert text.count("Dice secret of turn") <= 1, f"{message['Subject']}: the dice secret twice"


def test_each_reader_gets_the_map_of_each_stage_once(demo: Path) -> None:
    reports = [m for m in mails(demo) if str(m["X-Pbem-Key"]).startswith("turn-")]
    assert len(reports) >= 30       # nine reports to three players and the GM, a briefing to three
    shown: Counter[tuple[str, str]] = Counter()
    for message in reports:
        stage = "/".join(str(message["X-Pbem-Key"]).split("/")[:3])       # turn-N/gG/kind
        shown[stage, str(message["To"])] += "image/png" in [part.get_content_type() for part in message.walk()]
    assert shown and set(shown.values()) == {1}, shown


def test_the_welcome_names_window_s_as_the_first_step_not_the_automatic_roll_off(demo: Path) -> None:
    welcome = next(text_of(m) for m in mails(demo) if str(m["X-Pbem-Key"]) == "welcome/red")
    assert "## First: Setup: window S" in welcome and "counts for\nSetup: window S;" in welcome
