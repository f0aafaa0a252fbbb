"""Combat (rules §6): declaring and queueing attacks, the roll and its modifiers, the card language's dice rules."""
