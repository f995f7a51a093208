"""Secrets hidden in text quoted back to a sender.

A player who types his secret outside the envelope line (`Player: fra <secret>`, "my secret
is ...", a GM's `REPLACE <secret> x@y`) must not find it quoted in the reply, which may be
read over a shoulder, forwarded or kept in a mail archive. Which words are secrets:

- the secret the envelope carried and any `PASSWORD` argument (known as typed);
- any word, or run of up to five words, of the sender's text that verifies against a stored
  secret of this campaign (pbem.state.credentials). Generated secrets are SHA-256 hashed, so every
  candidate is checked; a chosen one costs an scrypt run, so only words shaped like an
  acceptable chosen secret are tried, and at most SCRYPT_CHECKS runs per mail (the sender's
  own secret first: that is the one people mistype).

Each is then replaced by MARK wherever it stands in the reply's text; a generated secret
however it is grouped, spaced or cased.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pbem.kit.orders import OrderProblem
from pbem.state import credentials

MARK = "(secret hidden)"
"""Plain words and parentheses: the same in the text part, the HTML part and under the md filter."""
SCRYPT_CHECKS = 4
"""About 0.2 s each: a mail costs at most a second, and only a signed-in sender's does."""
WINDOW = credentials.GROUPS
"""A generated secret typed with spaces between its groups spans up to this many words."""

MIN_GENERATED, MAX_GENERATED = 12, 64
"""Runs of other lengths are not tried: a generated secret has 20 characters (a GM may set others)."""

_EDGES = "'\"`()[]{}<>,;:.!?*_"
_GROUPS = re.compile(r"[A-Za-z0-9-]+")


def _sha256(canonical: str) -> str:
    """credentials.hash_generated of a secret already in canonical form."""
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


class SecretMask:
    """Hides the secrets found in `typed` (the text a sender wrote) in any text."""

    def __init__(self, typed: str, known: Iterable[str] = (), stored: Sequence[str] = ()) -> None:
        words = [word.strip(_EDGES) for word in typed.split()]
        self.plain = {secret.strip() for secret in known if secret.strip()}
        self.generated: set[str] = set()
        self._find_generated(words, {s for s in stored if s.startswith("sha256:")})
        self._find_chosen(words, [s for s in stored if s.startswith("scrypt:")])
        self._pattern = self._compile()

    def __call__(self, text: str) -> str:
        return self._pattern.sub(MARK, text) if self._pattern else text

    def _find_generated(self, words: list[str], hashes: set[str]) -> None:
        """Runs of words that hash to a stored generated secret (typed with any grouping):
        only runs of letters, digits and dashes, MIN_GENERATED to MAX_GENERATED long."""
        if not hashes:
            return
        parts = [word.replace("-", "").upper() if _GROUPS.fullmatch(word) else "" for word in words]
        for start in range(len(parts)):
            canonical = ""
            for part in parts[start:start + WINDOW]:
                canonical += part
                if not part or len(canonical) > MAX_GENERATED:
                    break
                if len(canonical) >= MIN_GENERATED and _sha256(canonical) in hashes:
                    self.generated.add(canonical)

    def _find_chosen(self, words: list[str], stored: list[str]) -> None:
        """Words shaped like a chosen secret, checked with scrypt within the budget."""
        budget = SCRYPT_CHECKS
        shaped = (w for w in words if not credentials.weak_reason(w) and w not in self.plain
                  and w.replace("-", "").upper() not in self.generated)
        for word in dict.fromkeys(shaped):
            for form in stored:
                if budget <= 0:
                    return
                budget -= 1
                if credentials.check(word, form):
                    self.plain.add(word)
                    break

    def _compile(self) -> re.Pattern[str] | None:
        """One pattern for all: a known secret as a whole word (not inside a longer one), a
        generated secret with any dashes or spaces between its letters, in any case."""
        plain = [re.escape(secret) for secret in sorted(self.plain, key=len, reverse=True)]
        spelled = ["(?i:" + r"[-\s]*".join(map(re.escape, secret)) + ")" for secret in sorted(self.generated)]
        if not plain and not spelled:
            return None
        return re.compile(rf"(?<![\w-])(?:{'|'.join(plain + spelled)})(?![\w-])")


def masked(value: Any, mask: Callable[[str], str]) -> Any:
    """`value` with mask applied to every text in it: strings, order problems, and the lists,
    tuples and dicts that hold them (a reply's template context); other objects as they are."""
    if isinstance(value, str):
        return mask(value)
    if isinstance(value, OrderProblem):
        return type(value)(**{f.name: masked(getattr(value, f.name), mask) for f in dataclasses.fields(value)})
    if isinstance(value, (list, tuple)):
        return type(value)(masked(item, mask) for item in value)
    if isinstance(value, dict):
        return {key: masked(item, mask) for key, item in value.items()}
    return value
