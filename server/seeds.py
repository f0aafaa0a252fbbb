"""Match seeds and the commitment that makes every roll and shuffle verifiable afterwards.

At creation the server draws a 32-bit seed and a 128-bit salt and publishes

    commitment = sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()

where ``seed`` is written in decimal without leading zeros and ``salt`` is 32 lowercase
hex digits. The seed and salt are revealed with the record once the game is over; anyone
can then recompute the commitment and replay every die and shuffle. The salt is there
because a bare hash of a 32-bit number is inverted by trying all 2**32 of them.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["commitment", "new_salt", "new_seed", "verify"]


def new_seed() -> int:
    """A fresh, unpredictable 32-bit match seed."""
    return secrets.randbits(32)


def new_salt() -> str:
    """A fresh 128-bit salt as 32 lowercase hex digits."""
    return secrets.token_hex(16)


def commitment(seed: int, salt: str) -> str:
    """The published commitment to ``seed``: hex SHA-256 of ``"<seed>:<salt>"``."""
    return hashlib.sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()


def verify(seed: int, salt: str, published: str) -> bool:
    """True when ``seed`` and ``salt`` open the ``published`` commitment."""
    return hmac.compare_digest(commitment(seed, salt), published)
