"""Shared fixtures for the whole test suite."""
