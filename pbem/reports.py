"""Rendering reports and replies from Jinja templates.

Loader order: the campaign's own `templates/`, then `templates/<system>/`, then
`templates/common/`, so a game master replaces one block or one file without
copying the rest. Templates are Markdown (`*.md.j2`); the sandbox keeps a
template from reaching into Python, StrictUndefined makes a missing value fail
loudly, and the `md` filter escapes player-supplied text so a name like
`*Bob*` or `<script>` stays literal in both the text and the HTML part.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, FileSystemLoader, StrictUndefined
from jinja2.sandbox import SandboxedEnvironment

from pbem.orders import MAX_LINE_CHARS, MAX_ORDER_LINES

TEMPLATES_DIR = Path(__file__).resolve().parent.parent / "templates"
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])|(?<=\n)(?=[>#+-])")


def md_escape(value: Any) -> str:
    """Player text made inert in Markdown, readable as plain text: Markdown's own characters
    get a backslash, and so does a line of it that would open a quote, heading or list;
    "<" and "&" stay as typed, since the HTML part shows raw HTML as text (pbem.mail.compose).
    Values are set into a line of the template, so their first character is left alone."""
    return _MD_SPECIAL.sub(r"\\\1", str(value))


@lru_cache(maxsize=32)
def environment(system: str, campaign_templates: str = "") -> SandboxedEnvironment:
    paths = [Path(campaign_templates)] if campaign_templates else []
    paths += [TEMPLATES_DIR / system, TEMPLATES_DIR / "common"]
    env = SandboxedEnvironment(
        loader=ChoiceLoader([FileSystemLoader(str(p)) for p in paths if p.exists()]),
        undefined=StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["md"] = md_escape
    env.globals.update(max_line_chars=MAX_LINE_CHARS, max_order_lines=MAX_ORDER_LINES)   # HELP states them
    return env


def render(system: str, template: str, context: Mapping[str, Any], campaign_folder: Path | None = None) -> str:
    overrides = campaign_folder / "templates" if campaign_folder else None
    env = environment(system, str(overrides) if overrides and overrides.exists() else "")
    text = env.get_template(f"{template}.md.j2").render(**context)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"
