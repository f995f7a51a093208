"""Private pictures: where a rule system hides something on the map, a player's private report
shows only what he sees (`Ruleset.private_scene`), while the public report, its copy to the GM and
the forum show the public picture. The shipped rule systems hide nothing on the map (their scene
hooks say why), so they draw no private picture and every report carries the public one."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.gm.creation import create
from pbem.pictures.picture import picture_of
from pbem.rulesets import registry
from pbem.state.campaign import Campaign
from tests.pictures.readback import Drawn, read_svg
from tests.pictures.scenes import conquest_games, diplomacy_games, rift_games
from tests.support.engine_helpers import PLAYERS, SECRETS, T0, outbox, put, run

PLAIN_PLAYERS = [replace(p, extras={}) for p in PLAYERS]     # Tally declares no player fields


@pytest.fixture
def scouts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Campaign:
    monkeypatch.setitem(registry.RULESETS.extra, "hidden_scouts", "tests.pictures.hidden_ruleset:RULESET")
    mail = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    camp, _ = create(tmp_path / "campaigns", "rift", "hidden_scouts", "", PLAIN_PLAYERS, "gm@test.localhost", T0,
                     transport=mail, fixed_secrets=SECRETS)
    with (camp.folder / "campaign.toml").open("a", encoding="utf-8") as toml:
        toml.write("\n[reports]\nattach_svg = true\n")          # the SVG the pictures are read back from
    return Campaign(camp.folder)


def picture(msg: EmailMessage) -> Drawn:
    svgs = [p for p in msg.iter_attachments() if p.get_content_type() == "image/svg+xml"]
    assert len(svgs) == 1, msg["Subject"]
    content = svgs[0].get_content()
    return read_svg(content.decode() if isinstance(content, bytes) else content)


def test_each_private_report_shows_only_the_players_own_scout(scouts: Campaign) -> None:
    put(scouts, "o1", f"PLAYER red {SECRETS['red']}\nADD 2\n")
    put(scouts, "o2", f"PLAYER blue {SECRETS['blue']}\nADD 3\n", sender="Bob <bob@test.localhost>")
    run(scouts, T0 + timedelta(days=8))
    private = {m["To"].addresses[0].username: m for m in outbox(scouts) if "your scout" in str(m["Subject"])}
    assert set(private) == {"alice", "bob"}
    assert [p[:3] for p in picture(private["alice"]).pieces] == [("scout red", "T24", "red")]
    assert [p[:3] for p in picture(private["bob"]).pieces] == [("scout blue", "T25", "blue")]
    public = [m for m in outbox(scouts) if str(m["Subject"]).endswith("Turn 1 report")]
    assert {m["To"].addresses[0].username for m in public} == {"alice", "bob", "gm"}
    assert all(picture(m).pieces == [] for m in public)          # nobody's scout, the GM's copy too


def test_a_player_seeing_what_everyone_sees_gets_no_picture_of_his_own(scouts: Campaign) -> None:
    """A rule system without the hook: `picture_of` for a player is None without loading the game."""
    for games in (rift_games, diplomacy_games, conquest_games):
        _, game, camp = games()
        ruleset = registry.get(camp.settings.ruleset)
        assert picture_of(ruleset, camp.settings, game, "x", raster=False, player=camp.settings.players[0]) is None
        assert picture_of(ruleset, camp.settings, game, "x", raster=False) is not None
