"""A Diplomacy campaign through the engine: creation, acks, NMR, retreat and adjustment
stages, civil disorder, victory and the GM's draw, each from mail in an inbox."""

from __future__ import annotations

import email
from datetime import UTC, datetime, timedelta
from email import policy
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.errors import UserError
from pbem.gm.creation import NewPlayer, create
from pbem.rulesets import registry
from pbem.rulesets.diplomacy.board import standard_board
from pbem.rulesets.diplomacy.cycle import GameState
from pbem.rulesets.diplomacy.state import dump_position
from pbem.rulesets.diplomacy.units import Unit
from pbem.stages import turns
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
POWERS = {"aus": "Austria", "eng": "England", "fra": "France", "ger": "Germany", "ita": "Italy",
          "rus": "Russia", "tur": "Turkey"}
SECRETS = {pid: f"{pid.upper()}X-TEST-0000-0000-000{i}" for i, pid in enumerate(POWERS, 1)} | {
    "gm": "GMGM-TEST-0000-0000-0000"}
TRANSPORT = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
BOARD = standard_board()


def seven() -> list[NewPlayer]:
    return [NewPlayer(pid, f"Player {pid}", f"{pid}@test.localhost", power) for pid, power in POWERS.items()]


@pytest.fixture
def camp(tmp_path: Path) -> Campaign:
    c, _ = create(tmp_path / "campaigns", "dip", "diplomacy", "", seven(), "gm@test.localhost", T0,
                  transport=TRANSPORT, fixed_secrets=SECRETS)
    return c


def put(camp: Campaign, name: str, pid: str, body: str, gm: bool = False) -> None:
    inbox = camp.folder.parent.parent / "inbox"
    inbox.mkdir(exist_ok=True)
    sender = "gm@test.localhost" if gm else f"{pid}@test.localhost"
    sign = f"GM {SECRETS['gm']}" if gm else f"PLAYER {pid} {SECRETS[pid]}"
    raw = (f"From: <{sender}>\nTo: dip@pbem.localhost\nSubject: [dip] orders\nMessage-ID: <{name}@test.localhost>\n"
           f"Date: Mon, 23 Nov 2026 10:00:00 +0000\nContent-Type: text/plain; charset=\"utf-8\"\n\n{sign}\n{body}")
    (inbox / f"{name}.eml").write_text(raw.replace("\n", "\r\n"))


def outbox(camp: Campaign, to: str = "") -> list[email.message.EmailMessage]:
    folder = camp.folder.parent.parent / "outbox" / "new"
    msgs = [email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in sorted(folder.glob("*"))]
    return [m for m in msgs if not to or to in str(m["To"])]  # type: ignore[misc]


def body(msg: email.message.EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return part.get_content()


def ack(camp: Campaign, pid: str, name: str) -> str:
    """The reply to the message `name` that `put` delivered."""
    [reply] = [m for m in outbox(camp, f"{pid}@") if m["In-Reply-To"] == f"<{name}@test.localhost>"]
    return body(reply)


def run(camp: Campaign, now: datetime = T0 + timedelta(hours=1)) -> Campaign:
    tick(camp.folder.parent, now)
    return Campaign(camp.folder)


def after_deadline(camp: Campaign) -> Campaign:
    return run(camp, turns.parse_time(camp.state["stage"]["deadline"]) + timedelta(minutes=1))


def report(camp: Campaign, turn: int, name: str) -> str:
    return (camp.history(turn) / f"{name}.md").read_text()


def set_position(camp: Campaign, state: GameState) -> Campaign:
    """Put the game in a given position and open its stage, as if play had led there."""
    camp.state["game"].update(dump_position(state))
    turns.open_stage(camp, registry.get("diplomacy"), T0)
    camp.save()
    return Campaign(camp.folder)


def units(*texts: str) -> tuple[Unit, ...]:
    return tuple(Unit.parse(t, BOARD) for t in texts)


def homes() -> dict[str, str]:
    return {c: p for p, spec in BOARD.powers.items() for c in spec.home}


# ---------------------------------------------------------------- creation


def test_new_campaign_with_seven_players_records_each_power_as_the_faction(camp: Campaign) -> None:
    assert {p.id: p.faction for p in camp.settings.players} == POWERS
    assert camp.settings.map == "standard"
    assert camp.state["stage"]["kind"] == "movement" and camp.state["stage"]["title"] == "Spring 1901 movement"
    assert set(camp.settings.schedule.windows) == {"orders", "retreats", "adjustments"}
    assert camp.state["game"]["powers"] == {power: pid for pid, power in POWERS.items()}


def test_players_naming_no_power_are_dealt_the_powers_in_order(tmp_path: Path) -> None:
    players = [NewPlayer("alice", "Alice", "alice@test.localhost"), NewPlayer("bob", "Bob", "bob@test.localhost")]
    c, _ = create(tmp_path, "dip", "diplomacy", "standard", players, "gm@test.localhost", T0)
    assert [p.faction for p in c.settings.players] == ["Austria", "England"]
    assert c.state["game"]["powers"]["France"] == ""      # no player: civil disorder


@pytest.mark.parametrize("players, message", [
    ([("e1", "England"), ("e2", "english")], "England is chosen by both 'e1' and 'e2'"),
    ([("e1", "England"), ("x", "Englnd")], "did you mean England"),
    ([(f"p{i}", "") for i in range(8)], "8 players, but the map has only 7 powers"),
])
def test_bad_player_assignments_are_refused_before_anything_is_written(
        tmp_path: Path, players: list[tuple[str, str]], message: str) -> None:
    specs = [NewPlayer(pid, pid, f"{pid}@test.localhost", power, power) for pid, power in players]
    with pytest.raises(UserError, match=message):
        create(tmp_path, "dip", "diplomacy", "", specs, "gm@test.localhost", T0)
    assert not (tmp_path / "dip").exists()


def test_a_map_without_powers_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"not a Diplomacy map|has no powers"):
        create(tmp_path, "dip", "diplomacy", "rift_valley", seven(), "gm@test.localhost", T0)


def test_pbem_new_creates_a_diplomacy_campaign_from_the_command_line(tmp_path: Path) -> None:
    args = ["new", "dip", "--root", str(tmp_path), "--ruleset", "diplomacy", "--gm-email", "gm@test.localhost"]
    for pid, power in POWERS.items():
        args += ["--player", f"{pid},Player {pid},{pid}@test.localhost,{power}"]
    assert main(args) == 0
    c = Campaign(tmp_path / "dip")
    assert c.settings.player("fra") is not None and c.settings.player("fra").faction == "France"  # type: ignore[union-attr]
    assert c.settings.player("Russia") is not None


# ---------------------------------------------------------------- acks


def test_ack_answers_each_line_with_its_kind_of_problem_and_lists_units_without_orders(camp: Campaign) -> None:
    put(camp, "m1", "fra", "A Pariss - Burgundy\nF BRE - MUN\nF BRE - North\nF BRE - Mid-Atlantic Ocean\nA LON H\n")
    camp = run(camp)
    text = ack(camp, "fra", "m1")
    assert "line 2 (invalid)" in text and "did you mean **PAR Paris**" in text
    assert "line 3 (illegal)" in text and "cannot reach MUN" in text
    assert "line 4 (ambiguous)" in text and (
        "did you mean **NTH North Sea, NAF North Africa, NAO North Atlantic Ocean**" in text
    )
    assert "line 6 (illegal)" in text and "belongs to England" in text
    assert "`F BRE - MAO`" in text
    assert "Units without orders (they will hold): A MAR, A PAR." in text
    assert camp.state["submissions"]["fra"]["payload"] == {"orders": ["F BRE - MAO"]}


def test_resubmission_replaces_the_whole_order_set(camp: Campaign) -> None:
    put(camp, "m1", "fra", "A PAR - BUR\nA MAR - SPA\n")
    camp = run(camp)
    put(camp, "m2", "fra", "F BRE - MAO\n")
    camp = run(camp, T0 + timedelta(hours=2))
    assert camp.state["submissions"]["fra"]["payload"] == {"orders": ["F BRE - MAO"]}
    assert "Units without orders (they will hold): A MAR, A PAR." in ack(camp, "fra", "m2")


def test_help_explains_the_notation_and_the_replacement_rule(camp: Campaign) -> None:
    put(camp, "m1", "eng", "HELP\n")
    text = ack(run(camp), "eng", "m1")
    assert "You play **England**" in text and "F NTH C A LON - BEL" in text and "BUILD A PAR" in text
    assert "replaces your earlier orders for the phase as a whole" in text


# ---------------------------------------------------------------- movement and NMR


HOLD_1901 = {"aus": "A VIE H\nA BUD H\nF TRI H", "eng": "F LON H\nF EDI H\nA LVP H",
             "fra": "F BRE H\nA PAR H\nA MAR H", "ger": "F KIE H\nA BER H\nA MUN H",
             "ita": "F NAP H\nA ROM H\nA VEN H", "rus": "A MOS H\nF SEV H\nA WAR H\nF STP/SC H",
             "tur": "F ANK H\nA CON H\nA SMY H"}
"""Every unit of Spring 1901 ordered: a power with these on file is ready for an early close."""


def test_phase_resolves_early_when_every_power_has_sent_orders_for_every_unit(camp: Campaign) -> None:
    first = HOLD_1901 | {"fra": "F BRE H\nA PAR - BUR\nA MAR H"}
    for pid, order in first.items():
        put(camp, f"m-{pid}", pid, order + "\n")
    camp = run(camp)
    assert camp.state["stage"]["title"] == "Fall 1901 movement"
    text = report(camp, 1, "movement-report")
    assert "`A PAR - BUR`: succeeds" in text and "No orders received" not in text


def test_a_power_with_a_misspelt_order_is_not_done_until_it_says_ready(camp: Campaign) -> None:
    for pid, orders in (HOLD_1901 | {"aus": "A VIE H\nF TRI H\nA BUD - Serbai"}).items():
        put(camp, f"m-{pid}", pid, orders + "\n")
    camp = run(camp)
    assert camp.state["stage"]["title"] == "Spring 1901 movement"       # one good, one misspelt: not done
    text = ack(camp, "aus", "m-aus")
    assert "Serbai" in text and "The stage can close early once you are ready: 1 line was rejected" in text
    put(camp, "ready-aus", "aus", "READY\n")
    camp = run(camp, T0 + timedelta(hours=2))
    assert camp.state["stage"]["title"] == "Fall 1901 movement"
    assert "Austria: A BUD" in camp.state["game"]["units"]


def test_nmr_units_hold_and_the_silent_powers_are_named_in_the_report(camp: Campaign) -> None:
    put(camp, "m1", "fra", "A PAR - BUR\n")
    put(camp, "m2", "ger", "A MUN - BUR\n")
    camp = after_deadline(camp)
    text = report(camp, 1, "movement-report")
    assert "`A PAR - BUR`: fails (bounced)" in text and "`A MUN - BUR`: fails (bounced)" in text
    assert "No orders received from: Austria, England, Italy, Russia, Turkey. Their units held." in text
    assert "`F LON`: no order, holds" in text
    assert "Germany: A MUN" in camp.state["game"]["units"]


# ---------------------------------------------------------------- retreats


def retreat_position(camp: Campaign) -> Campaign:
    camp = set_position(camp, GameState(1901, "fall", "movement", units(
        "France: A BUR", "France: A PAR", "Germany: A MUN", "Germany: A RUH", "England: F LON"), homes()))
    put(camp, "m1", "ger", "A MUN - BUR\nA RUH S A MUN - BUR\n")
    put(camp, "m2", "fra", "A BUR H\nA PAR H\n")
    put(camp, "m3", "eng", "F LON H\n")
    return run(camp)


def test_retreat_stage_owes_only_the_power_with_a_dislodged_unit(camp: Campaign) -> None:
    camp = retreat_position(camp)
    stage = registry.get("diplomacy").stage(turns.context(camp, T0))
    assert (stage.kind, stage.window, stage.owing) == ("retreats", "retreats", ("fra",))
    text = report(camp, 2, "movement-report")
    assert "France `A BUR`, dislodged by the attack from MUN: may retreat to BEL, GAS, MAR, PIC or disband" in text


def test_retreat_order_is_checked_at_once_and_the_retreat_moves_the_unit(camp: Campaign) -> None:
    camp = retreat_position(camp)
    put(camp, "r1", "fra", "A BUR R MUN\nA BUR R PIC\n")
    camp = run(camp, T0 + timedelta(hours=2))
    text = ack(camp, "fra", "r1")
    assert "line 2 (illegal)" in text and "where the attacker came from" in text
    assert camp.state["stage"]["kind"] == "retreats"                  # a line was rejected: not done yet
    put(camp, "r2", "fra", "A BUR R PIC\n")
    camp = run(camp, T0 + timedelta(hours=3))
    assert "France: A PIC" in camp.state["game"]["units"]
    assert camp.state["stage"]["kind"] == "adjustments"


def test_dislodged_unit_without_retreat_order_is_disbanded_and_the_power_named(camp: Campaign) -> None:
    camp = after_deadline(retreat_position(camp))
    text = report(camp, 2, "retreats-report")
    assert "### Disbanded" in text and "France `A BUR`" in text
    assert "No orders received from: France. Their dislodged units were disbanded." in text
    assert not any(u.endswith("A BUR") for u in camp.state["game"]["units"] if u.startswith("France"))


# ---------------------------------------------------------------- adjustments


def winter(camp: Campaign, unit_texts: list[str], centers: dict[str, str]) -> Campaign:
    return set_position(camp, GameState(1901, "winter", "adjustment", units(*unit_texts), centers))


def test_adjustment_stage_owes_only_powers_with_builds_or_removals(camp: Campaign) -> None:
    centers = {**homes(), "BEL": "France"}
    occupied = [f"{p}: A {c}" for c, p in homes().items() if p not in ("France", "Germany")]
    camp = winter(camp, [*occupied, "France: A PAR", "France: A BEL", "France: A MAR", "Germany: A MUN",
                         "Germany: A BER", "Germany: A KIE", "Germany: A HOL"], centers)
    stage = registry.get("diplomacy").stage(turns.context(camp, T0))
    assert (stage.kind, stage.window, stage.owing) == ("adjustments", "adjustments", ("fra", "ger"))


def test_builds_are_checked_and_unsent_builds_waived_at_the_deadline(camp: Campaign) -> None:
    camp = winter(camp, [f"{p}: A {c}" for c, p in homes().items() if c not in ("PAR", "BRE", "BER")], homes())
    put(camp, "b1", "fra", "BUILD A PAR\nBUILD A MUN\nBUILD A MAR\nBUILD F BRE\nWAIVE\n")
    camp = run(camp)
    text = ack(camp, "fra", "b1")
    assert "line 3 (illegal)" in text and "MUN is not a home centre of France" in text
    assert "line 4 (illegal)" in text and "MAR is occupied" in text
    assert "line 6 (illegal)" in text and "France has no builds left" in text
    camp = after_deadline(camp)
    assert {"France: A PAR", "France: F BRE"} <= set(camp.state["game"]["units"])
    assert "Germany: A BER" not in camp.state["game"]["units"]
    assert "No orders received from: Germany. Their builds were waived" in report(camp, 2, "adjustments-report")
    assert camp.state["stage"]["title"] == "Spring 1902 movement" and camp.state["stage"]["turn"] == 3


def test_civil_disorder_removes_units_of_a_power_that_sends_no_removals(camp: Campaign) -> None:
    centers = {**homes(), "PAR": "Germany", "MAR": "Germany"}
    others = [f"{p}: A {c}" for c, p in homes().items() if p not in ("France", "Germany")]
    camp = winter(camp, [*others, "France: F BRE", "France: A GAS", "France: A PIE", "Germany: A PAR",
                         "Germany: A MAR"], centers)
    camp = after_deadline(camp)
    text = report(camp, 2, "adjustments-report")
    assert "`A PIE D`: succeeds (civil disorder)" in text and "`A GAS D`: succeeds (civil disorder)" in text
    assert "No orders received from: France" in text
    assert [u for u in camp.state["game"]["units"] if u.startswith("France")] == ["France: F BRE"]


# ---------------------------------------------------------------- the end of the game


def test_solo_victory_at_18_centres_ends_the_campaign(camp: Campaign) -> None:
    mine = ["PAR", "MAR", "BRE", "SPA", "POR", "BEL", "HOL", "LON", "LVP", "EDI", "NWY", "SWE", "DEN",
            "KIE", "BER", "MUN", "TUN"]
    camp = set_position(camp, GameState(1905, "fall", "movement", units("France: A PIE", "Italy: A ROM"),
                                        {**homes(), **dict.fromkeys(mine, "France")}))
    put(camp, "v1", "fra", "A PIE - VEN\n")
    camp = after_deadline(camp)
    assert camp.state["stage"]["kind"] == "over" and camp.state["game"]["winner"] == "France"
    text = report(camp, 10, "movement-report")
    assert "## France wins" in text and "18 supply centres" in text


def test_gm_draw_by_mail_ends_the_game_and_later_orders_are_refused(camp: Campaign) -> None:
    put(camp, "g1", "", "DRAW England France Germany\n", gm=True)
    camp = run(camp)
    assert camp.state["stage"]["kind"] == "over"
    assert camp.state["game"]["draw"] == ["England", "France", "Germany"]
    assert any("draw declared among England, France, Germany" in body(m) for m in outbox(camp, "gm@"))
    text = report(camp, 1, "movement-report")
    assert "## Draw" in text and "shared by England, France, Germany" in text
    put(camp, "m1", "fra", "A PAR - BUR\n")
    camp = run(camp, T0 + timedelta(hours=2))
    assert "Nothing is expected from you" in ack(camp, "fra", "m1")


def test_gm_draw_naming_an_eliminated_power_is_refused(camp: Campaign) -> None:
    camp.state["game"]["eliminated"] = ["Italy"]
    camp.save()
    put(camp, "g1", "", "DRAW France Italy\n", gm=True)
    camp = run(Campaign(camp.folder))
    assert any("not done: Italy is eliminated" in body(m) for m in outbox(camp, "gm@"))
    assert camp.state["stage"]["kind"] == "movement"


# ---------------------------------------------------------------- conformance


def test_created_from_settings_it_runs_a_default_turn_and_renders_its_reports(tmp_path: Path) -> None:
    players = [NewPlayer("red", "Alice", "alice@test.localhost", "Red", "R"),
               NewPlayer("blue", "Bob", "bob@test.localhost", "Blue", "B")]
    c, _ = create(tmp_path / "campaigns", "dip", "diplomacy", "standard", players, "gm@test.localhost", T0,
                  transport=TRANSPORT)
    c = after_deadline(c)
    assert c.state["stage"]["title"] == "Fall 1901 movement"
    text = report(c, 1, "movement-report")
    assert "No orders received from: Austria, England." in text
    assert "In civil disorder (no player): France, Germany, Italy, Russia, Turkey." in text
    assert (c.history(1) / "movement-private-red.md").exists()


def test_datc_6_j_11_campaign_edition_setting_chooses_the_civil_disorder_rule(tmp_path: Path) -> None:
    """Italy owns only WAR and orders no removal: 3.0 counts distance to owned centres (TUS goes),
    edition 2.4 counts it to home centres (WAR goes)."""
    removed = {}
    for edition in ("3.0", "2.4"):
        c, _ = create(tmp_path / edition, "dip", "diplomacy", "", seven(), "gm@test.localhost", T0,
                      transport=TRANSPORT, fixed_secrets=SECRETS, rules={"edition": edition})
        others = {k: v for k, v in homes().items() if v != "Italy"}
        c = after_deadline(winter(c, ["Italy: A TUS", "Italy: A WAR"], {**others, "WAR": "Italy"}))
        removed[edition] = [u for u in ("Italy: A TUS", "Italy: A WAR") if u not in c.state["game"]["units"]]
    assert removed == {"3.0": ["Italy: A TUS"], "2.4": ["Italy: A WAR"]}


def test_a_phase_owed_only_by_powers_without_players_resolves_at_once(tmp_path: Path) -> None:
    players = [NewPlayer("ann", "Ann", "ann@test.localhost", "Austria"),
               NewPlayer("eng", "Ed", "eng@test.localhost", "England")]
    c, _ = create(tmp_path / "campaigns", "dip", "diplomacy", "", players, "gm@test.localhost", T0,
                  transport=TRANSPORT, fixed_secrets=SECRETS)
    c = set_position(c, GameState(1901, "spring", "movement", units(
        "France: A PIC", "England: A BEL", "England: F ENG"), homes()))
    put(c, "m1", "eng", "A BEL - PIC\nF ENG S A BEL - PIC\n")
    c = run(c)
    assert c.state["stage"]["title"] == "Fall 1901 movement"
    text = report(c, 1, "retreats-report")
    assert "In civil disorder (no player): France." in text and "France `A PIC`" in text


def test_rollback_returns_to_the_start_of_the_previous_season(camp: Campaign) -> None:
    put(camp, "m1", "fra", "A PAR - BUR\n")
    camp = after_deadline(camp)
    assert camp.state["stage"]["title"] == "Fall 1901 movement"
    assert main(["rollback", "dip", "--root", str(camp.folder.parent)]) == 0
    camp = Campaign(camp.folder)
    assert camp.state["stage"]["title"] == "Spring 1901 movement" and "France: A PAR" in camp.state["game"]["units"]


def test_pbem_draw_on_the_command_line_ends_the_game_at_the_next_tick(camp: Campaign) -> None:
    root = str(camp.folder.parent)
    assert main(["draw", "dip", "--root", root, "France"]) == 1          # one power is no draw
    assert main(["draw", "dip", "--root", root, "ALL"]) == 0
    camp = run(Campaign(camp.folder))
    assert camp.state["stage"]["kind"] == "over" and len(camp.state["game"]["draw"]) == 7


def test_the_report_ending_a_turn_publishes_the_next_turns_commitment(camp: Campaign) -> None:
    """The turn secret revealed at a turn's end is checked against a commitment published before:
    the next turn's goes out with it (found by the season simulation, tests/season)."""
    for pid, order in HOLD_1901.items():
        put(camp, f"c-{pid}", pid, order + "\n")
    camp = run(camp)
    text = report(camp, 1, "movement-report")
    assert f"Turn secret: `{turns.turn_secret(camp, 1)}`" in text
    assert f"Commitment for turn 2: `{turns.commitment(camp, 2)}`" in text


def test_greetings_are_skipped_as_prose_and_a_misspelt_order_is_rejected_not_dropped(camp: Campaign) -> None:
    camp = run(camp)
    put(camp, "p1", "aus", "Hi GM,\nA VIE - GAL\nA BUL - Serbai\nArmy Budapest - Serbia\n\nCheers,\nPlayer aus")
    text = ack(run(camp, T0 + timedelta(hours=2)), "aus", "p1")
    assert "3 lines read as prose and skipped: line 2 `Hi GM,`, line 7 `Cheers,`, line 8 `Player aus`." in text
    assert "line 4 (invalid): \"A BUL - Serbai\"" in text and "did you mean **SER Serbia**" in text, text
    assert "line 3: `A VIE - GAL`" in text and "line 5: `A BUD - SER`" in text


def test_help_examples_use_the_readers_own_units(camp: Campaign) -> None:
    camp = run(camp)
    put(camp, "h1", "tur", "HELP")
    text = ack(run(camp, T0 + timedelta(hours=2)), "tur", "h1")
    assert "With your own units: `F ANK H` holds, `F ANK - <province>` moves." in text
