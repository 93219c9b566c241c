"""The AI review tests run the real KataGo (``katago_dir`` installs it once: tests/support/katago.py)."""

from tests.support.katago import katago_dir

__all__ = ["katago_dir"]
