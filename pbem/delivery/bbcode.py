"""A Markdown report as BBCode, for a game master who pastes it into a phpBB (or similar) board.

The report goes through the same Markdown reader as mail (`markdown_to_html`: tables, fenced
code, raw HTML shown as text, unsafe links dropped), and the HTML it gives is written out tag by
tag: headings bold and larger, emphasis, lists as `[list]`, links as `[url]`, quotes, code.
Tables become `[table]` for boards that have it (phpBB needs an extension for it), else an
aligned `[code]` block every board shows. The map picture, which mail carries as an attachment,
becomes an `[img]` when the archive that holds it is published at a web address.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

from pbem.kit.texts import aligned_columns
from pbem.mail.compose import markdown_to_html

SIMPLE = {"strong": "b", "b": "b", "em": "i", "i": "i", "blockquote": "quote", "pre": "code"}
HEADING_SIZES = {"h1": 200, "h2": 150, "h3": 120, "h4": 100, "h5": 100, "h6": 100}


@dataclass
class _Table:
    rows: list[list[str]] = field(default_factory=list)


class _Writer(HTMLParser):
    """Collects BBCode from the HTML of one report."""

    def __init__(self, tables: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.tables = tables
        self.out: list[str] = []
        self.lists: list[str] = []
        self.table: _Table | None = None
        self.cell: list[str] | None = None
        self.in_pre = False

    def write(self, text: str) -> None:
        (self.cell if self.cell is not None else self.out).append(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SIMPLE and not (tag == "pre" and self.in_pre):
            self.in_pre = self.in_pre or tag == "pre"
            self.write(f"[{SIMPLE[tag]}]")
        elif tag in HEADING_SIZES:
            self.write(f"[size={HEADING_SIZES[tag]}][b]")
        elif tag in ("ul", "ol"):
            self.lists.append(tag)
            self.write("[list=1]\n" if tag == "ol" else "[list]\n")
        elif tag == "li":
            self.write("[*]")
        elif tag == "a":
            self.write(f"[url={dict(attrs).get('href') or ''}]")
        elif tag == "code" and not self.in_pre:
            self.write("[font=monospace]")
        elif tag == "table":
            self.table = _Table()
        elif tag == "tr" and self.table is not None:
            self.table.rows.append([])
        elif tag in ("td", "th"):
            self.cell = []
        elif tag == "hr":
            self.write("\n" + "-" * 40 + "\n")
        elif tag == "br":
            self.write("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in SIMPLE:
            self.in_pre = self.in_pre and tag != "pre"
            self.write(f"[/{SIMPLE[tag]}]" + ("\n" if tag in ("pre", "blockquote") else ""))
        elif tag in HEADING_SIZES:
            self.write("[/b][/size]\n\n")
        elif tag in ("ul", "ol") and self.lists:
            self.lists.pop()
            self.write("[/list]\n")
        elif tag == "li":
            self.write("\n")
        elif tag == "a":
            self.write("[/url]")
        elif tag == "code" and not self.in_pre:
            self.write("[/font]")
        elif tag == "p":
            self.write("\n\n")
        elif tag in ("td", "th") and self.table is not None and self.cell is not None:
            self.table.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "table" and self.table is not None:
            self.out.append(table_bbcode(self.table.rows, self.tables))
            self.table = None

    def handle_data(self, data: str) -> None:
        if self.table is not None and self.cell is None:
            return              # white space between rows and cells
        self.write(data if self.in_pre or not self.lists else data.strip("\n"))


def table_bbcode(rows: list[list[str]], tables: bool) -> str:
    """`[table]` rows for boards that have the tag, else the columns aligned in `[code]`."""
    if tables:
        body = "".join("[tr]" + "".join(f"[td]{cell}[/td]" for cell in row) + "[/tr]\n" for row in rows)
        return f"[table]\n{body}[/table]\n\n"
    return "[code]\n" + "\n".join(aligned_columns(rows, rule_under_first=True)) + "\n[/code]\n\n"


def to_bbcode(markdown: str, *, tables: bool = False, picture_url: str = "") -> str:
    """The report as BBCode; `tables` for boards with a `[table]` tag; `picture_url` the map
    picture's address, shown first as the mail shows it."""
    writer = _Writer(tables)
    writer.feed(markdown_to_html(markdown))
    writer.close()
    text = "".join(writer.out)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    picture = f"[img]{picture_url}[/img]\n\n" if picture_url else ""
    return picture + text.strip() + "\n"
