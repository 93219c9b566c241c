"""Ladders (docs/ladders.md): a ladder per board size and speed; players challenge up to a few places above,
and the challenger who wins takes the defender's place. ``rules.py`` is pure (who may challenge whom, and the
order after each outcome); ``service.py`` does it against the database; ``keeper.py`` settles deadlines and
finished games on every instance, each exactly once."""
