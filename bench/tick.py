"""Benchmark: one tick over a shared IMAP mailbox, against the bare IMAP fetch of the same mail.

    python bench/tick.py                  # 2,000 order mails over 50 campaigns, Maildir outbox
    python bench/tick.py --smtp           # the same, delivering by SMTP (aiosmtpd -> Dovecot LMTP),
                                          # and the bare SMTP send of as many mails beside it
    python bench/tick.py --mails 400 --campaigns 10 --profile     # smaller, with a cProfile summary

A private Dovecot on 127.0.0.1 (as in the mail tests) holds a mailbox shared by every
campaign through pbem.toml; it is filled with signed order mails, alternately from each
campaign's two players, so every campaign's turn also resolves in the tick. First the bare
fetch is timed: one IMAPClient session that SEARCHes and FETCHes BODY.PEEK[] of the same
mail in batches of the same size, doing nothing with it. Then `pbem tick` runs once over
all campaigns: read, route, authenticate, parse, store, acknowledge, mark done, resolve,
report and deliver. The ratio of the two is pbem's processing overhead per message; the
intake alone (everything up to marking the mail done) is timed and shown apart from the
resolution, the reports and their delivery. With --smtp the aiosmtpd relay runs as a thread of
this process, so its work (and its LMTP hand-over to Dovecot) is in the delivery figures.
Wall times vary with the machine's load; the CPU times beside them vary less.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path

import tomli_w

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from imapclient import IMAPClient

from pbem.gm.creation import NewPlayer, create
from pbem.rulesets import registry
from pbem.stages import turns
from pbem.tick import campaign as tick_campaign
from pbem.tick.engine import tick
from tests.mail.mailservers import Dovecot, make_smtp_relay

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
BOX, BOX_PASSWORD = "orders@pbem.test", "orders-pw"
SECRETS = {"red": "RRRR-TEST-0000-0000-0001", "blue": "BBBB-TEST-0000-0000-0002", "gm": "GMGM-TEST-0000-0000-0000"}
BATCH = 50


def player(campaign: int, side: str) -> str:
    return f"{side}{campaign}@pbem.test"


def build_site(root: Path, server: Dovecot, campaigns: int, smtp_port: int) -> None:
    os.environ["PBEM_BENCH_PASSWORD"] = BOX_PASSWORD
    login = {"user": BOX, "password_env": "PBEM_BENCH_PASSWORD", "cafile": str(server.cert), "host": "127.0.0.1"}
    inbox = login | {"type": "imap", "port": server.imaps_port, "tls": "implicit", "batch": BATCH}
    outbox = (login | {"type": "smtp", "port": smtp_port, "tls": "starttls"} if smtp_port
              else {"type": "maildir", "path": "delivered"})
    root.mkdir(parents=True)
    (root / "pbem.toml").write_text(tomli_w.dumps({"address": BOX, "transport": {"inbox": inbox, "outbox": outbox}}))
    ruleset = registry.get("daemon_rift")
    for number in range(campaigns):
        players = [NewPlayer("red", "Red", player(number, "red"), "Red", "R", {"home": "1"}),
                   NewPlayer("blue", "Blue", player(number, "blue"), "Blue", "B", {"home": "5"})]
        camp, _ = create(root, f"c{number:02d}", "daemon_rift", "rift_valley", players, "gm@pbem.test", T0,
                         fixed_secrets=SECRETS)
        state = camp.state["game"]["dr"]
        for key in ("R-1", "B-1"):
            state["lists"][key].update(approved=True, name=f"List {key}")
        state["phase"] = "orders"
        turns.open_stage(camp, ruleset, T0)
        camp.save()


def order_mails(mails: int, campaigns: int) -> list[bytes]:
    out = []
    for i in range(mails):
        number, side = i % campaigns, ("red", "blue")[(i // campaigns) % 2]
        msg = EmailMessage()
        msg["From"], msg["To"] = f"{side.title()} <{player(number, side)}>", BOX
        msg["Subject"], msg["Message-ID"] = f"[c{number:02d}] orders", f"<bench-{i}@players.pbem.test>"
        msg["Date"] = "Mon, 23 Nov 2026 10:00:00 +0000"
        token, move = ("R-1", "M T25") if side == "red" else ("B-1", "M T27")
        msg.set_content(f"Hello GM,\n\nPLAYER {side} {SECRETS[side]}\n{token} {move}\n\n-- \n{side} player\n")
        out.append(msg.as_bytes(policy=policy.SMTP))
    return out


def fill(server: Dovecot, raws: list[bytes]) -> float:
    started = time.perf_counter()
    client = IMAPClient("127.0.0.1", port=server.imap_port, ssl=False, timeout=30)
    client.login(BOX, BOX_PASSWORD)
    for start in range(0, len(raws), 200):
        client.multiappend("INBOX", raws[start:start + 200])
    client.logout()
    return time.perf_counter() - started


def bare_fetch(server: Dovecot) -> tuple[float, int]:
    """What reading the mail costs with nothing done to it: same TLS, same batch size."""
    started = time.perf_counter()
    client = IMAPClient("127.0.0.1", port=server.imaps_port, ssl=True, ssl_context=server.client_ssl_context(),
                        timeout=30)
    client.login(BOX, BOX_PASSWORD)
    client.select_folder("INBOX", readonly=True)
    uids = sorted(client.search([b"UNKEYWORD", b"$PbemDone", b"NOT", b"DELETED"]))
    size = 0
    for start in range(0, len(uids), BATCH):
        data = client.fetch(uids[start:start + BATCH], [b"BODY.PEEK[]"])
        size += sum(len(v[b"BODY[]"]) for v in data.values())
    client.logout()
    return time.perf_counter() - started, size


def timed(module: object, name: str) -> list[float]:
    """Wrap module.name so that its wall and CPU time are added to the returned [wall, cpu]."""
    spent = [0.0, 0.0]
    original = getattr(module, name)

    def wrapper(*args: object, **kwargs: object) -> object:
        started, cpu = time.perf_counter(), time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - started
            spent[1] += time.process_time() - cpu

    setattr(module, name, wrapper)
    return spent


def bare_send(server: Dovecot, port: int, count: int) -> float:
    """What handing `count` small mails to the same SMTP relay costs over one session."""
    import smtplib

    started = time.perf_counter()
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        smtp.starttls(context=server.client_ssl_context())
        smtp.login(BOX, BOX_PASSWORD)
        for number in range(count):
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = BOX, player(number % 10, "red"), f"bare {number}"
            msg["Message-ID"] = f"<bare-{number}@pbem.test>"
            msg.set_content("A line of text.\n")
            smtp.send_message(msg)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=2000)
    parser.add_argument("--campaigns", type=int, default=50)
    parser.add_argument("--smtp", action="store_true", help="deliver by SMTP instead of into a Maildir")
    parser.add_argument("--profile", action="store_true", help="print the 25 costliest functions of the tick")
    parser.add_argument("--sort", default="cumulative", help="profile order: cumulative or tottime")
    args = parser.parse_args()

    users = {BOX: BOX_PASSWORD, "gm@pbem.test": "gm-pw"}
    users |= {player(n, s): "pw" for n in range(args.campaigns) for s in ("red", "blue")}
    server = Dovecot(users=users)
    work = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    relay = None
    try:
        server.start()
        relay = make_smtp_relay(server, tls=True, auth_users={BOX: BOX_PASSWORD}) if args.smtp else None
        started = time.perf_counter()
        build_site(work / "campaigns", server, args.campaigns, relay.port if relay else 0)
        raws = order_mails(args.mails, args.campaigns)
        filled = fill(server, raws)
        print(f"setup: {args.campaigns} campaigns in {time.perf_counter() - started - filled:.1f} s; "
              f"{args.mails} mails appended in {filled:.2f} s")

        cpu = time.process_time()
        fetch_s, size = bare_fetch(server)
        fetch_cpu = time.process_time() - cpu
        profiler = cProfile.Profile() if args.profile else None
        intake_s = timed(tick_campaign, "intake_shared")
        started, cpu = time.perf_counter(), time.process_time()
        if profiler:
            profiler.enable()
        log = tick(work / "campaigns", T0 + timedelta(hours=1))
        if profiler:
            profiler.disable()
        tick_s, tick_cpu = time.perf_counter() - started, time.process_time() - cpu

        processed = sum(1 for line in log.lines if line.endswith((": processed", ": duplicate")) or ": ignored" in line)
        resolved = sum(1 for line in log.lines if ": resolved " in line)
        delivered = sum(int(line.split("delivered ")[1].split()[0]) for line in log.lines if " delivered " in line)
        problems = [line for line in log.lines if "fail" in line or "NOT PROCESSED" in line or "unavailable" in line]
        left = IMAPClient("127.0.0.1", port=server.imap_port, ssl=False)
        left.login(BOX, BOX_PASSWORD)
        left.select_folder("INBOX", readonly=True)
        still_new = len(left.search("ALL"))
        left.logout()

        print(f"bare IMAP fetch: {args.mails} mails ({size / 1e6:.2f} MB) in {fetch_s:.2f} s "
              f"= {args.mails / fetch_s:,.0f} mails/s (CPU {fetch_cpu:.2f} s)")
        print(f"pbem tick:       {processed} mails processed, {resolved} turns resolved, {delivered} mails delivered "
              f"({'SMTP' if args.smtp else 'Maildir'}) in {tick_s:.2f} s = {args.mails / tick_s:,.0f} mails/s "
              f"(CPU {tick_cpu:.2f} s)")
        print(f"  of which intake (read, route, check, store, queue the ack, mark done): {intake_s[0]:.2f} s "
              f"= {args.mails / intake_s[0]:,.0f} mails/s (CPU {intake_s[1]:.2f} s); "
              f"resolution, reports and delivery: {tick_s - intake_s[0]:.2f} s (CPU {tick_cpu - intake_s[1]:.2f} s)")
        print(f"ratio tick / bare fetch: {tick_s / fetch_s:.1f}x   intake / bare fetch: {intake_s[0] / fetch_s:.1f}x   "
              f"({1000 * intake_s[0] / args.mails:.2f} ms per mail against {1000 * fetch_s / args.mails:.3f} ms)")
        if relay:
            send_s = bare_send(server, relay.port, delivered)
            print(f"bare SMTP send of {delivered} mails to the same relay (one session): {send_s:.2f} s "
                  f"= {delivered / send_s:,.0f} mails/s")
        print(f"left in the inbox: {still_new}; problems: {len(problems)}")
        for line in problems[:5]:
            print("  ", line)
        if profiler:
            pstats.Stats(profiler).sort_stats(args.sort).print_stats(25)
    finally:
        if relay:
            relay.stop()
        server.cleanup()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
