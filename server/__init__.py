"""Taktik server: matches over HTTP and WebSockets, durable action logs, live state to each seat."""

__version__ = "0.1.0"
