"""Game records: SGF import/export and the ``tengen score`` command."""
