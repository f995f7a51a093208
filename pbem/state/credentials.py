"""Player secrets: generated ones hashed like API tokens, chosen ones with scrypt.

A generated secret has 100 bits of entropy, written as five groups of four
base32 letters (`K7QD-M2XP-...`) that are easy to type and read aloud; such a
secret cannot be guessed, so a single SHA-256 is enough and costs microseconds.
A secret a player picks himself may be weak, so it is stored with scrypt and a
salt. Stored forms: `sha256:<hex>` and `scrypt:<n>:<r>:<p>:<salt hex>:<hex>`.
Secrets are never written anywhere else, and never echoed in mail.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets as _random

GROUPS = 5
GROUP_LEN = 4
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
MIN_CHOSEN_LENGTH = 8


def generate() -> str:
    """A fresh 100-bit secret, e.g. `K7QD-M2XP-4TRA-9B2C-WZ5E` (base32 letters and digits)."""
    raw = base64.b32encode(_random.token_bytes(13)).decode()[: GROUPS * GROUP_LEN]
    return "-".join(raw[i : i + GROUP_LEN] for i in range(0, len(raw), GROUP_LEN))


def _canonical(secret: str) -> str:
    """Generated secrets match however they are typed: case, spaces and dashes don't count."""
    return "".join(secret.split()).replace("-", "").upper()


def hash_generated(secret: str) -> str:
    return "sha256:" + hashlib.sha256(_canonical(secret).encode()).hexdigest()


def hash_chosen(secret: str) -> str:
    salt = _random.token_bytes(16)
    digest = hashlib.scrypt(secret.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P)
    return f"scrypt:{SCRYPT_N}:{SCRYPT_R}:{SCRYPT_P}:{salt.hex()}:{digest.hex()}"


def check(secret: str, stored: str) -> bool:
    """Constant-time comparison against a stored form; unknown forms never match."""
    scheme, _, rest = stored.partition(":")
    if scheme == "sha256":
        return hmac.compare_digest(hash_generated(secret), stored)
    if scheme == "scrypt":
        try:
            n, r, p, salt, digest = rest.split(":")
            again = hashlib.scrypt(secret.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p))
        except ValueError:
            return False
        return hmac.compare_digest(again.hex(), digest)
    return False


def weak_reason(secret: str) -> str:
    """Why a chosen secret is refused, or "" if it is acceptable."""
    if len(secret) < MIN_CHOSEN_LENGTH:
        return f"a new secret needs at least {MIN_CHOSEN_LENGTH} characters"
    if len(set(secret)) < 4:
        return "a new secret needs more variety than that"
    return ""
