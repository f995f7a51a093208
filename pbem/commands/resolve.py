"""`pbem resolve CAMPAIGN`: resolve the current stage at the next tick, deadline or not."""

from __future__ import annotations

import argparse

from pbem.commands._common import add_campaign, gm_command


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)


def run(args: argparse.Namespace) -> int:
    code = gm_command(args, ["RESOLVE"])
    print("run `pbem tick` (or wait for cron) to resolve and send the reports")
    return code
