"""`pbem verify-dice CAMPAIGN TURN`: recompute every roll of a turn from the revealed secret."""

from __future__ import annotations

import argparse


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
    problems, count = [], 0
    for stage in data["stages"]:
        rolls = [dice.Roll(r["n"], r["purpose"], r["sides"], tuple(r["faces"])) for r in stage["rolls"]]
        problems += dice.verify(secret, stage["salt"], rolls)
        count += len(rolls)
    for line in problems:
        print("MISMATCH:", line)
    print(f"turn {args.turn}: {count} roll(s) in {len(data['stages'])} stage(s) checked; "
          + ("all match" if not problems else f"{len(problems)} do not match"))
    return 1 if problems else 0
