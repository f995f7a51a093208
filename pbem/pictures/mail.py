"""Map pictures in a finished mail: the PNG inline, shown by the HTML part through `cid:` (many
mail clients drop inline SVG and data: URIs), and the SVG as an attachment.

`attach_pictures` takes a message as `pbem.mail.compose` builds it (text/plain and text/html
alternatives, maybe inside multipart/mixed) and changes it to

    multipart/mixed
      multipart/alternative
        text/plain
        multipart/related
          text/html            <img src="cid:...">
          image/png            Content-ID, inline
      image/svg+xml            attachment
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from email.message import EmailMessage, MIMEPart

from pbem.pictures.picture import Picture


def content_id(picture: Picture, domain: str = "pbem.invalid") -> str:
    """A stable Content-ID: the same picture in a mail sent again keeps its id."""
    return f"<{picture.name}@{domain}>"


def attach_pictures(msg: EmailMessage, pictures: Sequence[Picture], domain: str = "pbem.invalid") -> None:
    """Show each picture at the top of the HTML part and attach its SVG; a message without an
    HTML part gets the PNG as an attachment."""
    part = _html_part(msg)
    for picture in pictures:
        if part is not None and picture.png:
            _show(part, picture, content_id(picture, domain))
        elif picture.png:
            msg.add_attachment(picture.png, maintype="image", subtype="png", filename=f"{picture.name}.png")
    for picture in pictures:
        msg.add_attachment(picture.svg.encode("utf-8"), maintype="image", subtype="svg+xml",
                           filename=f"{picture.name}.svg")
    for sub in msg.walk():
        if sub is not msg:
            del sub["MIME-Version"]


def _html_part(msg: EmailMessage) -> MIMEPart | None:
    found = msg.get_body(preferencelist=("related", "html"))
    if found is not None and found.get_content_type() == "multipart/related":
        return found
    return found if found is not None and found.get_content_type() == "text/html" else None


def _show(part: MIMEPart, picture: Picture, cid: str) -> None:
    html_part = part if part.get_content_type() == "text/html" else part.get_body(preferencelist=("html",))
    assert html_part is not None
    text = html_part.get_content()
    img = (f'<p><img src="cid:{html.escape(cid[1:-1])}" alt="{html.escape(_alt(picture))}" width="800" '
           f'style="max-width:100%;height:auto"></p>\n')
    at = text.find(">", text.find("<body")) + 1 if "<body" in text else 0
    html_part.set_content(text[:at] + "\n" + img + text[at:], subtype="html", cte="quoted-printable")
    part.add_related(picture.png, maintype="image", subtype="png", cid=cid, disposition="inline",
                     filename=f"{picture.name}.png")


def _alt(picture: Picture) -> str:
    return f"Map: {picture.name}"
