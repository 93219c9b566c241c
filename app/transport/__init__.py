"""The transport every domain shares, which knows no domain: the hub (in-process or Redis) with fan-out, the
recent-event log, presence and clock deadlines; envelopes and the outbox; sockets, their caps, slots and
credentials; the base types of every socket's messages (``messages.py``). Nothing here imports a domain package
(tests/test_dependencies.py checks it); a domain's live part (``app/<domain>/live/``) builds on it."""
