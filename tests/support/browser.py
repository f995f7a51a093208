"""Debian's headless Chromium for tests: pages loaded from file://, what they show read back.

Chromium runs as a fresh process per call with its own empty profile and without the
background networking that this machine's closed network refuses. A page is loaded inside an
iframe of a small checker page (file access between files allowed for it), whose script writes
what the test asks for into the DOM that `--dump-dom` prints; Chromium's own log (stderr) gives
the page's console messages and failed loads.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
CHECKER = """<!DOCTYPE html><html><body><div id="out">pending</div>
<iframe id="page" src="{url}" style="width:{width}px;height:900px;border:0"></iframe>
<script>
window.addEventListener('load', () => {{
  const doc = document.getElementById('page').contentDocument;
  const found = {{
    images: [...doc.images].map(i => [i.getAttribute('src'), i.naturalWidth]),
    links: [...doc.querySelectorAll('a[href]')].map(a => a.getAttribute('href')),
    scrollWidth: doc.documentElement.scrollWidth, innerWidth: doc.defaultView.innerWidth,
  }};
  document.getElementById('out').textContent = 'RESULT ' + JSON.stringify(found) + ' END';
}});
</script></body></html>"""


@dataclass(frozen=True)
class Shown:
    images: list[tuple[str, int]]
    links: list[str]
    scroll_width: int
    inner_width: int
    console: list[str]


def _chromium(args: list[str], profile: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True,
                          text=True, timeout=120, check=False)


def show(page: Path, width: int = 800) -> Shown:
    """What `page` shows at `width` pixels: its images with their natural widths, its links, its
    scroll width, and the console lines and failed loads Chromium logged."""
    with tempfile.TemporaryDirectory(prefix="pbem-chromium-") as tmp:
        checker = Path(tmp) / "checker.html"
        checker.write_text(CHECKER.format(url=page.resolve().as_uri(), width=width), encoding="utf-8")
        done = _chromium(["--allow-file-access-from-files", "--virtual-time-budget=10000", "--enable-logging=stderr",
                          "--v=0", f"--window-size={width + 40},1000", "--dump-dom", checker.as_uri()], Path(tmp) / "p")
    found = re.search(r"RESULT (.*) END", done.stdout)
    assert found, f"Chromium showed nothing of {page}: {done.stderr[-500:]}"
    data = json.loads(found.group(1))
    console = [line for line in done.stderr.splitlines() if "CONSOLE" in line or "Failed to load" in line]
    return Shown([(str(s), int(w)) for s, w in data["images"]], [str(h) for h in data["links"]],
                 int(data["scrollWidth"]), int(data["innerWidth"]), console)


def screenshot(page: Path, to: Path, width: int = 1000, height: int = 1400) -> Path:
    """A PNG of `page` as Chromium draws it at that window size."""
    to.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pbem-chromium-") as tmp:
        _chromium([f"--screenshot={to}", f"--window-size={width},{height}", "--hide-scrollbars",
                   page.resolve().as_uri()], Path(tmp) / "p")
    assert to.exists() and to.stat().st_size > 0, f"no screenshot of {page}"
    return to
