"""Where campaigns and their shared settings lie under a tick's root, found without reading them."""

from __future__ import annotations

from pathlib import Path

SITE_FILE = "pbem.toml"
"""Settings shared by every campaign of a folder (pbem/state/site.py)."""



def discover(root: Path) -> list[Path]:
    """Campaign folders under `root` (or `root` itself if it is one), sorted by name."""
    if (root / "campaign.toml").exists():
        return [root]
    return sorted(p.parent for p in root.glob("*/campaign.toml"))


def site_root(root: Path) -> Path:
    """The folder whose pbem.toml applies to a tick's root: root itself, or the parent of a
    campaign folder."""
    return root.parent if (root / "campaign.toml").exists() else root
