"""The turn (rules §4, §9, §10): phases, reaction windows, victory, match actions and how long a turn can last."""
