"""Seed commitments: the exact preimage, and that a wrong seed or salt does not open it."""

from __future__ import annotations

import hashlib

from server import seeds


def test_the_commitment_is_sha256_of_seed_colon_salt() -> None:
    salt = "00112233445566778899aabbccddeeff"
    expected = hashlib.sha256(b"4294967295:00112233445566778899aabbccddeeff").hexdigest()
    assert seeds.commitment(4294967295, salt) == expected
    assert seeds.verify(4294967295, salt, expected)
    assert not seeds.verify(4294967294, salt, expected)
    assert not seeds.verify(4294967295, "0" * 32, expected)


def test_fresh_seeds_and_salts_have_the_documented_form() -> None:
    assert all(0 <= seeds.new_seed() < 2**32 for _ in range(100))
    salt = seeds.new_salt()
    assert len(salt) == 32 and int(salt, 16) >= 0 and salt == salt.lower()
    assert seeds.new_salt() != salt
