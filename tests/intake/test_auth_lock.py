"""An address locked out after repeated bad secrets hears it once; the GM alert says how to lift
the lock, and UNLOCK (by mail or `pbem unlock`) lifts it. The HTML part carries a small stylesheet."""

from __future__ import annotations

from pathlib import Path

from pbem.cli import main
from pbem.state.campaign import Campaign
from tests.support.engine_helpers import SECRETS, body, dr_campaign, outbox, put, run

BAD = "PLAYER red WRONG-SECRET\nR-1 M T25\n"
GM = "GM <gm@test.localhost>"


def locked(tmp_path: Path) -> Campaign:
    camp = dr_campaign(tmp_path)
    for i in range(8):
        put(camp, f"bad{i}", BAD, mid=f"bad{i}@x")
    return run(camp)


def test_a_locked_out_address_is_told_once_and_the_gm_learns_how_to_lift_it(tmp_path: Path) -> None:
    camp = locked(tmp_path)
    replies = [body(m) for m in outbox(camp, "alice")]
    assert len(replies) == 6 and sum("not answered for 24 hours" in r for r in replies) == 1
    [alert] = [body(m) for m in outbox(camp, "gm@")]
    assert "UNLOCK alice@test.localhost" in alert and "pbem unlock rift alice@test.localhost" in alert


def test_the_gm_lifts_the_lock_by_mail(tmp_path: Path) -> None:
    camp = locked(tmp_path)
    put(camp, "gm1", f"GM {SECRETS['gm']}\nUNLOCK alice@test.localhost\n", sender=GM, subject="[rift] gm")
    camp = run(camp)
    assert "alice@test.localhost" not in camp.auth.get("failures", {})
    assert "is unlocked" in body(outbox(camp, "gm@")[-1])
    put(camp, "again", BAD, mid="again@x")
    assert len(outbox(run(camp), "alice")) == 7       # answered again


def test_pbem_unlock_lifts_the_lock(tmp_path: Path, capsys: object) -> None:
    camp = locked(tmp_path)
    assert main(["unlock", "--root", str(camp.folder.parent), "rift", "alice@test.localhost"]) == 0
    assert "alice@test.localhost" not in Campaign(camp.folder).auth.get("failures", {})
    assert main(["unlock", "--root", str(camp.folder.parent), "rift", "nobody@test.localhost"]) == 1


def test_the_html_part_has_an_inline_stylesheet_for_tables_and_code(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    put(camp, "m1", f"PLAYER red {SECRETS['red']}\nR-1 M T25\n")
    html = outbox(run(camp), "alice")[0].get_body(preferencelist=("html",))
    assert html is not None
    head = html.get_content().split("</head>")[0]
    assert "<style>" in head and "border" in head and "code" in head
