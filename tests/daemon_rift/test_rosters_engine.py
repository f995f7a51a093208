"""Rosters through the engine: lists and post-battle sheets by mail, rolls in Step B, reports.

Bad input (malformed or over-limit lists, a sheet naming a unit not in the list, a sheet
from a player who did not fight) gets a clear reply and changes nothing.
"""

from __future__ import annotations

import io
import tomllib
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from pbem.cli import main
from pbem.gm.creation import NewPlayer, create
from pbem.kit.roster import Mark
from pbem.kit.tomlio import to_data
from pbem.rulesets import registry
from pbem.rulesets.daemon_rift.losses import MISSING, WOUNDS
from pbem.stages import turns
from pbem.state.campaign import Campaign
from tests.daemon_rift.helpers_rosters import roster
from tests.support.engine_helpers import T0, body, outbox, put, run

SECRETS = {"red": "RRRR-TEST-0000-0000-0001", "blue": "BBBB-TEST-0000-0000-0002",
           "green": "GGGG-TEST-0000-0000-0003", "gm": "GMGM-TEST-0000-0000-0000"}
RED = f"PLAYER red {SECRETS['red']}\n"
BLUE = f"PLAYER blue {SECRETS['blue']}\n"
GREEN = f"PLAYER green {SECRETS['green']}\n"
BOB = "Bob <bob@test.localhost>"
CAROL = "Carol <carol@test.localhost>"

RED_ARMY = """\
U1 infantry 20 Orc Boyz @6
U2 infantry 10 Black Orcs @12
M1 monster Wyvern @200 W5
C1 character Warboss @95 W3 general | Armour of Gork 35"""
BLUE_ARMY = """\
U1 infantry 20 Pink Horrors @12
U2 twowound 6 Screamers @30
C1 character Herald @100 W2 wizard | Staff of Change 35"""


def campaign(root: Path, phase: str = "orders", rules: dict[str, Any] | None = None) -> Campaign:
    players = [NewPlayer("red", "Alice", "alice@test.localhost", "Red", "R", {"home": "1"}),
               NewPlayer("blue", "Bob", "bob@test.localhost", "Blue", "B", {"home": "5"}),
               NewPlayer("green", "Carol", "carol@test.localhost", "Green", "G", {"home": "3"})]
    transport = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    camp, _ = create(root / "campaigns", "rift", "daemon_rift", "rift_valley", players, "gm@test.localhost", T0,
                     transport=transport, fixed_secrets=SECRETS, rules=rules)
    state = camp.state["game"]["dr"]
    if phase == "orders":
        state["tokens"]["R-1"]["territory"], state["tokens"]["B-1"]["territory"] = "T24", "T9"
        red, blue = roster(RED_ARMY, "R-1"), roster(BLUE_ARMY, "B-1")
        red.get("U1").add_mark(Mark(MISSING, "", 2, permanent=False, turn=1))     # type: ignore[union-attr]
        for key, army in (("R-1", red), ("B-1", blue), ("G-1", roster("U1 infantry 10 Guard @6", "G-1"))):
            state["lists"][key].update(approved=True, name=f"List {key}", roster=to_data(army),
                                       battles=1 if key == "R-1" else 0)
    state["phase"] = phase
    turns.open_stage(camp, registry.get("daemon_rift"), T0)
    camp.save()
    return camp


@pytest.fixture
def battle(tmp_path: Path) -> Campaign:
    """R-1 and B-1 both move into T25: battle 1, a tabletop battle."""
    camp = campaign(tmp_path)
    put(camp, "o1", RED + "R-1 M T25\n")
    put(camp, "o2", BLUE + "B-1 M T25\n", sender=BOB)
    put(camp, "o3", GREEN + "G-1 H\n", sender=CAROL)
    camp = run(camp)
    assert camp.state["game"]["dr"]["phase"] == "battles"
    return camp


def reply_to(camp: Campaign, mid: str) -> str:
    [mail] = [m for m in outbox(camp) if m["In-Reply-To"] == f"<{mid}@test.localhost>"]
    return body(mail)


# --- lists by mail -------------------------------------------------------------------------

def test_dr_lst_2_over_limit_list_by_mail_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    camp = campaign(tmp_path, phase="lists")
    put(camp, "l1", RED + "LIST R-1 Too Big\nU1 infantry 40 Knights @55\nU2 infantry 10 Guard @6\n")
    camp = run(camp)
    text = reply_to(camp, "l1")
    assert "2260 points, over its limit of 2250" in text and "was not registered" in text
    assert "red" not in camp.state.get("submissions", {}) and not camp.state["game"].get("pending_lists")


def test_malformed_list_by_mail_gets_line_errors_and_changes_nothing(tmp_path: Path) -> None:
    camp = campaign(tmp_path, phase="lists")
    put(camp, "l1", RED + "LIST R-1 Host\nU1 infantry 20 Orc Boyz\nM1 monsta Wyvern @200 W5\nLIST R-D1 Guards\n")
    camp = run(camp)
    text = reply_to(camp, "l1")
    assert "line 3" in text and "an entry reads" in text
    assert "line 4" in text and "unknown kind" in text
    assert "line 5" in text and "defensive tokens have no list" in text
    assert "red" not in camp.state.get("submissions", {})


def test_list_by_mail_then_gm_approval_stores_the_roster(tmp_path: Path) -> None:
    camp = campaign(tmp_path, phase="lists")
    put(camp, "l1", RED + "LIST R-1 Ironjaws\nARTILLERY R-1 no\nFAST R-1 no\n" + RED_ARMY + "\n")
    camp = run(camp)
    assert "`LIST R-1 Ironjaws`" in reply_to(camp, "l1")
    put(camp, "g1", f"GM {SECRETS['gm']}\nRESOLVE\n", sender="GM <gm@test.localhost>")
    camp = run(camp)                                   # the list window closes: lists go to the GM
    put(camp, "g2", f"GM {SECRETS['gm']}\nAPPROVE R-1\n", sender="GM <gm@test.localhost>")
    camp = run(camp)
    lst = camp.state["game"]["dr"]["lists"]["R-1"]
    assert lst["approved"] and [e["id"] for e in lst["roster"]["entries"]] == ["U1", "U2", "M1", "C1"]


def test_a_list_with_no_entries_is_refused_in_the_ack_and_never_offered_to_the_gm(tmp_path: Path) -> None:
    camp = campaign(tmp_path, phase="lists")
    put(camp, "l1", RED + "LIST R-1 Ironjaws\nARTILLERY R-1 no\nFAST R-1 no\n")
    camp = run(camp)
    text = reply_to(camp, "l1")
    assert "line 2" in text and "R-1: the list has no entries" in text and "U1 infantry 20 Orc Boyz @6" in text
    put(camp, "g1", f"GM {SECRETS['gm']}\nRESOLVE\n", sender="GM <gm@test.localhost>")
    camp = run(camp)
    alerts = [body(m) for m in outbox(camp, "gm@test.localhost") if "needs your attention" in str(m["Subject"])]
    assert not any("APPROVE R-1" in alert for alert in alerts)
    assert not camp.state["game"]["dr"]["lists"]["R-1"]["approved"]


@pytest.mark.clause("DR-LST-8")
def test_a_list_sent_mid_game_reaches_the_gm_and_pbem_status(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    camp = campaign(tmp_path)
    dr = camp.state["game"]["dr"]
    dr["lists"]["R-2"].update(status="active", approved=False)
    dr["tokens"]["R-2"] = {"id": "R-2", "faction": "R", "territory": "T25"}
    dr["control"].update({t: "R" for t in ("T24", "T55", "T25", "T26", "T54")})     # entitled to two lists
    camp.save()
    put(camp, "o1", RED + "R-1 H\nR-2 H\nLIST R-2 Ironjaws\nARTILLERY R-2 no\nFAST R-2 no\n" + RED_ARMY + "\n")
    put(camp, "o2", BLUE + "B-1 H\n", sender=BOB)
    put(camp, "o3", GREEN + "G-1 H\n", sender=CAROL)
    camp = run(camp)
    [alert] = [m for m in outbox(camp, "gm@") if "attention" in str(m["Subject"])]
    assert 'List R-2 "Ironjaws"' in body(alert) and "APPROVE R-2" in body(alert)
    [report] = [body(m) for m in outbox(camp, "alice") if "end of turn" in str(m["Subject"])]
    assert "Red's 2250-point list for R-2 is sent and awaiting the game master's approval." in report
    assert "must register a 2250-point list for R-2" not in report
    put(camp, "t2a", RED + "R-1 H\nR-2 H\n")                    # turn 2: the GM has not approved R-2 yet
    put(camp, "t2b", BLUE + "B-1 H\n", sender=BOB)
    put(camp, "t2c", GREEN + "G-1 H\n", sender=CAROL)
    camp = run(camp, T0 + timedelta(hours=2))
    assert camp.state["game"]["dr"]["turn"] == 3
    again = [body(m) for m in outbox(camp, "gm@") if "attention" in str(m["Subject"])][1:]
    assert any("Still waiting for you as Turn 3: orders opens: approve the list of R-2: APPROVE R-2" in a
               for a in again)
    assert main(["status", "--root", str(camp.folder.parent)]) == 0
    assert "waiting for the GM: approve the list of R-2: APPROVE R-2" in capsys.readouterr().out


# --- post-battle sheets ----------------------------------------------------------------------

def test_dr_lst_5_and_dr_los_19_briefing_shows_one_list_per_side_with_carried_losses(battle: Campaign) -> None:
    [brief] = [m for m in outbox(battle, "alice") if "briefing" in str(m["Subject"])]
    text = body(brief)
    assert text.count("### Red:") == 1 and text.count("### Blue:") == 1
    assert "| U1 Orc Boyz | infantry | 20 models | 120 |" in text and "2 models fewer" in text
    assert "SHEET 1" in text


def test_sheet_for_a_unit_not_in_the_list_is_refused_and_changes_nothing(battle: Campaign) -> None:
    put(battle, "s1", RED + "SHEET 1\nU9 lost 3\nU1 lost 2\n")
    camp = run(battle)
    text = reply_to(camp, "s1")
    assert "line 3" in text and "unknown entry of R-1" in text and "was not taken" in text
    assert "red" not in camp.state.get("submissions", {})
    assert camp.state["game"]["dr"]["phase"] == "battles"


def test_sheet_from_a_player_who_did_not_fight_is_not_read(battle: Campaign) -> None:
    put(battle, "s1", GREEN + "SHEET 1\nU1 lost 3\n", sender=CAROL)
    camp = run(battle)
    assert "Nothing is expected from you" in reply_to(camp, "s1")
    assert "green" not in camp.state.get("submissions", {})


def test_dr_los_2_dr_trn_4_dr_trn_6_sheets_become_rolls_in_the_battle_and_private_reports(battle: Campaign) -> None:
    put(battle, "r1", RED + "RESULT 1 Red\nU1 lost 11\nU2 lost 0\nM1 killed\nC1 wounds 0\nPRIORITY U2 C1\n")
    put(battle, "r2", BLUE + "RESULT 1 Red\nPink Horrors lost 12\nScreamers lost 3\nHerald killed\n", sender=BOB)
    camp = run(battle)
    ack = reply_to(camp, "r1")
    assert "`SHEET 1 R-1`" in ack and "`U1 lost 11`" in ack
    assert "SHEET 1 R-1\nU1 lost 11\nU2 lost 0\nM1 killed lost 0\nC1 lost 0\nPRIORITY U2 C1" in ack   # on file
    dr = camp.state["game"]["dr"]
    assert dr["turn"] == 2
    entries = {f"{k}/{e['id']}": e for k in ("R-1", "B-1") for e in dr["lists"][k]["roster"]["entries"]}
    marks = {k: [(m["kind"], m["value"]) for m in e["marks"]] for k, e in entries.items()}
    assert [k for k, v in marks["R-1/U1"] if k == MISSING] == [MISSING]       # the old 2 replaced (DR-LOS-17)
    assert marks["B-1/U2"] and marks["B-1/U2"][0][0] == WOUNDS                # a 2-wound unit loses wounds
    assert entries["B-1/C1"]["counters"]["deaths"] in (0, 1)
    report = (camp.history(1) / "battles-battles.md").read_text()
    dice = tomllib.loads((camp.history(1) / "dice.toml").read_text())
    rolled = [r["purpose"] for s in dice["stages"] if s["stage"] == "battles" for r in s["rolls"]]
    assert rolled[0].startswith("combat loss (D2, 18 models at the start), battle 1: R-1 U1")
    assert any(p.startswith("experience, battle 1: R-1 U2") for p in rolled)
    assert all(p.split(": ", 1)[1] in report for p in rolled)
    assert "Battle 1: losses and experience" in report
    private = (camp.history(1) / "battles-private-red.md").read_text()
    assert "R-1 List R-1" in private and "Orc Boyz" in private and "Its story" in private
    assert "Pink Horrors" not in private


def test_missing_sheet_means_no_losses_and_the_gm_is_told(battle: Campaign) -> None:
    put(battle, "r1", RED + "RESULT 1 Blue\n")
    put(battle, "r2", BLUE + "RESULT 1 Blue\nU1 lost 2\n", sender=BOB)
    camp = run(battle)
    alerts = [body(m) for m in outbox(camp, "gm@") if "attention" in str(m["Subject"])]
    assert any("Red sent no post-battle sheet for R-1" in a for a in alerts)
    red = camp.state["game"]["dr"]["lists"]["R-1"]["roster"]["entries"]
    assert all(not e["marks"] for e in red)                            # carried losses spent, none new


def test_dr_exp_11_choose_with_the_next_orders_before_the_briefing(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    lst = camp.state["game"]["dr"]["lists"]["R-1"]
    u2 = next(e for e in lst["roster"]["entries"] if e["id"] == "U2")
    u2["marks"] = [to_data(Mark("upgrade", "WS", 1, turn=1)), to_data(Mark("choice", "WS", 9, turn=1))]
    camp.save()
    put(camp, "o1", RED + "R-1 M T25\nCHOOSE R-1 U2 S\nCHOOSE R-1 Black Orcs I\n")
    put(camp, "o2", BLUE + "B-1 M T25\n", sender=BOB)
    put(camp, "o3", GREEN + "G-1 H\n", sender=CAROL)
    put(camp, "o4", RED + "READY\n")                  # line 3 was refused: Alice goes with what is on file
    camp = run(camp)
    text = reply_to(camp, "o1")
    assert "line 3" in text and "no open experience choice that offers S" in text
    assert "`CHOOSE R-1 U2 I`" in text and "did you mean **I**" in text
    u2 = next(e for e in camp.state["game"]["dr"]["lists"]["R-1"]["roster"]["entries"] if e["id"] == "U2")
    assert [(m["kind"], m["name"]) for m in u2["marks"]] == [("upgrade", "I")]
    [brief] = [m for m in outbox(camp, "alice") if "briefing" in str(m["Subject"])]
    assert "+1 I" in body(brief) and "CHOOSE" not in body(brief).split("## Home side")[0]


def test_dr_los_16_and_dr_los_6_briefing_reminds_of_healing_and_machine_wounds(battle: Campaign) -> None:
    [brief] = [m for m in outbox(battle, "bob") if "briefing" in str(m["Subject"])]
    text = body(brief)
    assert "may not restore wear-and-tear losses" in text and "Skeletons, Zombies, Ghouls may be raised" in text
    assert "placed at random at the start of the battle" in text
    assert "Magic items |" not in text and "Armour of Gork" not in text     # revealed at the table (DR-LST-6)


# --- the GM enters or corrects a sheet (DR-LOS-1, DR-GEN-6): by mail and with `pbem sheet` ----------

GM = f"GM {SECRETS['gm']}\n"
GM_FROM = "GM <gm@test.localhost>"


def entries(camp: Campaign, army: str) -> dict[str, dict]:  # type: ignore[type-arg]
    return {e["id"]: e for e in camp.state["game"]["dr"]["lists"][army]["roster"]["entries"]}


@pytest.mark.clause("DR-LOS-1")
def test_gm_sheet_by_mail_overrides_the_players_and_is_logged(battle: Campaign) -> None:
    put(battle, "r1", RED + "SHEET 1\nU1 lost 2\n")
    put(battle, "g1", GM + "SHEET 1 Red U1 lost 11; M1 killed; PRIORITY U1\n", sender=GM_FROM)
    camp = run(battle)
    assert "battle 1: Red's sheet for R-1 set: U1 lost 11; M1 killed lost 0; PRIORITY U1" in reply_to(camp, "g1")
    [logged] = [e for e in camp.state["gm_log"] if e["text"].startswith("SHEET 1 Red")]
    assert "Red's sheet for R-1 set" in logged["text"]
    put(camp, "r2", RED + "RESULT 1 Red\n")
    put(camp, "b2", BLUE + "RESULT 1 Red\n", sender=BOB)
    camp = run(camp)
    assert camp.state["game"]["dr"]["turn"] == 2
    red = entries(camp, "R-1")
    assert [m["kind"] for m in red["U1"]["marks"]] == [MISSING]        # 11 of 18: losses, not the player's 2
    dice = tomllib.loads((camp.history(1) / "dice.toml").read_text())
    rolled = [r["purpose"] for s in dice["stages"] for r in s["rolls"]]
    assert any(p.startswith("combat loss (monster), battle 1: R-1 M1") for p in rolled)
    report = (camp.history(1) / "battles-battles.md").read_text()
    assert "R-1 (Red): post-battle sheet entered by the game master" in report


@pytest.mark.parametrize("command,reason", [
    ("SHEET 1 Red U9 lost 3; U1 lost 2", "the sheet for R-1 was not taken: entry 1 (U9 lost 3): unknown entry of R-1"),
    ("SHEET 1 Green U1 lost 1", "“Green” did not fight this battle"),
    ("SHEET 7 Red U1 lost 1", "there is no pending tabletop battle 7"),
    ("SHEET 1 Red", "write `SHEET <battle> <faction> <line>; <line>; ...`"),
])
def test_gm_sheet_with_a_mistake_is_refused_and_changes_nothing(battle: Campaign, command: str, reason: str) -> None:
    put(battle, "g1", GM + command + "\n", sender=GM_FROM)
    camp = run(battle)
    text = reply_to(camp, "g1")
    assert "not done" in text and reason in text and "\\" not in text
    assert not camp.state["game"].get("gm_sheets")


def test_pbem_sheet_reads_the_lines_from_a_file_or_standard_input(battle: Campaign, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    sheet = tmp_path / "blue.txt"
    sheet.write_text("SHEET 1\n# corrected after the game\nPink Horrors lost 12\nScreamers lost 3\n\nPRIORITY U2\n")
    assert main(["sheet", str(battle.folder), "1", "Blue", str(sheet)]) == 0
    assert "Blue's sheet for B-1 set: U1 lost 12; U2 lost 3; PRIORITY U2" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("U1 lost 11\nC1 killed\n"))
    assert main(["sheet", str(battle.folder), "1", "Red"]) == 0
    camp = Campaign(battle.folder)
    stored = camp.state["game"]["gm_sheets"]["1"]
    assert [line["entry"] for line in stored["B"]["lines"]] == ["U1", "U2"] and stored["B"]["source"] == "gm"
    assert [line["entry"] for line in stored["R"]["lines"]] == ["U1", "C1"]
    logged = [e["text"] for e in camp.state["gm_log"]][-2:]
    assert logged[0].startswith("SHEET 1 Blue Pink Horrors lost 12; Screamers lost 3; PRIORITY U2: battle 1")
    assert logged[1].startswith("SHEET 1 Red U1 lost 11; C1 killed: battle 1")
    assert main(["sheet", str(battle.folder), "1", "Red", str(tmp_path / "missing.txt")]) == 1
    assert "cannot read the sheet" in capsys.readouterr().err


def test_a_sheet_between_a_greeting_and_thanks_is_taken_and_the_prose_skipped(battle: Campaign) -> None:
    put(battle, "r1", RED + "Hi GM,\nRESULT 1 Red\nU1 lost 11\nU2 lost 0\nM1 killed\nC1 wounds 0\n\n"
        "What a game! Thanks Alice.\n")
    camp = run(battle)
    ack = reply_to(camp, "r1")
    assert "2 lines read as prose and skipped: line 2 `Hi GM,`, line 9 `What a game! Thanks Alice.`." in ack
    assert "Not accepted" not in ack and "SHEET 1 R-1\nU1 lost 11\nU2 lost 0" in ack
    assert "sheets" in str(camp.state["submissions"]["red"]["payload"]) or camp.state["submissions"]["red"]


def test_a_misspelt_entry_on_a_sheet_is_still_an_order_line_and_refuses_the_sheet(battle: Campaign) -> None:
    put(battle, "r1", RED + "RESULT 1 Red\nU1 lost 11\nWyvren killed\nThanks!\n")
    ack = reply_to(run(battle), "r1")
    assert "line 4 (invalid): `Wyvren killed`" in ack and "did you mean **M1 Wyvern**" in ack, ack
    assert "the sheet for battle 1 was not taken" in ack and "1 line read as prose and skipped: line 5 `Thanks!`" in ack


def test_help_examples_use_the_readers_own_faction_prefix(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    put(camp, "h1", GREEN + "HELP\n", sender=CAROL)
    text = reply_to(run(camp), "h1")
    assert "G-1 H" in text and "G-1 M T5" in text and "R-1 H" not in text and "R-2 S R-1" not in text
    assert "ROLLOFF Red" in text


# --- a GM result settles the result only: the sheets are still owed (issue 22, item 2) -------------

def test_a_gm_result_leaves_the_sheets_window_open_until_both_sheets_are_in(battle: Campaign) -> None:
    from pbem.stages.record import StageRecord

    put(battle, "r1", RED + "RESULT 1 Red massacred\nU9 lost 3\n")          # both sheets refused
    put(battle, "b1", BLUE + "RESULT 1 Blue\nU9 lost 1\n", sender=BOB)
    due = StageRecord.read(battle.state).due
    assert due is not None
    camp = run(battle, due)                                                   # the reports differ: to the GM
    assert camp.state["game"]["dr"]["phase"] == "battles" and camp.state["game"]["gm_needed"]
    assert main(["result", str(camp.folder), "1", "Red", "massacre"]) == 0
    camp = run(Campaign(camp.folder), due + timedelta(hours=1))
    dr = camp.state["game"]["dr"]
    assert dr["turn"] == 1 and dr["phase"] == "battles"                       # the sheets are still owed
    assert {"red", "blue"} <= set(registry.get("daemon_rift").stage(turns.context(camp, due)).owing)
    put(camp, "r2", RED + "SHEET 1\nU1 lost 11\nM1 killed\n", mid="r2b")
    put(camp, "b2", BLUE + "SHEET 1\nPink Horrors lost 12\n", sender=BOB, mid="b2b")
    camp = run(camp, due + timedelta(hours=2))
    assert camp.state["game"]["dr"]["turn"] == 2
    report = (camp.history(1) / "battles-battles.md").read_text()
    assert "no post-battle sheet" not in report and "Battle 1: losses and experience" in report
    assert [m["kind"] for m in entries(camp, "R-1")["U1"]["marks"]] == [MISSING]   # Red's sheet was used


def test_pbem_approve_takes_several_players_by_name_as_well_as_tokens(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    camp = campaign(tmp_path, phase="lists")
    put(camp, "l1", RED + "LIST R-1 Ironjaws\nARTILLERY R-1 no\nFAST R-1 no\n" + RED_ARMY + "\n")
    put(camp, "l2", BLUE + "LIST B-1 Flamers\nARTILLERY B-1 no\nFAST B-1 no\n" + BLUE_ARMY + "\n", sender=BOB)
    camp = run(camp)
    put(camp, "g1", f"GM {SECRETS['gm']}\nRESOLVE\n", sender="GM <gm@test.localhost>")
    camp = run(camp)
    assert main(["approve", str(camp.folder), "Alice", "blue"]) == 0
    assert capsys.readouterr().out.strip().startswith("R-1 approved; B-1 approved")
    lists = Campaign(camp.folder).state["game"]["dr"]["lists"]
    assert lists["R-1"]["approved"] and lists["B-1"]["approved"]
    assert main(["approve", str(camp.folder), "Zed"]) == 1
    assert "“Zed” names no player" in capsys.readouterr().out
