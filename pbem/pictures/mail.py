"""Map pictures as the parts of a mail the one mail builder (`pbem.mail.compose.Letterhead`)
writes: the PNG inline, shown at the top of the HTML part through `cid:` (many mail clients drop
inline SVG and data: URIs), and the SVG as an attachment. A report written with them is

    multipart/mixed
      multipart/alternative
        text/plain
        multipart/related
          text/html            <img src="cid:...">
          image/png            Content-ID, inline
      image/svg+xml            attachment
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.mail.compose import InlineImage
from pbem.pictures.picture import Picture
from pbem.pictures.svg import WIDTH

Attachment = tuple[str, str, bytes]


def content_id(picture: Picture, domain: str = "pbem.invalid") -> str:
    """A stable Content-ID, without angle brackets: the same picture in a mail sent again keeps its id."""
    return f"{picture.name}@{domain}"


def inline_images(pictures: Sequence[Picture], domain: str = "pbem.invalid") -> tuple[InlineImage, ...]:
    """Each picture's PNG, to be shown in the HTML part (a picture drawn without one has none)."""
    return tuple(InlineImage(content_id(p, domain), "image/png", p.png, f"{p.name}.png", f"Map: {p.name}", WIDTH)
                 for p in pictures if p.png)


def attachments(pictures: Sequence[Picture]) -> tuple[Attachment, ...]:
    """Each picture's SVG, the drawing a plain-text reader opens and anyone can print large."""
    return tuple((f"{p.name}.svg", "image/svg+xml", p.svg.encode("utf-8")) for p in pictures)
