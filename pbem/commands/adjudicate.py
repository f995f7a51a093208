"""`pbem adjudicate [--json] POSITION.toml...`: judge Diplomacy positions without a campaign.

With --json, one JSON object per line per file, in the order given; otherwise a
table per file. Imports of the adjudicator happen in `run`, so other commands do
not pay for them.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("positions", nargs="+", metavar="POSITION.toml", help="position files to adjudicate")
    parser.add_argument("--json", action="store_true", help="print one JSON object per line per file")


def run(args: argparse.Namespace) -> int:
    from pbem.rulesets.diplomacy.position import adjudicate, load_position

    out = sys.stdout
    for n, path in enumerate(args.positions):
        result = adjudicate(load_position(path))
        if args.json:
            out.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
        else:
            out.write(("\n" if n else "") + table(path, result.to_json(detail=True)))
    return 0


def table(title: str, result: dict[str, Any]) -> str:
    """A readable report of one phase: the orders with their results, then the board."""
    rows = [(o["power"], o["order"], o["result"], o.get("reason", "")) for o in result["orders"]]
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(("power", "order", "result"))]
    lines = [f"== {title}"]
    for power, order, res, reason in rows:
        line = f"{power:<{widths[0]}}  {order:<{widths[1]}}  {res:<{widths[2]}}  {reason}"
        lines.append(line.rstrip())
    for key in ("units", "dislodged", "disbanded", "contested"):
        if result.get(key):
            lines.append(f"{key}: " + ", ".join(result[key]))
    return "\n".join(lines) + "\n"
