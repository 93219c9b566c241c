"""The lobby: challenges, accepting them into games, and the lists players browse."""
