"""Canonical defaults: a struct field equal to its default holds the default object itself.

msgspec leaves a field out of an ``omit_defaults`` encoding when its value *is* the default
object. For a default that is not a singleton (a string, a float, an int above 256, a
struct), an equal value built elsewhere (``RoundLimit()``, a number decoded from JSON, an
object rebuilt by pickle in another process) would be written out, so equal values would
encode differently and equal games would hash differently. Structs with such defaults call
`keep_defaults` from ``__post_init__``, which msgspec runs when a struct is built, decoded
or unpickled: equal values then encode, and their games hash, identically.
"""

from __future__ import annotations

import functools

import msgspec
from msgspec.structs import force_setattr

__all__ = ["keep_defaults"]


def keep_defaults(value: msgspec.Struct) -> None:
    """Swap every field of ``value`` that equals its default (and is of its type) for the default object."""
    for name, default in _defaults(type(value)):
        current = getattr(value, name)
        if current is not default and type(current) is type(default) and current == default:
            force_setattr(value, name, default)


@functools.cache
def _defaults(cls: type[msgspec.Struct]) -> tuple[tuple[str, object], ...]:
    """``(field, default value)`` of the fields of ``cls`` that have a plain default."""
    return tuple((f.name, f.default) for f in msgspec.structs.fields(cls) if f.default is not msgspec.NODEFAULT)
