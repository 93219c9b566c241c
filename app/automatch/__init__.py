"""Automatch: "play now" seeks, the rules that pair them, and the service that turns a pair into a game."""
