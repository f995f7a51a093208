"""Press: players writing to each other through pbem.

    PRESS TO France Germany        (player ids, names or factions; ALL for every other player; GM)
    Dear friends, ...
    END PRESS

`PRESS GREY TO ...` sends it without the sender's name where `[rules.press] grey = true`. Each
block is relayed once to each reader, From the campaign's address with Reply-To back to it, so
no player's address is ever shown; a broadcast is also posted to the forum thread with `[rules.press]
forum = true`. The judges' safeguard: a body with a `PLAYER` (or `FACTION`, `GM`) line, or
holding the sender's secret, is refused, so nobody mails his secret or forges a signed order
through press. Every press is kept in state.toml (`[[press]]`) for the chronicle published when
the campaign ends (pbem/delivery/chronicle.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.delivery.chronicle import quoted
from pbem.delivery.replies import Reply
from pbem.forum.queue import enqueue_post
from pbem.intake.between import Between
from pbem.intake.envelope import PressBlock
from pbem.kit.orders import InvalidOrder, OrderProblem
from pbem.kit.texts import md_escape
from pbem.state.campaign import Player
from pbem.state.schedule import iso

SIGNING = ("PLAYER", "FACTION", "GM")


def relay_all(mail: Between, blocks: Sequence[PressBlock], problems: list[OrderProblem], secret: str) -> list[str]:
    """Relay each block of the mail; a refused one is a problem on its PRESS line."""
    notes = []
    for block in blocks:
        try:
            notes.append(relay(mail, block, secret))
        except ValueError as exc:
            problems.append(InvalidOrder(f"PRESS: {exc}; it was not relayed", block.line_no))
    return notes


def relay(mail: Between, block: PressBlock, secret: str) -> str:
    rules = mail.camp.settings.between.press
    if not rules.enabled:
        raise ValueError("this campaign has no press ([rules.press] enabled = false)")
    if not rules.open_in(mail.stage.kind):
        raise ValueError(f"press is open only in these stages: {', '.join(rules.stages)}; now is {mail.stage.title}")
    grey, readers, everyone = audience(mail, block.header)
    if grey and not rules.grey:
        raise ValueError("this campaign allows no grey (anonymous) press ([rules.press] grey = false)")
    refusal(block, secret)
    sender = "an anonymous player (grey press)" if grey else shown(mail.player)
    names = "everyone" if everyone else ", ".join(shown(p) for p in readers)
    mail.camp.state.setdefault("press", []).append({
        "at": iso(mail.now), "turn": mail.stage.turn, "stage": mail.stage.title, "from": "" if grey else mail.player.id,
        "to": [p.id for p in readers], "text": block.text})
    for reader in readers:
        mail.mailings.append(press_mail(mail, block, reader, sender, names))
    if rules.forum and everyone and mail.camp.settings.forum:
        enqueue_post(mail.camp.folder, f"press/{mail.key}/{block.line_no}",
                     f"[{mail.camp.name}] press from {sender}", text_post(sender, block.text))
    return f"PRESS to {names}: relayed{' without your name' if grey else ''}."


def audience(mail: Between, header: str) -> tuple[bool, list[Player], bool]:
    """(grey, readers, to all) of `TO ...` / `GREY TO ...`; a ValueError for a header that names nobody."""
    words = header.split()
    grey = bool(words) and words[0].upper() == "GREY"
    words = words[1:] if grey else words
    if not words or words[0].upper() != "TO" or len(words) < 2:
        raise ValueError("write PRESS TO <players> (or PRESS TO ALL), then the text, then END PRESS")
    if [w.upper() for w in words[1:]] == ["ALL"]:
        return grey, others(mail), True
    readers: list[Player] = []
    settings = mail.camp.settings
    for name in words[1:]:
        reader = settings.gm if name.upper() == "GM" else settings.player(name.strip(","))
        if reader is None:
            known = ", ".join(p.faction or p.id for p in others(mail))
            raise ValueError(f"{name} is no player of this campaign (write one of: {known}, ALL or GM)")
        if reader.id != mail.player.id and reader not in readers:
            readers.append(reader)
    if not readers:
        raise ValueError("it names nobody but you")
    return grey, readers, False


def refusal(block: PressBlock, secret: str) -> None:
    if not block.closed:
        raise ValueError("no line END PRESS closes it (everything after PRESS was kept out of your orders)")
    if not block.text.strip():
        raise ValueError("it has no text")
    for line in block.text.splitlines():
        if line.split()[:1] and line.split()[0].upper() in SIGNING and len(line.split()) > 1:
            raise ValueError(f"it holds a line starting {line.split()[0]}, which signs mail: press may not "
                             "carry a signature or secret")
    if secret and secret.casefold() in block.text.casefold():
        raise ValueError("it holds your secret: press may not carry it")


def others(mail: Between) -> list[Player]:
    return [p for p in mail.camp.settings.players if p.id != mail.player.id]


def shown(player: Player) -> str:
    side = player.faction_name or player.faction
    return f"{player.name} ({side})" if side else player.name


def press_mail(mail: Between, block: PressBlock, reader: Player, sender: str, names: str) -> Reply:
    settings = mail.camp.settings
    context = {"campaign": settings, "now": mail.now, "schedule": settings.schedule, "reader": reader,
               "sender": sender, "names": names, "quoted": quoted(block.text), "stage": mail.stage.title}
    return Reply(f"press/{mail.key}/{block.line_no}/{reader.id}", (reader.email,),
                 f"[{mail.camp.name}] press from {sender}", "press", context, auto_reply=False,
                 headers=(("Reply-To", settings.address),), kind="press")


def text_post(sender: str, text: str) -> str:
    return f"Press from {md_escape(sender)} to everyone:\n\n" + "\n".join(quoted(text)) + "\n"
