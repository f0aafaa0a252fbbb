"""Taktik engine (public API is filled in as the rule pages land)."""
