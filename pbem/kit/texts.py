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
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, FileSystemLoader, StrictUndefined, TemplateSyntaxError
from jinja2.exceptions import SecurityError
from jinja2.sandbox import SandboxedEnvironment

from pbem.kit.orders import MAX_LINE_CHARS, MAX_ORDER_LINES

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])|(?<=\n)(?=[>#+-])")


def counted(number: int, word: str) -> str:
    """`1 unit`, `2 units`: a count with its noun, plural by an s."""
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def md_escape(value: Any) -> str:
    """Player text made inert in Markdown, readable as plain text: Markdown's own characters
    get a backslash, and so does a line of it that would open a quote, heading or list;
    "<" and "&" stay as typed, since the HTML part shows raw HTML as text (pbem.mail.compose).
    Values are set into a line of the template, so their first character is left alone."""
    return _MD_SPECIAL.sub(r"\\\1", str(value))


_CODE_SPAN = re.compile(r"(?<![`\\])(`+)(?!`)([^\n]*?[^`\n])\1(?!`)")


def named(value: Any, names: Mapping[str, str]) -> str:
    """`value` with each player id of `names` shown as his name (see `named_lines`)."""
    return named_lines(names, [str(value)])[0]


def named_lines(names: Mapping[str, str], lines: Sequence[str]) -> list[str]:
    """The lines as players read them: each player id, standing as a word, shown as his name.

    A rule system's log and its dice purposes speak of players by id; the purposes seed every
    roll, so they never change, and the names are put in only where a report is written. An id
    joined by a hyphen is part of another word, and a name quoted “so” (a squad's) is left as
    its player wrote it."""
    ids = sorted((i for i in names if names[i] != i), key=len, reverse=True)
    if not ids:
        return [str(line) for line in lines]
    word = re.compile(r"(“[^”]*”)|(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")
    return [word.sub(lambda m: m.group(1) or names[m.group(2)], str(line)) for line in lines]


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


_ESCAPED = re.compile(r"\\([\\`*_\[\]|~>#+\-])")
_FENCE = re.compile(r"^\s*(```|~~~)")


def md_plain(markdown: str) -> str:
    """The Markdown source of a mail as its plain-text part: the backslashes `md` set before
    Markdown's own characters dropped (a reader sees `[WS, I]`, not `\\[WS, I\\]`); code spans
    and fenced blocks, which hold no escapes, are kept as they are."""
    out, fenced = [], False
    for line in markdown.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        out.append(line if fenced or _FENCE.match(line) else _unescape_line(line))
    return "\n".join(out)


def _unescape_line(line: str) -> str:
    parts, position = [], 0
    for match in _CODE_SPAN.finditer(line):
        parts += [_ESCAPED.sub(r"\1", line[position:match.start()]), match.group()]
        position = match.end()
    return "".join([*parts, _ESCAPED.sub(r"\1", line[position:])])


@lru_cache(maxsize=32)
def environment(system: str, campaign_templates: str = "") -> SandboxedEnvironment:
    """The environment for a rule system's templates, with a campaign's overrides first. `system` names
    a folder of `templates/`, or is the absolute path of a rule system's own folder (an installed plug-in)."""
    paths = [Path(campaign_templates)] if campaign_templates else []
    own = Path(system) if Path(system).is_absolute() else TEMPLATES_DIR / system   # a plug-in ships its own folder
    paths += [own, TEMPLATES_DIR / "common"]
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
    env.filters["named"] = named
    env.globals.update(max_line_chars=MAX_LINE_CHARS, max_order_lines=MAX_ORDER_LINES)   # HELP states them
    return env


def render(system: str, template: str, context: Mapping[str, Any], campaign_folder: Path | None = None) -> str:
    """The template rendered, with the campaign's overrides when it has any. A broken override
    (bad syntax, an undefined value, a sandbox refusal, a file not in UTF-8) does not stop the
    mail: the built-in template is used for this render and the problem is kept for
    `template_problems`. A failure of the built-in templates themselves is raised."""
    overrides = campaign_folder / "templates" if campaign_folder else None
    if overrides is None or not overrides.is_dir():
        return _render(environment(system), template, context)
    try:
        return _render(environment(system, str(overrides)), template, context)
    except Exception as exc:  # noqa: BLE001  # the GM's template, not pbem's code: whatever it raises, fall back
        text = _render(environment(system), template, context)
        if not isinstance(exc, (TemplateSyntaxError, UnicodeDecodeError)):    # check_overrides names those
            met = _met.setdefault(str(overrides), [])
            problem = f"{_blame(exc, overrides)}: {_reason(exc)}{FALLBACK}"
            met += [problem] if problem not in met else []
        return text


def _render(env: SandboxedEnvironment, template: str, context: Mapping[str, Any]) -> str:
    text = env.get_template(f"{template}.md.j2").render(**context)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


FALLBACK = "; pbem uses its built-in template instead until the file is fixed or removed"
_met: dict[str, list[str]] = {}
"""Campaign templates folder -> problems met while rendering, not yet handed out."""


def template_problems(system: str, campaign_folder: Path) -> list[str]:
    """Every problem of a campaign's template overrides, each once, as one line naming the file:
    those `check_overrides` finds in the files, then those met while rendering since the last
    call (which hands them out). The engine tells the game master about each."""
    found = check_overrides(system, campaign_folder) + _met.pop(str(campaign_folder / "templates"), [])
    return list(dict.fromkeys(found))


def check_overrides(system: str, campaign_folder: Path) -> list[str]:
    """Each override in `<campaign>/templates/` read as UTF-8 and compiled: the problems found,
    one line each. Undefined values and sandbox refusals show only when rendering."""
    overrides = campaign_folder / "templates"
    if not overrides.is_dir():
        return []
    env = environment(system, str(overrides))
    problems = []
    for path in sorted(overrides.rglob("*.j2")):
        name = f"templates/{path.relative_to(overrides).as_posix()}"
        try:
            env.compile(path.read_bytes().decode("utf-8"), name, str(path))
        except TemplateSyntaxError as exc:
            problems.append(f"{name} line {exc.lineno}: {_reason(exc)}{FALLBACK}")
        except (UnicodeDecodeError, OSError) as exc:
            problems.append(f"{name}: {_reason(exc)}{FALLBACK}")
    return problems


def _blame(exc: BaseException, overrides: Path) -> str:
    """The override file (and line) the error came from, as far as the traceback tells."""
    where = "templates/"
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.startswith(str(overrides)):
            where = f"templates/{Path(filename).relative_to(overrides).as_posix()} line {tb.tb_lineno}"
        tb = tb.tb_next
    return where


def _reason(exc: BaseException) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text (at byte {exc.start}); save it as UTF-8"
    if isinstance(exc, OSError):
        return f"cannot be read ({exc.strerror or exc})"
    if isinstance(exc, TemplateSyntaxError):
        return f"syntax: {exc.message}".replace("\n", " ")
    if isinstance(exc, SecurityError):
        return f"refused by the sandbox: {exc}".replace("\n", " ")
    return (str(exc) or type(exc).__name__).replace("\n", " ")


def aligned_columns(rows: list[list[str]], rule_under_first: bool = False) -> list[str]:
    """A table's rows as lines of text with their columns aligned, for places that draw no tables
    (a board's [code] block, a Discord message); `rule_under_first` underlines the header row."""
    widths = [max(len(row[i]) if i < len(row) else 0 for row in rows) for i in range(max(map(len, rows), default=0))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)).rstrip() for row in rows]
    if rule_under_first and len(lines) > 1:
        lines.insert(1, "  ".join("-" * width for width in widths))
    return lines

