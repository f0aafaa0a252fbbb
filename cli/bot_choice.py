"""``--bots A,B`` and ``--option BOT.KEY=VALUE``: which registered bots a bulk command plays, and how.

Both are checked before any game is played, with the lab's own words for an unknown bot
or option (`lab.bots.get_bot`), so a typo costs a line on stderr, never a series.
"""

from __future__ import annotations

import json

from lab.bots import BOTS, bot_options, get_bot

from .errors import CommandError

__all__ = ["parse_bot_options", "parse_bot_pair"]


def parse_bot_pair(text: str, example: str) -> tuple[str, str]:
    """``"mcts,greedy"`` → ``("mcts", "greedy")``; a `CommandError` naming an unknown bot and the known ones."""
    names = [name.strip() for name in text.split(",")]
    if len(names) != 2 or not all(names):
        raise CommandError(f"--bots needs two bots, like {example} (known bots: {', '.join(sorted(BOTS))})")
    for name in names:
        try:
            bot_options(name)
        except ValueError as err:  # "unknown bot 'x'; known bots: ..."
            raise CommandError(f"--bots {text}: {err}") from None
    return names[0], names[1]


def parse_bot_options(items: list[str], names: list[str]) -> dict[str, dict[str, object]]:
    """``["mcts.iterations=400"]`` → ``{"mcts": {"iterations": 400}}`` (values parsed as JSON)."""
    options: dict[str, dict[str, object]] = {}
    for item in items:
        key, sep, text = item.partition("=")
        bot, dot, option = key.partition(".")
        if not sep or not dot or bot not in names:
            raise CommandError(f"--option {item!r} is not BOT.OPTION=VALUE for one of {', '.join(names)}")
        if option not in bot_options(bot):
            raise CommandError(
                f"bot {bot!r} has no option {option!r} (options: {', '.join(bot_options(bot)) or 'none'})"
            )
        try:
            value: object = json.loads(text)
        except json.JSONDecodeError:
            value = text
        options.setdefault(bot, {})[option] = value
    for bot, chosen in options.items():
        try:
            get_bot(bot, **chosen)  # refuse a bad value here, not in the middle of a series
        except (TypeError, ValueError) as error:
            raise CommandError(f"bad options for bot {bot!r} ({json.dumps(chosen)}): {error}") from None
    return options
