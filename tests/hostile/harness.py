"""The hostile corpus beside healthy campaigns: the campaigns, the delivery order, the ticks, and
the checks every transport's test makes afterwards.

Three campaigns: "rift" (Daemon Rift) where Alice and Bob send real orders and Mallory ("grey")
and strangers send the corpus; "vale" (Daemon Rift), healthy, whose orders must be applied
whatever happens to rift; "conq" (Conquest, in its events window) for the Conquest mails. Green
never sends anything, so the stage stays open until its deadline and the orders on file can be
read before they are resolved.
"""

from __future__ import annotations

import email
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import Message
from email.parser import BytesHeaderParser
from email.utils import getaddresses
from pathlib import Path
from typing import Any

from pbem.gm.creation import NewPlayer, create
from pbem.intake.journal import journal_key
from pbem.mail.message import parse_message
from pbem.rulesets import registry
from pbem.rulesets.conquest.ruleset import RULESET as CONQUEST
from pbem.stages import turns
from pbem.state.campaign import Campaign
from pbem.state.store import read_toml
from pbem.tick.engine import tick
from pbem.tick.log import TickLog
from tests.hostile.make_corpus import (
    ALICE,
    BOB,
    CONQ_SECRETS,
    CORPUS,
    DATE,
    HEALTHY_ID,
    SECRETS,
    build,
    campaign_of,
    kind_of,
)

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
DR_PLAYERS = [NewPlayer("red", "Alice", "alice@players.test", "Red", "R", {"home": "1"}),
              NewPlayer("blue", "Bob", "bob@players.test", "Blue", "B", {"home": "5"}),
              NewPlayer("grey", "Mallory", "mallory@players.test", "Grey", "G", {"home": "3"}),
              NewPlayer("green", "Carol", "carol@players.test", "Green", "N", {"home": "7"})]
CONQ_PLAYERS = [NewPlayer(p, p.title(), f"{p}@players.test", c, c[0]) for p, c in
                (("anna", "Red"), ("ben", "Blue"), ("cara", "Green"))]
GM_EMAIL = "gm@players.test"
HEALTHY_ORDERS = {("rift", "red"): {"R-1": "R-1 M T25"}, ("rift", "blue"): {"B-1": "B-1 H"},
                  ("vale", "red"): {"R-1": "R-1 M T25"}, ("vale", "blue"): {"B-1": "B-1 H"}}
AFTER_RESOLUTION = {"R-1": "T25", "B-1": "T28"}
ALL_SECRETS = (*SECRETS.values(), *CONQ_SECRETS.values())
TICK_SECONDS = 180.0
"""A tick over the whole corpus that runs longer than this is stuck, not slow: the corpus once held
the tick for many minutes in a super-linear parse. It is a guard against a hang, set far above
what a loaded machine needs (ticks take a few seconds); how fast a tick is belongs to bench/."""


# -- campaigns -----------------------------------------------------------------------------


def make_dr(root: Path, name: str, transport: Mapping[str, Any] | None) -> Campaign:
    """A Daemon Rift campaign in turn 1's orders window, every player's first list approved."""
    camp, _ = create(root, name, "daemon_rift", "rift_valley", list(DR_PLAYERS), GM_EMAIL, T0,
                     transport=dict(transport) if transport is not None else None, fixed_secrets=SECRETS)
    state = camp.state["game"]["dr"]
    for key in ("R-1", "B-1", "G-1", "N-1"):
        state["lists"][key].update(approved=True, status="active", name=f"List {key}", arrival_turn=1)
    state["phase"] = "orders"
    turns.open_stage(camp, registry.get("daemon_rift"), T0)
    camp.save()
    return camp


def make_conq(root: Path, transport: Mapping[str, Any] | None) -> Campaign:
    """A Conquest campaign in round 1's campaign window (events and challenges)."""
    camp, _ = create(root, "conq", "conquest", "three_crowns", list(CONQ_PLAYERS), GM_EMAIL, T0,
                     transport=dict(transport) if transport is not None else None, fixed_secrets=CONQ_SECRETS)
    capitals = {"anna": "T3", "ben": "T15", "cara": "T35"}
    position = {"round": 1, "window": "campaign", "order": ["anna", "ben", "cara"],
                "empires": {p: {"capital": t} for p, t in capitals.items()},
                "tiles": {t: {"owner": p} for p, t in capitals.items()}}
    camp.state["game"] = CONQUEST.position(camp.settings, position, "position.toml")
    turns.open_stage(camp, CONQUEST, T0)
    camp.save()
    return camp


def make_site(root: Path, transport: Callable[[str], Mapping[str, Any] | None]) -> None:
    """rift, vale and conq under root; transport(name) gives each campaign's tables (None: the
    shared ones of pbem.toml)."""
    make_dr(root, "rift", transport("rift"))
    make_dr(root, "vale", transport("vale"))
    make_conq(root, transport("conq"))


# -- the mails, in delivery order ----------------------------------------------------------


@dataclass(frozen=True)
class Mail:
    name: str        # the corpus file name, or "healthy-..." for the real orders
    campaign: str
    raw: bytes

    @property
    def kind(self) -> str:
        """The corpus class ("healthy" for the real orders)."""
        return kind_of(self.name) or "healthy"


def healthy(campaign: str, player: str, sender: str, orders: str, mid: str) -> Mail:
    raw = (f"From: {sender}\r\nTo: {campaign}@pbem.test\r\nSubject: [{campaign}] turn 1 orders\r\n"
           f"Message-ID: {mid}\r\nDate: {DATE}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=\"utf-8\"\r\n"
           f"\r\nPLAYER {player} {SECRETS[player]}\r\n{orders}\r\n\r\nThanks,\r\n{sender.split()[0]}\r\n")
    return Mail(f"healthy-{campaign}-{player}", campaign, raw.encode())


def corpus_mails() -> list[Mail]:
    """The committed corpus files (the test of make_corpus checks they are what it writes)."""
    return [Mail(name, campaign_of(name), (CORPUS / name).read_bytes()) for name in build()]


def delivery() -> list[Mail]:
    """Alice's orders first (some hostile mails reuse their Message-ID), then the corpus, then
    Bob's and vale's orders: mail behind the hostile ones must not be held up."""
    return [healthy("rift", "red", ALICE, HEALTHY_ORDERS["rift", "red"]["R-1"], HEALTHY_ID),
            *corpus_mails(),
            healthy("rift", "blue", BOB, "B-1 H", "<blue-orders-turn-1@players.test>"),
            healthy("vale", "red", ALICE, "R-1 M T25", "<vale-red-turn-1@players.test>"),
            healthy("vale", "blue", BOB, "B-1 H", "<vale-blue-turn-1@players.test>")]


# -- the ticks -----------------------------------------------------------------------------


@dataclass
class Run:
    root: Path
    logs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)

    def tick(self, now: datetime) -> None:
        """One tick; whatever it raises is recorded (and fails the test), not raised."""
        started = time.perf_counter()
        try:
            log = tick(self.root, now, log=TickLog())
            self.logs += log.lines
        except Exception as exc:   # noqa: BLE001  (whatever it is, the tick must not raise it)
            self.errors.append(f"tick at {now:%d %H:%M} raised {type(exc).__name__}: {str(exc)[:200]}")
        self.seconds.append(time.perf_counter() - started)

    def campaign(self, name: str) -> Campaign:
        return Campaign(self.root / name)


def before_deadline(hour: int) -> datetime:
    return T0 + timedelta(hours=hour)


def after_deadline(root: Path, minutes: int = 1) -> datetime:
    return turns.parse_time(Campaign(root / "rift").state["stage"]["deadline"]) + timedelta(minutes=minutes)


def play(run: Run, ticks_before: int = 4, on_file: Callable[[Run], None] | None = None) -> None:
    """Ticks before the deadline (so a failing mail is retried and quarantined), `on_file`
    (checks of the orders on file), then two ticks after the deadline."""
    for hour in range(1, ticks_before + 1):
        run.tick(before_deadline(hour))
    if on_file is not None:
        on_file(run)
    deadline = after_deadline(run.root)
    run.tick(deadline)
    run.tick(deadline + timedelta(minutes=5))


# -- the checks ----------------------------------------------------------------------------


def check_on_file(run: Run) -> list[str]:
    """The healthy players' orders are on file, in their canonical form, before the deadline."""
    problems = []
    for (name, player), orders in HEALTHY_ORDERS.items():
        camp = run.campaign(name)
        on_file = camp.state.get("submissions", {}).get(player)
        if not on_file:
            problems.append(f"{name}: {player}'s orders are not on file")
            continue
        ruleset, who = registry.get(camp.settings.ruleset), camp.settings.player(player)
        assert who is not None
        lines = ruleset.canonical(turns.context(camp, T0), who, on_file["payload"])
        problems += [f"{name}: {player}'s order {line!r} is not on file (on file: {lines})"
                     for line in orders.values() if line not in lines]
    return problems


def check_resolved(run: Run) -> list[str]:
    """After the deadline, rift and vale resolved turn 1 with the healthy orders."""
    problems = []
    for name in ("rift", "vale"):
        camp = run.campaign(name)
        if int(camp.state["stage"]["turn"]) < 2:
            problems.append(f"{name}: turn 1 was not resolved at its deadline")
        tokens = camp.state["game"]["dr"]["tokens"]
        for token, where in AFTER_RESOLUTION.items():
            if tokens.get(token, {}).get("territory") != where:
                problems.append(f"{name}: {token} is in {tokens.get(token, {}).get('territory')}, not {where}")
    return problems


def check_ticks(run: Run) -> list[str]:
    problems = list(run.errors)
    problems += [f"log has a traceback: {line[:200]}" for line in run.logs if "Traceback" in line]
    problems += [f"log: {line[:200]}" for line in run.logs if "NOT PROCESSED" in line]
    slow = [f"{s:.1f} s" for s in run.seconds if s > TICK_SECONDS]
    if slow:
        problems.append(f"ticks took {', '.join(slow)} (limit {TICK_SECONDS} s)")
    return problems


# -- what happened to each hostile mail ----------------------------------------------------


@dataclass(frozen=True)
class Outgoing:
    """One mail pbem sent or queued, as raw bytes."""

    raw: bytes

    @property
    def msg(self) -> Message:
        return BytesHeaderParser(policy=policy.compat32).parsebytes(self.raw)

    def header(self, name: str) -> str:
        return str(self.msg.get(name, ""))

    @property
    def to(self) -> set[str]:
        return {addr.lower() for _, addr in getaddresses(self.msg.get_all("To", []))}


def local_outgoing(root: Path, *maildirs: Path) -> list[Outgoing]:
    """Every mail in the given outbox Maildirs and in every campaign's queue and sent folders."""
    files = [f for box in maildirs for sub in ("new", "cur") for f in sorted((box / sub).glob("*"))
             if (box / sub).exists()]
    files += sorted(root.glob("*/outbox/queue/*.eml"))
    return [Outgoing(f.read_bytes()) for f in files if f.is_file()]


def head_of(raw: bytes) -> Message:
    """Only the header block, read by the lenient compat32 parser (never raises, never recurses)."""
    return BytesHeaderParser(policy=policy.compat32).parsebytes(raw.split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n")


def message_id_of(raw: bytes) -> str:
    found = re.search(r"<[^<>\s]+>", str(head_of(raw).get("Message-ID", "")))
    return found.group() if found else ""


def sender_of(raw: bytes) -> str:
    pairs = getaddresses([str(value) for value in head_of(raw).get_all("From", [])])
    addresses = [address.lower() for _, address in pairs if "@" in address]
    return addresses[0] if len(addresses) == 1 else ""


def key_of(raw: bytes) -> str | None:
    """The journal key pbem stores for this mail; None when parse_message itself fails."""
    try:
        return journal_key(parse_message(raw))
    except Exception:   # noqa: BLE001  (parse_message must never raise: the check reports it)
        return None


def journals(root: Path) -> dict[str, set[str]]:
    """Every campaign's (and the postmaster's) journal keys, by folder name."""
    found: dict[str, set[str]] = {}
    for state in sorted(root.glob("*/state.toml")):
        found[state.parent.name] = set(read_toml(state).get("journal", {}))
    return found


def quarantined_texts(root: Path, extra: Iterable[bytes] = ()) -> list[bytes]:
    files = [f for f in sorted(root.glob("*/quarantine/**/*")) if f.is_file()]
    return [f.read_bytes() for f in files] + list(extra)


def is_quarantined(mail: Mail, key: str | None, texts: list[bytes]) -> bool:
    raw = mail.raw.replace(b"\r\n", b"\n")
    marks = [m.encode() for m in (key, message_id_of(mail.raw)) if m]
    return any((raw and raw in text.replace(b"\r\n", b"\n")) or any(mark in text for mark in marks) for text in texts)


MUST_ANSWER: tuple[str, ...] = ()
"""Classes whose journal entry alone would prove nothing. None now: a journal key carries a
digest of the mail's content, so a mail reusing another's Message-ID is journalled under a key
of its own (its answer may be held back by the reply limit when its sender sent many)."""


def fate_problems(mails: list[Mail], outgoing: list[Outgoing], root: Path,
                  quarantine: Iterable[bytes] = ()) -> list[str]:
    """Every mail ends answered (a reply to its sender whose In-Reply-To is its Message-ID),
    journalled (its journal key in a state.toml journal) or quarantined; none twice."""
    kept = journals(root)
    all_keys = set().union(*kept.values()) if kept else set()
    texts = quarantined_texts(root, quarantine)
    replies = Counter((out.header("In-Reply-To").strip(), address) for out in outgoing for address in out.to)
    expected: Counter[tuple[str, str]] = Counter()
    problems = []
    for mail in mails:
        mid, sender, key = message_id_of(mail.raw), sender_of(mail.raw), key_of(mail.raw)
        if key is None:
            problems.append(f"{mail.name}: parse_message raised")
        expected[mid, sender] += 1
        answered = bool(mid and sender and replies.get((mid, sender)))
        journalled = key is not None and key in all_keys and mail.kind not in MUST_ANSWER
        if not (answered or journalled or is_quarantined(mail, key, texts)):
            problems.append(f"{mail.name}: neither answered, journalled nor quarantined")
    for (mid, sender), count in replies.items():
        if mid and (mid, sender) in expected and count > expected[mid, sender]:
            problems.append(f"{mid} to {sender}: answered {count} times")
    return problems


SAFE_HEADER = re.compile(r"[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x85\u2028\u2029]*")
ID_HEADERS = ("Message-ID", "In-Reply-To", "References")
INJECTED_HEADERS = {"bcc", "cc", "x-injected"}
"""The header names the corpus tries to inject (in From display names, Subjects, References)."""
FIELD_NAME = re.compile(r"[!-9;-~]+")


def outgoing_problems(outgoing: list[Outgoing]) -> list[str]:
    """No header line break injection, no encoded or broken ids, nobody's secret, no empty To."""
    problems = []
    for out in outgoing:
        head = out.raw.replace(b"\r\n", b"\n").split(b"\n\n", 1)[0]
        label = out.header("Message-ID") or out.raw[:60].decode("latin-1")
        problems += [f"{label}: {p}" for p in header_block_problems(head)]
        problems += [f"{label}: {p}" for p in id_problems(out)]
        if not out.to:
            problems.append(f"{label}: no recipient")
        problems += [f"{label}: carries a secret" for s in ALL_SECRETS if s in decoded_text(out.raw)]
        problems += [f"{label}: a player's link or image is live: {link[:80]!r}" for link in live_links(out.raw)]
    return problems


def header_block_problems(head: bytes) -> list[str]:
    problems = []
    for line in head.split(b"\n"):
        if b"\r" in line or b"\x00" in line:
            problems.append(f"bare CR or NUL in header line {line[:80]!r}")
        if line[:1] in (b" ", b"\t"):
            continue
        name = line.split(b":", 1)[0].decode("latin-1").lower()
        if name in INJECTED_HEADERS or not FIELD_NAME.fullmatch(name) or b":" not in line:
            problems.append(f"injected or broken header line {line[:80]!r}")
    try:
        text = head.decode("ascii")
    except UnicodeDecodeError:
        problems.append("8-bit bytes in the header block")
        return problems
    if not SAFE_HEADER.fullmatch(text.replace("\n ", " ").replace("\n\t", " ").replace("\n", "")):
        problems.append("control character in a header")
    return problems


def id_problems(out: Outgoing) -> list[str]:
    problems = []
    for name in ID_HEADERS:
        value = " ".join(out.header(name).split())
        if value and not re.fullmatch(r"<[^<>\s]+>( <[^<>\s]+>)*", value):
            problems.append(f"{name} is not a plain list of ids: {value[:120]!r}")
        if "=?" in value:
            problems.append(f"{name} is RFC 2047-encoded: {value[:120]!r}")
    return problems


LIVE_LINK = re.compile(r"""<(?:a|img)\b[^>]*(?:href|src)\s*=\s*["']?https?://evil\.example[^>]*>""", re.IGNORECASE)


def live_links(raw: bytes) -> list[str]:
    """Links and images to the corpus's phishing host in the HTML parts (escaped text is fine)."""
    msg = email.message_from_bytes(raw, policy=policy.default)
    found = []
    for part in msg.walk():
        if part.get_content_type() == "text/html":
            try:
                found += LIVE_LINK.findall(part.get_content())
            except (LookupError, ValueError):
                continue
    return found


def decoded_text(raw: bytes) -> str:
    """The raw mail plus its decoded headers and text parts (a secret must show in none)."""
    msg = email.message_from_bytes(raw, policy=policy.default)
    parts = [raw.decode("latin-1")] + [str(v) for _, v in msg.items()]
    for part in msg.walk():
        if part.get_content_maintype() == "text":
            try:
                parts.append(part.get_content())
            except (LookupError, ValueError):
                continue
    return "\n".join(parts)


def report(problems: list[str], limit: int = 80) -> str:
    return f"{len(problems)} problem(s):\n" + "\n".join(problems[:limit])
