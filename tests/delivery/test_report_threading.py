"""Turn reports are threaded per campaign: every report mail, the welcome mails that open the
campaign, a rollback notice and the final report refer (References) to one campaign root id, so
that a mail client shows a campaign's reports as one thread and two campaigns as two."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

from pbem.cli import main
from pbem.delivery.welcome import owe
from pbem.mail.compose import thread_root
from tests.support.engine_helpers import SECRETS, T0, dr_campaign, outbox, put, run

RED_SECRET_LINE = f"PLAYER red {SECRETS['red']}\n"
BLUE_SECRET_LINE = f"PLAYER blue {SECRETS['blue']}\n"


def refers_to_root(msg: EmailMessage, root: str) -> bool:
    return root in str(msg.get("References", "")).split()


def test_every_report_and_the_welcome_refer_to_the_campaign_root(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    owe(camp.folder, SECRETS)
    put(camp, "r1", RED_SECRET_LINE + "R-1 H\n")
    put(camp, "b1", BLUE_SECRET_LINE + "B-1 H\n", sender="Bob <bob@test.localhost>")
    camp = run(camp, T0 + timedelta(days=30))
    root = thread_root("rift", camp.settings.domain)
    reports = [m for m in outbox(camp) if "Turn 1:" in str(m["Subject"]) and "Re:" not in str(m["Subject"])]
    welcomes = [m for m in outbox(camp) if "welcome" in str(m["Subject"])]
    assert reports and len(welcomes) == 3
    assert all(refers_to_root(m, root) for m in reports + welcomes)
    other = thread_root("other", camp.settings.domain)
    assert other != root


def test_a_rollback_notice_and_the_final_report_stay_in_the_thread(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    put(camp, "r1", RED_SECRET_LINE + "R-1 H\n")
    put(camp, "b1", BLUE_SECRET_LINE + "B-1 H\n", sender="Bob <bob@test.localhost>")
    camp = run(camp, T0 + timedelta(days=30))
    root = thread_root("rift", camp.settings.domain)
    later = (T0 + timedelta(days=30, hours=1)).isoformat()
    assert main(["rollback", "rift", "--root", str(camp.folder.parent), "--now", later]) == 0
    assert main(["end", "rift", "--root", str(camp.folder.parent), "--yes"]) == 0
    camp = run(camp, T0 + timedelta(days=30, hours=2))
    notices = [m for m in outbox(camp) if "rolled back" in str(m["Subject"])]
    assert notices and all(refers_to_root(m, root) for m in notices)
    finals = [m for m in outbox(camp) if m not in notices and "Turn" not in str(m["Subject"])
              and "Re:" not in str(m["Subject"])]
    assert finals and all(refers_to_root(m, root) for m in finals), [str(m["Subject"]) for m in finals]
