"""Who sent a message: a player's or the GM's address and secret, and the lock on an address
that keeps failing.

An address that fails more than FAILURE_LIMIT times in FAILURE_WINDOW is told once, as is the
GM (who may lift the lock with UNLOCK), and is then not answered until the window passes.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pbem.delivery.replies import Outcome
from pbem.intake.answers import answer
from pbem.intake.envelope import Envelope
from pbem.intake.throttle import Throttle
from pbem.mail.message import Submission
from pbem.state import credentials
from pbem.state.campaign import Campaign, Player

FAILURE_WINDOW = timedelta(hours=24)
FAILURE_LIMIT = 5


def authenticate(camp: Campaign, sub: Submission, env: Envelope) -> Player | None:
    """The player whose address sent `sub` and whose secret it carries, or None."""
    settings = camp.settings
    candidates = [settings.player(env.player)] if env.player else settings.players_at(sub.sender)
    for player in candidates:
        if player and sub.sender in player.emails and env.secret and \
                credentials.check(env.secret, camp.secret_of(player)):
            return player
    return None


def is_gm(camp: Campaign, sub: Submission, env: Envelope) -> bool:
    """A `GM <secret>` mail from the GM's own address with the GM's secret."""
    gm = camp.settings.gm
    return sub.sender in gm.emails and credentials.check(env.secret, camp.secret_of(gm))


def failed(camp: Campaign, sub: Submission, now: datetime, env: Envelope | None = None) -> Outcome:
    """Count a failed authentication; the reply says why, or nothing once the address is locked.
    What it says comes from the message alone (no PLAYER line, no secret on it), never from
    whether the address is a player's."""
    failures = camp.auth.setdefault("failures", {})
    count = Throttle(FAILURE_LIMIT, FAILURE_WINDOW).record(failures, sub.sender, now)
    if count > FAILURE_LIMIT + 1:
        return Outcome(note="refused: throttled")
    if count > FAILURE_LIMIT:       # told once, as is the GM, who may lift the lock
        return _locked(camp, sub, now, count)
    reason, unsigned = _reason(env)
    return Outcome([answer(camp, sub, now, "refused", {"reason": reason, "unsigned": unsigned})],
                   note="refused: authentication")


def _reason(env: Envelope | None) -> tuple[str, bool]:
    """Why a message was refused, and whether it lacked a signature altogether."""
    if env is not None and not env.gm and not env.player and not env.secret:
        return ("it has no `PLAYER` line: a player signs every message with a line `PLAYER <name> <secret>` "
                "(the secret is in your welcome mail) above the orders"), True
    if env is not None and not env.secret:
        keyword, form = ("GM", "`GM <secret>`") if env.gm else ("PLAYER", "`PLAYER <name> <secret>`")
        return f"its `{keyword}` line has no secret: write {form}", True
    return ("the sender, player and secret do not match a player of this campaign "
            "(sign with a line `PLAYER <name> <secret>`)"), False


def _locked(camp: Campaign, sub: Submission, now: datetime, count: int) -> Outcome:
    alert = (f"{sub.sender} failed to authenticate {count} times in 24 hours; further mail from it "
             f"is not answered. To lift the lock, mail the line `UNLOCK {sub.sender}` as GM or run "
             f"`pbem unlock {camp.name} {sub.sender}`.")
    reason = (f"{FAILURE_LIMIT + 1} messages from this address in 24 hours did not match a player and "
              "secret; further mail from it is not answered for 24 hours unless the game master lifts "
              "the lock (ask them if you lost your secret)")
    return Outcome([answer(camp, sub, now, "refused", {"reason": reason})], gm_alerts=[alert],
                   note="refused: throttled")


def unlock(camp: Campaign, address: str) -> str:
    """Forget an address's failed authentications, so its mail is answered again."""
    wanted = address.strip("<>").casefold()
    failures = camp.auth.setdefault("failures", {})
    locked = [a for a in failures if a.casefold() == wanted]
    if not locked:
        raise ValueError(f"{address} has no failed authentications on record; nothing to unlock")
    for found in locked:
        del failures[found]
    return f"{address} is unlocked; its mail is answered again"
