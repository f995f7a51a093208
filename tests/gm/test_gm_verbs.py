"""GM verbs come from one registry: the engine's (pbem/gm/verbs.py) and the rule system's
(`GMVerb`s of its phase), the same by mail and by `pbem gm CAMPAIGN VERB ...`, and HELP lists
those open now with their usage."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.gm.creation import create
from pbem.rulesets import registry
from pbem.state.campaign import Campaign
from tests.support.engine_helpers import PLAYERS, SECRETS, T0, body, outbox, put, run

PLAIN_PLAYERS = [replace(p, extras={}) for p in PLAYERS]     # Tally declares no player fields

GM = f"GM {SECRETS['gm']}\n"
GM_FROM = "GM <gm@test.localhost>"
Capture = pytest.CaptureFixture[str]


@pytest.fixture
def tally(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Campaign:
    monkeypatch.setitem(registry.RULESETS.extra, "tally", "tests.support.tally_ruleset:RULESET")
    mail = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    camp, _ = create(tmp_path / "campaigns", "rift", "tally", "", PLAIN_PLAYERS, "gm@test.localhost", T0,
                     transport=mail, fixed_secrets=SECRETS)
    return camp


def gm(camp: Campaign, *words: str) -> int:
    return main(["gm", str(camp.folder), *words])


def test_a_rule_system_verb_runs_from_the_command_line_and_is_logged(tally: Campaign, capsys: Capture) -> None:
    assert gm(tally, "NOTE", "Red", "owes", "a", "beer") == 0
    assert capsys.readouterr().out.strip() == "noted"
    camp = Campaign(tally.folder)
    assert camp.state["game"]["tally"]["notes"] == ["Red owes a beer"]
    assert camp.state["gm_log"][-1]["text"] == "NOTE Red owes a beer: noted"


def test_an_engine_verb_runs_from_pbem_gm_as_from_its_alias(tally: Campaign, capsys: Capture) -> None:
    assert gm(tally, "PAUSE") == 0
    assert Campaign(tally.folder).state["stage"]["paused"] is True
    capsys.readouterr()
    assert gm(tally, "resume") == 0 and "campaign resumed" in capsys.readouterr().out
    assert main(["extend", str(tally.folder), "1d"]) == 0
    assert gm(tally, "EXTEND", "1d") == 0
    log = [e["text"] for e in Campaign(tally.folder).state["gm_log"]]
    assert [line.split(":")[0] for line in log] == ["PAUSE", "resume", "EXTEND 1d", "EXTEND 1d"]


def test_a_verb_that_fails_is_one_line_and_changes_nothing(tally: Campaign, capsys: Capture) -> None:
    before = (tally.folder / "state.toml").read_text()
    assert gm(tally, "NOTE") == 1
    assert capsys.readouterr().out.strip() == "not done: usage: NOTE <text>"
    assert gm(tally, "FROB", "x") == 1
    out = capsys.readouterr().out.strip()
    assert out.startswith("not done: unknown GM command FROB; open now: RESOLVE, EXTEND") and "NOTE" in out
    assert (tally.folder / "state.toml").read_text() == before


@pytest.mark.parametrize("ask", [["HELP"], ["--help"], ["help"]])
def test_gm_help_lists_the_verbs_open_now_with_usage(tally: Campaign, capsys: Capture, ask: list[str]) -> None:
    assert gm(tally, *ask) == 0
    out = capsys.readouterr().out
    assert "EXTEND <duration|time>" in out and "move the deadline" in out
    assert "NOTE <text>" in out and "keep a note in the game" in out
    verbs = [line.split()[0] for line in out.splitlines()[1:]]
    # RESUME, DECIDE... not now
    assert verbs == ["RESOLVE", "EXTEND", "PAUSE", "REPLACE", "FINISH", "ABSENT", "HELP", "NOTE"]
    assert gm(tally, "PAUSE") == 0 and gm(tally, *ask) == 0
    verbs = [line.split()[0] for line in capsys.readouterr().out.splitlines()[2:]]
    assert "RESUME" in verbs and "PAUSE" not in verbs
    assert "gm_log" not in Campaign(tally.folder).state or all(
        "HELP" not in e["text"] for e in Campaign(tally.folder).state["gm_log"])


def test_pbem_gm_without_a_verb_says_how(tally: Campaign, capsys: Capture) -> None:
    assert gm(tally) == 2
    assert "pbem gm CAMPAIGN HELP" in capsys.readouterr().out


def test_gm_help_by_mail_lists_the_verbs_open_now(tally: Campaign) -> None:
    put(tally, "g1", GM + "NOTE by mail\nHELP\n", sender=GM_FROM)
    camp = run(tally)
    [ack] = [m for m in outbox(camp, "gm@") if m["In-Reply-To"] == "<g1@test.localhost>"]
    text = body(ack)
    assert "noted" in text and "Commands open now" in text
    assert "`NOTE <text>`: keep a note in the game" in text and "`FINISH [reason]`" in text
    assert camp.state["game"]["tally"]["notes"] == ["by mail"]


def test_a_mail_without_help_gets_no_list(tally: Campaign) -> None:
    put(tally, "g1", GM + "NOTE quiet\n", sender=GM_FROM)
    camp = run(tally)
    [ack] = [m for m in outbox(camp, "gm@") if m["In-Reply-To"] == "<g1@test.localhost>"]
    assert "Commands open now" not in body(ack)


def test_pbem_gm_finds_a_campaign_by_name_under_root(tally: Campaign, capsys: Capture) -> None:
    root = str(tally.folder.parent)
    assert main(["gm", "rift", "--root", root, "NOTE", "one"]) == 0
    assert main(["gm", "--root", root, "rift", "NOTE", "two"]) == 0
    assert Campaign(tally.folder).state["game"]["tally"]["notes"] == ["one", "two"]


# -- the GM's answers say what was done and whom it told (issue 22, item 6) -------------------------

@pytest.fixture
def berlin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Campaign:
    monkeypatch.setitem(registry.RULESETS.extra, "tally", "tests.support.tally_ruleset:RULESET")
    mail = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    camp, _ = create(tmp_path / "campaigns", "rift", "tally", "", PLAIN_PLAYERS, "gm@test.localhost", T0,
                     transport=mail, fixed_secrets=SECRETS, timezone="Europe/Berlin")
    return camp


def test_pbem_extend_reads_a_time_in_the_campaigns_zone_or_with_its_offset(berlin: Campaign, capsys: Capture) -> None:
    now = "2026-11-24T09:00Z"
    assert main(["extend", str(berlin.folder), "2026-12-02T20:00", "--now", now]) == 0
    assert Campaign(berlin.folder).state["stage"]["deadline"] == "2026-12-02T19:00:00+00:00"   # 20:00 CET
    out = capsys.readouterr().out
    assert "moved from " in out and "to Wed 02 Dec 2026 20:00 CET" in out
    assert "told by mail at the next tick: Alice, Bob" in out
    assert main(["extend", str(berlin.folder), "2026-12-03T20:00Z", "--now", now]) == 0
    assert Campaign(berlin.folder).state["stage"]["deadline"] == "2026-12-03T20:00:00+00:00"


def test_pbem_extend_refuses_a_time_already_past(berlin: Campaign, capsys: Capture) -> None:
    before = (berlin.folder / "state.toml").read_text()
    assert main(["extend", str(berlin.folder), "2026-11-24T08:00", "--now", "2026-11-24T09:00Z"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("not done: Tue 24 Nov 2026 08:00 CET is already past (it is Tue 24 Nov 2026 10:00 CET now)")
    assert (berlin.folder / "state.toml").read_text() == before


def test_extend_and_now_say_in_their_help_how_a_time_is_read(capsys: Capture) -> None:
    for command in (["extend", "x", "--help"], ["tick", "--help"], ["rollback", "x", "--help"]):
        with pytest.raises(SystemExit):
            main(command)
        text = " ".join(capsys.readouterr().out.split())
        assert "UTC unless it has an offset" in text, command
    with pytest.raises(SystemExit):
        main(["extend", "--help"])
    assert "in the campaign's time zone" in " ".join(capsys.readouterr().out.split())


def test_a_mistyped_gm_verb_gets_did_you_mean(tally: Campaign, capsys: Capture) -> None:
    assert gm(tally, "EXTNED", "1d") == 1
    assert "unknown GM command EXTNED (did you mean EXTEND?)" in capsys.readouterr().out
    put(tally, "g1", GM + "PUASE\n", sender=GM_FROM)
    camp = run(tally)
    [ack] = [m for m in outbox(camp, "gm@") if m["In-Reply-To"] == "<g1@test.localhost>"]
    assert "(did you mean PAUSE?)" in body(ack)


def test_pause_and_resume_tell_every_player_and_the_gm_whom(tally: Campaign, capsys: Capture) -> None:
    assert gm(tally, "PAUSE") == 0
    assert "told by mail at the next tick: Alice, Bob" in capsys.readouterr().out
    camp = run(tally)
    paused = [m for m in outbox(camp) if "paused by the game master" in str(m["Subject"])]
    assert sorted(str(m["To"]) for m in paused) == ["alice@test.localhost", "bob@test.localhost"]
    assert "no deadline passes" in body(paused[0])
    assert gm(camp, "RESUME") == 0
    out = capsys.readouterr().out
    assert "deadline moved to" in out and "told by mail at the next tick: Alice, Bob" in out
    assert gm(camp, "RESOLVE") == 0
    out = capsys.readouterr().out
    assert "is resolved at the next tick, not waiting for its deadline" in out and "nobody is mailed now" in out
