"""Text as pbem reads it: line ends and invisible characters normalised (`normalise`), and the
visible text of an HTML mail, one line per block, quoted blocks marked "> ", so that an
HTML-only mail's orders read like a plain-text one's (pbem/mail/message.py)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

_HIDDEN = frozenset({"script", "style", "title", "template"})
_BLOCKS = frozenset(
    {"p", "div", "li", "tr", "table", "ul", "ol", "dl", "dt", "dd", "blockquote", "pre"}
    | {"h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "header", "footer", "address"}
)


class _HtmlText(HTMLParser):
    """Collects the visible text of an HTML mail, one line per block, with blockquotes
    marked "> " so quoted replies are stripped like plain-text ones."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._line: list[str] = []
        self._hidden = self._pre = self._quote = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self._hidden += 1
        elif tag in ("br", "hr"):
            self.end_line(force=True)
        elif tag in _BLOCKS:
            self.end_line()
            self._nest(tag, 1)
        elif tag in ("td", "th"):
            self._line.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        elif tag in _BLOCKS:
            self.end_line()
            self._nest(tag, -1)

    def handle_data(self, data: str) -> None:
        if self._hidden:
            return
        first, *rest = data.split("\n") if self._pre else [data]
        self._line.append(first)
        for line in rest:
            self.end_line(force=True)
            self._line.append(line)

    def end_line(self, *, force: bool = False) -> None:
        """Finish the current line; a block holding only &nbsp; is a blank line (Outlook)."""
        raw = "".join(self._line)
        text = raw.rstrip() if self._pre else " ".join(raw.split())
        self._line = []
        if text or force or "\xa0" in raw:
            self.lines.append("> " * self._quote + text)

    def _nest(self, tag: str, step: int) -> None:
        if tag == "pre":
            self._pre = max(0, self._pre + step)
        elif tag == "blockquote":
            self._quote = max(0, self._quote + step)


def html_to_text(html: str) -> str:
    """The visible text of an HTML mail: blocks and <br> become line breaks (<hr> a blank
    line), entities are decoded, scripts and styles dropped, blockquotes marked "> "."""
    parser = _HtmlText()
    try:
        parser.feed(re.sub(r"<!\[.*?\]>", "", html, flags=re.DOTALL))  # Outlook's <![if ...]>
        parser.close()
    except AssertionError:  # html.parser's reaction to some malformed markup
        pass
    parser.end_line()
    text = normalise("\n".join(parser.lines))
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")




_INVISIBLE = [*range(9), *range(11, 32), 0x7F, 0xAD, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF]


_CLEAN = {code: None for code in _INVISIBLE} | {0xA0: " ", 0x2007: " ", 0x202F: " ", 0x2011: "-"}


def normalise(text: str) -> str:
    """LF line ends; no BOM, control or zero-width characters; non-breaking spaces and
    hyphens as plain ones (word processors put them into orders like "T5-T6")."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.translate(_CLEAN)
