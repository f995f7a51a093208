"""Secrets are hidden wherever a reply quotes a sender's text back (pbem.intake.masking)."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pbem.intake.masking import MARK, SCRYPT_CHECKS, SecretMask, masked
from pbem.kit.orders import InvalidOrder
from pbem.state import credentials
from pbem.state.campaign import Campaign
from tests.support.engine_helpers import SECRETS, body, dr_campaign, outbox, put, run

GENERATED = "K7QD-M2XP-4TRA-9B2C-WZ5E"
CHOSEN = "tr0ub4dor&3"


def test_generated_secrets_are_found_however_they_are_typed() -> None:
    mask = SecretMask(f"my secret is k7qd m2xp 4tra 9b2c wz5e\nand {GENERATED}",
                      stored=[credentials.hash_generated(GENERATED)])
    assert mask("quoted: 'K7QDM2XP4TRA9B2CWZ5E', k7qd-m2xp 4tra-9b2c wz5e.") == f"quoted: '{MARK}', {MARK}."
    assert mask("K7QD-M2XP-4TRA-9B2C-WZ5EX stays") == "K7QD-M2XP-4TRA-9B2C-WZ5EX stays"


def test_known_and_chosen_secrets_are_masked_as_whole_words() -> None:
    mask = SecretMask(f"Player: fra {CHOSEN}\nunknown 'words'", known=["carried-1"],
                      stored=[credentials.hash_chosen(CHOSEN)])
    assert mask(f"no player '{CHOSEN}' and carried-1, carried-12") == f"no player '{MARK}' and {MARK}, carried-12"
    problem = masked([InvalidOrder(f"unknown {CHOSEN!r}", 2, f"x {CHOSEN}")], mask)[0]
    assert (problem.reason, problem.line, problem.line_no, problem.kind) == (
        f"unknown '{MARK}'", f"x {MARK}", 2, "invalid"
    )


def test_scrypt_checks_are_bounded_per_mail() -> None:
    stored = [credentials.hash_chosen(f"chosen-secret-{n}") for n in range(4)]
    typed = " ".join(f"plausible-word-{n}" for n in range(100))
    start = time.perf_counter()
    mask = SecretMask(typed, stored=stored)
    assert time.perf_counter() - start < 0.6 * SCRYPT_CHECKS and mask("plausible-word-1") == "plausible-word-1"


def test_a_mail_of_the_largest_size_is_searched_in_bounded_time() -> None:
    typed = "R-1 M T5-T6 PRESS the valley burns K7QD M2XP tonight 12\n" * 4500       # 250 KB
    stored = [credentials.hash_generated(f"{GENERATED[:-1]}{n}") for n in range(6)]
    start = time.perf_counter()
    SecretMask(typed, ["x"], stored)
    assert time.perf_counter() - start < 3.0


def test_nothing_to_hide_leaves_text_alone() -> None:
    assert SecretMask("R-1 H", known=["", " "])("R-1 H *x*") == "R-1 H *x*"


@pytest.fixture
def camp(tmp_path: Path) -> Campaign:
    return dr_campaign(tmp_path)


def test_a_secret_typed_outside_the_envelope_is_not_quoted_in_the_ack(camp: Campaign) -> None:
    red = SECRETS["red"]
    put(camp, "m1", f"PLAYER red {red}\nPlayer: fra {red}\nmy secret is {red.lower()}\nR-1 M {red}\nR-1 H\n",
        subject=f"[rift] orders {red}")
    camp = run(camp)
    [ack] = outbox(camp, "alice")
    assert red not in str(ack["Subject"]) and MARK in str(ack["Subject"])
    assert red.upper() not in body(ack).upper() and "line 5: `R-1 H`" in body(ack)


def test_a_secret_in_a_gm_command_is_not_quoted_in_the_gm_ack(camp: Campaign) -> None:
    gm, red = SECRETS["gm"], SECRETS["red"]
    put(camp, "g1", f"GM {gm}\nREPLACE {gm} x@y.example\nREPLACE {red} x@y.example\n", sender="gm@test.localhost")
    camp = run(camp)
    [ack] = outbox(camp, "gm@")
    text = body(ack)
    assert gm not in text and red not in text and text.count(MARK) == 2


def test_the_postmaster_does_not_quote_the_envelope_secret_of_mail_for_no_campaign(tmp_path: Path) -> None:
    import email
    from email import policy

    import tomli_w

    from pbem.tick.engine import tick
    from tests.mail.conftest import make_campaign

    root = tmp_path / "campaigns"
    root.mkdir()
    spec = {"inbox": {"type": "eml", "path": "inbox"}, "outbox": {"type": "maildir", "path": "outbox"}}
    (root / "pbem.toml").write_text(tomli_w.dumps({"address": "orders@pbem.test", "transport": spec}))
    make_campaign(root, "rift")
    (root / "inbox").mkdir()
    red = SECRETS["red"]
    (root / "inbox" / "m.eml").write_bytes(f"From: alice@pbem.test\r\nSubject: orders {red}\r\n"
                                           f"Message-ID: <m@x>\r\n\r\n"
                                           f"PLAYER red {red}\r\nR-1 H\r\n".encode())
    tick(root, datetime(2026, 11, 23, 10, 0, tzinfo=UTC))
    [answer] = [email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in root.rglob("new/*")]
    assert red not in answer.as_string() and MARK in str(answer["Subject"])
