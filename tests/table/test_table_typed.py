"""`pbem table CAMPAIGN --dice typed`: each roll asked for with its purpose and die, a value off
the die asked again, the rolls recorded as typed by the person named; a sitting stopped half way
through a player's round keeps his confirmed order and the dice typed for it, and the next
sitting uses them again before asking anything new. And the GM's one-line errors."""

from __future__ import annotations

import socket
from pathlib import Path

from pbem.gm.creation import create
from pbem.state.store import read_toml
from tests.conquest.engine_helpers import campaign as conquest_campaign
from tests.support.typed_dice import pbem
from tests.table.helpers import PLAYERS, T0, Terminal, campaign, game, mail, read_mail

BY = "Ben at the club"
T8 = "command test A1 in T8 (target 9): roll 2D6, value? "
T9 = "command test A1 in T9 (target 8): roll 2D6, value? "


def test_typed_dice_of_a_round_stopped_half_way_are_used_again_and_only_the_rest_asked(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    mail(camp, "anna", "TRY A1 ALWAYS FIRST E")
    camp = read_mail(camp)
    term = Terminal("table", str(camp.folder), "--dice", "typed", "--typed-by", BY)
    term.wait_for(f"Dice: dice rolled at the table and typed in (recorded as typed by {BY})")
    term.wait_for("[u]se the mailed order, or [t]ype one at the table? ")
    term.type("u")
    term.wait_for(T8)
    term.type("7")
    term.wait_for("'7': 1 value for 2D6: give one per die, like `3+4`; type 2D6 again")
    term.type("3+4")
    term.wait_for(T9)
    term.type("\x04")
    term.wait_for("the table stopped during Anna's round; the order and the dice typed so far are kept")
    assert term.close() == 130 and "Traceback" not in term.screen
    pending = read_toml(camp.folder / "state.toml")["stage"]["table"]["pending"]
    assert pending["player"] == "anna" and [r["faces"] for r in pending["rolls"]] == [[3, 4]]
    assert game(camp.folder)["played"] == []
    again = Terminal("table", str(camp.folder), "--dice", "typed", "--typed-by", BY)
    again.wait_for("Anna's order was confirmed before the table stopped (mailed); the round is played with it")
    again.wait_for(f"roll: command test A1 in T8 (target 9): 2D6 = 3+4 = 7 (typed by {BY})")
    again.wait_for(T9)
    again.type("6+6")
    again.wait_for("A1 in T9: command test 12 vs 8: failed")
    again.wait_for("Ben> ")
    again.type("\x04")
    assert again.close() == 130 and T8 not in again.screen
    assert game(camp.folder)["played"] == ["anna"]
    rolls = read_toml(camp.folder / "state.toml")["stage"]["table"]["rolls"]
    assert [(r["faces"], r["typed_by"]) for r in rolls] == [([3, 4], BY), ([6, 6], BY)]


def test_the_gm_is_told_in_one_line_why_the_table_cannot_play(tmp_path: Path) -> None:
    mailed = campaign(tmp_path / "mailed", mode="one_on_one")
    code, _, err = pbem("table", str(mailed.folder))
    assert code == 1 and err == ("pbem: wt cannot be played at the table: it plays mode one_on_one (campaign.mode), "
                                 "and only mode together is played at the table; its rounds go by mail\n")
    setup, _ = create(tmp_path / "setup" / "campaigns", "wt", "wandering_tribes", "wt_four_tribes", PLAYERS,
                      "gm@wt.localhost", T0)
    code, _, err = pbem("table", str(setup.folder))
    assert code == 1 and err == ("pbem: wt cannot be played at the table: no strategic round is open (the campaign "
                                 "waits for its setup); play at the table once one is\n")
    other = conquest_campaign(tmp_path / "other")
    code, _, err = pbem("table", str(other.folder))
    assert code == 1 and err.startswith("pbem: coc plays Campaigns of Conquest; `pbem table` plays Wandering "
                                        "Tribes rounds only")
    code, _, err = pbem("table", str(mailed.folder), "--typed-by", "Ann")
    assert code == 1 and err == "pbem: --typed-by names who types the dice: use it with `--dice typed`\n"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        code, _, err = pbem("table", str(mailed.folder), "--serve", "--port", str(port))
    assert code == 1 and err.startswith(f"pbem: cannot serve the page on 127.0.0.1:{port}: ")
    assert err.endswith("; leave out --port to take any free port\n")
    code, _, err = pbem("table", str(tmp_path / "nowhere"))
    assert code == 1 and err.count("\n") == 1 and "no campaign" in err
