"""`pbem table CAMPAIGN --serve` (issue 24, club night): the page for the projector, loaded in
Debian's headless Chromium while the table plays, shows the map change after a move without
being loaded again."""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import CHROMIUM, FLAGS
from tests.table.helpers import Terminal, campaign, mail, read_mail


def board(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "state.json", timeout=30) as answer:
        return dict(json.loads(answer.read()))


def watched(url: str, timeout: float = 90) -> None:
    """Wait until a page waits for the table's next step."""
    end = time.monotonic() + timeout
    while board(url)["watching"] < 1:
        assert time.monotonic() < end, "the page never asked for the next step"
        time.sleep(0.2)


@pytest.mark.browser
def test_the_served_page_shows_the_map_change_after_a_move(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    mail(camp, "anna", "TRY A1 ALWAYS FIRST E")
    camp = read_mail(camp)
    term = Terminal("table", str(camp.folder), "--serve", "--dice", "typed", "--typed-by", "Anna at the club")
    found = re.search(r"The table's page: (http://127\.0\.0\.1:\d+/)", term.wait_for("projector's browser"))
    assert found, term.screen
    url = found[1]
    term.wait_for("[u]se the mailed order, or [t]ype one at the table? ")
    before = board(url)
    assert 'data-id="A1" data-place="T8"' in before["svg"] and "Sequence: Anna, Ben, Cara" in before["log"]
    with tempfile.TemporaryDirectory(prefix="pbem-chromium-") as profile:
        page = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=6000",
                                 "--dump-dom", url + "?wait=20"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        watched(url)
        term.type("u")
        term.wait_for("command test A1 in T8 (target 9): roll 2D6, value? ")
        term.type("3+4")
        term.wait_for("command test A1 in T9 (target 8): roll 2D6, value? ")
        term.type("6+6")                    # 12 fails: A1 stops in T9
        term.wait_for("Anna's round is stored")
        term.wait_for("Ben> ")
        term.type("\x04")                   # the sitting ends; the page keeps what it showed last
        assert term.close() == 130
        shown, _ = page.communicate(timeout=180)
    assert 'data-id="A1" data-place="T9"' in shown and 'data-id="A1" data-place="T8"' not in shown
    step = re.search(r'id="step" data-version="(\d+)"', shown)
    assert step and int(step[1]) > before["version"]
    assert "roll: command test A1 in T8 (target 9): 2D6 = 3+4 = 7 (typed by Anna at the club)" in shown
