"""Private Dovecot (IMAP + LMTP) and aiosmtpd (SMTP -> LMTP) instances for tests and benchmarks.

Everything listens on 127.0.0.1 only and lives in one temp dir; nothing from /etc/dovecot is
read. As root the mail belongs to `nobody` (Dovecot refuses uid 0 for mail); as another user
the whole instance runs as that user. Install Dovecot with `scripts/test.sh` (Debian
packages dovecot-imapd and dovecot-lmtpd).
"""
from __future__ import annotations

import grp
import os
import pwd
import shutil
import signal
import smtplib
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.ports import (
    START_TRIES,
    PortClash,
    clashing_port,
    free_port,
    free_ports,
    start_on_a_free_port,
)

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"
DOVEADM = shutil.which("doveadm") or "/usr/bin/doveadm"


class MailServerMissing(RuntimeError):
    """Dovecot is not installed: the mail-server tests cannot run (and must not pass silently)."""


def check_installed() -> None:
    missing = [path for path in (DOVECOT, "/usr/lib/dovecot/imap", "/usr/lib/dovecot/lmtp")
               if not os.access(path, os.X_OK)]
    if missing:
        raise MailServerMissing(
            f"Dovecot is missing ({', '.join(missing)}): run ./scripts/test.sh as root, or "
            "apt-get install dovecot-imapd dovecot-lmtpd; leave these tests out only on purpose "
            "with -m 'not mailserver'")


def make_self_signed(directory: Path) -> tuple[Path, Path]:
    """Self-signed cert valid for 127.0.0.1 and localhost (CA:TRUE, so it can be its own trust anchor).
    EC P-256: ~5 ms, where RSA-2048 key generation takes 0.1-0.3 s."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "30",
         "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return cert, key


CONF_TEMPLATE = """\
# Private test instance. Nothing from /etc/dovecot is read.
instance_name = {instance}
base_dir = {d}/run
state_dir = {d}/state
log_path = {d}/dovecot.log
info_log_path = {d}/dovecot.log
hostname = mail.pbem.test
protocols = imap lmtp
listen = 127.0.0.1
{user_lines}
ssl = yes
ssl_cert = <{d}/cert.pem
ssl_key = <{d}/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
mail_max_userip_connections = 100
mail_location = maildir:~/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {d}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={d}/mail/%u
}}
namespace inbox {{
  inbox = yes
  separator = /
  mailbox Processed {{
    auto = subscribe
  }}
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
  # No socket -> auth penalty off. Otherwise, after one failed login, every login
  # from 127.0.0.1 (any user) waits 2..15 s until a login succeeds.
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {lmtp_port}
  }}
}}
"""


@dataclass
class Dovecot:
    users: dict[str, str]                       # address -> password
    extra_conf: str = ""                        # more settings, e.g. a narrower imap_capability
    acl: str = ""                               # global ACL lines ("INBOX user=x@y lrp"): the acl plugin is on
    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="pbem-dovecot-")))
    imap_port: int = 0                          # drawn in __post_init__, all three distinct
    imaps_port: int = 0
    lmtp_port: int = 0
    proc: subprocess.Popen | None = None

    def __post_init__(self):
        try:
            check_installed()
        except MailServerMissing:
            shutil.rmtree(self.root, ignore_errors=True)
            raise
        d = self.root
        for sub in ("run", "state", "mail"):
            (d / sub).mkdir(exist_ok=True)
        self.cert, self.key = make_self_signed(d)
        (d / "passwd").write_text("".join(f"{u}:{{PLAIN}}{p}::::::\n" for u, p in self.users.items()))
        if os.geteuid() == 0:
            # Running as root: master runs as root and drops to its own service users
            # ('dovecot', 'dovenull'); mailboxes belong to an unprivileged uid, because
            # Dovecot refuses uid 0 for mail ("userdb returned 0 as uid").
            self.run_as = pwd.getpwnam("nobody")
            uid, gid = self.run_as.pw_uid, self.run_as.pw_gid
            user_lines = ""        # master stays root
            # mkdtemp makes 0700; the mail processes (uid nobody) must traverse it.
            os.chmod(d, 0o755)
            shutil.chown(d / "mail", uid, gid)
        else:
            # Not root: everything runs as the calling user ("rootless" Dovecot).
            me = pwd.getpwuid(os.getuid())
            uid, gid = me.pw_uid, me.pw_gid
            group = grp.getgrgid(me.pw_gid).gr_name
            user_lines = (f"default_internal_user = {me.pw_name}\n"
                          f"default_internal_group = {group}\n"
                          f"default_login_user = {me.pw_name}\n")
        self.conf = d / "dovecot.conf"
        self._conf_values = {"d": d, "uid": uid, "gid": gid, "user_lines": user_lines}
        self.clashes: list[str] = []
        self.draw_ports()

    def draw_ports(self) -> None:
        """Three distinct free ports, and the configuration that names them."""
        self.imap_port, self.imaps_port, self.lmtp_port = free_ports(3)
        self.conf.write_text(CONF_TEMPLATE.format(
            instance=f"pbemtest-{self.imap_port}", imap_port=self.imap_port, imaps_port=self.imaps_port,
            lmtp_port=self.lmtp_port, **self._conf_values) + self.extra_conf + (self._acl_conf() if self.acl else ""))

    def _acl_conf(self) -> str:
        """Dovecot's ACL plugin with one global ACL file: rights per mailbox and user, e.g.
        `lrp` (look up, read, post) makes a mailbox that Dovecot opens READ-ONLY to that user
        while LMTP can still deliver into it."""
        rules = self.root / "global-acl"
        rules.write_text(self.acl)
        os.chmod(rules, 0o644)
        return (f"mail_plugins = $mail_plugins acl\n"
                f"plugin {{\n  acl = vfile:{rules}\n}}\n")

    # -- lifecycle ---------------------------------------------------------
    def start(self, timeout: float = 10.0) -> float:
        """Start Dovecot; a start that lost a port to another process is tried again on new ports
        (START_TRIES in all), and the error names the port that clashed."""
        for attempt in range(1, START_TRIES + 1):
            try:
                return self._start(timeout)
            except PortClash as clash:
                self.clashes.append(str(clash))
                if attempt == START_TRIES:
                    raise RuntimeError(f"dovecot could not bind its ports {START_TRIES} times; last: {clash}") \
                        from None
                self.draw_ports()
        raise AssertionError("unreachable")

    def _start(self, timeout: float) -> float:
        t0 = time.monotonic()
        with (self.root / "dovecot.stderr").open("ab") as errors:   # the child keeps its own copy
            self.proc = subprocess.Popen(
                [DOVECOT, "-F", "-c", str(self.conf)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors,
                start_new_session=True)     # own process group: pgid == master pid
        self.pgids = getattr(self, "pgids", []) + [self.proc.pid]
        while True:   # ready = the IMAP greeting arrives (auth may still be starting; login waits for it)
            try:
                with socket.create_connection(("127.0.0.1", self.imap_port), timeout=1) as s:
                    if s.recv(64).startswith(b"* OK"):
                        return time.monotonic() - t0
            except OSError:
                pass
            if self.proc.poll() is not None:
                ports = [self.imap_port, self.imaps_port, self.lmtp_port]
                clash = clashing_port(self.log_tail() + self._stderr_tail(), ports)
                if clash is not None:
                    self.proc = None
                    raise PortClash(f"port {clash} (imap={ports[0]}, imaps={ports[1]}, lmtp={ports[2]}) was "
                                    "taken by another process")
                raise RuntimeError(f"dovecot exited {self.proc.returncode}: {self.log_tail()}")
            if time.monotonic() - t0 > timeout:
                raise RuntimeError(f"dovecot not ready: {self.log_tail()}")
            time.sleep(0.005)

    def stop(self, sig: int = signal.SIGTERM, whole_group: bool = True) -> float:
        """Default: SIGTERM to the whole process group (clean, 4 ms .. 1.1 s).
        SIGKILL to the group: ~1.5 ms, for teardown and crash tests.
        whole_group=False signals only the master: logged-in sessions survive (see notes)."""
        if self.proc is None:
            return 0.0
        t0 = time.monotonic()
        try:
            if whole_group:
                os.killpg(self.proc.pid, sig)
            else:
                os.kill(self.proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.proc = None
        return time.monotonic() - t0

    def kill_leftovers(self) -> None:
        """SIGKILL whatever is left in the instance's process group, e.g. imap processes
        that keep serving logged-in clients after only the master was killed."""
        for pgid in set(getattr(self, "pgids", [])):
            try:
                os.killpg(pgid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def cleanup(self) -> None:
        self.stop(signal.SIGKILL)
        self.kill_leftovers()
        shutil.rmtree(self.root, ignore_errors=True)

    def _stderr_tail(self) -> str:
        try:
            return (self.root / "dovecot.stderr").read_text(errors="replace")[-2000:]
        except OSError:
            return ""

    def log_tail(self, n: int = 20) -> str:
        try:
            return "\n".join((self.root / "dovecot.log").read_text().splitlines()[-n:])
        except OSError:
            return ""

    def doveadm(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([DOVEADM, "-c", str(self.conf), *args],
                              check=False, capture_output=True, text=True, stdin=subprocess.DEVNULL)

    def client_ssl_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.cert))

    # -- delivery ----------------------------------------------------------
    def deliver_lmtp(self, mail_from: str, rcpt: str, raw: bytes) -> None:
        """One LMTP transaction per recipient: smtplib.LMTP reads only ONE reply after DATA,
        while LMTP sends one per accepted recipient."""
        with smtplib.LMTP("127.0.0.1", self.lmtp_port, timeout=10) as lmtp:
            lmtp.sendmail(mail_from, [rcpt], raw)


# ---------------------------------------------------------------------------
# SMTP front end: aiosmtpd, relaying every message into Dovecot via LMTP
# ---------------------------------------------------------------------------
def make_smtp_relay(dovecot: Dovecot, *, port: int | None = None, tls: bool = True,
                    auth_users: dict[str, str] | None = None, implicit_tls: bool = False,
                    draw: Callable[[], int] = free_port, clashes: list[str] | None = None) -> Any:
    """Returns a started aiosmtpd Controller (runs its own asyncio loop in a thread).
    Setting `controller.handler.refuse` to a reply such as "451 4.3.0 Try later" makes the
    relay refuse every message with it (a server that is up but will not take mail);
    `controller.handler.logins` and `.quits` count the sessions logged in and quit. A drawn
    port another process took meanwhile is drawn again (`draw`), each clash noted in `clashes`."""
    import asyncio
    import logging

    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    logging.getLogger("mail.log").setLevel(logging.ERROR)   # aiosmtpd's own deprecation chatter

    class LmtpRelay:
        refuse = ""
        refused = 0
        accepted = 0
        logins = 0
        quits = 0

        async def handle_QUIT(self, server, session, envelope):
            self.quits += 1
            return "221 Bye"

        async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
            if address.lower() not in {u.lower() for u in dovecot.users}:
                return "550 5.1.1 No such user here"
            envelope.rcpt_tos.append(address)
            return "250 OK"

        async def handle_DATA(self, server, session, envelope):
            if self.refuse:
                self.refused += 1
                return self.refuse
            loop = asyncio.get_running_loop()
            errors = []
            for rcpt in envelope.rcpt_tos:
                try:   # blocking smtplib, off the event loop
                    await loop.run_in_executor(None, dovecot.deliver_lmtp,
                                               envelope.mail_from, rcpt, envelope.original_content)
                except smtplib.SMTPException as e:
                    errors.append(f"{rcpt}: {e}")
            if errors:
                return "451 4.3.0 LMTP delivery failed: " + "; ".join(errors)
            self.accepted += 1
            return "250 Message accepted for delivery"

    kwargs = {}
    if tls or implicit_tls:
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(dovecot.cert, dovecot.key)
        # implicit: TLS from the first byte (port 465 style); else STARTTLS on a plain port
        kwargs.update(ssl_context=ctx) if implicit_tls else kwargs.update(tls_context=ctx, require_starttls=False)
    if auth_users is not None:
        def authenticator(server, session, envelope, mechanism, auth_data):
            if isinstance(auth_data, LoginPassword):
                user = auth_data.login.decode()
                if auth_users.get(user) == auth_data.password.decode():
                    server.event_handler.logins += 1
                    return AuthResult(success=True)
            return AuthResult(success=False, handled=False)
        kwargs.update(authenticator=authenticator, auth_required=True,
                      auth_require_tls=tls and not implicit_tls)   # AUTH only after STARTTLS when tls
    def start(chosen: int) -> Any:
        controller = Controller(LmtpRelay(), hostname="127.0.0.1", port=chosen,
                                server_hostname="mail.pbem.test", ready_timeout=5, **kwargs)
        controller.start()
        return controller

    return start_on_a_free_port(start, "the SMTP relay", port=port, draw=draw, clashes=clashes)
