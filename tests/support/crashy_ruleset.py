"""A test-only rule system: Daemon Rift, except that an order line `CRASH` makes parsing raise
(a stand-in for any bug a hostile mail could hit). Registered by tests through the registry."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.rulesets.base import Context, Parsed
from pbem.rulesets.daemon_rift.ruleset import DaemonRift
from pbem.state.campaign import Player


class Crashy(DaemonRift):
    aliases = ("crashy",)

    def parse(self, ctx: Context, player: Player, lines: Sequence[tuple[int, str]]) -> Parsed:
        if any(text.strip() == "CRASH" for _, text in lines):
            raise RuntimeError("the crashy ruleset fell over")
        return super().parse(ctx, player, lines)


RULESET = Crashy()
