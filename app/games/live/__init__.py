"""The game's live part: one game's room on one instance (``room.py``), the instance's rooms (``rooms.py``)
and what acts through them. Built on app/transport; the pure game is app/games.
"""
