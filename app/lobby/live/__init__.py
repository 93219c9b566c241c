"""The lobby's live part: the broadcaster every ``/ws/lobby`` socket reads, in one process or over the hub."""
