"""Dice that players can trust, and dice that tests and game masters can fix.

Every die a rule system rolls goes through a `Dice` object and lands in its log
with its purpose. Three sources:

- `CommittedDice`: the campaign's dice. Each roll is HMAC-SHA256 of a per-turn
  secret over (stage salt, roll number, purpose), where the stage salt includes
  the digest of every submission of that stage. The SHA-256 of the secret is
  published before the deadline and the secret after resolution, so anyone can
  recompute every roll (`pbem verify-dice`), nobody can steer them, and a crashed
  run that is repeated rolls the same dice.
- `ScriptedDice`: a fixed sequence of faces: tests, and game masters entering
  rolls made at the table.
- `SeededDice`: a seeded pseudo-random source for simulations and benchmarks.

Dice rolled at the table and typed in by a person (`pbem.kit.typed_dice`) are `TypedRoll`s:
logged with who typed them, shown so in reports, and never recomputed by `verify` (a typed
roll takes no face from the secret).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

_SPEC = re.compile(r"^\s*([0-9]*)\s*[dD]\s*([0-9]+)\s*$")


def dice_spec(text: str) -> tuple[int, int]:
    """How many dice of how many sides a rule book's dice text means: `"2D6"` -> (2, 6); `"d6"` and
    `"D6"` are one die. Raises ValueError saying what is wrong and what to write."""
    found = _SPEC.match(str(text))
    if not found:
        raise ValueError(f"{text!r} is not a dice roll like \"D6\", \"1d6\" or \"2D6\"")
    count, sides = int(found[1] or 1), int(found[2])
    if count < 1:
        raise ValueError(f"{text!r} rolls no dice; write at least one, like \"1d6\"")
    if sides < 2:
        raise ValueError(f"{text!r}: a die has at least 2 sides, like \"d6\"")
    return count, sides


@dataclass(frozen=True)
class Roll:
    n: int
    purpose: str
    sides: int
    faces: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.faces)

    def __str__(self) -> str:
        count = len(self.faces)
        if count == 1:
            return f"{self.purpose}: D{self.sides} = {self.total}"
        faces = "+".join(map(str, self.faces))
        return f"{self.purpose}: {count}D{self.sides} = {faces} = {self.total}"


@dataclass(frozen=True)
class TypedRoll(Roll):
    """A roll made with real dice and typed in by `typed_by`: nobody can recompute it, so every
    place that shows it says who typed it."""

    typed_by: str = ""

    def __str__(self) -> str:
        return f"{super().__str__()} (typed by {self.typed_by})"


class DiceExhausted(RuntimeError):
    """A scripted sequence ran out: the test or the GM gave too few rolls."""


@dataclass
class Dice:
    """Base: subclasses provide `_face(n, purpose, sides)`."""

    log: list[Roll] = field(default_factory=list)

    def roll(self, purpose: str, count: int = 1, sides: int = 6) -> Roll:
        faces: list[int] = []
        for _ in range(count):
            faces.append(self._face(len(self.log) + len(faces), purpose, sides))
        result = Roll(len(self.log), purpose, sides, tuple(faces))
        self.log.append(result)
        return result

    def d6(self, purpose: str) -> int:
        return self.roll(purpose).total

    def finish(self) -> None:
        """Called once a resolution has rolled all it needs: a source that must be used up
        exactly (the GM's list of typed dice) raises here when rolls are left over."""

    def _face(self, n: int, purpose: str, sides: int) -> int:
        raise NotImplementedError


@dataclass
class ReplayDice(Dice):
    """Rolls made in an earlier window come back as they fell, in order; new ones come from `fresh`.

    A step re-run after a later window (e.g. a second battle window) must see the dice it
    saw before, or a result already reported could change. Only the new rolls reach
    `fresh.log`, the stage's verifiable record; `log` holds the whole sequence to replay
    next time.
    """

    def __init__(self, earlier: Iterable[Roll], fresh: Dice) -> None:
        super().__init__()
        self.earlier = list(earlier)
        self.fresh = fresh
        self.replaying = True          # until the first roll that differs from the record

    def roll(self, purpose: str, count: int = 1, sides: int = 6) -> Roll:
        n = len(self.log)
        old = self.earlier[n] if self.replaying and n < len(self.earlier) else None
        if old is not None and (old.purpose, old.sides, len(old.faces)) == (purpose, sides, count):
            faces = old.faces
        else:
            self.replaying = False
            faces = self.fresh.roll(purpose, count, sides).faces
        result = Roll(n, purpose, sides, faces)
        self.log.append(result)
        return result


class ScriptedDice(Dice):
    faces: list[int] = field(default_factory=list)

    def __init__(self, faces: Iterable[int] = ()) -> None:
        super().__init__()
        self.faces = list(faces)
        self._next = 0

    def _face(self, n: int, purpose: str, sides: int) -> int:
        if self._next >= len(self.faces):
            raise DiceExhausted(f"no scripted roll left for {purpose!r} (roll {self._next + 1})")
        value = self.faces[self._next]
        self._next += 1
        if not 1 <= value <= sides:
            raise ValueError(f"scripted roll {value} for {purpose!r} is not a face of a D{sides}")
        return value

    @property
    def unused(self) -> list[int]:
        return self.faces[self._next:]


@dataclass
class SeededDice(Dice):
    seed: int = 0

    def __init__(self, seed: int = 0) -> None:
        super().__init__()
        self.seed = seed
        self._rng = random.Random(seed)

    def _face(self, n: int, purpose: str, sides: int) -> int:
        return self._rng.randint(1, sides)


@dataclass
class CommittedDice(Dice):
    secret: str = ""
    salt: str = ""

    def __init__(self, secret: str, salt: str) -> None:
        super().__init__()
        self.secret = secret
        self.salt = salt
        self._faces = 0

    def _face(self, n: int, purpose: str, sides: int) -> int:
        self._faces += 1
        return derive_face(self.secret, self.salt, self._faces, purpose, sides)


def derive_face(secret: str, salt: str, n: int, purpose: str, sides: int) -> int:
    """Face number `n` (1-based) of a stage: unbiased by rejection sampling."""
    limit = (1 << 64) - (1 << 64) % sides
    attempt = 0
    while True:
        msg = f"{salt}\x1f{n}\x1f{purpose}\x1f{attempt}".encode()
        value = int.from_bytes(hmac.new(secret.encode(), msg, hashlib.sha256).digest()[:8], "big")
        if value < limit:
            return value % sides + 1
        attempt += 1


def new_secret() -> str:
    return secrets.token_hex(32)


def commitment(secret: str) -> str:
    """What is published before the deadline: the secret's SHA-256."""
    return hashlib.sha256(secret.encode()).hexdigest()


def stage_salt(campaign: str, turn: int, stage: str, submissions_digest: str) -> str:
    """Binds a stage's dice to the orders it resolves."""
    return f"{campaign}/{turn}/{stage}/{submissions_digest}"


def verify(secret: str, salt: str, rolls: Iterable[Roll]) -> list[str]:
    """Recompute logged rolls; returns one message per roll that does not match. Typed rolls are
    skipped: they were not derived from the secret and took none of its faces."""
    replay = CommittedDice(secret, salt)
    problems = []
    for logged in rolls:
        if isinstance(logged, TypedRoll):
            continue
        again = replay.roll(logged.purpose, len(logged.faces), logged.sides)
        if again.faces != logged.faces:
            problems.append(f"roll {logged.n} ({logged.purpose}): logged {logged.faces}, recomputed {again.faces}")
    return problems


def logged_roll(entry: dict[str, Any]) -> Roll:
    """A roll as `history/<turn>/dice.toml` stores it (`typed_by` only on a typed roll)."""
    n, purpose, sides, faces = int(entry["n"]), str(entry["purpose"]), int(entry["sides"]), tuple(entry["faces"])
    if entry.get("typed_by"):
        return TypedRoll(n, purpose, sides, faces, str(entry["typed_by"]))
    return Roll(n, purpose, sides, faces)


def log_entry(roll: Roll) -> dict[str, Any]:
    """The stored form of a roll: `logged_roll` reads it back."""
    entry: dict[str, Any] = {"n": roll.n, "purpose": roll.purpose, "sides": roll.sides, "faces": list(roll.faces)}
    if isinstance(roll, TypedRoll):
        entry["typed_by"] = roll.typed_by
    return entry
