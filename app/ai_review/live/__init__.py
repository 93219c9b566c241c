"""The review's live part: its figures to the game's sockets as they arrive."""
