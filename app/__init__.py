"""Tengen: an online Go server."""

__version__ = "0.1.0"
