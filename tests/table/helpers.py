"""A Wandering Tribes campaign of mode together with strategic round 1 open, for `pbem table`:
Anna, Ben and Cara on the four-tribes map, one stack each, started from a position; a terminal
(pseudo-terminal) to run the command in, typing lines and reading the screen back."""

from __future__ import annotations

import hashlib
import os
import pty
import select
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pbem.gm.creation import NewPlayer, create
from pbem.gm.positions import read_position, start_campaign
from pbem.rulesets import registry
from pbem.state.campaign import Campaign
from pbem.state.store import read_toml, write_toml
from pbem.tick.engine import tick

ROOT = Path(__file__).parents[2]
ENV = os.environ | {"PYTHONPATH": str(ROOT)}
T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
SECRETS = {"anna": "ANNA-TEST-0000-0001", "ben": "BENB-TEST-0000-0002", "cara": "CARA-TEST-0000-0003"}
PLAYERS = [NewPlayer(p, p.title(), f"{p}@wt.localhost", f"{p.title()}'s Tribe") for p in ("anna", "ben", "cara")]
POSITION = """window = "orders"
round = 1
first_rest = 0
seats = ["anna", "ben", "cara"]

[players.anna]
nation = "empire"

[players.ben]
nation = "orcs_goblins"

[players.cara]
nation = "dwarfs"

[[stacks]]
id = "A1"
owner = "anna"
tile = "T8"
markers = ["m1 General", "m2 Halberdiers", "m3 Halberdiers", "m4 Crossbowmen"]

[[stacks]]
id = "B1"
owner = "ben"
tile = "T26"
markers = ["m10 General", "m11 Orc Warriors", "m12 Goblins"]

[[stacks]]
id = "C1"
owner = "cara"
tile = "T29"
markers = ["m20 General", "m21 Warriors", "m22 Handgunners"]
"""


def campaign(tmp: Path, mode: str = "together") -> Campaign:
    """The campaign `wt` under tmp/campaigns, round 1's orders open."""
    transport = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    secrets = {p.id: SECRETS[p.id] for p in PLAYERS} | {"gm": "GMGM-TEST-0000-0000-0000"}
    camp, _ = create(tmp / "campaigns", "wt", "wandering_tribes", "wt_four_tribes", PLAYERS, "gm@wt.localhost", T0,
                     transport=transport, rules={"campaign": {"mode": mode}}, fixed_secrets=secrets)
    dice = {str(n): hashlib.sha256(f"table dice, turn {n}".encode()).hexdigest() for n in range(6)}
    write_toml(camp.folder / "private" / "dice.toml", {"secrets": dice})      # the same dice every run
    path = tmp / "position.toml"
    path.write_text(POSITION, encoding="utf-8")
    start_campaign(camp, registry.get("wandering_tribes"), read_position(path), T0)
    camp.save()
    return Campaign(camp.folder)


def mail(camp: Campaign, player: str, body: str, name: str = "orders") -> None:
    """A player's mail of orders in the campaign's inbox, read by the next tick."""
    inbox = camp.folder.parent.parent / "inbox"
    inbox.mkdir(exist_ok=True)
    raw = (f"From: {player.title()} <{player}@wt.localhost>\nTo: wt@pbem.localhost\nSubject: [wt] orders\n"
           f"Message-ID: <{player}-{name}@wt.localhost>\nDate: Mon, 23 Nov 2026 10:00:00 +0000\n"
           f"Content-Type: text/plain; charset=utf-8\n\nPLAYER {player} {SECRETS[player]}\n{body}\n")
    (inbox / f"{player}-{name}.eml").write_text(raw.replace("\n", "\r\n"), encoding="utf-8")


def read_mail(camp: Campaign) -> Campaign:
    """The tick of the hour after the round opened: the mail read and acknowledged."""
    tick(camp.folder.parent, T0 + timedelta(hours=1))
    return Campaign(camp.folder)


def game(folder: Path) -> dict[str, object]:
    return dict(read_toml(folder / "state.toml")["game"]["wandering_tribes"])


class Terminal:
    """`pbem ARGS` in a pseudo-terminal: what it shows read back, lines typed in."""

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "pbem", *args], stdin=slave, stdout=slave, stderr=slave,
                                     env=ENV, close_fds=True)
        os.close(slave)
        self.screen = ""
        self.seen = 0

    def wait_for(self, text: str, timeout: float = 90) -> str:
        """The screen once `text` shows after what earlier waits saw."""
        end = time.monotonic() + timeout
        while text not in self.screen[self.seen:]:
            ready, _, _ = select.select([self.master], [], [], max(0.0, end - time.monotonic()))
            assert ready, f"{text!r} never shown; the screen:\n{self.screen}"
            try:
                chunk = os.read(self.master, 65536).decode(errors="replace")
            except OSError:        # the command ended and closed the terminal
                chunk = ""
            assert chunk or text in self.screen[self.seen:], f"{text!r} never shown; the screen:\n{self.screen}"
            self.screen += chunk.replace("\r\n", "\n")
        self.seen = self.screen.index(text, self.seen) + len(text)
        return self.screen

    def type(self, *lines: str) -> None:
        for line in lines:
            os.write(self.master, f"{line}\n".encode())

    def interrupt(self) -> None:
        os.write(self.master, b"\x03")        # Ctrl-C, as the terminal sends it

    def close(self) -> int:
        code = self.proc.wait(timeout=120)
        while select.select([self.master], [], [], 0.2)[0]:
            try:
                chunk = os.read(self.master, 65536).decode(errors="replace")
            except OSError:
                break
            if not chunk:
                break
            self.screen += chunk.replace("\r\n", "\n")
        os.close(self.master)
        return code
