"""A campaign's template overrides are checked when loaded; a broken one falls back to the
built-in template for that render and the problem is handed out once per kind, naming the
file, for the game master (pbem.kit.texts.template_problems)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from pbem.delivery.template_alerts import alert_template_problems
from pbem.kit.texts import check_overrides, render, template_problems
from pbem.rulesets import registry
from tests.support.engine_helpers import T0, body, dr_campaign, outbox, run

CONTEXT = {"campaign": {"title": "Rift", "name": "rift"}, "reason": "a test", "now": T0, "schedule": None}
BUILT_IN = "Your message was not accepted"


def overrides(tmp_path: Path, text: str | bytes, name: str = "refused.md.j2") -> Path:
    folder = tmp_path / "rift"
    (folder / "templates").mkdir(parents=True)
    path = folder / "templates" / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return folder


@pytest.mark.parametrize("text, problem", [
    ("Sorry: {{ reason }\n", "templates/refused.md.j2 line 1: syntax: "),
    ("{% for x in %}\n", "templates/refused.md.j2 line 1: syntax: "),
    ("Sorry {{ nosuch }}\n", "templates/refused.md.j2 line 1: 'nosuch' is undefined"),
    ("Line\n{{ campaign.__class__.__mro__ }}\n", "templates/refused.md.j2 line 2: "),
    ("{{ ''.__class__.__subclasses__() }}\n", "templates/refused.md.j2 line 1: "),
    (b"Caf\xe9 {{ reason }}\n", "templates/refused.md.j2: not UTF-8 text (at byte 3); save it as UTF-8"),
])
def test_a_broken_override_falls_back_to_the_built_in_template_and_names_its_file(
        tmp_path: Path, text: str | bytes, problem: str) -> None:
    folder = overrides(tmp_path, text)
    assert BUILT_IN in render("common", "refused", CONTEXT, folder)
    found = template_problems("common", folder)
    assert len(found) == 1 and found[0].startswith(problem), found
    assert found[0].endswith("pbem uses its built-in template instead until the file is fixed or removed")
    assert "\n" not in found[0]


def test_a_working_override_is_used_and_reports_no_problem(tmp_path: Path) -> None:
    folder = overrides(tmp_path, "Refused, because {{ reason }}.\n")
    assert render("common", "refused", CONTEXT, folder) == "Refused, because a test.\n"
    assert template_problems("common", folder) == []


def test_problems_met_while_rendering_are_handed_out_once_and_file_problems_while_they_last(tmp_path: Path) -> None:
    folder = overrides(tmp_path, "Sorry {{ nosuch }}\n")
    (folder / "templates" / "gm_ack.md.j2").write_text("{% if %}\n")
    for _ in range(3):
        render("common", "refused", CONTEXT, folder)
    first = template_problems("common", folder)
    assert [p.split(":")[0] for p in first] == ["templates/gm_ack.md.j2 line 1", "templates/refused.md.j2 line 1"]
    assert [p.split(":")[0] for p in template_problems("common", folder)] == ["templates/gm_ack.md.j2 line 1"]
    (folder / "templates" / "gm_ack.md.j2").unlink()
    assert template_problems("common", folder) == []


def test_check_overrides_reads_every_file_without_rendering(tmp_path: Path) -> None:
    folder = overrides(tmp_path, "{{ fine }}\n")
    (folder / "templates" / "_part.md.j2").write_bytes(b"\xff\xfe")
    (folder / "templates" / "ack.md.j2").write_text("{{ x | nosuchfilter }}\n")
    assert [p.split(":")[0] for p in check_overrides("common", folder)] == [
        "templates/_part.md.j2", "templates/ack.md.j2 line 1"]


def test_a_failure_of_the_built_in_template_is_not_blamed_on_the_override(tmp_path: Path) -> None:
    folder = overrides(tmp_path, "Sorry {{ nosuch }}\n")
    with pytest.raises(Exception, match="reason"):
        render("common", "refused", {"campaign": CONTEXT["campaign"]}, folder)
    assert template_problems("common", folder) == []


def test_the_game_master_is_told_once_per_distinct_problem(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    templates = camp.folder / "templates"
    templates.mkdir()
    (templates / "ack.md.j2").write_text("{% if %}\n")
    ruleset = registry.get("daemon_rift")
    for hour in (1, 2):
        assert alert_template_problems(camp, ruleset, T0 + timedelta(hours=hour))
        run(camp, T0 + timedelta(hours=hour))
    (templates / "ack.md.j2").write_text("Hello\n\n{% if %}\n")
    alert_template_problems(camp, ruleset, T0 + timedelta(hours=3))
    run(camp, T0 + timedelta(hours=3))
    alerts = [body(m) for m in outbox(camp, "gm@test.localhost")]
    assert len(alerts) == 2
    assert sorted("line 1: syntax: Expected an expression" in text for text in alerts) == [False, True]
    assert sorted("rift/templates/ack.md.j2 line 3: syntax: " in text for text in alerts) == [False, True]
    assert all("pbem uses its built-in template instead until the file is fixed or removed" in text for text in alerts)
