"""What handling one message or command gives: replies to render and alerts for the GM.

`Reply` is a mail to render (template and context, addressed and threaded); `Outcome` is
everything one message gave. Plain values, shared by intake, the GM desk and delivery.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reply:
    """A mail to render: template name plus context, addressed and threaded."""

    key: str
    to: tuple[str, ...]
    subject: str
    template: str
    context: dict[str, Any]
    in_reply_to: str = ""
    references: tuple[str, ...] = ()
    auto_reply: bool = True
    attachments: tuple[tuple[str, str, bytes], ...] = ()   # (filename, mime type, data): a deadline's calendar
    headers: tuple[tuple[str, str], ...] = ()               # more headers: press's Reply-To
    kind: str = ""          # "press", "reminder", "notice", "ack": what a daily digest may hold (delivery/digest.py)


@dataclass
class Outcome:
    replies: list[Reply] = field(default_factory=list)
    gm_alerts: list[str] = field(default_factory=list)
    note: str = ""
