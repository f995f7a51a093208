"""The seen hostile mails through a whole tick: each signed one is answered, threaded to the
mail it answers where that mail had a usable id, and the tick goes on to the next mail."""

from __future__ import annotations

from pathlib import Path

from pbem.state.campaign import Campaign
from tests.support.engine_helpers import SECRETS, dr_campaign, outbox, run

OUTLOOK_ID = "<" + "DB9PR07MB1234ABCDEF0123456789" * 2 + "@DB9PR07MB1234.eurprd07.prod.outlook.com>"
SIGNED = f"PLAYER red {SECRETS['red']}\r\nR-1 H\r\n"


def drop(camp: Campaign, name: str, head: bytes, body: bytes = SIGNED.encode()) -> None:
    inbox = camp.folder.parent.parent / "inbox"
    inbox.mkdir(exist_ok=True)
    (inbox / f"{name}.eml").write_bytes(b"From: Alice <alice@test.localhost>\r\nTo: rift@pbem.localhost\r\n"
                                        b"Date: Mon, 23 Nov 2026 10:00:00 +0000\r\n" + head + b"\r\n" + body)


def test_hostile_headers_and_bodies_are_answered_and_threaded(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    drop(camp, "1vt", b"Subject: [rift] =?utf-8?q?hi=0Bthere?=\r\nMessage-ID: <vt@test.localhost>\r\n")
    drop(camp, "2u7", b"Subject: [rift] =?utf-7?Q?+2AA-?=\r\nMessage-ID: <u7@test.localhost>\r\n"
                      b"Content-Type: text/plain; charset=utf-7\r\n", SIGNED.encode() + b"+2AA-\r\n")
    drop(camp, "3nul", b"Subject: [rift] a\x00b\r\nMessage-ID: <nul@test.localhost>\r\n")
    drop(camp, "4outlook", f"Subject: [rift] orders\r\nMessage-ID: {OUTLOOK_ID}\r\n".encode())
    drop(camp, "5noid", b"Subject: [rift] no id\r\n")
    camp = run(camp)
    acks = outbox(camp, "alice")
    assert sorted(str(m["Subject"]) for m in acks) == [
        "Re: [rift] a b", "Re: [rift] hi there", "Re: [rift] no id", "Re: [rift] orders", "Re: [rift] \ufffd"]
    assert {str(m["In-Reply-To"]) for m in acks} == {
        "<vt@test.localhost>", "<u7@test.localhost>", "<nul@test.localhost>", OUTLOOK_ID, "None"}
    delivered = [path.read_bytes() for path in (tmp_path / "outbox" / "new").iterdir()]
    assert f"\nIn-Reply-To: {OUTLOOK_ID}\n".encode() in b"".join(delivered)       # verbatim on the wire
    assert all(b"\x00" not in data for data in delivered)
    assert len(camp.state["journal"]) == 5
