"""The command line for a game master: every error is one line on stderr with a clear exit
status, never a traceback; help is written for the GM; the cron log says what each tick did;
`pbem approve`; `pbem new --address --timezone`."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from pbem import __version__
from pbem.cli import COMMANDS, build_parser, main
from pbem.state.campaign import Campaign
from tests.support.engine_helpers import SECRETS, T0, dr_campaign, put

Capture = pytest.CaptureFixture[str]
PLAYERS = ["--player", "a,Al,al@example.org", "--player", "b,Bo,bo@example.org", "--gm-email", "gm@example.org"]


def one_line_error(err: str) -> str:
    """The stderr of a failed command: exactly one line, no traceback."""
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err.strip()


def break_settings(camp: Campaign) -> None:
    with (camp.folder / "campaign.toml").open("a") as f:
        f.write("x = [\n")


@pytest.fixture
def camp(tmp_path: Path) -> Campaign:
    return dr_campaign(tmp_path)


@pytest.mark.parametrize("command", [["status"], ["orders", "rift"], ["resolve", "rift"], ["extend", "rift", "2d"]])
def test_a_broken_campaign_toml_is_one_line_in_every_command(camp: Campaign, capsys: Capture,
                                                              command: list[str]) -> None:
    break_settings(camp)
    assert main([*command, "--root", str(camp.folder.parent)]) == 1
    assert "campaign.toml" in one_line_error(capsys.readouterr().err)


def test_status_shows_the_other_campaigns_when_one_is_broken(camp: Campaign, tmp_path: Path, capsys: Capture) -> None:
    assert main(["new", "other", "--root", str(camp.folder.parent), *PLAYERS]) == 0
    break_settings(camp)
    capsys.readouterr()
    assert main(["status", "--root", str(camp.folder.parent)]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("other: ") and "rift" in one_line_error(err)


def test_a_bad_now_says_what_a_time_looks_like(camp: Campaign, capsys: Capture) -> None:
    assert main(["tick", "--root", str(camp.folder.parent), "--now", "tomorrow"]) == 1
    assert "'tomorrow' is not a date and time; write e.g. 2026-11-30T20:00" in one_line_error(capsys.readouterr().err)


def test_extend_by_a_bare_number_says_what_a_duration_looks_like(camp: Campaign, capsys: Capture) -> None:
    deadline = camp.state["stage"]["deadline"]
    assert main(["extend", "rift", "2", "--root", str(camp.folder.parent)]) == 1
    err = one_line_error(capsys.readouterr().err)
    assert "a duration like 2d, 12h or 1d12h" in err and "2026-11-30T20:00" in err
    assert Campaign(camp.folder).state["stage"]["deadline"] == deadline
    assert main(["extend", "rift", "2d", "--root", str(camp.folder.parent)]) == 0


def test_a_closed_pipe_ends_quietly(camp: Campaign) -> None:
    """`pbem status | head -1`: the reader is gone before pbem writes."""
    proc = subprocess.Popen([sys.executable, "-m", "pbem", "status", "--root", str(camp.folder.parent)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait() == 0 and err == ""


def test_a_closed_pipe_through_head(camp: Campaign) -> None:
    shell = f"{sys.executable} -m pbem status --root {camp.folder.parent} | head -1"
    done = subprocess.run(["sh", "-c", shell], capture_output=True, text=True, timeout=60)
    assert done.stdout.startswith("rift: ") and len(done.stdout.splitlines()) == 1 and done.stderr == ""


def test_tick_on_a_missing_root_fails_with_status_2(tmp_path: Path, capsys: Capture) -> None:
    assert main(["tick", "--root", str(tmp_path / "campaigns-typo"), "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "campaigns-typo" in one_line_error(err)


def test_status_on_an_empty_root_says_so(tmp_path: Path, capsys: Capture) -> None:
    assert main(["status", "--root", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == f"no campaigns in {tmp_path}; create one with `pbem new`"
    assert main(["status", "--root", str(tmp_path / "nowhere")]) == 1
    assert "nowhere" in one_line_error(capsys.readouterr().err)


def test_a_tick_prints_each_problem_once(camp: Campaign, capsys: Capture) -> None:
    break_settings(camp)
    assert main(["tick", "--root", str(camp.folder.parent)]) == 1
    out = capsys.readouterr().out
    assert out.count("broken TOML") == 1, out


def test_a_mistyped_command_is_one_line_with_the_command_meant(capsys: Capture) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["aprove", "rift", "ALL"])
    assert ended.value.code == 2
    assert one_line_error(capsys.readouterr().err) == (
        "pbem: unknown command aprove; did you mean `pbem approve`? (`pbem --help` lists the commands)")


def test_a_missing_argument_is_one_line_naming_it_and_the_help(capsys: Capture) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["extend", "rift"])
    assert ended.value.code == 2
    assert one_line_error(capsys.readouterr().err) == (
        "pbem extend: the following arguments are required: by (`pbem extend --help` shows how to call it)")


def test_version(capsys: Capture) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.strip() == f"pbem {__version__}"


def test_help_is_written_for_a_game_master(capsys: Capture) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert "thin dispatcher" not in text and "play-by-email" in text and "pbem COMMAND --help" in text


OWNED_ELSEWHERE = {"quarantine", "rollback", "end"}     # their help is written with those commands


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - OWNED_ELSEWHERE))
def test_every_option_of_every_command_has_help(name: str) -> None:
    parser = build_parser(name)
    [sub] = [a for a in parser._actions if a.dest == "command"]
    command = sub.choices[name]      # type: ignore[index]
    bare = [a.dest for a in command._actions if a.dest not in ("help", "_module") and not a.help]
    assert bare == [], f"pbem {name}: no help for {bare}"


def test_the_cron_log_has_a_time_and_a_summary_per_tick(camp: Campaign, capsys: Capture) -> None:
    put(camp, "m1", f"PLAYER red {SECRETS['red']}\nR-1 H\n")
    put(camp, "m2", f"PLAYER blue {SECRETS['blue']}\nB-1 H\n", sender="Bob <bob@test.localhost>")
    now = T0 + timedelta(hours=1)
    assert main(["tick", "--root", str(camp.folder.parent), "--log", "--now", now.isoformat()]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.strip() == ("2026-11-23T10:00:00+00:00 tick: 2 mail(s) read, 2 ack(s), 1 stage(s) resolved, "
                           f"{len(list((camp.folder.parent.parent / 'outbox' / 'new').iterdir()))} mail(s) sent, "
                           "0 held back by throttling, 0 problem(s)")
    break_settings(camp)
    assert main(["tick", "--root", str(camp.folder.parent), "--log", "--now", now.isoformat()]) == 1
    out, err = capsys.readouterr()
    assert out.strip().endswith("1 problem(s)") and one_line_error(err).startswith("2026-11-23T10:00:00+00:00 pbem: ")


def test_the_cron_wrapper_logs_with_the_summary() -> None:
    wrapper = (Path(__file__).parents[2] / "cron" / "pbem-tick").read_text()
    assert "--log" in wrapper and "tick.log" in wrapper


def test_approve_all_with_nothing_pending_gives_the_real_reason(camp: Campaign, capsys: Capture) -> None:
    assert main(["approve", "rift", "ALL", "--root", str(camp.folder.parent)]) == 1
    assert "no army list is waiting for approval" in capsys.readouterr().out


def test_approve_a_pending_list_by_command(tmp_path: Path, capsys: Capture) -> None:
    from tests.daemon_rift import test_rosters_engine as rosters
    from tests.support.engine_helpers import run

    camp = rosters.campaign(tmp_path)
    dr = camp.state["game"]["dr"]
    dr["lists"]["R-2"].update(status="active", approved=False)
    dr["tokens"]["R-2"] = {"id": "R-2", "faction": "R", "territory": "T1"}
    camp.save()
    put(camp, "o1", rosters.RED + "R-1 H\nR-2 H\nLIST R-2 Ironjaws\nARTILLERY R-2 no\nFAST R-2 no\n"
        + rosters.RED_ARMY + "\n")
    put(camp, "o2", rosters.BLUE + "B-1 H\n", sender=rosters.BOB)
    put(camp, "o3", rosters.GREEN + "G-1 H\n", sender=rosters.CAROL)
    run(camp)
    root = str(camp.folder.parent)
    assert main(["status", "--root", root]) == 0 and "APPROVE R-2" in capsys.readouterr().out
    assert main(["approve", "rift", "R-2", "--root", root]) == 0
    assert "R-2" in capsys.readouterr().out
    assert main(["status", "--root", root]) == 0 and "APPROVE R-2" not in capsys.readouterr().out


def test_new_takes_the_campaign_address_and_time_zone(tmp_path: Path) -> None:
    assert main(["new", "rift", "--root", str(tmp_path), *PLAYERS, "--address", "Rift@Games.example.org",
                 "--timezone", "Europe/Berlin"]) == 0
    settings = Campaign(tmp_path / "rift").settings
    assert settings.address == "rift@games.example.org" and str(settings.schedule.zone) == "Europe/Berlin"


def test_new_checks_address_and_time_zone_before_writing(tmp_path: Path, capsys: Capture) -> None:
    assert main(["new", "rift", "--root", str(tmp_path), *PLAYERS, "--address", "al@example.org",
                 "--timezone", "Europe/Berln"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.splitlines()) == 2
    assert "--address: al@example.org is a player's" in err and "--timezone: unknown time zone 'Europe/Berln'" in err
    assert not (tmp_path / "rift").exists()
    assert main(["new", "rift", "--root", str(tmp_path), *PLAYERS, "--address", "not an address"]) == 2
    assert "--address:" in one_line_error(capsys.readouterr().err)
