"""One summer month of Mighty Kingdoms through the engine's hooks and `pbem.tick.engine.tick`: Orders
resolve, a battle window opens with its briefings, both reports close it, Reform rolls its dice,
and the month report says what to send next; `pbem verify-dice` recomputes every roll of the
turn; a hand-run campaign's position (docs/positions) is imported mid-year and plays on.
"""

from __future__ import annotations

import contextlib
import email
import io
from datetime import UTC, datetime, timedelta
from email import policy
from pathlib import Path
from typing import Any

from pbem.cli import main as pbem_main
from pbem.forum.folder import split_header
from pbem.gm.creation import NewPlayer, create
from pbem.kit.dice import ScriptedDice
from pbem.kit.texts import render
from pbem.rulesets.base import Context, Report, Resolution
from pbem.rulesets.mighty_kingdoms.model import BATTLE, ORDERS, MKState
from pbem.rulesets.mighty_kingdoms.ruleset import RULESET
from pbem.state.campaign import Campaign
from pbem.state.store import read_toml, write_toml
from pbem.tick.engine import tick

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
DOCS = Path(__file__).parents[2] / "docs" / "positions"
PLAYERS = [NewPlayer("red", "Anna", "anna@players.localhost", "Red Realm", "R"),
           NewPlayer("blue", "Ben", "ben@players.localhost", "Blue March", "B")]
THREE = [*PLAYERS, NewPlayer("green", "Cara", "cara@players.localhost", "Green Hold", "G")]
SECRETS = {"red": "REDD-FLOW-0000-0000-0001", "blue": "BLUE-FLOW-0000-0000-0002", "gm": "GMGM-FLOW-0000-0000-0000"}
LIST = ["Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100",
        "Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100",
        "Bowmen | Inf | 5 5+ 5+ 3+ 8 10/12 | | 90",
        "Knights | Cav | 8 3+ - 5+ 16 14/17 | Thunderous Charge (2) | 130",
        "Captain | Hero (Inf) | 5 3+ - 5+ 5 -/13 | Individual, Inspiring | 80"]


def position(x_explored: bool) -> dict[str, Any]:
    """Year 1, month 3 on mk_three_realms: RED1 in T20 (Red's), BLUE1 in T13 (Blue's); T20 and T13
    are neighbours and both touch T21 (Irefell), unexplored unless `x_explored` (then Blue's village)."""
    tiles: dict[str, Any] = {"T28": {"owner": "red", "settlement": "city"}, "T20": {"owner": "red"},
                             "T34": {"owner": "blue", "settlement": "city"}, "T13": {"owner": "blue"}}
    if x_explored:
        tiles["T21"] = {"owner": "blue", "settlement": "village"}
    return {"year": 1, "month": 3, "order": ["blue", "red"],
            "kingdoms": {"red": {"start": "T28"}, "blue": {"start": "T34"}}, "tiles": tiles,
            "armies": {"RED1": {"owner": "red", "tile": "T20", "name": "Iron Guard", "units": LIST},
                       "BLUE1": {"owner": "blue", "tile": "T13", "name": "Stonewall", "units": LIST}}}


def campaign(root: Path, forum: bool = False) -> Campaign:
    transport: dict[str, Any] = {"inbox": {"type": "eml", "path": "../../inbox"},
                                 "outbox": {"type": "maildir", "path": "../../outbox"}}
    if forum:
        transport["forum"] = {"kind": "folder", "path": "../../forum/mk", "bot": "pbem"}
    camp, _ = create(root / "campaigns", "flow", "mighty_kingdoms", "mk_three_realms", PLAYERS,
                     "gm@players.localhost", T0, transport=transport, fixed_secrets=SECRETS)
    return camp


# -- through the hooks, with fixed dice: acceptance scenario 2 -------------------------------------
class Hooks:
    """The rule system's hooks on a game held in memory, as the engine calls them."""

    def __init__(self, camp: Campaign, game: dict[str, Any]) -> None:
        self.camp, self.game = camp, game

    def ctx(self) -> Context:
        return Context(self.camp.settings, self.game, T0)

    def state(self) -> MKState:
        return RULESET.load_state(self.game)

    def parsed(self, pid: str, text: str) -> dict[str, Any]:
        player = self.camp.settings.player(pid)
        assert player is not None
        out = RULESET.parse(self.ctx(), player, list(enumerate(text.splitlines(), 1)))
        assert not out.problems, [str(p) for p in out.problems]
        return dict(out.payload)

    def resolve(self, dice: ScriptedDice, **mails: str) -> Resolution:
        subs = {pid: self.parsed(pid, text) for pid, text in mails.items()}
        res = RULESET.resolve(self.ctx(), subs, dice)
        assert not dice.unused, dice.unused
        self.game = res.game
        return res

    def text(self, report: Report) -> str:
        return render(RULESET.templates, report.kind, report.context, self.camp.folder)


def lines_of(report: Report) -> list[str]:
    return [line for section in report.context["mk"]["sections"] for line in section.lines]


def test_mk_scenario_2_a_month_through_the_hooks_opens_window_b_and_reform_closes_it(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    hooks = Hooks(camp, RULESET.position(camp.settings, position(x_explored=False), "flow"))
    assert RULESET.stage(hooks.ctx()).kind == ORDERS and hooks.state().calendar.turn == 3

    month = hooks.resolve(ScriptedDice([3, 5]), red="RED1 MOVE T21", blue="BLUE1 MOVE T21")
    state = hooks.state()
    assert state.calendar.window == BATTLE and RULESET.stage(hooks.ctx()).owing == ("blue", "red")
    assert not month.turn_finished                         # the month goes on in window B
    public, briefing = month.reports
    assert (public.audience, public.public) == (("*",), True)
    assert lines_of(public)[3:7] == [
        "(1) Blue March BLUE1 MOVE T21: T21 explored, 2D6 = 3+5 = 8: a village, controlled by Blue March; "
        "BLUE1 enters",
        "(2) Red Realm RED1 MOVE T21: RED1 enters T21; enemy army BLUE1 there, so T21 stays Blue March's (MK-RES-6)",
        "T21: Blue March (BLUE1), Red Realm (RED1)",
        "Y1M3-B1: Blue March chooses T21 (Irefell) against Red Realm: a KoW game, 500 points against 500."]
    assert (briefing.kind, briefing.audience, briefing.public) == ("briefing", ("blue", "red"), True)

    report = "RESULT WIN Red Realm\nMEDALS RED1.U1\nSCARS BLUE1.U2"
    closed = hooks.resolve(ScriptedDice([3, 2, 4, 6]), red=report, blue=report)
    state = hooks.state()
    assert closed.turn_finished and (state.calendar.month, state.calendar.window) == (4, ORDERS)
    assert lines_of(closed.reports[0]) == [
        "Y1M3-B1 at T21 (Irefell): Red Realm wins against Blue March (both reports agree).",
        "T21 (Irefell) with its village passes to Red Realm.",
        "BLUE1 moves to T13 (Thornford) (by default) and is on its side.",
        "Red Realm makes no win move.",
        "Medals: RED1.U1.",
        "Scars: BLUE1.U2.",
        "No contested tile remains: the battle phase ends.",
        "Armies on their side stand up: BLUE1",
        "BLUE1.U2 Spearmen: 1 leftover scar, D6 = 3 - 1 = 2: gains Yellow Bellied",
        "RED1.U1 Spearmen: 1 leftover medal, D6 = 2 + 1 = 3: Ne 14/16 -> 15/17",
        "player order roll-off (1 army): Blue March D6 = 4, Red Realm D6 = 6",
        "player order: Red Realm, Blue March"]
    assert (state.owner("T21"), state.tiles["T21"].settlement) == ("red", "village")
    assert [(a.id, a.tile, a.upright) for a in state.armies.values()] == [("RED1", "T21", True), ("BLUE1", "T13", True)]
    assert state.order == ["red", "blue"]
    assert closed.reports[0].context["mk"]["call"]["allowance"] == 1      # what month 4's Orders want


# -- through pbem.tick.engine.tick: mail in, mail and forum posts out ---------------------------------------
def pbem(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = pbem_main(list(args))
    return code, out.getvalue()


def imported(root: Path, data: dict[str, Any] | Path, forum: bool = False,
             players: list[NewPlayer] = PLAYERS) -> Campaign:
    """A campaign made, then moved to the position with `pbem import` (the GM's command line)."""
    transport: dict[str, Any] = {"inbox": {"type": "eml", "path": "../../inbox"},
                                 "outbox": {"type": "maildir", "path": "../../outbox"}}
    if forum:
        transport["forum"] = {"kind": "folder", "path": "../../forum/mk", "bot": "pbem"}
    camp, _ = create(root / "campaigns", "flow", "mighty_kingdoms", "mk_three_realms", players,
                     "gm@players.localhost", T0, transport=transport,
                     fixed_secrets={p.id: f"{p.id.upper():X<4}-FLOW-0000-0000-000{i}" for i, p in enumerate(players)}
                     | {"gm": SECRETS["gm"]})
    path = data if isinstance(data, Path) else root / "position.toml"
    if not isinstance(data, Path):
        write_toml(path, data)
    code, said = pbem("import", "flow", str(path), "--root", str(root / "campaigns"))
    assert code == 0, said
    return Campaign(camp.folder)


def mail(root: Path, name: str, pid: str, text: str) -> None:
    who = next(p for p in THREE if p.id == pid)
    secret = f"{pid.upper():X<4}-FLOW-0000-0000-000{THREE.index(who)}"
    (root / "inbox").mkdir(exist_ok=True)
    (root / "inbox" / f"{name}.eml").write_text(
        f"From: {who.name} <{who.email}>\nTo: flow@pbem.localhost\nSubject: [flow] orders\n"
        f"Message-ID: <{name}@players.localhost>\nMIME-Version: 1.0\nContent-Type: text/plain\n\n"
        f"PLAYER {pid} {secret}\n{text}\n")


def sent(root: Path, seen: set[str]) -> list[tuple[str, str, str]]:
    """(to, subject, plain text) of the mails sent since the last call."""
    out = []
    for path in sorted((root / "outbox").glob("*/*")):
        if path.name in seen:
            continue
        seen.add(path.name)
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        body = msg.get_body(preferencelist=("plain",))
        out.append((str(msg["To"]), str(msg["Subject"]), body.get_content() if body else ""))
    return out


def posts(root: Path) -> list[tuple[dict[str, Any], str]]:
    return [split_header(p.read_text()) for p in sorted((root / "forum" / "mk").glob("*-pbem.md"))]


def test_mk_pbm_7_a_month_by_mail_briefs_both_sides_and_the_forum_and_reform_ends_it(tmp_path: Path) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    camp = imported(tmp_path, position(x_explored=True), forum=True)
    seen: set[str] = set()
    mail(tmp_path, "o-red", "red", "RED1 MOVE T21")
    mail(tmp_path, "o-blue", "blue", "BLUE1 MOVE T21")
    tick(tmp_path / "campaigns", now + timedelta(hours=1))
    camp = Campaign(camp.folder)
    assert camp.state["stage"]["kind"] == BATTLE
    out = sent(tmp_path, seen)
    briefed = {to for to, subject, _ in out if "Battle Y1M3-B1, Blue March against Red Realm" in subject}
    assert briefed == {"anna@players.localhost", "ben@players.localhost", "gm@players.localhost"}
    month = next(text for to, subject, text in out if "orders and resolution" in subject and "anna" in to)
    assert "Battle **Y1M3-B1** at T21 (Irefell): Blue March against Red Realm" in month
    assert "RESULT WIN <kingdom> or RESULT DRAW" in month
    assert [h["key"].rpartition("/")[2] for h, _ in posts(tmp_path)] == ["orders", "briefing-Y1M3-B1"]

    mail(tmp_path, "r-red", "red", "RESULT WIN Red Realm\nMEDALS RED1.U1\nSCARS BLUE1.U2")
    mail(tmp_path, "r-blue", "blue", "RESULT WIN Red Realm\nMEDALS RED1.U1\nSCARS BLUE1.U2")
    tick(tmp_path / "campaigns", now + timedelta(hours=2))
    camp = Campaign(camp.folder)
    state = RULESET.load_state(camp.state["game"])
    assert (state.calendar.month, state.calendar.window) == (4, ORDERS)
    assert [(a.id, a.tile, a.upright) for a in state.armies.values()] == [("RED1", "T21", True), ("BLUE1", "T13", True)]
    report = next(text for to, subject, text in sent(tmp_path, seen) if "battle Y1M3-B1" in subject and "ben" in to)
    assert "Red Realm wins against Blue March (both reports agree)" in report
    assert "BLUE1.U2 Spearmen: 1 leftover scar, D6 = " in report and "RED1.U1 Spearmen: 1 leftover medal" in report
    assert "## Orders for Year 1, month 4" in report and "Next: **Year 1, month 4: orders**, due" in report
    assert report.count("Dice secret of turn 3:") == 1 and report.count("Commitment for turn 4:") == 1
    assert "## Dice\n\n- scar roll for BLUE1.U2: D6 = " in report
    assert posts(tmp_path)[-1][0]["key"].endswith("battle-Y1M3-B1")

    code, said = pbem("verify-dice", "flow", "3", "--root", str(tmp_path / "campaigns"))
    rolls = read_toml(camp.folder / "history" / "003" / "dice.toml")["stages"]
    assert len(rolls[0]["rolls"]) == 0           # the Orders of an explored tile roll nothing
    purposes = [r["purpose"] for stage in rolls for r in stage["rolls"]]
    assert code == 0, said
    assert purposes[:2] == ["scar roll for BLUE1.U2", "medal roll for RED1.U1"]
    assert purposes[2:] == ["player order roll-off (1 army): blue", "player order roll-off (1 army): red"] * (
        (len(purposes) - 2) // 2) and len(purposes) >= 4                # a tied roll-off is rolled again (A32)
    assert f"turn 3: {len(purposes)} roll(s) in 2 stage(s) checked; all match" in said
    dice_file = camp.folder / "history" / "003" / "dice.toml"
    data = read_toml(dice_file)
    scar = data["stages"][1]["rolls"][0]
    scar["faces"] = [scar["faces"][0] % 6 + 1]                          # a scar roll written down wrong
    write_toml(dice_file, data)
    assert pbem("verify-dice", "flow", "3", "--root", str(tmp_path / "campaigns"))[0] != 0


def test_mk_the_documented_position_is_imported_mid_year_and_its_month_resolves_in_one_tick(tmp_path: Path) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    camp = imported(tmp_path, DOCS / "mighty_kingdoms.toml", players=THREE)
    assert camp.state["stage"]["title"] == "Year 2, month 4: orders"
    seen: set[str] = set()
    assert sent(tmp_path, seen) == []              # the import's mails go out with the next tick
    mail(tmp_path, "o-red", "red", "RED1 MOVE T38")          # N = 1: a second order would be refused (not ready)
    mail(tmp_path, "o-blue", "blue", "BLUE1 DEFEND")
    mail(tmp_path, "o-green", "green", "GREEN1 DEFEND")
    tick(tmp_path / "campaigns", now + timedelta(hours=1))
    camp = Campaign(camp.folder)
    state = RULESET.load_state(camp.state["game"])
    assert camp.state["stage"]["title"] == "Year 2, month 5: orders" and state.calendar.turn == 12
    assert state.explored("T38") and state.armies["RED1"].tile in ("T38", "T30")   # T30 again after a tower
    assert state.artefacts["Blade of Slashing"].army == "RED1" and state.artefacts["Fenulian Amulet"].owner == "green"
    report = next(text for to, subject, text in sent(tmp_path, seen) if "month 4: orders" in subject and "cara" in to)
    assert "Order allowance: N = 1" in report and "- Red Realm: RED1 MOVE T38" in report
    assert "## Orders for Year 2, month 5" in report
    code, said = pbem("verify-dice", "flow", "11", "--root", str(tmp_path / "campaigns"))
    assert code == 0 and "all match" in said, said


def test_greetings_are_skipped_as_prose_and_a_misspelt_verb_is_rejected_not_dropped(tmp_path: Path) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    imported(tmp_path, position(x_explored=True))
    seen: set[str] = set()
    sent(tmp_path, seen)
    mail(tmp_path, "o-red", "red", "Hi GM,\nRED1 MOVE T21\nRAIZ the village\nThanks Ben!")
    tick(tmp_path / "campaigns", now + timedelta(hours=1))
    [ack] = [text for to, subject, text in sent(tmp_path, seen) if "anna" in to and "Re:" in subject]
    assert "2 lines read as prose and skipped: line 2 `Hi GM,`, line 5 `Thanks Ben!`." in ack
    assert "line 4 (invalid): `RAIZ the village`" in ack and "line 3: `RED1 MOVE T21" in ack


def test_help_and_the_orders_call_give_each_kingdom_an_example_with_its_own_army(tmp_path: Path) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    imported(tmp_path, position(x_explored=True))
    seen: set[str] = set()
    sent(tmp_path, seen)
    mail(tmp_path, "h-blue", "blue", "HELP")
    tick(tmp_path / "campaigns", now + timedelta(hours=1))
    [ack] = [text for to, subject, text in sent(tmp_path, seen) if "ben" in to and "Re:" in subject]
    assert "One order per line, best first: BLUE1 MOVE T" in ack and "RED1" not in ack.split("## Help")[-1]
    from pbem.rulesets.mighty_kingdoms.window_orders import examples

    armies = [{"id": "RED1", "kingdom": "Red Realm", "moves": ["T21"]},
              {"id": "RED2", "kingdom": "Red Realm", "moves": []},
              {"id": "BLUE1", "kingdom": "Blue March", "moves": []}]
    assert examples(armies) == [{"kingdom": "Red Realm", "id": "RED1", "move": "RED1 MOVE T21"},
                                {"kingdom": "Blue March", "id": "BLUE1", "move": ""}]


def test_a_gm_ruling_before_the_reports_waits_for_each_sides_own_report_until_the_deadline(tmp_path: Path) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    camp = imported(tmp_path, position(x_explored=True))
    mail(tmp_path, "o-red", "red", "RED1 MOVE T21")
    mail(tmp_path, "o-blue", "blue", "BLUE1 MOVE T21")
    tick(tmp_path / "campaigns", now + timedelta(hours=1))
    code, said = pbem("gm", "flow", "--root", str(tmp_path / "campaigns"), "RESULT", "Y1M3-B1", "WIN", "Red", "Realm")
    assert code == 0 and "is still awaited" in said and "Blue March" in said, said
    tick(tmp_path / "campaigns", now + timedelta(hours=2))
    camp = Campaign(camp.folder)
    assert camp.state["stage"]["kind"] == BATTLE                     # the ruling waits for the reports
    mail(tmp_path, "r-red", "red", "RESULT WIN Red Realm\nMEDALS NONE\nSCARS NONE")
    mail(tmp_path, "r-blue", "blue", "RESULT WIN Red Realm\nMEDALS NONE\nSCARS NONE")
    tick(tmp_path / "campaigns", now + timedelta(hours=3))
    state = RULESET.load_state(Campaign(camp.folder).state["game"])
    assert (state.calendar.month, state.calendar.window) == (4, ORDERS)
