"""`[rules.press] forum = true`: a press to all is also posted to the campaign's thread, once;
a press to one player is not."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tests.support.engine_helpers import SECRETS, T0, dr_campaign, put, run

RED = f"PLAYER red {SECRETS['red']}\n"


def test_a_broadcast_press_is_posted_to_the_thread_once(tmp_path: Path) -> None:
    forum = {"forum": {"kind": "folder", "path": "../../forum/rift", "bot": "pbem"}}
    camp = dr_campaign(tmp_path, {"R-1": "T24", "B-1": "T27"}, rules={"press": {"forum": True}}, transport=forum)
    put(camp, "r1", RED + "PRESS TO ALL\nHear ye, *all*!\nEND PRESS\nPRESS TO Blue\nOnly you.\nEND PRESS\n")
    camp = run(camp)
    camp = run(camp, T0 + timedelta(hours=2))
    thread = tmp_path / "forum" / "rift"
    posts = [p.read_text() for p in thread.rglob("*.md")]
    pressed = [p for p in posts if "Press from Alice (Red) to everyone" in p]
    assert len(pressed) == 1 and r"Hear ye, \*all\*!" in pressed[0]
    assert not any("Only you." in p for p in posts)
