"""Every registered rule system goes through setup, its first turn of orders played by defaults, and its reports.

The same harness runs whatever `registry.available()` lists, so a new rule
system is covered the moment it is registered. Each stage is forced at once
(as `pbem resolve` does) with nobody having sent orders, through the real
engine tick. A stage that defaults cannot move on (army lists the players must
send and the game master must approve) gets the next step of the rule system's
demo mails (`inbox_samples/<ruleset>/`: the players' lists, then the GM's
`APPROVE ALL`), exactly as players and a GM would send them. The run ends
once the first stage of orders resolved with nobody's orders has finished its
turn; that turn must have public reports every player and the GM received.
"""

from __future__ import annotations

import email
import shutil
from collections import defaultdict
from datetime import timedelta
from email import policy
from pathlib import Path

import pytest

from pbem.commands import demo
from pbem.delivery.mails import build_mail
from pbem.delivery.outqueue import enqueue
from pbem.gm.creation import NewPlayer, create, welcome_replies
from pbem.rulesets import registry
from pbem.stages import turns
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick

T0 = demo.START
PLAYERS = [NewPlayer(p, p.title(), f"{p}@conformance.localhost", colour, colour[0])
           for p, colour in (("anna", "Red"), ("ben", "Blue"), ("cara", "Green"), ("dan", "Yellow"))]
MAX_STAGES = 16


def new_campaign(name: str, root: Path) -> tuple[Campaign, list[Path]]:
    """The rule system's demo campaign (players and secrets its sample mails use) with the shipped
    rules, and the demo's mail steps; a rule system without a demo gets four plain players."""
    ruleset = registry.get(name)
    spec = demo.DEMOS.get(name)
    if spec is None:
        camp, secrets = create(root / "campaigns", "conf", name, "", PLAYERS, "gm@conformance.localhost", T0,
                               transport=demo.TRANSPORT)
        steps: list[Path] = []
    else:
        camp, secrets = create(root / "campaigns", spec.campaign, name, spec.map,
                               [NewPlayer(*p) for p in spec.players], "gm@players.localhost", T0,
                               schedule=spec.schedule, transport=demo.TRANSPORT, fixed_secrets=spec.secrets)
        steps = sorted(p for p in (demo.SAMPLES / name).iterdir() if p.is_dir())
    for reply in welcome_replies(camp, secrets, T0):
        enqueue(camp.folder, build_mail(camp, ruleset, reply, T0))
    return camp, steps


def feed(step: Path, inbox: Path) -> None:
    inbox.mkdir(parents=True, exist_ok=True)
    for mail in sorted(step.glob("*.eml")):
        shutil.copy(mail, inbox / mail.name)


def sent_to_everyone(outbox: Path, everyone: set[str]) -> list[str]:
    """The plain texts of the mails every address in `everyone` received."""
    readers: dict[str, set[str]] = defaultdict(set)
    for path in outbox.glob("*"):
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        part = msg.get_body(preferencelist=("plain",))
        text = part.get_content().strip() if part else ""
        readers[text].add(str(msg["To"]).rsplit("<", 1)[-1].rstrip(">"))
    return [text for text, to in readers.items() if to >= everyone]


PLUGINS = Path(__file__).parents[1] / "plugins"


@pytest.mark.parametrize("name", sorted(registry.available()))
def test_ruleset_plays_its_first_turn_of_orders_by_defaults_and_publishes_it(name: str, tmp_path: Path) -> None:
    plays_first_turn(name, tmp_path)


def test_a_plugin_rule_system_found_through_its_entry_point_plays_like_the_built_ins(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule system written outside pbem (tests/plugins/pbem_skirmish, installed as a distribution
    with a `pbem.rulesets` entry point) needs no edit of pbem to run: the registry finds it, the
    engine plays it, its own templates render its reports."""
    monkeypatch.syspath_prepend(str(PLUGINS))
    assert "skirmish" in registry.available()
    assert type(registry.get("skirmish")).__module__ == "pbem_skirmish.ruleset"
    plays_first_turn("skirmish", tmp_path)


def plays_first_turn(name: str, tmp_path: Path) -> None:
    ruleset = registry.get(name)
    camp, steps = new_campaign(name, tmp_path)
    now, stuck, first_turn = T0, False, -1
    for _ in range(MAX_STAGES):
        camp = Campaign(camp.folder)
        stage = ruleset.stage(turns.context(camp, now))
        if stage.over or (first_turn >= 0 and stage.turn > first_turn):
            break
        now += timedelta(minutes=10)
        if stuck or stage.waiting_for_gm:
            assert steps, f"{name}: {stage.title} cannot move on by defaults and the demo has no mails left"
            feed(steps.pop(0), tmp_path / "inbox")       # what the players and the GM send to start
            log = tick(tmp_path / "campaigns", now)
            assert not any("NOT PROCESSED" in line for line in log.lines), log.lines
            stuck = False
            continue
        nobody_sent = not camp.state.get("submissions")
        camp.state["stage"]["force"] = True
        camp.save()
        log = tick(tmp_path / "campaigns", now)
        assert not any("NOT PROCESSED" in line for line in log.lines), log.lines
        after = ruleset.stage(turns.context(Campaign(camp.folder), now))
        if (after.kind, after.turn) == (stage.kind, stage.turn) and not after.over:
            stuck = True                                 # defaults cannot move this stage on
        elif nobody_sent and stage.turn >= 1 and first_turn < 0:
            first_turn = stage.turn                      # the first stage of orders, resolved by defaults
    assert first_turn >= 1, f"{name}: no stage of orders was resolved by defaults"
    camp = Campaign(camp.folder)
    assert camp.state["stage"]["turn"] > first_turn or ruleset.stage(turns.context(camp, now)).over, \
        f"{name}: turn {first_turn} did not finish"
    reports = sorted(camp.history(first_turn).glob("*.md"))
    assert reports and all(p.read_text().strip() for p in reports), f"{name}: turn {first_turn} has no reports"
    everyone = {p.email for p in camp.settings.players} | {camp.settings.gm.email}
    public = sent_to_everyone(tmp_path / "outbox" / "new", everyone)
    assert any(p.read_text().strip() in public for p in reports), \
        f"{name}: no report of turn {first_turn} went to every player and the GM"
    assert (camp.history(first_turn) / "dice.toml").exists()


def test_the_backbone_has_no_branch_for_any_rule_system() -> None:
    """Engine, intake, turns, store, mail and forum code never test which rule system runs (issue 6);
    only the command line's defaults and the demo table name one."""
    import ast

    from pbem.rulesets import registry

    names = {alias for name in registry.available() for alias in (name, *registry.get(name).aliases)}
    package = Path(__file__).resolve().parents[2] / "pbem"
    backbone = [*package.glob("*.py"), *(package / "mail").glob("*.py"), *(package / "forum").glob("*.py")]
    for path in backbone:
        tree = ast.parse(path.read_text())
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
                      and isinstance(node.body[0], ast.Expr)}
        literals = {n.value for n in ast.walk(tree)
                    if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings}
        assert not literals & names, f"{path.name} names a rule system: {literals & names}"


def test_rule_systems_import_only_the_kit_and_the_rule_system_base() -> None:
    """A rule system is built from `pbem.kit` and `pbem.rulesets` (base, phases) alone (issue 14), so
    the backbone can change behind them."""
    import ast

    package = Path(__file__).resolve().parents[2] / "pbem" / "rulesets"
    found = []
    for path in sorted(package.glob("*/*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            found += [f"{path.parent.name}/{path.name}: {n}" for n in names
                      if n.startswith("pbem") and not n.startswith(("pbem.kit", "pbem.rulesets"))]
    assert not found, found
