"""A campaign problem that comes back after a clean tick is news again: the GM is mailed again
(its key names the telling, so the transport does not refuse it as already sent)."""

from __future__ import annotations

from pathlib import Path

from pbem.state.campaign import Campaign
from pbem.tick.engine import tick
from tests.support.isolation_helpers import GM_ADDRESS, campaign, hour, sent_to


def test_a_problem_that_comes_back_after_a_repair_is_told_again(tmp_path: Path) -> None:
    rift = campaign(tmp_path / "campaigns", "rift")
    state = rift.folder / "state.toml"
    good = state.read_text()
    broken = good.replace(f'deadline = "{Campaign(rift.folder).state["stage"]["deadline"]}"', 'deadline = "soon"')
    assert broken != good
    for n, text in enumerate((broken, broken, good, broken), start=1):
        state.write_text(text)
        tick(rift.folder.parent, hour(n))
    alerts = sent_to(rift, GM_ADDRESS, "was not processed")
    assert len(alerts) == 2 and all("soon" in alert for alert in alerts)
