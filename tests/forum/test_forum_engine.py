"""The forum through the engine (folder forum): reports posted once, posts read as submissions
under the forum's identity, secrets and orders kept out of the public thread."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.forum.folder import split_header
from pbem.state.campaign import Campaign
from pbem.state.store import read_toml, write_toml
from pbem.tick.engine import tick
from pbem.tick.faults import Faults
from tests.support.engine_helpers import SECRETS, T0, body, dr_campaign, outbox, put, run

RED = f"PLAYER red {SECRETS['red']}\n"
BLUE = f"PLAYER blue {SECRETS['blue']}\n"
BOB = "Bob <bob@test.localhost>"


def campaign(root: Path, tokens: dict[str, str], forum: dict | None = None) -> Campaign:  # type: ignore[type-arg]
    """Red and Blue with a folder forum; forum accounts alice, Bob and dave_gm (the GM)."""
    forum_transport = {"forum": {"kind": "folder", "path": "../../forum/rift", "bot": "pbem"} | (forum or {})}
    camp = dr_campaign(root, tokens, transport=forum_transport)
    settings = read_toml(camp.folder / "campaign.toml")
    settings["players"][0]["forum"], settings["players"][1]["forum"] = "alice", "Bob"
    settings["gm"]["forum"] = "dave_gm"
    write_toml(camp.folder / "campaign.toml", settings)
    return Campaign(camp.folder)


@pytest.fixture
def camp(tmp_path: Path) -> Campaign:
    return campaign(tmp_path, {"R-1": "T24", "B-1": "T27"})


@pytest.fixture
def battle(tmp_path: Path) -> Campaign:
    """R-1 and B-1 both move into T25: one tabletop battle, the battles window is open."""
    camp = campaign(tmp_path, {"R-1": "T24", "B-1": "T9"})
    put(camp, "o1", RED + "R-1 M T25\n")
    put(camp, "o2", BLUE + "B-1 M T25\n", sender=BOB)
    camp = run(camp)
    assert camp.state["stage"]["kind"] == "battles"
    return camp


def thread(camp: Campaign) -> Path:
    return camp.folder.parent.parent / "forum" / "rift"


def post(camp: Campaign, name: str, author: str, text: str, private: bool = False) -> None:
    folder = thread(camp) / "private" if private else thread(camp)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.md").write_text(f'+++\nauthor = "{author}"\n+++\n{text}\n')


def bot_posts(camp: Campaign, private: bool = False) -> list[tuple[dict, str]]:  # type: ignore[type-arg]
    folder = thread(camp) / "private" if private else thread(camp)
    return [split_header(p.read_text()) for p in sorted(folder.glob("*-pbem.md"))]


def orders_in(camp: Campaign) -> Campaign:
    put(camp, "m1", RED + "R-1 M T25\n")
    put(camp, "m2", BLUE + "B-1 H\n", sender=BOB)
    return run(camp)


# -- public reports -------------------------------------------------------------------


def test_public_turn_reports_are_posted_to_the_thread_once(camp: Campaign) -> None:
    gen = camp.state["stage"]["generation"]                     # of the orders stage that resolves
    camp = orders_in(camp)
    assert camp.state["stage"]["turn"] == 2
    posted = bot_posts(camp)
    keys = [h["key"] for h, _ in posted]
    assert keys == [f"turn-1/g{gen}/orders/movement", f"turn-1/g{gen}/orders/turn"]      # no battle report
    movement = next(text for h, text in posted if h["key"] == f"turn-1/g{gen}/orders/movement")
    picture, report = movement.split("\n\n", 1)           # the map picture (a file beside the post) on top
    assert picture.startswith("![Map: ") and picture.endswith(".png)")
    assert report.strip() == (camp.history(1) / "orders-movement.md").read_text().strip()
    assert all("private" not in h["key"] for h, _ in posted)      # private reports stay in mail
    camp = run(camp, T0 + timedelta(hours=2))
    assert [h["key"] for h, _ in bot_posts(camp)] == keys


def test_crash_between_publishing_and_journalling_does_not_post_twice(camp: Campaign) -> None:
    crashed: list[str] = []

    def crash_once(point: str) -> None:
        if point == "published" and not crashed:
            crashed.append(point)
            raise RuntimeError("power cut")

    put(camp, "m1", RED + "R-1 M T25\n")
    put(camp, "m2", BLUE + "B-1 H\n", sender=BOB)
    with pytest.raises(RuntimeError, match="power cut"):
        tick(camp.folder.parent, T0 + timedelta(hours=1), Faults(crash_once))
    assert len(bot_posts(camp)) == 1 and list((camp.folder / "posts" / "queue").glob("*.toml"))
    camp = run(camp, T0 + timedelta(hours=2))
    keys = [h["key"] for h, _ in bot_posts(camp)]
    assert len(keys) == len(set(keys)) > 1
    assert not list((camp.folder / "posts" / "queue").glob("*.toml"))


# -- posts as submissions -------------------------------------------------------------


def test_result_posts_in_the_thread_are_acted_on_and_answered_by_mail(battle: Campaign) -> None:
    post(battle, "a", "alice", "RESULT 1 Red")
    post(battle, "b", "bob", "@pbem RESULT 1 Red")            # account names match case-insensitively
    camp = run(battle, T0 + timedelta(hours=2))
    assert camp.state["stage"]["kind"] != "battles" or camp.state["stage"]["turn"] == 2
    assert camp.state["game"]["dr"]["tokens"]["R-1"]["territory"] == "T25"
    [ack] = [m for m in outbox(camp, "alice") if str(m["In-Reply-To"]).startswith("<forum-post-folder-")]
    assert "RESULT 1" in body(ack)
    assert not [h for h, _ in bot_posts(camp) if h["key"].startswith("reply/")]   # nothing echoed publicly


def test_a_secret_in_a_public_post_is_refused_and_the_player_told_by_mail(battle: Campaign) -> None:
    post(battle, "a", "alice", f"PLAYER red {SECRETS['red']}\nRESULT 1 Red")
    camp = run(battle, T0 + timedelta(hours=2))
    assert "red" not in camp.state.get("submissions", {})
    [refusal] = [m for m in outbox(camp, "alice") if str(m["In-Reply-To"]).startswith("<forum-post-")]
    assert "PASSWORD" in body(refusal) and "not acted on" in body(refusal)
    assert SECRETS["red"] not in body(refusal)
    [alert] = [m for m in outbox(camp, "gm@") if "attention" in str(m["Subject"])]
    assert "current secret" in body(alert)


def test_a_generated_secret_anywhere_in_a_public_post_is_refused(battle: Campaign) -> None:
    post(battle, "a", "alice", f"RESULT 1 Red\nmy secret is {SECRETS['red'].lower()} by the way")
    camp = run(battle, T0 + timedelta(hours=2))
    assert "red" not in camp.state.get("submissions", {})
    notes = [note for key, note in camp.state["journal"].items() if key.startswith("post:<forum-post-folder-")]
    assert notes == ["refused: secret in a public post"]


def test_orders_in_a_public_post_are_refused_and_belong_in_a_private_message(camp: Campaign) -> None:
    post(camp, "a", "alice", "@pbem\nR-1 M T25")
    camp = run(camp)
    assert "red" not in camp.state.get("submissions", {})
    [refusal] = outbox(camp, "alice")
    assert "private message to @pbem" in body(refusal) and "R-1" in body(refusal)


def test_public_orders_are_accepted_when_the_campaign_plays_in_the_open(tmp_path: Path) -> None:
    camp = campaign(tmp_path, {"R-1": "T24", "B-1": "T27"}, forum={"public_orders": True})
    post(camp, "a", "alice", "@pbem\nR-1 M T25")
    camp = run(camp)
    assert camp.state["submissions"]["red"]["payload"]["orders"]["orders"]["R-1"]["path"] == ["T25"]


def test_private_message_orders_are_accepted_and_answered_privately(camp: Campaign) -> None:
    post(camp, "a", "alice", "R-1 M T25", private=True)
    camp = run(camp)
    assert camp.state["submissions"]["red"]["payload"]["orders"]["orders"]["R-1"]["path"] == ["T25"]
    [(header, answer)] = bot_posts(camp, private=True)
    assert header["to"] == "alice" and "`R-1 M T25`" in answer
    assert camp.state["submissions"]["red"]["receipt"] in answer
    assert not outbox(camp, "alice") and not bot_posts(camp)       # neither mailed nor public


def test_posts_by_unknown_accounts_are_ignored_with_a_note_to_the_gm(battle: Campaign) -> None:
    post(battle, "a", "mallory", "RESULT 1 Blue")
    camp = run(battle, T0 + timedelta(hours=2))
    assert not camp.state.get("submissions")
    [alert] = [m for m in outbox(camp, "gm@") if "attention" in str(m["Subject"])]
    assert "'mallory'" in body(alert) and 'forum = "mallory"' in body(alert)
    assert not outbox(camp, "mallory")


def test_the_bots_own_posts_table_talk_and_the_gms_posts_are_not_read(battle: Campaign) -> None:
    post(battle, "a", "pbem", "RESULT 1 Blue")
    post(battle, "b", "alice", "Good luck, Bob. My knights are ready.")
    post(battle, "c", "dave_gm", "STATUS")
    camp = run(battle, T0 + timedelta(hours=2))
    assert not camp.state.get("submissions")
    journal = camp.state["journal"]
    assert not any("forum" in key for key, note in journal.items() if note != "ignored: the game master's "
                   "forum account (GM commands come by mail)")
    assert not [m for m in outbox(camp) if str(m["In-Reply-To"]).startswith("<forum-post-")]
    assert camp.state["forum"]["cursor"]["thread"] >= 3


def test_the_cursor_is_kept_and_no_post_is_processed_twice(camp: Campaign) -> None:
    post(camp, "a", "alice", "STATUS")
    camp = run(camp)
    assert len(outbox(camp, "alice")) == 1
    cursor = camp.state["forum"]["cursor"]["thread"]
    camp = run(camp, T0 + timedelta(hours=2))
    assert len(outbox(camp, "alice")) == 1 and camp.state["forum"]["cursor"]["thread"] == cursor
    del camp.state["forum"]                       # a lost cursor: the journal still knows the post
    camp.save()
    camp = run(camp, T0 + timedelta(hours=3))
    assert len(outbox(camp, "alice")) == 1
    assert camp.state["journal"]["post:<forum-post-folder-1@rift>"] == "processed"


def test_crash_after_answering_a_private_message_answers_it_once(camp: Campaign) -> None:
    post(camp, "a", "alice", "R-1 M T25", private=True)

    def crash(point: str) -> None:
        if point == "forum-stored":
            raise RuntimeError("power cut")

    with pytest.raises(RuntimeError):
        tick(camp.folder.parent, T0 + timedelta(hours=1), Faults(crash))
    camp = run(camp)
    assert len(bot_posts(camp, private=True)) == 1


def test_help_by_forum_explains_identity_and_where_orders_go(camp: Campaign) -> None:
    post(camp, "a", "alice", "HELP")
    [ack] = outbox(run(camp), "alice")
    text = body(ack)
    assert "## The campaign forum" in text and "**alice**" in text
    assert "RESULT, HELP, STATUS" in text and "private message to @pbem" in text


def test_a_post_whose_handling_fails_is_retried_then_set_aside_and_the_thread_reads_on(
        camp: Campaign, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.intake.quarantine import QUARANTINE_AFTER, Quarantine
    from pbem.rulesets import registry

    monkeypatch.setitem(registry.RULESETS.extra, "crashy", "tests.support.crashy_ruleset:RULESET")
    toml = camp.folder / "campaign.toml"
    toml.write_text(toml.read_text().replace('ruleset = "daemon_rift"', 'ruleset = "crashy"'))
    post(camp, "a", "alice", "CRASH", private=True)
    for n in range(1, QUARANTINE_AFTER + 1):
        if n == 2:
            post(camp, "b", "Bob", "B-1 M T26", private=True)        # behind the failing post
        log = tick(camp.folder.parent, T0 + timedelta(hours=n)).lines
        assert not any("NOT PROCESSED" in line for line in log), log
        assert any(f"failed ({n} of {QUARANTINE_AFTER})" in line for line in log), log
    camp = Campaign(camp.folder)
    assert camp.state["journal"]["post:<forum-post-folder-1@rift>"] == "quarantined"
    assert camp.state["submissions"]["blue"]["payload"]["orders"]["orders"]["B-1"]["path"] == ["T26"]
    [held] = Quarantine(camp.folder).entries()
    assert "crashy ruleset fell over" in held.reason
    alerts = [body(m) for m in outbox(camp, "gm@") if "attention" in str(m["Subject"])]
    assert len([a for a in alerts if held.id in a]) == 1
    assert main(["quarantine", "release", "rift", held.id, "--root", str(camp.folder.parent)]) == 1
    assert main(["quarantine", "drop", "rift", held.id, "--root", str(camp.folder.parent)]) == 0
