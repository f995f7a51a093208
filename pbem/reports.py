"""Rendering reports and replies from Jinja templates.

Loader order: the campaign's own `templates/`, then `templates/<system>/`, then
`templates/common/`, so a game master replaces one block or one file without
copying the rest. Templates are Markdown (`*.md.j2`); the sandbox keeps a
template from reaching into Python, StrictUndefined makes a missing value fail
loudly, and the `md` filter escapes player-supplied text so a name like
`*Bob*` or `<script>` stays literal in both the text and the HTML part. pbem's own
sentences that carry player text (GM alerts, notes, reasons) go through `md_prose`,
which keeps their `code spans` and escapes the rest; a line shown as code through
`md_code`, which no backtick in it can end.
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


_CODE_SPAN = re.compile(r"(?<![`\\])(`+)(?!`)([^\n]*?[^`\n])\1(?!`)")


def md_escape_prose(value: Any) -> str:
    """pbem's own sentences that carry player text (GM alerts, notes, reasons): escaped like
    `md`, except that their `code spans` are kept, so command hints stay readable. Nothing
    inside a code span is live Markdown, and everything outside is escaped, so the player's
    part can never become a link, an image or markup, wherever it stands."""
    text, position = str(value), 0
    parts: list[str] = []
    for match in _CODE_SPAN.finditer(text):
        parts += [md_escape(text[position:match.start()]), match.group()]
        position = match.end()
    return "".join(parts) + md_escape(text[position:])


def md_code(value: Any) -> str:
    """Text shown as one code span (e.g. an accepted order line), fenced with more backticks
    than any run in it, so that no backtick of the text can end the span early."""
    text = " ".join(str(value).splitlines())
    if not text:
        return ""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


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
    env.filters["md_prose"] = md_escape_prose
    env.filters["md_code"] = md_code
    env.globals.update(max_line_chars=MAX_LINE_CHARS, max_order_lines=MAX_ORDER_LINES)   # HELP states them
    return env


def render(system: str, template: str, context: Mapping[str, Any], campaign_folder: Path | None = None) -> str:
    overrides = campaign_folder / "templates" if campaign_folder else None
    env = environment(system, str(overrides) if overrides and overrides.exists() else "")
    text = env.get_template(f"{template}.md.j2").render(**context)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"
