"""Engines the server runs itself: KataGo, installed by ``tengen engines install`` and run by one engine service
per instance (docs/engines.md)."""
