"""A broken mailbox or mail server is never silent: a wrong IMAP password, a missing password
variable, a mistyped folder or an SMTP server that is down is a counted problem line of
`pbem tick --log`, exit status 3, one GM alert per problem by the mail that still works (kept
queued until the SMTP server heals), shown by `pbem status`, and news again once it healed
(pbem/tick/alarms.py); a shared mailbox (pbem.toml) that cannot be read is told to each GM of it.
Through the CLI against the real Dovecot and aiosmtpd relay."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
import tomli_w

from pbem.cli import main
from pbem.state.campaign import Campaign
from tests.mail.conftest import (
    IMAP_ENV,
    ORDERS_BOX,
    USERS,
    Relay,
    append,
    imap_spec,
    later,
    mailbox,
    make_campaign,
    red,
    smtp_spec,
    text_of,
)
from tests.mail.mailservers import Dovecot

pytestmark = pytest.mark.mailserver
GM = "gm@pbem.test"


class Ticks:
    """`pbem tick --log` (or `how`) on the campaign, an hour later each time; what it printed."""

    def __init__(self, camp: Campaign, capsys: pytest.CaptureFixture[str]) -> None:
        self.camp, self.capsys, self.hour = camp, capsys, 0

    def __call__(self, how: str = "--log") -> tuple[int, str, str]:
        self.hour += 1
        code = main(["tick", "--root", str(self.camp.folder.parent), "--now", later(self.hour).isoformat()]
                    + ([how] if how else []))
        out, err = self.capsys.readouterr()
        return code, out, err

    def status(self) -> str:
        assert main(["status", "--root", str(self.camp.folder.parent)]) == 0
        return self.capsys.readouterr().out


def alerts(server: Dovecot) -> list[str]:
    return [text_of(m) for m in mailbox(server, GM) if "cannot read its mail" in str(m["Subject"])
            or "cannot send mail" in str(m["Subject"])]


def set_folder(camp: Campaign, folder: str) -> None:
    path = camp.folder / "campaign.toml"
    text = re.sub(r'\nfolder = "\w+"', "", path.read_text())
    path.write_text(text.replace('password_env = "PBEM_TEST_IMAP_PASSWORD"',
                                 f'password_env = "PBEM_TEST_IMAP_PASSWORD"\nfolder = "{folder}"', 1))


def wrong_password(camp: Campaign, monkeypatch: pytest.MonkeyPatch, broken: bool) -> str:
    monkeypatch.setenv(IMAP_ENV, "not-the-password" if broken else USERS["orders@pbem.test"])
    return "AUTHENTICATIONFAILED"


def missing_variable(camp: Campaign, monkeypatch: pytest.MonkeyPatch, broken: bool) -> str:
    if broken:
        monkeypatch.delenv(IMAP_ENV)
    else:
        monkeypatch.setenv(IMAP_ENV, USERS["orders@pbem.test"])
    return f"set {IMAP_ENV} to the password of orders@pbem.test"


def wrong_folder(camp: Campaign, monkeypatch: pytest.MonkeyPatch, broken: bool) -> str:
    set_folder(camp, "INBX" if broken else "INBOX")
    return "INBX"


@pytest.mark.parametrize("breakage", [wrong_password, missing_variable, wrong_folder])
def test_an_inbox_that_cannot_be_read_alerts_the_gm_once_by_smtp_until_it_heals(
        dovecot: Dovecot, campaign: Campaign, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        breakage: Callable[[Campaign, pytest.MonkeyPatch, bool], str]) -> None:
    append(dovecot, red("R-1 M T25\n"))
    tick = Ticks(campaign, capsys)
    named = breakage(campaign, monkeypatch, True)
    for _ in range(2):
        code, out, err = tick()
        assert code == 3 and "1 problem(s)" in out
        [line] = err.splitlines()
        assert "rift: MAIL PROBLEM: inbox unavailable, mail stays on the server" in line and named in line
    [alert] = alerts(dovecot)                         # by SMTP at once, and once across two ticks
    assert named in alert and "no stage closes until it is read" in alert
    assert named in tick.status() and "mail problem since" in tick.status()
    breakage(campaign, monkeypatch, False)
    code, out, err = tick()
    assert code == 0 and "0 problem(s)" in out and err == ""
    assert "mail problem" not in tick.status() and len(alerts(dovecot)) == 1
    assert Campaign(campaign.folder).state["submissions"]["red"]       # the waiting order was read
    breakage(campaign, monkeypatch, True)                              # the same problem again: news
    assert tick()[0] == 3 and len(alerts(dovecot)) == 2


def test_an_smtp_server_that_is_down_alerts_the_gm_once_when_it_heals(
        dovecot: Dovecot, relay: Relay, campaign: Campaign, capsys: pytest.CaptureFixture[str]) -> None:
    tick = Ticks(campaign, capsys)
    relay.stop()                                      # nothing listens on its port now
    append(dovecot, red("R-1 M T25\n"))               # an ack must go out
    for _ in range(2):
        code, out, err = tick()
        assert code == 3 and "1 problem(s)" in out
        [line] = err.splitlines()
        assert "rift: MAIL PROBLEM: mail cannot be sent" in line and f"127.0.0.1:{relay.port}" in line
    assert alerts(dovecot) == []
    assert "the GM's alert waits in the outbox" in tick.status()
    relay.start()
    code, out, err = tick("")
    assert code == 0 and "rift: healed: its outbox works again" in out and err == ""
    [alert] = alerts(dovecot)                         # queued once, sent when the server took mail again
    assert f"127.0.0.1:{relay.port}" in alert and "stays queued and is sent as soon as" in alert
    assert "mail problem" not in tick.status()
    relay.stop()
    append(dovecot, red("R-1 M T26\n"))
    assert tick()[0] == 3
    relay.start()
    assert tick()[0] == 0 and len(alerts(dovecot)) == 2


def test_a_tick_that_meets_a_broken_mailbox_and_a_broken_server_says_both(
        dovecot: Dovecot, relay: Relay, campaign: Campaign, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    append(dovecot, red("R-1 M T25\n"))
    tick = Ticks(campaign, capsys)
    relay.stop()
    monkeypatch.setenv(IMAP_ENV, "not-the-password")
    code, out, err = tick()
    assert code == 3 and "2 problem(s)" in out and len(err.splitlines()) == 2
    status = tick.status()
    assert "inbox unavailable" in status and "mail cannot be sent" in status
    relay.start()
    code, out, err = tick()                            # the inbox alert goes once the server heals
    assert code == 3 and "1 problem(s)" in out
    assert len(alerts(dovecot)) == 2


@pytest.mark.usefixtures("passwords")
def test_a_shared_mailbox_that_cannot_be_read_alerts_each_gm_of_it_once(
        dovecot: Dovecot, relay: Relay, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "campaigns"
    root.mkdir()
    (root / "pbem.toml").write_text(tomli_w.dumps(
        {"address": ORDERS_BOX, "transport": {"inbox": imap_spec(dovecot), "outbox": smtp_spec(dovecot, relay)}}))
    rift = make_campaign(root, "rift")
    make_campaign(root, "vale")
    tick = Ticks(rift, capsys)
    wrong_password(rift, monkeypatch, True)
    for _ in range(2):
        code, out, err = tick()
        assert code == 3 and "1 problem(s)" in out            # the mailbox is one problem, however many share it
        [line] = err.splitlines()
        assert "pbem.toml: MAIL PROBLEM: the shared mailbox cannot be read" in line and "AUTHENTICATIONFAILED" in line
    told = alerts(dovecot)
    assert len(told) == 2 and all("the shared mailbox of pbem.toml" in text for text in told)   # rift's and vale's
    wrong_password(rift, monkeypatch, False)
    assert tick()[0] == 0 and "mail problem" not in tick.status()
