"""`pbem resolve CAMPAIGN --dice typed`: each roll asked for on the terminal, its purpose and die
shown, a value off the die asked for again; the rolls logged as typed by the GM (or the person
named by --typed-by). Stopping half way (end of input) resolves nothing. And the GM's errors of
`--dice`: one line with the fix, a non-zero exit, nothing changed."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

from pbem.state.campaign import Campaign
from tests.conquest.engine_helpers import campaign, game, run
from tests.support.typed_dice import files, pbem, rolls

ROOT = Path(__file__).parents[2]
ENV = os.environ | {"PYTHONPATH": str(ROOT)}
COMMAND = [sys.executable, "-m", "pbem", "resolve"]


class Terminal:
    """A command in a pseudo-terminal: what it shows read back, lines typed in."""

    def __init__(self, args: list[str]) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=ENV, close_fds=True)
        os.close(slave)
        self.screen = ""

    def wait_for(self, text: str, timeout: float = 60) -> str:
        end = time.monotonic() + timeout
        while text not in self.screen:
            ready, _, _ = select.select([self.master], [], [], max(0.0, end - time.monotonic()))
            assert ready, f"{text!r} never shown; the screen:\n{self.screen}"
            try:
                self.screen += os.read(self.master, 4096).decode()
            except OSError:        # the command ended and closed the terminal
                assert text in self.screen, f"{text!r} never shown; the screen:\n{self.screen}"
        return self.screen

    def type(self, line: str) -> None:
        os.write(self.master, f"{line}\n".encode())

    def close(self) -> int:
        code = self.proc.wait(timeout=60)
        os.close(self.master)
        return code


TYPED = [("Capital pick order: anna: roll D6", "2"), ("Capital pick order: ben: roll D6", "3"),
         ("Capital pick order: cara: roll D6", "4"), ("Capital for cara: random legal city: roll D4", "2"),
         ("Capital for ben: random legal city: roll D3", "1"), ("Capital for anna: random legal city: roll D2", "1"),
         ("Round 1 size tie-break: anna: roll D6", "5"), ("Round 1 size tie-break: ben: roll D6", "2"),
         ("Round 1 size tie-break: cara: roll D6", "6")]


def test_typed_dice_are_asked_for_on_the_terminal_and_a_value_off_the_die_is_asked_again(tmp_path: Path) -> None:
    camp = run(campaign(tmp_path))
    term = Terminal([*COMMAND, str(camp.folder), "--dice", "typed", "--typed-by", "Cara at the club"])
    term.wait_for("Capital pick order: anna: roll D6, value? ")
    term.type("7")
    term.wait_for("'7': 7 is not a face of a D6 (1 to 6); type D6 again")
    term.type("two")
    term.wait_for("'two': not a die's value; type D6 again")
    for prompt, value in TYPED:
        term.wait_for(f"{prompt}, value? ")
        term.type(value)
    screen = term.wait_for("run `pbem tick` to send the reports")
    assert term.close() == 0 and "9 typed roll(s), by Cara at the club" in screen and "Traceback" not in screen
    state = game(Campaign(camp.folder))
    assert {e.player: e.tiebreak for e in state.round.sizes} == {"anna": [5], "ben": [2], "cara": [6]}
    assert [(r["faces"], r["typed_by"]) for r in rolls(camp.folder, 0)] == [
        ([int(value)], "Cara at the club") for _, value in TYPED]


def test_input_that_ends_before_the_last_roll_resolves_nothing(tmp_path: Path) -> None:
    camp = run(campaign(tmp_path))
    before = files(camp.folder)
    done = subprocess.run([*COMMAND, str(camp.folder), "--dice", "typed"], input="2\n3\n4\n", text=True,
                          capture_output=True, env=ENV, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr == ("pbem: not resolved, nothing changed: no value was typed for `Capital for cara: random "
                           "legal city` (D4); nothing was resolved: run it again and type every roll\n")
    assert files(camp.folder) == before


def test_a_dice_file_that_cannot_be_read_or_has_no_purpose_is_refused_before_the_campaign_is_read(
        tmp_path: Path) -> None:
    camp = run(campaign(tmp_path))
    code, _, err = pbem("resolve", str(camp.folder), "--dice", str(tmp_path / "missing.txt"))
    assert code == 1 and err.count("\n") == 1
    assert "cannot read the dice file" in err and "or `--dice typed` to type each roll" in err
    (tmp_path / "bad.txt").write_text("Capital pick order: anna: 2\n\n4\n")
    code, _, err = pbem("resolve", str(camp.folder), "--dice", str(tmp_path / "bad.txt"))
    assert code == 1 and err == (f"pbem: dice file {tmp_path / 'bad.txt'}: line 3 `4` is not `purpose: value`; "
                                 "write it like `massacre: 4`\n")
    code, _, err = pbem("resolve", str(camp.folder), "--typed-by", "Cara")
    assert code == 1 and err.startswith("pbem: --typed-by names who typed the dice: use it with `--dice FILE`")
    assert not Campaign(camp.folder).state["stage"].get("force")          # not the plain RESOLVE either


def test_a_paused_campaign_is_not_resolved_with_typed_dice(tmp_path: Path) -> None:
    camp = run(campaign(tmp_path))
    assert pbem("gm", str(camp.folder), "PAUSE")[0] == 0
    before = files(camp.folder)
    code, _, err = pbem("resolve", str(camp.folder), "--dice", "typed")
    assert code == 1 and err == "pbem: coc is paused: resume it with `pbem gm coc RESUME`, then resolve\n"
    assert files(camp.folder) == before
