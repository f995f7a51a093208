"""Write the hostile mail corpus: every kind of mail that once stopped a tick, lost an order or
leaked a secret, as .eml files named by their class (`<class>-<variant>.eml`).

    python3 -m tests.hostile.make_corpus            # rewrite tests/hostile/corpus/

The output is a pure function of this file: no clock, no randomness (garbage bytes come from
SHA-256), so the committed corpus can be checked against a fresh run. Most mails go to the
Daemon Rift campaign "rift", where Mallory (player "grey") is the hostile player and Alice and
Bob (red and blue) send real orders beside her; the Conquest mails go to "conq" (see
`CAMPAIGN_OF`). The secrets below are the campaigns' fixed test secrets: the tests check that
none of them ever appears in a mail pbem sends.
"""

from __future__ import annotations

import base64
import hashlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"
DATE = "Mon, 23 Nov 2026 10:00:00 +0000"

SECRETS = {"red": "RRRR-HOST-0000-0000-0001", "blue": "BBBB-HOST-0000-0000-0002",
           "grey": "GREY-HOST-0000-0000-0003", "green": "NNNN-HOST-0000-0000-0004",
           "gm": "GMGM-HOST-0000-0000-0000"}
CONQ_SECRETS = {"anna": "ANNA-HOST-0000-0000-0001", "ben": "BENN-HOST-0000-0000-0002",
                "cara": "CARA-HOST-0000-0000-0003", "gm": "GMGM-HOST-0000-0000-0009"}
ALICE, BOB = "Alice <alice@players.test>", "Bob <bob@players.test>"
MALLORY, EVE = "Mallory <mallory@players.test>", "Eve <eve@outside.test>"
ANNA, GM = "Anna <anna@players.test>", "Game Master <gm@players.test>"
GREY = f"PLAYER grey {SECRETS['grey']}\n"
ANNA_SIGN = f"PLAYER anna {CONQ_SECRETS['anna']}\n"
HEALTHY_ID = "<red-orders-turn-1@players.test>"
"""The Message-ID of Alice's real orders for rift, which some hostile mails reuse."""

LINE_BREAKS = {"0b": "\x0b", "0c": "\x0c", "1c": "\x1c", "1d": "\x1d", "1e": "\x1e", "85": "\x85",
               "2028": "\u2028", "2029": "\u2029"}
PHISH = "[phish](https://evil.example/login) ![px](https://evil.example/p.png)"


def mail(sender: str | None, subject: str | None, body: str | bytes, *, mid: str | None = "",
         ctype: str = 'text/plain; charset="utf-8"', headers: str = "", name: str = "") -> bytes:
    """One raw mail with CRLF line ends; None leaves a header out, "" for mid makes one from name.
    Lone surrogates \udc80-\udcff stand for raw bytes (surrogateescape)."""
    head = []
    if sender is not None:
        head.append(f"From: {sender}")
    head.append("To: rift@pbem.test")
    if subject is not None:
        head.append(f"Subject: {subject}")
    if mid is not None:
        head.append(f"Message-ID: {mid or f'<{name}@corpus.test>'}")
    head += [f"Date: {DATE}", "MIME-Version: 1.0", f"Content-Type: {ctype}"]
    head += [line for line in headers.split("\n") if line]
    data = body if isinstance(body, bytes) else body.encode("utf-8", "surrogateescape")
    return "\r\n".join(head).encode("utf-8", "surrogateescape") + b"\r\n\r\n" + data.replace(b"\r\n", b"\n").replace(
        b"\n", b"\r\n")


def garbage(seed: str, size: int) -> bytes:
    """Deterministic noise."""
    out = b""
    counter = 0
    while len(out) < size:
        out += hashlib.sha256(f"{seed}/{counter}".encode()).digest()
        counter += 1
    return out[:size]


def q_word(text: str, charset: str = "utf-8") -> str:
    data = text.encode(charset, "surrogatepass")
    return f"=?{charset}?q?" + "".join(chr(b) if chr(b).isalnum() else f"={b:02X}" for b in data) + "?="


def b_word(text: str, charset: str = "utf-8") -> str:
    return f"=?{charset}?b?" + base64.b64encode(text.encode(charset, "surrogatepass")).decode() + "?="


# --- the classes -------------------------------------------------------------------------

Mails = Iterator[tuple[str, bytes]]


def subject_line_breaks() -> Mails:
    for code, char in LINE_BREAKS.items():
        yield f"subject-linebreak-raw-{code}", mail(MALLORY, f"[rift] hi{char}there", GREY + "G-1 H\n",
                                                    name=f"subject-raw-{code}")
        yield f"subject-linebreak-q-{code}", mail(MALLORY, f"[rift] {q_word(f'hi{char}there')}", GREY + "G-1 H\n",
                                                  name=f"subject-q-{code}")
        yield f"subject-linebreak-b-{code}", mail(MALLORY, f"[rift] {b_word(f'hi{char}Bcc: x@evil.example')}",
                                                  GREY + "G-1 H\n", name=f"subject-b-{code}")


def lone_surrogates() -> Mails:
    words = {"utf-7": "=?utf-7?Q?+2AA-?=", "unicode_escape": "=?unicode_escape?Q?=5Cud800?=",
             "raw_unicode_escape": "=?raw_unicode_escape?Q?=5Cud800?="}
    bodies = {"utf-7": b"G-1 M +2AA-\n", "unicode_escape": b"G-1 M \\ud800\n", "raw_unicode_escape": b"G-1 M \\ud800\n"}
    for charset, word in words.items():
        yield f"surrogate-subject-{charset}", mail(MALLORY, f"[rift] {word}", GREY + "G-1 H\n",
                                                   name=f"surrogate-subject-{charset}")
        yield f"surrogate-body-{charset}", mail(MALLORY, "[rift] orders", GREY.encode() + bodies[charset],
                                                ctype=f'text/plain; charset="{charset}"',
                                                name=f"surrogate-body-{charset}")
    yield "surrogate-body-utf-7-prose", mail(MALLORY, "[rift] orders",
                                             GREY.encode() + b"G-1 H\nGreetings +2AA- friend\n",
                                             ctype='text/plain; charset="utf-7"', name="surrogate-body-prose")
    yield "surrogate-from-utf-7", mail("=?utf-7?Q?+2AA-?= <mallory@players.test>", "[rift] orders",
                                       GREY + "G-1 H\n", name="surrogate-from")


def nul_bytes() -> Mails:
    yield "nul-header-subject", mail(MALLORY, "[rift] orders\x00now", GREY + "G-1 H\n", name="nul-subject")
    yield "nul-header-subject-encoded", mail(MALLORY, "[rift] " + q_word("or\x00ders"), GREY + "G-1 H\n",
                                             name="nul-subject-q")
    yield "nul-header-from", mail("Mall\x00ory <mallory@players.test>", "[rift] orders", GREY + "G-1 H\n",
                                  name="nul-from")
    yield "nul-header-message-id", mail(MALLORY, "[rift] orders", GREY + "G-1 H\n", mid="<nul\x00id@corpus.test>")
    yield "nul-header-references", mail(MALLORY, "[rift] orders", GREY + "G-1 H\n", name="nul-references",
                                        headers="References: <a\x00b@corpus.test>")


def nested_multipart(levels: int) -> bytes:
    """`levels` multiparts inside each other, the orders in the innermost part."""
    opening = "".join(f"--b{i}\r\nContent-Type: multipart/mixed; boundary=\"b{i + 1}\"\r\n\r\n" for i in range(levels))
    closing = "".join(f"\r\n--b{i}--\r\n" for i in reversed(range(levels + 1)))
    inner = f"--b{levels}\r\nContent-Type: text/plain\r\n\r\n{GREY}G-1 H\r\n"
    return (opening + inner + closing).encode()


def deep_nesting() -> Mails:
    for levels in (980, 3000):
        yield f"nested-multipart-{levels}", mail(MALLORY, "[rift] orders", nested_multipart(levels),
                                                 ctype='multipart/mixed; boundary="b0"', name=f"nested-{levels}")


def campaign_lines() -> Mails:
    yield "campaign-line-after-envelope", mail(MALLORY, "[rift] orders", GREY + "Campaign going well so far\nG-1 H\n",
                                               name="campaign-after")
    yield "campaign-line-before-envelope", mail(MALLORY, "[rift] orders",
                                                "Campaign going well so far\n" + GREY + "G-1 H\n",
                                                name="campaign-before")
    yield "campaign-line-other-campaign", mail(MALLORY, "[rift] orders", GREY + "G-1 H\nCAMPAIGN vale\n",
                                               name="campaign-other")


def unknown_tags() -> Mails:
    yield "unknown-tag-second", mail(MALLORY, "[rift] [urgent] orders", GREY + "G-1 H\n", name="tag-second")
    yield "unknown-tag-first", mail(MALLORY, "[draft] [rift] orders", GREY + "G-1 H\n", name="tag-first")
    yield "unknown-tag-only", mail(MALLORY, "[nowhere] orders", GREY + "G-1 H\n", name="tag-only")


def slow_orders() -> Mails:
    yield "rift-long-move-1000", mail(MALLORY, "[rift] orders", GREY + "R-1 M " + "T5 " * 1000 + "\n", name="long-1000")
    yield "rift-long-move-600", mail(MALLORY, "[rift] orders", GREY + "G-1 M " + "T5 " * 600 + "\n", name="long-600")
    yield "rift-battle-result-dashes", mail(MALLORY, "[rift] orders", GREY + "RESULT 1 " + "- " * 30000 + "\n",
                                            name="rift-dashes")


def conquest() -> Mails:
    head = dict(ctype='text/plain; charset="utf-8"')
    yield "conquest-event-repeat-1000", mail(ANNA, "[conq] orders", ANNA_SIGN + "EVENT Land Grab " * 1000 + "\n",
                                             name="conq-1000", **head)
    yield "conquest-event-line-100k", mail(ANNA, "[conq] orders", ANNA_SIGN + "EVENT " + "Land Grab " * 10_000 + "\n",
                                           name="conq-100k", **head)
    yield "conquest-battle-result-dashes", mail(ANNA, "[conq] orders", ANNA_SIGN + "RESULT B1 " + "- " * 30000 + "\n",
                                                name="conq-dashes", **head)


ROSTER = """ARTILLERY G-2 no
FAST G-2 no
DECLARE G-2 Grimgor Ironhide
C1 character Grimgor Ironhide @345 W3 general special
U1 infantry 25 Orc Boyz @6
U2 infantry 20 Black Orcs @12
U3 cavalry 10 Boar Boyz @16
"""


def markdown_phishing() -> Mails:
    yield "markdown-phish-full-list", mail(MALLORY, "[rift] new list", GREY + f"LIST G-2 {PHISH}\n" + ROSTER,
                                           name="phish-full-list")
    yield "markdown-phish-list-name", mail(MALLORY, "[rift] lists", GREY + f"LIST G-2 {PHISH}\n", name="phish-list")
    yield "markdown-phish-order-line", mail(MALLORY, "[rift] orders", GREY + f"G-1 M {PHISH}\n", name="phish-order")
    yield "markdown-phish-subject", mail(MALLORY, f"[rift] {PHISH}", GREY + "G-1 H\n", name="phish-subject")
    yield "markdown-phish-stranger", mail(f"\"{PHISH}\" <eve@outside.test>", "[rift] orders", f"{PHISH}\n<b>bold</b>\n",
                                          name="phish-stranger")


def secrets_outside_envelope() -> Mails:
    yield "secret-outside-player-colon", mail(MALLORY, "[rift] orders",
                                              GREY + f"Player: grey {SECRETS['grey']}\nG-1 H\n",
                                              name="secret-colon")
    yield "secret-outside-my-secret-is", mail(MALLORY, "[rift] orders",
                                              GREY + f"G-1 H\nmy secret is {SECRETS['grey']}\n",
                                              name="secret-is")
    yield "secret-outside-other-player", mail(MALLORY, "[rift] orders",
                                              GREY + f"G-1 H\nAlice's secret is {SECRETS['red']}\n", name="secret-red")
    yield "secret-outside-gm-replace", mail(GM, "[rift] admin",
                                            f"GM {SECRETS['gm']}\nREPLACE {SECRETS['gm']} x@y.test\n",
                                            name="secret-gm")
    yield "secret-outside-no-envelope", mail(MALLORY, "[rift] orders", f"G-1 H\nPlayer: grey {SECRETS['grey']}\n",
                                             name="secret-noenv")


def message_ids() -> Mails:
    long_id = "<AM6PR07MB5621B1C2D3E4F5A6B7C8D9E0F1A2B3C4D5E6F7A8B9@AM6PR07MB5621.eurprd07.prod.outlook.com>"
    refs = f"References: <CAF{'x' * 90}@mail.gmail.com> {long_id}"
    yield "message-id-outlook-player", mail(MALLORY, "[rift] orders", GREY + "G-1 H\n", mid=long_id)
    yield "message-id-outlook-stranger", mail(EVE, "[rift] orders", "hello\n", mid=long_id.replace("AM6", "DB9"))
    yield "message-id-outlook-references", mail(MALLORY, "Re: [rift] orders", GREY + "G-1 H\n",
                                                mid=long_id.replace("AM6", "VI1"),
                                                headers=refs + f"\nIn-Reply-To: {long_id}")
    yield "message-id-missing-player", mail(MALLORY, "[rift] orders", GREY + "G-1 H\n", mid=None)
    yield "message-id-missing-stranger", mail(EVE, "[rift] orders", "hello\n", mid=None)
    yield "message-id-missing-second", mail(MALLORY, "[rift] orders", GREY + "G-1 M T32\n", mid=None)


def no_sender() -> Mails:
    yield "no-sender-missing", mail(None, "[rift] orders", GREY + "G-1 H\n", name="no-from")
    yield "no-sender-empty", mail("", "[rift] orders", GREY + "G-1 H\n", name="empty-from")
    yield "no-sender-group-empty", mail("undisclosed-recipients:;", "[rift] orders", GREY + "G-1 H\n",
                                        name="group-empty")
    yield "no-sender-group-members", mail("Players: mallory@players.test, eve@outside.test;", "[rift] orders",
                                          GREY + "G-1 H\n", name="group-members")
    yield "no-sender-name-only", mail("Mallory", "[rift] orders", GREY + "G-1 H\n", name="name-only")


def reused_ids() -> Mails:
    yield "reused-message-id-player", mail(MALLORY, "[rift] orders", GREY + "G-1 M T33\n", mid=HEALTHY_ID)
    yield "reused-message-id-stranger", mail(EVE, "[rift] orders", "R-1 H\n", mid=HEALTHY_ID)
    yield "reused-message-id-own", mail(MALLORY, "[rift] orders again", GREY + "G-1 H\nSTATUS\n",
                                        mid="<campaign-after@corpus.test>")


def forged_senders() -> Mails:
    for n in range(1, 4):
        yield f"forged-sender-wrong-secret-{n}", mail(ALICE, "[rift] orders",
                                                      f"PLAYER red WRONG-SECRET-{n}\nR-1 M T8\n",
                                                      name=f"forged-red-{n}")
    yield "forged-sender-stranger-signs-red", mail("Alice <eve@outside.test>", "[rift] orders",
                                                   f"PLAYER red {SECRETS['grey']}\nR-1 H\n", name="forged-stranger")
    yield "forged-sender-stranger-has-secret", mail(EVE, "[rift] orders", GREY + "G-1 H\n", name="forged-grey")
    yield "forged-sender-gm-wrong-secret", mail(GM, "[rift] admin", "GM WRONG-GM-SECRET\nRESOLVE\n", name="forged-gm")


def machines() -> Mails:
    report = ("--rep\r\nContent-Type: text/plain\r\n\r\nDelivery failed.\r\n--rep\r\n"
              "Content-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.test\r\n\r\n"
              "Final-Recipient: rfc822; x@outside.test\r\nAction: failed\r\nStatus: 5.1.1\r\n--rep--\r\n")
    yield "auto-bounce", mail("Mail Delivery System <MAILER-DAEMON@mx.outside.test>", "Undelivered Mail",
                              report.encode(),
                              ctype='multipart/report; report-type=delivery-status; boundary="rep"', name="bounce")
    yield "auto-vacation", mail(MALLORY, "Re: [rift] orders", "I am away.\n", name="vacation",
                                headers="Auto-Submitted: auto-replied")
    yield "auto-list", mail("Lists <list@lists.test>", "[rift] digest", GREY + "G-1 H\n", name="list",
                            headers="List-Id: <games.lists.test>\nPrecedence: list")
    yield "auto-bulk", mail(EVE, "[rift] offer", "buy now\n", name="bulk", headers="Precedence: bulk")
    yield "auto-x-autoreply", mail(EVE, "[rift] orders", "away\n", name="x-autoreply",
                                   headers="X-Autoreply: yes\nAuto-Submitted: auto-generated")


def oversize() -> Mails:
    filler = ("x" * 76 + "\n") * 4000
    yield "oversize-player", mail(MALLORY, "[rift] orders", GREY + "G-1 H\n" + filler, name="big-player")
    yield "oversize-stranger", mail(EVE, "[rift] orders", filler, name="big-stranger")
    yield "oversize-no-sender", mail(None, "[rift] orders", filler, name="big-nosender")


def broken_mime() -> Mails:
    signed = GREY + "G-1 H\n"
    yield "broken-mime-boundary", mail(MALLORY, "[rift] orders", f"--wrong\n\n{signed}--wrong--\n",
                                       ctype='multipart/mixed; boundary="b"', name="broken-boundary")
    yield "broken-mime-no-boundary", mail(MALLORY, "[rift] orders", signed, ctype="multipart/alternative",
                                          name="no-boundary")
    yield "broken-mime-base64", mail(MALLORY, "[rift] orders", b"PLAYER*grey!!!===\n\x00\xff",
                                     headers="Content-Transfer-Encoding: base64", name="bad-base64")
    yield "broken-mime-unknown-charset", mail(MALLORY, "[rift] orders", signed.encode() + b"caf\xe9\n",
                                              ctype='text/plain; charset="x-klingon"', name="klingon")
    yield "broken-mime-unknown-charset-header", mail(MALLORY, "[rift] =?x-klingon?q?qapla=E9?=", signed,
                                                     name="klingon-h")
    yield "broken-mime-garbage-body", mail(MALLORY, "[rift] orders", signed.encode() + garbage("body", 3000),
                                           name="noise")
    yield "broken-mime-garbage-headers", mail(MALLORY, "[rift] \udcff\udcfe\udc80orders", signed,
                                              name="noise-h", headers="X-Noise: \udcff\udcfe")
    yield "broken-mime-bad-qp", mail(MALLORY, "[rift] orders", signed + "G-1 =ZZ=\n=",
                                     headers="Content-Transfer-Encoding: quoted-printable", name="bad-qp")
    yield "broken-mime-unknown-encoding", mail(MALLORY, "[rift] orders", signed, name="x-uuencode",
                                               headers="Content-Transfer-Encoding: x-martian")
    yield "broken-mime-content-type", mail(MALLORY, "[rift] orders", signed, ctype=';;;"=/', name="bad-ctype")
    yield "broken-mime-headers-only", (f"From: {MALLORY}\r\nSubject: [rift] orders\r\n"
                                       "Message-ID: <head@corpus.test>").encode()
    yield "broken-mime-pure-noise", garbage("noise", 5000)
    yield "broken-mime-empty", b""


def forged_forum_ids() -> Mails:
    for n, kind in ((1, "folder"), (2, "folder"), (3, "folder"), (101, "discourse"), (102, "discourse")):
        sender, body = (EVE, "hello\n") if n % 2 else (MALLORY, GREY + "G-1 H\n")
        yield f"forged-forum-id-{kind}-{n}", mail(sender, "[rift] orders", body, mid=f"<forum-post-{kind}-{n}@rift>")


def header_injection() -> Mails:
    yield "header-injection-from-q", mail(q_word("Eve\r\nBcc: victim@evil.example") + " <eve@outside.test>",
                                          "[rift] orders", "hello\n", name="inject-from-q")
    yield "header-injection-from-b", mail(b_word("Eve\nX-Injected: yes") + " <mallory@players.test>",
                                          "[rift] orders", GREY + "G-1 H\n", name="inject-from-b")
    yield "header-injection-from-quoted", mail("\"Eve\\\r\n Bcc: victim@evil.example\" <eve@outside.test>",
                                               "[rift] orders", "hello\n", name="inject-from-quoted")
    yield "header-injection-subject", mail(MALLORY, "[rift] " + q_word("hi\r\nBcc: victim@evil.example\r\n\r\nbody"),
                                           GREY + "G-1 H\n", name="inject-subject")
    yield "header-injection-references", mail(MALLORY, "[rift] orders", GREY + "G-1 H\n", name="inject-references",
                                              headers="References: " + q_word("<a@b>\r\nBcc: victim@evil.example"))


GENERATORS: tuple[Callable[[], Mails], ...] = (
    subject_line_breaks, lone_surrogates, nul_bytes, deep_nesting, campaign_lines, unknown_tags, slow_orders,
    conquest, markdown_phishing, secrets_outside_envelope, message_ids, no_sender, reused_ids, forged_senders,
    machines, oversize, broken_mime, forged_forum_ids, header_injection)


def build() -> dict[str, bytes]:
    """File name -> raw mail, in the order the mails are delivered."""
    corpus: dict[str, bytes] = {}
    for generate in GENERATORS:
        for name, raw in generate():
            assert f"{name}.eml" not in corpus, name
            corpus[f"{name}.eml"] = raw
    return corpus


KINDS = ("subject-linebreak-raw", "subject-linebreak-q", "subject-linebreak-b", "surrogate-subject", "surrogate-body",
         "surrogate-from", "nul-header", "nested-multipart", "campaign-line", "unknown-tag", "rift-long-move",
         "rift-battle-result-dashes", "conquest-event", "conquest-battle-result-dashes", "markdown-phish",
         "secret-outside", "message-id-outlook", "message-id-missing", "no-sender", "reused-message-id",
         "forged-sender", "auto", "oversize", "broken-mime", "forged-forum-id", "header-injection")
"""The classes of the corpus: every file name starts with one of them."""


def kind_of(file_name: str) -> str:
    """The class of a corpus file."""
    stem = file_name.removesuffix(".eml")
    return max((kind for kind in KINDS if stem == kind or stem.startswith(f"{kind}-")), key=len, default="")


def campaign_of(file_name: str) -> str:
    """The campaign a corpus mail is sent to."""
    return "conq" if file_name.startswith("conquest-") else "rift"


def write(folder: Path = CORPUS) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.eml"):
        old.unlink()
    for name, raw in build().items():
        (folder / name).write_bytes(raw)


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else CORPUS)
