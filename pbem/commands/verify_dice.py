"""`pbem verify-dice CAMPAIGN TURN`: recompute every roll of a turn from the revealed secret."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.kit.dice import TypedRoll


def add_arguments(p: argparse.ArgumentParser) -> None:
    from pbem.commands._common import add_campaign

    add_campaign(p)
    p.add_argument("turn", type=int, help="the turn number whose dice to check")


def run(args: argparse.Namespace) -> int:
    from pbem.commands._common import campaign_folder
    from pbem.errors import UserError
    from pbem.kit import dice
    from pbem.state.store import read_toml

    path = campaign_folder(args) / "history" / f"{args.turn:03d}" / "dice.toml"
    if not path.exists():
        raise UserError(f"no dice log for turn {args.turn} ({path})")
    data = read_toml(path)
    secret = data.get("secret", "")
    if not secret:
        raise UserError(f"turn {args.turn} is not finished: its secret is not revealed yet")
    if dice.commitment(secret) != data["commitment"]:
        print(f"MISMATCH: the revealed secret does not hash to the published commitment {data['commitment']}")
        return 1
    problems: list[str] = []
    typed: list[dice.TypedRoll] = []
    count = 0
    for stage in data["stages"]:
        rolls = [dice.logged_roll(r) for r in stage["rolls"]]
        problems += dice.verify(secret, stage["salt"], rolls)
        count += len(rolls)
        typed += [r for r in rolls if isinstance(r, dice.TypedRoll)]
    for line in problems:
        print("MISMATCH:", line)
    for roll in typed:        # rolled with real dice: nothing to recompute, but never hidden
        print(f"TYPED: roll {roll.n} ({roll.purpose}): {list(roll.faces)}, typed by {roll.typed_by}")
    checked = count - len(typed)
    kept = f"; {len(typed)} typed at the table ({typed_by(typed)}), not derived from the secret" if typed else ""
    print(f"turn {args.turn}: {checked} roll(s) in {len(data['stages'])} stage(s) checked; "
          + ("all match" if not problems else f"{len(problems)} do not match") + kept)
    return 1 if problems else 0


def typed_by(rolls: list[TypedRoll]) -> str:
    """`by GM Gus`, or `by GM Gus, Ann` when several people typed."""
    names = list(dict.fromkeys(str(r.typed_by) for r in rolls))
    return "by " + ", ".join(names)
