"""Bots: accounts played by programs, what they accept, the GTP bridge and the server's house bots."""
