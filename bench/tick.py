"""Benchmark: one tick over a shared IMAP mailbox, against a floor script doing the same mail
work with the bare libraries, and against the bare IMAP fetch of the same mail.

    python bench/tick.py                  # 2,000 order mails over 50 campaigns, 5 runs, SMTP outbox
                                          # (aiosmtpd relay -> Dovecot LMTP)
    python bench/tick.py --maildir        # the same, the tick delivering into a Maildir
    python bench/tick.py --mails 400 --campaigns 10 --runs 5
    python bench/tick.py --mails 400 --campaigns 10 --runs 1 --profile     # with a cProfile summary

The floor (`floor`) reads the same mail from a mailbox of its own in the same Dovecot over one
IMAPClient session, parses each with the standard library, renders an acknowledgement of the
same shape as pbem's with Jinja and Markdown, builds the mail (text and HTML), writes it once
with one fsync, sends it by SMTP to the same relay over one session, and marks the batch done.
The tick does that and more: authenticates, journals, resolves each campaign's turn and mails
its reports with their map pictures. Each run builds everything anew; the ratios printed are
the medians of the runs: wall time and CPU time (this process's, the relay thread's included, on
both sides), each with the goal beside it (tick within 1.5x the floor) and the load average. The peak
memory is the process's high-water mark after the tick (the mail servers run apart).

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
import email
import os
import pstats
import resource
import shutil
import smtplib
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

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
FLOOR_BOX = "floor@pbem.test"
GOAL_RATIO = 1.5
ACK = """# {{ title }}: Turn 1 orders

Hello {{ name }}, this is what we read in your message.

## Understood

{% for no, text in accepted %}- line {{ no }}: `{{ text }}`
{% endfor %}
## Orders on file

```
{% for text in on_file %}{{ text }}
{% endfor %}```

Send new orders any time before the deadline; the last ones count.
"""


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


def fill(server: Dovecot, raws: list[bytes], box: str = BOX) -> float:
    started = time.perf_counter()
    client = IMAPClient("127.0.0.1", port=server.imap_port, ssl=False, timeout=30)
    client.login(box, BOX_PASSWORD)
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


def floor(server: Dovecot, port: int, out: Path) -> tuple[float, float, int]:
    """The same mail work with bare libraries (see the module's doc): wall and CPU seconds, mails."""
    import jinja2
    import markdown

    started, cpu = time.perf_counter(), time.process_time()
    template = jinja2.Environment(autoescape=False).from_string(ACK)
    converter = markdown.Markdown(extensions=["tables", "fenced_code"])
    client = IMAPClient("127.0.0.1", port=server.imaps_port, ssl=True, ssl_context=server.client_ssl_context(),
                        timeout=30)
    client.login(FLOOR_BOX, BOX_PASSWORD)
    client.select_folder("INBOX")
    uids = sorted(client.search([b"UNKEYWORD", b"$PbemDone", b"NOT", b"DELETED"]))
    smtp = smtplib.SMTP("127.0.0.1", port, timeout=30)
    smtp.starttls(context=server.client_ssl_context())
    smtp.login(BOX, BOX_PASSWORD)
    out.mkdir(parents=True, exist_ok=True)
    for start in range(0, len(uids), BATCH):
        batch = uids[start:start + BATCH]
        for uid, data in client.fetch(batch, [b"BODY.PEEK[]"]).items():
            ack = _ack(data[b"BODY[]"], template, converter, out / f"{uid}.eml")
            smtp.sendmail(BOX, [player(0, "red")], ack)
        client.add_flags(batch, [b"$PbemDone"])
    smtp.quit()
    client.logout()
    return time.perf_counter() - started, time.process_time() - cpu, len(uids)


def _ack(raw: bytes, template: Any, converter: Any, path: Path) -> bytes:
    """One order mail read and answered: parsed, the ack rendered and built, written with one fsync."""
    msg = email.message_from_bytes(raw, policy=policy.default)
    body = msg.get_body(("plain",))
    lines = body.get_content().splitlines() if body is not None else []
    accepted = [(no, line) for no, line in enumerate(lines, 1) if line.strip()]
    text = template.render(title=msg["Subject"], name=str(msg["From"]), accepted=accepted,
                           on_file=[line for _, line in accepted[1:3]])
    converter.reset()
    reply = EmailMessage()
    reply["From"], reply["To"], reply["Subject"] = BOX, str(msg["From"]), f"Re: {msg['Subject']}"
    reply["Message-ID"], reply["In-Reply-To"] = f"<ack-{path.stem}@pbem.test>", str(msg["Message-ID"])
    reply.set_content(text)
    reply.add_alternative(converter.convert(text), subtype="html")
    data = reply.as_bytes(policy=policy.SMTP)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(descriptor, data)
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    return data


def one_run(args: argparse.Namespace, raws: list[bytes], profiler: cProfile.Profile | None) -> dict[str, float]:
    """Everything built anew: the servers, the campaigns, both mailboxes filled; then the bare
    fetch, the floor and the tick, timed."""
    users = {BOX: BOX_PASSWORD, FLOOR_BOX: BOX_PASSWORD, "gm@pbem.test": "gm-pw"}
    users |= {player(n, s): "pw" for n in range(args.campaigns) for s in ("red", "blue")}
    server = Dovecot(users=users)
    work = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    relay = None
    try:
        server.start()
        relay = make_smtp_relay(server, tls=True, auth_users={BOX: BOX_PASSWORD})
        build_site(work / "campaigns", server, args.campaigns, 0 if args.maildir else relay.port)
        fill(server, raws)
        fill(server, raws, FLOOR_BOX)
        cpu = time.process_time()
        fetch_s, _ = bare_fetch(server)
        fetch_cpu = time.process_time() - cpu
        floor_s, floor_cpu, floor_mails = floor(server, relay.port, work / "floor")
        original = tick_campaign.intake_shared
        intake_s = timed(tick_campaign, "intake_shared")
        started, cpu = time.perf_counter(), time.process_time()
        if profiler:
            profiler.enable()
        log = tick(work / "campaigns", T0 + timedelta(hours=1))
        if profiler:
            profiler.disable()
        tick_s, tick_cpu = time.perf_counter() - started, time.process_time() - cpu
        tick_campaign.intake_shared = original          # unwrapped for the next run
        problems = [line for line in log.lines if "fail" in line or "NOT PROCESSED" in line or "unavailable" in line]
        for line in problems[:5]:
            print("   problem:", line)
        return {"tick": tick_s, "tick_cpu": tick_cpu, "intake": intake_s[0], "intake_cpu": intake_s[1],
                "floor": floor_s, "floor_cpu": floor_cpu, "floor_mails": floor_mails, "fetch": fetch_s,
                "fetch_cpu": fetch_cpu, "problems": len(problems),
                "processed": sum(1 for line in log.lines if line.endswith((": processed", ": duplicate"))),
                "resolved": sum(1 for line in log.lines if ": resolved " in line),
                "delivered": sum(int(line.split("delivered ")[1].split()[0]) for line in log.lines
                                 if " delivered " in line)}
    finally:
        if relay:
            relay.stop()
        server.cleanup()
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=2000)
    parser.add_argument("--campaigns", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--maildir", action="store_true", help="the tick delivers into a Maildir instead of by SMTP")
    parser.add_argument("--smtp", action="store_true", help="(the default) the tick delivers by SMTP")
    parser.add_argument("--profile", action="store_true", help="print the 25 costliest functions of the ticks")
    parser.add_argument("--sort", default="cumulative", help="profile order: cumulative or tottime")
    args = parser.parse_args()
    started_load = os.getloadavg()[0]
    raws = order_mails(args.mails, args.campaigns)
    profiler = cProfile.Profile() if args.profile else None
    runs = []
    for number in range(args.runs):
        run = one_run(args, raws, profiler)
        runs.append(run)
        print(f"run {number + 1}: {run['processed']:.0f} mails processed, {run['resolved']:.0f} turns resolved, "
              f"{run['delivered']:.0f} mails delivered ({'Maildir' if args.maildir else 'SMTP'}); "
              f"tick {run['tick']:.2f} s (CPU {run['tick_cpu']:.2f} s), floor {run['floor']:.2f} s "
              f"(CPU {run['floor_cpu']:.2f} s) for {run['floor_mails']:.0f} acks, bare fetch {run['fetch']:.2f} s; "
              f"ratio {run['tick'] / run['floor']:.2f}x wall, {run['tick_cpu'] / run['floor_cpu']:.2f}x CPU; "
              f"problems {run['problems']:.0f}; load average {os.getloadavg()[0]:.2f}", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    med = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    ratio = statistics.median(run["tick"] / run["floor"] for run in runs)
    ratio_cpu = statistics.median(run["tick_cpu"] / run["floor_cpu"] for run in runs)
    intake = statistics.median(run["intake"] / run["floor"] for run in runs)
    print(f"median of {args.runs} run(s), {args.mails} mails over {args.campaigns} campaigns "
          f"(load average {started_load:.2f} before, {os.getloadavg()[0]:.2f} after):")
    print(f"  tick / floor, wall:    {ratio:5.2f}x   (goal within {GOAL_RATIO:g}x: {_verdict(ratio)})")
    print(f"  tick / floor, CPU:     {ratio_cpu:5.2f}x   (goal within {GOAL_RATIO:g}x: {_verdict(ratio_cpu)}; "
          "steadier than wall time on a loaded machine)")
    print(f"  intake / floor:        {intake:5.1f}x wall   (the acks alone: read, check, store, queue, mark done)")
    print(f"  tick:   {med['tick']:.2f} s = {args.mails / med['tick']:,.0f} mails/s (CPU {med['tick_cpu']:.2f} s); "
          f"intake {1000 * med['intake'] / args.mails:.2f} ms a mail")
    print(f"  floor:  {med['floor']:.2f} s = {1000 * med['floor'] / args.mails:.2f} ms a mail "
          f"(CPU {med['floor_cpu']:.2f} s)")
    print(f"  bare IMAP fetch: {med['fetch']:.2f} s = {1000 * med['fetch'] / args.mails:.3f} ms a mail")
    print(f"  peak memory of the process (high-water mark after the ticks): {peak:.0f} MB")
    if profiler:
        pstats.Stats(profiler).sort_stats(args.sort).print_stats(25)


def _verdict(ratio: float) -> str:
    return "met" if ratio <= GOAL_RATIO else "not met"


if __name__ == "__main__":
    main()
