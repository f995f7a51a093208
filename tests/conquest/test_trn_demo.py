"""Campaigns of Conquest end to end through the engine, from the demo's sample mails (COC-TRN, COC-GEN).

`pbem demo --ruleset conquest` plays capitals, two full rounds and the start of a third:
a team battle, an abstract resolution, a siege and a declared assault. The dice are the
campaign's committed dice, so the tests check what the sample orders make certain.
"""

from __future__ import annotations

import argparse
import email
import tomllib
from email import policy
from pathlib import Path

import pytest

from pbem.commands import demo
from pbem.kit.dice import Roll, verify
from pbem.kit.tomlio import from_data
from pbem.rulesets.conquest.model import ConquestState
from pbem.state.campaign import Campaign


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("coc") / "demo"
    assert demo.run(argparse.Namespace(dir=root, ruleset="conquest")) == 0
    return root


def history(root: Path, turn: int, name: str) -> str:
    return (root / "campaigns" / "coc-demo" / "history" / f"{turn:03d}" / f"{name}.md").read_text()


def mails(root: Path, to: str, containing: str) -> list[str]:
    out = []
    for path in sorted((root / "outbox" / "new").glob("*")):
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        part = msg.get_body(preferencelist=("plain",))
        text = part.get_content() if part else ""
        if to in str(msg["To"]) and containing in text:
            out.append(text)
    return out


def state(root: Path) -> ConquestState:
    return from_data(ConquestState, Campaign(root / "campaigns" / "coc-demo").state["game"]["conquest"])


@pytest.mark.clause("COC-TRN-1", "COC-GEN-2", "COC-GEN-3", "COC-TRN-7")
def test_demo_plays_two_full_rounds_through_every_window(played: Path) -> None:
    assert "takes" in history(played, 0, "capitals-capitals")          # window S is turn 0
    for name in ("campaign-campaign", "setup-briefing-B1", "results-results", "conquest-round", "conquest-order"):
        assert history(played, 1, name).strip()
    for name in ("campaign-campaign", "setup-briefing-B2", "results-results", "conquest-round"):
        assert history(played, 2, name).strip()
    final = state(played)
    assert final.round.number == 3 and final.round.window == "setup"
    assert len(final.history) == 2


@pytest.mark.clause("COC-CHL-6", "COC-BAT-11", "COC-BAT-12", "COC-RES-12", "COC-RES-14")
def test_round_one_team_battle_briefed_and_scored(played: Path) -> None:
    briefing = history(played, 1, "setup-briefing-B1")
    assert "team land battle" in briefing and "Anna" in briefing and "Ben" in briefing
    assert "| 1200 |" in briefing and "| 800 |" in briefing
    results = history(played, 1, "results-results")
    assert "major victory" in results.lower()
    assert "| Anna | B1 major victory 3 |" in results and "| Ben | B1 major victory 3 |" in results


@pytest.mark.clause("COC-ABR-1", "COC-SIE-2", "COC-SIE-4", "COC-SIE-5", "COC-SIE-9")
def test_round_two_abstract_resolution_siege_and_round_three_assault(played: Path) -> None:
    results = history(played, 2, "results-results")
    assert "B1" in results and "abstract resolution requested" in results
    round2 = history(played, 2, "conquest-round")
    assert "siege T16: done, 2 EP" in round2 and "Siege of T16 (Pike's Ford): Anna besieges Ben" in round2
    final = state(played)
    assert [b.kind for b in final.round.battles if b.tile == "T16"] == ["siege"]
    assert final.round.assaults == ["T16"]
    assert "siege assault at T16" in history(played, 3, "campaign-campaign")


@pytest.mark.clause("COC-TRN-2", "COC-TRN-3")
def test_acks_quote_line_errors_with_suggestions_and_a_resubmission_replaces_the_first(played: Path) -> None:
    [first] = mails(played, "dan@", "Scuts")
    assert "line 2 (invalid): `EVENT Scuts`: unknown event “Scuts”; did you mean **Scouts**?" in first
    [second] = mails(played, "dan@", "EVENT Diplomacy -> Anna")
    assert "EVENT Scouts" in second and "STANDING team" in second
    acks = mails(played, "anna@", "CLAIM T24")
    assert acks and "(now: claim T24 for 1 EP)" in acks[0]


@pytest.mark.clause("COC-TRN-4", "COC-TRN-6", "COC-GEN-6")
def test_windows_close_early_when_everyone_has_sent_and_dice_verify(played: Path) -> None:
    camp = Campaign(played / "campaigns" / "coc-demo")
    checked = 0
    for path in sorted((camp.folder / "history").glob("*/dice.toml")):
        data = tomllib.loads(path.read_text())
        if "secret" not in data:
            continue
        for stage in data["stages"]:
            rolls = [Roll(r["n"], r["purpose"], r["sides"], tuple(r["faces"])) for r in stage["rolls"]]
            assert verify(data["secret"], stage["salt"], rolls) == []
            checked += len(rolls)
    assert checked > 0
    assert any("Raid by Ben" in line for line in history(played, 2, "conquest-round").splitlines())


@pytest.mark.clause("COC-GEN-4", "COC-GEN-5")
def test_every_tile_has_at_most_one_banner_and_treasuries_never_go_negative(played: Path) -> None:
    final = state(played)
    owners = {t: s.owner for t, s in final.tiles.items() if s.owner}
    assert owners["T16"] == "anna" and final.fortification_owner("T16") == "ben"
    assert all(e.treasury >= 0 for e in final.empires.values())
    # 100 - 50 spent on B1, then Ben's raid takes 2D6 x 10 but at most the 25 her city does not guard
    assert final.empires["anna"].treasury in (25, 30)


@pytest.mark.clause("COC-RES-23", "COC-TRN-7")
def test_results_report_renders_its_battles_and_empire_points_as_separate_html_blocks(played: Path) -> None:
    from pbem.mail.compose import markdown_to_html

    for turn in (1, 2):
        text = history(played, turn, "results-results")
        assert "\n\n## Empire Points\n\n" in text
        html = markdown_to_html(text)
        assert "<h2>Empire Points</h2>" in html and "<h2>Battles</h2>" in html
        assert html.count("<table>") >= 1 and "## " not in html


@pytest.mark.clause("COC-GEN-3")
def test_round_reports_reveal_each_turns_dice_secret_and_commit_to_the_next(played: Path) -> None:
    for turn in (0, 1, 2):
        data = tomllib.loads((played / "campaigns" / "coc-demo" / "history" / f"{turn:03d}" / "dice.toml").read_text())
        report = "\n".join(path.read_text() for path in
                           (played / "campaigns" / "coc-demo" / "history" / f"{turn:03d}").glob("*.md"))
        assert f"Dice secret of turn {turn}: `{data['secret']}`" in report
        following = tomllib.loads((played / "campaigns" / "coc-demo" / "history" / f"{turn + 1:03d}" / "dice.toml"
                                   ).read_text())
        assert f"Commitment for turn {turn + 1}: `{following['commitment']}`" in report
    [welcome] = mails(played, "anna@", "Dice commitment for turn 0")
    first = tomllib.loads((played / "campaigns" / "coc-demo" / "history" / "000" / "dice.toml").read_text())
    assert first["commitment"][:40] in welcome.replace("\n", "")


def test_report_subjects_carry_the_round(played: Path) -> None:
    subjects = set()
    for path in (played / "outbox" / "new").glob("*"):
        subject = str(email.message_from_bytes(path.read_bytes(), policy=policy.default)["Subject"])
        if not subject.startswith(("Re:", "[coc-demo] welcome", "[coc-demo] reminder")):
            subjects.add(subject)
    assert all(s.startswith(("[coc-demo] Round ", "[coc-demo] Setup: ")) for s in subjects), subjects
    assert {"[coc-demo] Round 1: Capitals and the order of play", "[coc-demo] Round 2: your empire (Anna)",
            "[coc-demo] Round 2: Battle results and Empire Points"} <= subjects


def test_public_reports_name_the_empires_never_their_ids(played: Path) -> None:
    """The dice keep the ids they were derived from (`pbem verify-dice`); the reports show names."""
    capitals = history(played, 0, "capitals-capitals")
    assert "- Capital pick order: Anna: D6 = " in capitals and "order: anna:" not in capitals
    rounds = history(played, 1, "conquest-round") + history(played, 2, "conquest-round")
    assert "Raid by Ben on" in rounds and "Raid by ben" not in rounds
    assert "did not win a battle against" in rounds and "you did not win" not in rounds
