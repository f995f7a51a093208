"""A round under way at the table and the tick: its deadline waits for the table, a player who
has played is told by mail that nothing more is expected from him while the others may still
mail, and the GM's RESOLVE has the next tick play the rest from the mail, nobody twice."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from pbem.state.campaign import Campaign
from pbem.table.orders import Console
from pbem.table.session import Interrupted, Sitting
from pbem.tick.engine import tick
from tests.support.engine_helpers import body, outbox
from tests.support.typed_dice import pbem
from tests.table.helpers import T0, campaign, game, mail, read_mail


def typing(lines: list[str]) -> Console:
    """A console that types `lines`, then ends the input."""
    typed: Iterator[str] = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    return Console(ask, lambda text: None)


def test_resolve_plays_the_rest_of_a_round_under_way_at_the_table_from_the_mail(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    mail(camp, "anna", "TRY A1 ALWAYS FIRST E")
    camp = read_mail(camp)
    with pytest.raises(Interrupted, match="the table stopped while Ben's order was typed"):
        Sitting(camp.folder, typing(["u"])).run()
    assert game(camp.folder)["played"] == ["anna"]
    mail(camp, "ben", "TRY B1 ALWAYS FIRST E")
    mail(camp, "anna", "TRY A1 ALWAYS FIRST S", name="again")
    camp = read_mail(camp)
    tick(camp.folder.parent, T0 + timedelta(days=10))          # long past the deadline: the round waits
    assert Campaign(camp.folder).state["stage"]["title"] == "Strategic round 1: orders"
    assert camp.state["submissions"]["anna"]["payload"]["lines"][-1] == "TRY A1 ALWAYS FIRST E CAMPFIRE STOP"
    assert "ben" in camp.state["submissions"]
    acks = [body(m) for m in outbox(camp, "anna@") if "again" in str(m["In-Reply-To"])]
    assert acks and "Nothing is expected from you in this stage (Strategic round 1: orders)" in acks[0]
    assert pbem("resolve", str(camp.folder))[0] == 0
    tick(camp.folder.parent, T0 + timedelta(days=10, hours=1))
    camp = Campaign(camp.folder)
    assert camp.state["stage"]["title"] == "Strategic round 2: orders" and game(camp.folder)["played"] == []
    report = (camp.folder / "history" / "001" / "orders-turn-2.md").read_text(encoding="utf-8")
    assert report.count("Anna's round:") == 1 and report.count("Ben's round:") == 1
    assert "B1 is tried (ALWAYS):" in report
    code, out, _ = pbem("verify-dice", str(camp.folder), "1")
    assert code == 0 and "all match" in out
