"""Taktik server: matches over WebSockets, durable action logs, and the `taktik` command line."""

__version__ = "0.1.0"
