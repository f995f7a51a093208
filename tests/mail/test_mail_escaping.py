"""Player text reaching a mail through a template is escaped: never a live link, image or
markup in the HTML part, however pbem's own sentence around it is formatted."""

from __future__ import annotations

import re
from email.message import EmailMessage
from pathlib import Path

from pbem.kit.texts import md_code, md_escape_prose, render
from pbem.mail.compose import markdown_to_html
from pbem.state.campaign import Campaign
from tests.daemon_rift.test_rosters_engine import BLUE, BOB, CAROL, GREEN, RED, RED_ARMY, SECRETS, campaign
from tests.support.engine_helpers import body, outbox, put, run

HOSTILE = "[phish](https://evil.example/login) ![px](https://evil.example/p.png) <https://evil.example/a> **loud**"


def html_of(msg: EmailMessage) -> str:
    part = msg.get_body(("html",))
    assert part is not None
    return str(part.get_content())


def assert_inert(html: str) -> None:
    assert not re.search(r"<a\b[^>]*evil\.example", html) and "<img" not in html and "<strong>" not in html


def gm_alerts(camp: Campaign) -> list[EmailMessage]:
    return [m for m in outbox(camp, "gm@") if "needs your attention" in str(m["Subject"])]


def test_a_list_name_with_links_and_images_reaches_the_gm_alert_as_text(tmp_path: Path) -> None:
    camp = campaign(tmp_path, phase="lists")
    put(camp, "l1", RED + f"LIST R-1 {HOSTILE}\nARTILLERY R-1 no\nFAST R-1 no\n" + RED_ARMY + "\n")
    camp = run(camp)
    put(camp, "g1", f"GM {SECRETS['gm']}\nRESOLVE\n", sender="GM <gm@test.localhost>")
    camp = run(camp)
    [alert] = [m for m in gm_alerts(camp) if "awaits approval" in body(m)]
    html = html_of(alert)
    assert_inert(html)
    assert "[phish](https://evil.example/login)" in html and "<code>APPROVE R-1</code>" in html
    assert "`APPROVE R-1`" in body(alert)                        # pbem's own hint stays readable


def test_gm_alert_template_escapes_outside_code_spans() -> None:
    text = render("common", "gm_alert", {"campaign": {"title": "Rift"},
                                         "alerts": [f"List R-1 '{HOSTILE}' awaits approval: reply `APPROVE R-1`."]})
    html = markdown_to_html(text)
    assert_inert(html)
    assert "<code>APPROVE R-1</code>" in html


def test_md_escape_prose_keeps_code_spans_and_escapes_the_rest() -> None:
    assert md_escape_prose("send `RESULT B1 YES` for *x*") == "send `RESULT B1 YES` for \\*x\\*"
    for text in (f"`a` {HOSTILE} `b`", f"``x`` ` {HOSTILE}", f"\\`{HOSTILE}`", f"`{HOSTILE}", f"a\\\\`b` {HOSTILE}"):
        assert_inert(markdown_to_html(md_escape_prose(text)))


def test_md_code_keeps_backticks_in_the_span() -> None:
    assert md_code("R-1 H") == "`R-1 H`" and md_code("") == ""
    line = f"R-1 H ` {HOSTILE} ``"
    html = markdown_to_html(f"- line 3: {md_code(line)}")
    assert_inert(html)
    assert html.count("<code>") == 1 and "evil.example/login" in html


def test_ack_notes_reasons_and_receipts_names_are_escaped() -> None:
    from pbem.kit.orders import InvalidOrder

    context = {"campaign": {"title": "Rift"}, "stage": {"title": "Turn 1"}, "player": {"name": "A", "faction_name": ""},
               "notes": [HOSTILE], "accepted": [(2, HOSTILE)], "problems": [InvalidOrder(HOSTILE, 3)],
               "on_file": [], "missing": [], "receipt": "", "help": "", "status": {}, "deadline": None}
    assert_inert(markdown_to_html(render("common", "ack", context)))
    refused = render("common", "refused", {"campaign": {"title": "Rift"}, "reason": HOSTILE})
    assert_inert(markdown_to_html(refused))
    players = {"red": {"faction_name": HOSTILE, "name": "A"}}
    receipts = render("common", "_receipts", {"receipts": {"red": "ab"}, "players": players, "nmr": [players["red"]]})
    assert_inert(markdown_to_html(receipts))


def test_the_plain_text_part_shows_text_as_typed_with_no_markdown_escape(tmp_path: Path) -> None:
    camp = campaign(tmp_path, phase="lists")
    put(camp, "l1", RED + f"LIST R-1 {HOSTILE} | *Iron_jaws*\nARTILLERY R-1 no\nFAST R-1 no\n" + RED_ARMY + "\n")
    camp = run(camp)
    put(camp, "g1", f"GM {SECRETS['gm']}\nRESOLVE\n", sender="GM <gm@test.localhost>")
    camp = run(camp)
    [alert] = [m for m in gm_alerts(camp) if "awaits approval" in body(m)]
    assert f"{HOSTILE} | *Iron_jaws*" in body(alert) and "\\" not in body(alert)
    assert_inert(html_of(alert))


def test_a_sheet_suggestion_in_brackets_reads_plainly_in_the_ack(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    for name, (who, order) in {"o1": (RED, "R-1 M T25"), "o2": (BLUE, "B-1 M T25"), "o3": (GREEN, "G-1 H")}.items():
        put(camp, name, who + order + "\n", sender={RED: "Alice <alice@test.localhost>", BLUE: BOB, GREEN: CAROL}[who])
    camp = run(camp)
    put(camp, "s1", RED + "RESULT 1 Red\nU1 lost 3\nOrc Boyz lots 2\n")
    [ack] = [m for m in outbox(run(camp)) if m["In-Reply-To"] == "<s1@test.localhost>"]
    assert "[WS, I]" in body(ack) and "\\[" not in body(ack) and "\\|" not in body(ack)
