"""The GM's verbs for life between deadlines, beside the engine's (pbem/gm/verbs.py):
ABSENT for a player (`pbem absent`), and the engine's verbs list with them."""

from __future__ import annotations

from pbem.gm.verbs import ENGINE_VERBS as CLOCK_VERBS
from pbem.gm.verbs import Desk, EngineVerb, Words, _arity, _running
from pbem.intake.between import Between
from pbem.state.schedule import iso

ABSENT_USAGE = "ABSENT <player> <first day> <last day> [note] | ABSENT <player> NONE"


def absent(desk: Desk, words: Words) -> str:
    """A player's absence as if he had sent ABSENT himself: his budget holds, everyone is told."""
    _arity(words, ABSENT_USAGE, 2)
    player = desk.camp.settings.player(words[0])
    if player is None:
        known = ", ".join(p.id for p in desk.camp.settings.players)
        raise ValueError(f"{words[0]} is no player of this campaign (one of: {known})")
    mail = Between(desk.camp, player, desk.now, desk.stage(), f"gm/{iso(desk.now)}/{player.id}")
    try:
        notes = mail.absent(list(words[1:]))
    except ValueError as exc:          # the player's wording, said of him to the GM
        raise ValueError(str(exc).replace("you have", f"{player.name} has").replace("your ", "his ")) from None
    desk.mailings += mail.mailings
    told = ", ".join(p.name for p in desk.camp.settings.players if any(p.email in m.to for m in mail.mailings))
    text = " ".join([*notes, *mail.alerts]).replace("you are", f"{player.name} is").replace("your ", "his ")
    return text + \
        (f" Told by mail at the next tick: {told}." if told else "")


BETWEEN_VERBS = (
    EngineVerb("ABSENT", ABSENT_USAGE, "record a player's absence; his stages meanwhile use standing orders",
               absent, _running),
)

ENGINE_VERBS = (*CLOCK_VERBS[:-1], *BETWEEN_VERBS, CLOCK_VERBS[-1])   # HELP stays last
BY_NAME = {verb.name: verb for verb in ENGINE_VERBS}
